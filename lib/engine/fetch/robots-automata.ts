/**
 * The two automata robots.txt matching (lib/engine/fetch/robots-matcher.ts) walks a path with: a trie of literal
 * strings frozen into typed arrays, and an Aho-Corasick automaton that reports, at each position of a text, which of
 * a set of strings end there. Strings are normalized paths (lib/engine/fetch/robots-normalize.ts): every character
 * code is below 128. Typed arrays keep a compiled 500 KiB robots.txt to a few bytes per character, in few objects.
 */

/** A trie frozen into typed arrays; node 0 is the root. */
export class FrozenTrie {
  /** Node i's edges are first[i] .. first[i + 1] - 1, sorted by character. */
  private readonly first: Int32Array;
  private readonly codes: Uint8Array;
  private readonly targets: Int32Array;

  constructor(
    edges: Map<number, number>,
    readonly size: number,
  ) {
    const keys = Float64Array.from(edges.keys()).sort(); // parent * 128 + code: by parent, then character
    this.first = new Int32Array(size + 1);
    this.codes = new Uint8Array(keys.length);
    this.targets = new Int32Array(keys.length);
    for (let e = 0; e < keys.length; e++) {
      const key = keys[e];
      this.first[Math.floor(key / 128) + 1]++;
      this.codes[e] = key % 128;
      this.targets[e] = edges.get(key) as number;
    }
    for (let node = 0; node < size; node++) this.first[node + 1] += this.first[node];
  }

  /** The child of `node` by character `code`, or -1. */
  child(node: number, code: number): number {
    let lo = this.first[node];
    let hi = this.first[node + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.codes[mid];
      if (c === code) return this.targets[mid];
      if (c < code) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Calls `visit(child, code)` for each edge of `node`. */
  forEachChild(node: number, visit: (child: number, code: number) => void): void {
    for (let e = this.first[node]; e < this.first[node + 1]; e++) visit(this.targets[e], this.codes[e]);
  }
}

/** Builds a {@link FrozenTrie}: strings go in, each gets the node that spells it. */
export class TrieBuilder {
  private readonly edges = new Map<number, number>();
  private nodes = 1;

  /** The node that spells `text` (character codes below 128), added if new. */
  add(text: string): number {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const key = node * 128 + text.charCodeAt(i);
      let next = this.edges.get(key);
      if (next === undefined) {
        next = this.nodes++;
        this.edges.set(key, next);
      }
      node = next;
    }
    return node;
  }

  freeze(): FrozenTrie {
    return new FrozenTrie(this.edges, this.nodes);
  }
}

/**
 * Aho-Corasick over `pieces` (distinct, not empty; a piece's id is its index). Reading a text one character at a time
 * with {@link next}, a piece ends at the character just read exactly when the state's output ({@link outputOf}) lies
 * in the piece's range of the output tree ({@link startOf}, {@link endOf}): the tree of pieces in which a piece's parent is
 * its longest proper suffix among the pieces, numbered in depth-first order, so that a piece's range holds it and the
 * pieces it is a suffix of. One number per position then says which pieces end there, however many they are.
 */
export class PieceAutomaton {
  readonly pieceLength: Int32Array;
  /** Pieces in the output tree's depth-first order: piece id to its number, and the end of its subtree's range. */
  private readonly rangeStart: Int32Array;
  private readonly rangeEnd: Int32Array;
  private readonly trie: FrozenTrie;
  private readonly fail: Int32Array;
  /** Per state, the output-tree number of the longest piece that ends there, or -1. */
  private readonly output: Int32Array;
  /** Per output-tree number, its parent's number, or -1. */
  private readonly outputParent: Int32Array;

  constructor(pieces: readonly string[]) {
    const builder = new TrieBuilder();
    const nodes = pieces.map((piece) => builder.add(piece));
    this.trie = builder.freeze();
    const size = this.trie.size;
    this.pieceLength = Int32Array.from(pieces, (piece) => piece.length);
    const pieceAt = new Int32Array(size).fill(-1);
    nodes.forEach((node, id) => {
      pieceAt[node] = id;
    });
    // Failure links in breadth-first order (a node's link: the longest proper suffix of its string in the trie), and
    // each state's longest piece ending there (its own, or its link's).
    this.fail = new Int32Array(size);
    const longestPiece = new Int32Array(size).fill(-1);
    const order = new Int32Array(size);
    let tail = 0;
    this.trie.forEachChild(0, (child) => {
      order[tail++] = child;
    });
    for (let head = 0; head < tail; head++) {
      const node = order[head];
      longestPiece[node] = pieceAt[node] >= 0 ? pieceAt[node] : longestPiece[this.fail[node]];
      this.trie.forEachChild(node, (child, code) => {
        this.fail[child] = this.next(this.fail[node], code);
        order[tail++] = child;
      });
    }
    // The output tree: a piece's parent is the longest piece ending at its node's failure link.
    const count = pieces.length;
    const parent = Int32Array.from(nodes, (node) => longestPiece[this.fail[node]]);
    const firstChild = new Int32Array(count + 2); // children of piece k at firstChild[k + 1]..; the root is -1
    for (const p of parent) firstChild[p + 2]++;
    for (let k = 0; k <= count; k++) firstChild[k + 1] += firstChild[k];
    const childList = new Int32Array(count);
    const filled = firstChild.slice(0, count + 1);
    parent.forEach((p, id) => {
      childList[filled[p + 1]++] = id;
    });
    this.rangeStart = new Int32Array(count);
    this.rangeEnd = new Int32Array(count);
    const stack: number[] = [];
    for (let c = firstChild[0]; c < firstChild[1]; c++) stack.push(childList[c]);
    let number = 0;
    while (stack.length > 0) {
      const top = stack.pop() as number;
      if (top < 0) {
        this.rangeEnd[-top - 1] = number; // leaving piece -top - 1
        continue;
      }
      this.rangeStart[top] = number++;
      stack.push(-top - 1);
      for (let c = firstChild[top + 1]; c < firstChild[top + 2]; c++) stack.push(childList[c]);
    }
    this.output = Int32Array.from(longestPiece, (piece) => (piece >= 0 ? this.rangeStart[piece] : -1));
    this.outputParent = new Int32Array(count);
    parent.forEach((p, id) => {
      this.outputParent[this.rangeStart[id]] = p >= 0 ? this.rangeStart[p] : -1;
    });
  }

  /** Pieces in the output tree. */
  get size(): number {
    return this.pieceLength.length;
  }

  /** The state after reading character `code` in `state` (0 is the start). */
  next(state: number, code: number): number {
    let at = state;
    let child = this.trie.child(at, code);
    while (child < 0 && at !== 0) {
      at = this.fail[at];
      child = this.trie.child(at, code);
    }
    return Math.max(child, 0);
  }

  /** The output-tree number of the longest piece ending in `state`, or -1 when none does. */
  outputOf(state: number): number {
    return this.output[state];
  }

  /** Piece `piece` ends where the state's output is in [startOf(piece), endOf(piece)); startOf is its number. */
  startOf(piece: number): number {
    return this.rangeStart[piece];
  }

  endOf(piece: number): number {
    return this.rangeEnd[piece];
  }

  /** The output-tree number of the parent of the piece numbered `number` (its longest suffix among pieces), or -1. */
  parentOf(number: number): number {
    return this.outputParent[number];
  }
}

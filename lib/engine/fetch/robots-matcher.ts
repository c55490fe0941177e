/**
 * robots.txt path matching (RFC 9309 2.2.2, 2.2.3) at a cost per URL that the URL bounds, whatever the file holds.
 *
 * Patterns and the URL are compared in one spelling (lib/engine/fetch/robots-normalize.ts). A pattern is a literal
 * prefix, then literal pieces each after a `*`, perhaps anchored at the end by `$`. With `*` the only wildcard,
 * taking the left-most occurrence of each piece after the previous one decides exactly whether a pattern matches.
 * {@link PatternSet} does that for all its patterns at once, in one pass over the path:
 * - a trie of the literal prefixes, walked along the path, finds the patterns whose prefix the path starts with;
 * - the patterns' piece sequences form a second trie, whose edges are pieces: patterns that begin alike share their
 *   edges, and identical patterns are one. An edge is reached when its parent's piece (or its prefix) has matched,
 *   at some position; it matches at the first end of its piece that starts there or later, and a last piece before
 *   `$` only where the path ends;
 * - where pieces end comes from an Aho-Corasick automaton over the distinct pieces (robots-automata.ts): one number
 *   per position says which pieces end there, and a persistent segment tree over those numbers, built from the end
 *   of the path backwards, finds the first end of a piece from any position in O(log pieces).
 * For a path of n characters and a file of P distinct pieces that is O(n log P) to read the path, plus O(log P) per
 * edge reached whose piece occurs in the path: nothing is done per pattern and position, as a matcher that tries each
 * pattern in turn does, nor per piece and position. Edges reached are at most the pieces in the file, and edges of
 * patterns that begin alike are reached once. The longest matching Allow and Disallow decide, Allow winning a tie
 * (RFC 9309 2.2.2).
 */
import { type FrozenTrie, PieceAutomaton, TrieBuilder } from './robots-automata';
import { normalizeForMatch } from './robots-normalize';

/** One Allow or Disallow line: its pattern as written (trimmed, not empty) and its kind. */
export interface PatternRule {
  pattern: string;
  allow: boolean;
}

interface CompiledPattern {
  /** The precedence: octets of the normalized pattern, `$` included (RFC 9309 2.2.2: the most octets wins). */
  length: number;
  prefix: string;
  pieces: string[];
  anchored: boolean;
}

function compilePattern(raw: string): CompiledPattern {
  const dollar = raw.charCodeAt(raw.length - 1) === 36;
  const body = normalizeForMatch(dollar ? raw.slice(0, -1) : raw, true);
  const length = body.length + (dollar ? 1 : 0);
  let star = body.indexOf('*');
  if (star < 0) return { length, prefix: body, pieces: [], anchored: dollar };
  const pieces: string[] = [];
  const prefix = body.slice(0, star);
  while (star >= 0) {
    const end = body.indexOf('*', star + 1);
    const piece = end < 0 ? body.slice(star + 1) : body.slice(star + 1, end);
    if (piece !== '') pieces.push(piece); // runs of `*` are one `*`
    star = end;
  }
  // `*$` ends where the path does, as every match can: a trailing `*` drops the anchor.
  return { length, prefix, pieces, anchored: dollar && !body.endsWith('*') };
}

const NONE = -1;

/** Per node of a trie, the best Allow and Disallow lengths of the patterns that end there. */
function lengthsPerNode(size: number): { allow: Int32Array; disallow: Int32Array } {
  return { allow: new Int32Array(size).fill(NONE), disallow: new Int32Array(size).fill(NONE) };
}

/** The Allow and Disallow patterns of the groups a crawler obeys, compiled; see the module comment. */
export class PatternSet {
  /** The literal prefixes; per node, the patterns without pieces that end there (anchored or not). */
  private readonly prefixes: FrozenTrie;
  private readonly plain: { allow: Int32Array; disallow: Int32Array };
  private readonly exact: { allow: Int32Array; disallow: Int32Array };

  /**
   * The piece trie's edges: the piece each waits for, whether it is a last piece before `$`, the lengths of the
   * patterns it completes, and its child edges (edges first[k] .. first[k + 1] - 1, where k is the edge's id plus the
   * number of prefix nodes; k below that is a prefix node, whose children are the first edges of its patterns).
   */
  private readonly edgePiece: Int32Array;
  private readonly edgeAnchored: Uint8Array;
  private readonly edgeLengths: { allow: Int32Array; disallow: Int32Array };
  private readonly firstChild: Int32Array;
  private readonly children: Int32Array;
  private readonly automaton: PieceAutomaton;

  /** Scratch of one match, grown to the longest path seen: see {@link allows}. */
  private leaf = new Int32Array(0);
  private version = new Int32Array(0);
  private bucketHead = new Int32Array(0);
  private treeLeft = new Int32Array(1);
  private treeRight = new Int32Array(1);
  private treeMin = new Int32Array(1);
  private treeNodes = 1;
  private readonly nextInBucket: Int32Array;
  private readonly occurs: Int32Array;
  private stamp = 0;
  private steps = 0;
  private bestAllow = NONE;
  private bestDisallow = NONE;

  /** Distinct patterns kept. */
  readonly size: number;

  constructor(rules: readonly PatternRule[]) {
    const prefixBuilder = new TrieBuilder();
    const pieceIds = new Map<string, number>();
    const pieces: string[] = [];
    const compiled = rules.map((rule) => {
      const pattern = compilePattern(rule.pattern);
      const ids = pattern.pieces.map((piece) => {
        let id = pieceIds.get(piece);
        if (id === undefined) {
          id = pieces.length;
          pieceIds.set(piece, id);
          pieces.push(piece);
        }
        return id;
      });
      return {
        allow: rule.allow,
        length: pattern.length,
        anchored: pattern.anchored,
        prefixNode: prefixBuilder.add(pattern.prefix),
        ids,
      };
    });
    this.prefixes = prefixBuilder.freeze();
    const prefixCount = this.prefixes.size;
    this.plain = lengthsPerNode(prefixCount);
    this.exact = lengthsPerNode(prefixCount);
    this.automaton = new PieceAutomaton(pieces);

    // The piece trie: an edge per (parent, piece, last before `$`), parents numbered as in `firstChild`.
    const edgeOf = new Map<number, number>();
    const edgeParent: number[] = [];
    const piece: number[] = [];
    const anchored: number[] = [];
    const allow: number[] = [];
    const disallow: number[] = [];
    const kinds = 2 * pieces.length;
    for (const pattern of compiled) {
      const ids = pattern.ids;
      if (ids.length === 0) {
        const ends = pattern.anchored ? this.exact : this.plain;
        const lengths = pattern.allow ? ends.allow : ends.disallow;
        lengths[pattern.prefixNode] = Math.max(lengths[pattern.prefixNode], pattern.length);
        continue;
      }
      let parent = pattern.prefixNode;
      let edge = NONE;
      for (let i = 0; i < ids.length; i++) {
        const last = i === ids.length - 1 && pattern.anchored ? 1 : 0;
        const key = parent * kinds + 2 * ids[i] + last;
        edge = edgeOf.get(key) ?? NONE;
        if (edge === NONE) {
          edge = edgeParent.length;
          edgeOf.set(key, edge);
          edgeParent.push(parent);
          piece.push(ids[i]);
          anchored.push(last);
          allow.push(NONE);
          disallow.push(NONE);
        }
        parent = prefixCount + edge;
      }
      const lengths = pattern.allow ? allow : disallow;
      lengths[edge] = Math.max(lengths[edge], pattern.length);
    }
    const edges = edgeParent.length;
    // A pattern is its last edge, or its prefix node and anchor when it has no pieces.
    let size = 0;
    for (let e = 0; e < edges; e++) if (allow[e] !== NONE || disallow[e] !== NONE) size++;
    for (const ends of [this.plain, this.exact]) {
      for (let k = 0; k < prefixCount; k++) if (ends.allow[k] !== NONE || ends.disallow[k] !== NONE) size++;
    }
    this.size = size;
    this.edgePiece = Int32Array.from(piece);
    this.edgeAnchored = Uint8Array.from(anchored);
    this.edgeLengths = { allow: Int32Array.from(allow), disallow: Int32Array.from(disallow) };
    this.firstChild = new Int32Array(prefixCount + edges + 1);
    for (const parent of edgeParent) this.firstChild[parent + 1]++;
    for (let k = 0; k < prefixCount + edges; k++) this.firstChild[k + 1] += this.firstChild[k];
    this.children = new Int32Array(edges);
    const filled = this.firstChild.slice(0, prefixCount + edges);
    edgeParent.forEach((parent, edge) => {
      this.children[filled[parent]++] = edge;
    });

    this.nextInBucket = new Int32Array(edges);
    this.occurs = new Int32Array(this.automaton.size);
  }

  /** Work of the last {@link allows}: characters read, tree nodes made and visited, edges reached (for tests, bench). */
  get lastSteps(): number {
    return this.steps;
  }

  /** Whether the longest matching pattern (Allow on a tie) allows `pathAndQuery`; true when none matches. */
  allows(pathAndQuery: string): boolean {
    const path = normalizeForMatch(pathAndQuery, false);
    const n = path.length;
    this.stamp = (this.stamp + 1) | 0;
    this.steps = 0;
    this.bestAllow = NONE;
    this.bestDisallow = NONE;
    if (this.nextInBucket.length > 0) this.readPieces(path);
    const prefixCount = this.prefixes.size;
    let prefixNode = 0; // NONE once the path has left the prefix trie
    for (let i = 0; i <= n; i++) {
      if (prefixNode !== NONE) {
        // The patterns whose literal prefix is path[0, i).
        this.found(this.plain.allow[prefixNode], this.plain.disallow[prefixNode]);
        if (i === n) this.found(this.exact.allow[prefixNode], this.exact.disallow[prefixNode]);
        else this.reach(prefixNode, i, n);
        if (i < n) prefixNode = this.prefixes.child(prefixNode, path.charCodeAt(i));
      }
      if (i === n || this.nextInBucket.length === 0) {
        if (prefixNode === NONE) break;
        continue;
      }
      // The edges whose piece first ends at i: their patterns match there, their children are reached.
      for (let edge = this.bucketHead[i]; edge !== NONE; edge = this.nextInBucket[edge]) {
        this.found(this.edgeLengths.allow[edge], this.edgeLengths.disallow[edge]);
        this.reach(prefixCount + edge, i + 1, n);
      }
    }
    return this.bestAllow >= this.bestDisallow;
  }

  /**
   * Reads the path through the piece automaton: per position the output-tree number of the pieces ending there
   * (`leaf`), the pieces that occur anywhere (`occurs`), and the persistent segment tree's versions: version i holds,
   * per output number, the first position at or after i where it is the output (`treeMin` of a node is the least).
   */
  private readPieces(path: string): void {
    const n = path.length;
    const automaton = this.automaton;
    if (this.leaf.length < n) {
      this.leaf = new Int32Array(n);
      this.version = new Int32Array(n + 1);
      this.bucketHead = new Int32Array(n);
    }
    let state = 0;
    for (let i = 0; i < n; i++) {
      state = automaton.next(state, path.charCodeAt(i));
      const output = automaton.outputOf(state);
      this.leaf[i] = output;
      this.bucketHead[i] = NONE;
      this.steps++;
      // A piece occurs when one it is a suffix of does: mark up the output tree, to the first one marked already.
      for (let k = output; k >= 0 && this.occurs[k] !== this.stamp; k = automaton.parentOf(k)) {
        this.occurs[k] = this.stamp;
        this.steps++;
      }
    }
    const pieces = automaton.size;
    let depth = 1;
    while (1 << (depth - 1) < pieces) depth++;
    const capacity = 1 + n * depth;
    if (this.treeMin.length < capacity) {
      this.treeLeft = new Int32Array(capacity);
      this.treeRight = new Int32Array(capacity);
      this.treeMin = new Int32Array(capacity);
    }
    this.treeMin[0] = n; // node 0: the empty tree, no position
    this.treeNodes = 1;
    this.version[n] = 0;
    for (let i = n - 1; i >= 0; i--) {
      this.version[i] = this.leaf[i] < 0 ? this.version[i + 1] : this.insert(this.version[i + 1], this.leaf[i], i, pieces);
    }
  }

  /** A copy of tree `root` whose leaf `index` (of [0, size)) holds `position`, smaller than every position in it. */
  private insert(root: number, index: number, position: number, size: number): number {
    const top = this.treeNodes;
    let old = root;
    let lo = 0;
    let hi = size;
    for (;;) {
      const node = this.treeNodes++;
      this.treeMin[node] = position;
      this.steps++;
      if (hi - lo === 1) {
        this.treeLeft[node] = 0;
        this.treeRight[node] = 0;
        return top;
      }
      const mid = (lo + hi) >> 1;
      if (index < mid) {
        this.treeLeft[node] = node + 1;
        this.treeRight[node] = this.treeRight[old];
        old = this.treeLeft[old];
        hi = mid;
      } else {
        this.treeLeft[node] = this.treeLeft[old];
        this.treeRight[node] = node + 1;
        old = this.treeRight[old];
        lo = mid;
      }
    }
  }

  /** The least position held in tree `node` (covering [lo, hi)) at the leaves of [from, to); `none` if none. */
  private firstIn(node: number, lo: number, hi: number, from: number, to: number, none: number): number {
    this.steps++;
    if (node === 0 || to <= lo || hi <= from) return none;
    if (from <= lo && hi <= to) return this.treeMin[node];
    const mid = (lo + hi) >> 1;
    const left = this.firstIn(this.treeLeft[node], lo, mid, from, to, none);
    const right = this.firstIn(this.treeRight[node], mid, hi, from, to, none);
    return Math.min(left, right);
  }

  private found(allowLength: number, disallowLength: number): void {
    if (allowLength > this.bestAllow) this.bestAllow = allowLength;
    if (disallowLength > this.bestDisallow) this.bestDisallow = disallowLength;
  }

  /**
   * The child edges of `parent` (see `firstChild`) are reached at position `at` of a path of `n` characters: each
   * goes to the bucket of the first position where its piece ends having started at `at` or later; a last piece
   * before `$` matches now or never.
   */
  private reach(parent: number, at: number, n: number): void {
    const automaton = this.automaton;
    for (let c = this.firstChild[parent]; c < this.firstChild[parent + 1]; c++) {
      const edge = this.children[c];
      const piece = this.edgePiece[edge];
      const start = automaton.startOf(piece);
      this.steps++;
      if (this.occurs[start] !== this.stamp) continue;
      const from = at + automaton.pieceLength[piece] - 1; // the first position it could end at
      if (from >= n) continue;
      if (this.edgeAnchored[edge]) {
        const last = this.leaf[n - 1];
        if (last >= start && last < automaton.endOf(piece))
          this.found(this.edgeLengths.allow[edge], this.edgeLengths.disallow[edge]);
        continue;
      }
      const end = this.firstIn(this.version[from], 0, automaton.size, start, automaton.endOf(piece), n);
      if (end < n) {
        this.nextInBucket[edge] = this.bucketHead[end];
        this.bucketHead[end] = edge;
      }
    }
  }
}

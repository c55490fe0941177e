import type { FrontierEntry } from '../types';
import { type AddResult, type Frontier, badState, checkCapacity, checkEntry } from './types';

/** A queued entry plus its insertion number and its positions in both heaps. */
interface Node {
  url: string;
  score: number;
  depth: number;
  from: string | undefined;
  /** Insertion order: among equal scores the earlier entry ranks higher. */
  seq: number;
  maxPos: number;
  minPos: number;
}

/** The strict total order of the frontier: higher score first, then earlier insertion. */
function ranksAbove(a: Node, b: Node): boolean {
  return a.score > b.score || (a.score === b.score && a.seq < b.seq);
}

/**
 * A binary heap of nodes that records each node's index in the node itself, so that any node can be moved or
 * removed in O(log n). `isMax` selects the best-first heap (root = highest rank) or the worst-first heap.
 */
class IndexedHeap {
  readonly items: Node[] = [];
  constructor(private readonly isMax: boolean) {}

  get length(): number {
    return this.items.length;
  }

  /** Whether `a` belongs nearer the root than `b`. */
  private before(a: Node, b: Node): boolean {
    return this.isMax ? ranksAbove(a, b) : ranksAbove(b, a);
  }

  private place(node: Node, i: number): void {
    this.items[i] = node;
    if (this.isMax) node.maxPos = i;
    else node.minPos = i;
  }

  pos(node: Node): number {
    return this.isMax ? node.maxPos : node.minPos;
  }

  push(node: Node): void {
    this.items.push(node);
    this.place(node, this.items.length - 1);
    this.siftUp(this.items.length - 1);
  }

  /** Removes the node at index i and returns it. */
  removeAt(i: number): Node {
    const items = this.items;
    const node = items[i];
    const last = items.pop()!;
    if (i < items.length) {
      this.place(last, i);
      this.fix(i);
    }
    return node;
  }

  /** Restores the heap property around index i after its node's key changed either way. */
  fix(i: number): void {
    if (i > 0 && this.before(this.items[i], this.items[(i - 1) >> 1])) this.siftUp(i);
    else this.siftDown(i);
  }

  /** Floyd's O(n) heap construction over the current items. */
  heapify(): void {
    for (let i = 0; i < this.items.length; i++) this.place(this.items[i], i);
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(i: number): void {
    const items = this.items;
    const node = items[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = items[p];
      if (!this.before(node, parent)) break;
      this.place(parent, i);
      i = p;
    }
    this.place(node, i);
  }

  private siftDown(i: number): void {
    const items = this.items;
    const n = items.length;
    const node = items[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.before(items[r], items[l]) ? r : l;
      if (!this.before(items[c], node)) break;
      this.place(items[c], i);
      i = c;
    }
    this.place(node, i);
  }
}

/** Saved form of a {@link PriorityFrontier}: plain JSON. Entries are tuples [url, score, depth, seq, from|null]. */
export type PriorityFrontierState = {
  kind: 'priority';
  version: 1;
  capacity: number;
  nextSeq: number;
  entries: [string, number, number, number, string | null][];
  /** URLs that entered earlier and are no longer queued (the queued ones are in `entries`). */
  left: string[];
};

/** Optional behaviour of a {@link PriorityFrontier}. */
export interface PriorityFrontierOptions {
  /** Called with each entry evicted to make room (e.g. for statistics). */
  onEvict?: (entry: FrontierEntry) => void;
}

function toEntry(node: Node): FrontierEntry {
  const entry: FrontierEntry = { url: node.url, score: node.score, depth: node.depth };
  if (node.from !== undefined) entry.from = node.from;
  return entry;
}

/**
 * The bounded frontier of Best-N-First (MAX_BUFFER in Pant, Srinivasan & Menczer 2002): a priority queue of URLs that
 * can give up both its best and its worst entry.
 *
 * Rules:
 * - **Order.** Higher score first; equal scores in insertion order (earlier first), so runs are deterministic.
 *   A raised entry keeps its original insertion position among equal scores.
 * - **At most once.** A URL enters at most once: the frontier remembers every URL that ever entered (popped, evicted
 *   and removed ones included) and answers `'kept'` to later sightings of those. A rejected URL never entered and is
 *   not remembered.
 * - **Raise.** A later sighting of a URL that is still queued raises its score to the maximum of the sightings; it
 *   never lowers it. Depth and `from` stay those of the first sighting.
 * - **Bound.** Never more than `capacity` entries. When full, a new URL that ranks above the current worst entry evicts
 *   it (`'evicted-other'`); otherwise it is `'rejected'`. Since a newcomer ranks below older entries with the same
 *   score, ties keep the older entry.
 *
 * Cost: add, raise, popMax and evictions are O(log n); peekMax, peekMin, has, hasSeen and size are O(1). It keeps
 * two indexed binary heaps (best-first and worst-first) over the same nodes, each node knowing its index in both,
 * plus a Map url -> node and a Set of every URL that ever entered.
 */
export class PriorityFrontier implements Frontier {
  readonly capacity: number;
  private readonly max = new IndexedHeap(true);
  private readonly min = new IndexedHeap(false);
  private readonly queued = new Map<string, Node>();
  private readonly seen = new Set<string>();
  private nextSeq = 0;
  private readonly onEvict?: (entry: FrontierEntry) => void;

  /** @param capacity most entries queued at once (MAX_BUFFER), a positive integer. */
  constructor(capacity: number, options: PriorityFrontierOptions = {}) {
    this.capacity = checkCapacity(capacity);
    this.onEvict = options.onEvict;
  }

  /** URLs currently queued. */
  get size(): number {
    return this.queued.size;
  }

  /** URLs that ever entered (queued now or gone). */
  get seenCount(): number {
    return this.seen.size;
  }

  /**
   * Offers an entry; see the class rules and {@link AddResult}.
   * @throws TypeError for an entry without a URL, with a non-finite score or a bad depth.
   */
  add(entry: FrontierEntry): AddResult {
    checkEntry(entry);
    const existing = this.queued.get(entry.url);
    if (existing) {
      if (entry.score <= existing.score) return 'kept';
      existing.score = entry.score;
      this.max.fix(existing.maxPos);
      this.min.fix(existing.minPos);
      return 'raised';
    }
    if (this.seen.has(entry.url)) return 'kept';

    let result: AddResult = 'added';
    if (this.queued.size >= this.capacity) {
      const worst = this.min.items[0];
      // A newcomer gets the largest sequence number, so with an equal score it ranks below the worst: rejected.
      if (!(entry.score > worst.score)) return 'rejected';
      this.detach(worst);
      this.onEvict?.(toEntry(worst));
      result = 'evicted-other';
    }
    const node: Node = {
      url: entry.url,
      score: entry.score,
      depth: entry.depth,
      from: entry.from,
      seq: this.nextSeq++,
      maxPos: -1,
      minPos: -1,
    };
    this.queued.set(node.url, node);
    this.seen.add(node.url);
    this.max.push(node);
    this.min.push(node);
    return result;
  }

  /**
   * Sets the score of a queued URL to any value, up or down (for strategies that re-rank their frontier).
   * @returns false if the URL is not queued.
   * @throws TypeError for a non-finite score.
   */
  setScore(url: string, score: number): boolean {
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new TypeError(`frontier score must be a finite number, got ${String(score)}`);
    }
    const node = this.queued.get(url);
    if (!node) return false;
    node.score = score;
    this.max.fix(node.maxPos);
    this.min.fix(node.minPos);
    return true;
  }

  /** Removes a queued URL (it stays remembered as seen). @returns false if it was not queued. */
  remove(url: string): boolean {
    const node = this.queued.get(url);
    if (!node) return false;
    this.detach(node);
    return true;
  }

  /** Removes and returns the best entry, or undefined when empty. */
  popMax(): FrontierEntry | undefined {
    if (this.max.length === 0) return undefined;
    const node = this.max.items[0];
    this.detach(node);
    return toEntry(node);
  }

  /** Removes and returns the worst entry, or undefined when empty. */
  popMin(): FrontierEntry | undefined {
    if (this.min.length === 0) return undefined;
    const node = this.min.items[0];
    this.detach(node);
    return toEntry(node);
  }

  /** Removes and returns the best `n` entries, best first (fewer if fewer are queued). O(n log size). */
  popTop(n: number): FrontierEntry[] {
    const out: FrontierEntry[] = [];
    const k = Math.min(Math.max(0, Math.floor(n)), this.size);
    for (let i = 0; i < k; i++) out.push(this.popMax()!);
    return out;
  }

  /** The best entry without removing it. */
  peekMax(): FrontierEntry | undefined {
    return this.max.length ? toEntry(this.max.items[0]) : undefined;
  }

  /** The worst entry (the next to be evicted) without removing it. */
  peekMin(): FrontierEntry | undefined {
    return this.min.length ? toEntry(this.min.items[0]) : undefined;
  }

  /** Whether `url` is queued right now. */
  has(url: string): boolean {
    return this.queued.has(url);
  }

  /** Score of a queued URL, or undefined. */
  scoreOf(url: string): number | undefined {
    return this.queued.get(url)?.score;
  }

  /** Whether `url` ever entered (queued now, or popped, evicted or removed before). */
  hasSeen(url: string): boolean {
    return this.seen.has(url);
  }

  /** Copies of the queued entries, best first. O(n log n): meant for display and debugging, not for every round. */
  entries(): FrontierEntry[] {
    return [...this.max.items].sort((a, b) => (ranksAbove(a, b) ? -1 : 1)).map(toEntry);
  }

  /** Plain-JSON snapshot; {@link PriorityFrontier.fromJSON} rebuilds a frontier that behaves identically. */
  toJSON(): PriorityFrontierState {
    const left: string[] = [];
    for (const url of this.seen) if (!this.queued.has(url)) left.push(url);
    return {
      kind: 'priority',
      version: 1,
      capacity: this.capacity,
      nextSeq: this.nextSeq,
      entries: this.max.items.map((n) => [n.url, n.score, n.depth, n.seq, n.from ?? null]),
      left,
    };
  }

  /**
   * Rebuilds a frontier from {@link PriorityFrontier.toJSON} output (possibly after a JSON round trip). O(n).
   * @throws TypeError naming the problem if `state` is malformed.
   */
  static fromJSON(state: unknown, options: PriorityFrontierOptions = {}): PriorityFrontier {
    const bad = (why: string) => badState('priority', why);
    if (state === null || typeof state !== 'object') bad('not an object');
    const s = state as Partial<PriorityFrontierState>;
    if (s.kind !== 'priority' || s.version !== 1) bad('wrong kind or version');
    if (!Number.isSafeInteger(s.nextSeq) || s.nextSeq! < 0) bad('nextSeq');
    if (!Array.isArray(s.entries) || !Array.isArray(s.left)) bad('entries and left must be arrays');
    let capacity: number;
    try {
      capacity = checkCapacity(s.capacity);
    } catch {
      return bad('capacity');
    }
    if (s.entries!.length > capacity) bad(`${s.entries!.length} entries exceed capacity ${capacity}`);
    const f = new PriorityFrontier(capacity, options);
    f.nextSeq = s.nextSeq!;
    const seqs = new Set<number>();
    for (const raw of s.entries!) {
      if (!Array.isArray(raw) || raw.length !== 5) bad('entry is not a 5-tuple');
      const [url, score, depth, seq, from] = raw;
      try {
        checkEntry({ url, score, depth, from: from ?? undefined });
      } catch (e) {
        bad((e as Error).message);
      }
      if (!Number.isSafeInteger(seq) || seq < 0 || seq >= f.nextSeq || seqs.has(seq)) bad(`seq of ${url}`);
      if (f.queued.has(url)) bad(`duplicate url ${url}`);
      seqs.add(seq);
      const node: Node = { url, score, depth, from: from ?? undefined, seq, maxPos: -1, minPos: -1 };
      f.queued.set(url, node);
      f.seen.add(url);
      f.max.items.push(node);
      f.min.items.push(node);
    }
    for (const url of s.left!) {
      if (typeof url !== 'string') bad('left holds a non-string');
      if (f.queued.has(url)) bad(`${url} is both queued and left`);
      f.seen.add(url);
    }
    f.max.heapify();
    f.min.heapify();
    return f;
  }

  /** Takes a node out of both heaps and the queued map; it stays in `seen`. */
  private detach(node: Node): void {
    this.max.removeAt(node.maxPos);
    this.min.removeAt(node.minPos);
    this.queued.delete(node.url);
  }
}

import type { FrontierEntry } from '../types';
import { type AddResult, badState, checkCapacity, checkEntry } from './types';

/**
 * Per-slot data of the queued entries, struct-of-arrays: every queued URL owns a slot (an index), and its score and
 * insertion number live in typed arrays. Heap comparisons then read two dense arrays instead of chasing one object
 * per entry across the heap, which matters at 100,000 entries (cache misses dominate). Grows by doubling, so a
 * large capacity costs nothing until it is used.
 */
class Slots {
  score: Float64Array;
  /** Insertion order: among equal scores the earlier entry ranks higher. */
  seq: Float64Array;
  depth: Float64Array;
  url: (string | undefined)[];
  from: (string | undefined)[];
  private free: number[] = [];
  private used = 0;

  constructor(private allocated: number) {
    this.score = new Float64Array(allocated);
    this.seq = new Float64Array(allocated);
    this.depth = new Float64Array(allocated);
    this.url = new Array(allocated);
    this.from = new Array(allocated);
  }

  get length(): number {
    return this.allocated;
  }

  /** A free slot; the caller grows first if none is left (see {@link PriorityFrontier}). */
  take(): number {
    return this.free.length ? this.free.pop()! : this.used++;
  }

  release(slot: number): void {
    this.url[slot] = undefined;
    this.from[slot] = undefined;
    this.free.push(slot);
  }

  hasRoom(): boolean {
    return this.free.length > 0 || this.used < this.allocated;
  }

  grow(to: number): void {
    const copy = (a: Float64Array) => {
      const b = new Float64Array(to);
      b.set(a);
      return b;
    };
    this.score = copy(this.score);
    this.seq = copy(this.seq);
    this.depth = copy(this.depth);
    this.url.length = to;
    this.from.length = to;
    this.allocated = to;
  }
}

/**
 * A binary heap of slots that records each slot's index in the heap, so that any slot can be moved or removed in
 * O(log n). `isMax` selects the best-first heap (root = highest rank) or the worst-first heap.
 */
class IndexedHeap {
  heap: Int32Array;
  /** pos[slot] = index of the slot in `heap`. */
  pos: Int32Array;
  length = 0;

  constructor(
    private readonly slots: Slots,
    private readonly isMax: boolean,
  ) {
    this.heap = new Int32Array(slots.length);
    this.pos = new Int32Array(slots.length);
  }

  grow(to: number): void {
    const heap = new Int32Array(to);
    heap.set(this.heap);
    const pos = new Int32Array(to);
    pos.set(this.pos);
    this.heap = heap;
    this.pos = pos;
  }

  /** Whether slot `a` belongs nearer the root than slot `b`: higher score, then earlier insertion (or reversed). */
  before(a: number, b: number): boolean {
    const score = this.slots.score;
    const sa = score[a];
    const sb = score[b];
    if (sa !== sb) return this.isMax ? sa > sb : sa < sb;
    const seq = this.slots.seq;
    return this.isMax ? seq[a] < seq[b] : seq[a] > seq[b];
  }

  top(): number {
    return this.heap[0];
  }

  push(slot: number): void {
    const i = this.length++;
    this.heap[i] = slot;
    this.pos[slot] = i;
    this.siftUp(i);
  }

  /** Removes a slot from the heap. */
  remove(slot: number): void {
    const i = this.pos[slot];
    const last = this.heap[--this.length];
    if (i < this.length) {
      this.heap[i] = last;
      this.pos[last] = i;
      this.fix(last);
    }
  }

  /** Restores the heap property around a slot whose key changed either way. */
  fix(slot: number): void {
    const i = this.pos[slot];
    if (i > 0 && this.before(slot, this.heap[(i - 1) >> 1])) this.siftUp(i);
    else this.siftDown(i);
  }

  /** Floyd's O(n) heap construction over heap[0..length). */
  heapify(): void {
    for (let i = 0; i < this.length; i++) this.pos[this.heap[i]] = i;
    for (let i = (this.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(i: number): void {
    const heap = this.heap;
    const pos = this.pos;
    const slot = heap[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = heap[p];
      if (!this.before(slot, parent)) break;
      heap[i] = parent;
      pos[parent] = i;
      i = p;
    }
    heap[i] = slot;
    pos[slot] = i;
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const pos = this.pos;
    const n = this.length;
    const slot = heap[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.before(heap[r], heap[l]) ? r : l;
      const child = heap[c];
      if (!this.before(child, slot)) break;
      heap[i] = child;
      pos[child] = i;
      i = c;
    }
    heap[i] = slot;
    pos[slot] = i;
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

/** Entries beyond `n` that {@link PriorityFrontier.best} visits in rank order before it scans the rest. */
const RANK_WALK_EXTRA = 16;

/**
 * The bounded frontier of Best-N-First (MAX_BUFFER in Pant, Srinivasan & Menczer 2002): a priority queue of URLs that
 * can give up both its best and its worst entry.
 *
 * Rules:
 * - **Order.** Higher score first; equal scores in insertion order (earlier first), so runs are deterministic.
 *   A raised entry keeps its original insertion position among equal scores.
 * - **At most once.** A URL is queued at most once and handed out at most once: the frontier remembers every URL that
 *   was popped or removed and answers `'kept'` to later sightings of those. An evicted URL is forgotten and may enter
 *   again when sighted later: it was dropped for lack of room, not judged, and remembering it starves crawls in a closed
 *   web (the lab saw Best-N-First run out of links at 737-1,309 of 3,540 DocWeb pages). A rejected URL never entered.
 * - **Raise.** A later sighting of a URL that is still queued raises its score to the maximum of the sightings; it
 *   never lowers it. Depth and `from` stay those of the first sighting.
 * - **Bound.** Never more than `capacity` entries. When full, a new URL that ranks above the current worst entry evicts
 *   it (`'evicted-other'`); otherwise it is `'rejected'`. Since a newcomer ranks below older entries with the same
 *   score, ties keep the older entry.
 *
 * Cost: add, raise, popMax and evictions are O(log n); peekMax, peekMin, has, hasSeen and size are O(1). It keeps
 * two indexed binary heaps (best-first and worst-first) over the same slots, each slot knowing its index in both,
 * plus a Map url -> slot and a Set of every URL that ever entered. Measured (bench/frontier.ts, 100,000 URLs of
 * ~70 characters): about 80 bytes per queued entry on top of the URL string itself (~100 bytes). The seen-set grows
 * with every URL handed out (about the number of pages fetched), not with every URL ever sighted.
 */
export class PriorityFrontier {
  readonly capacity: number;
  private readonly slots: Slots;
  private readonly max: IndexedHeap;
  private readonly min: IndexedHeap;
  private readonly queued = new Map<string, number>();
  private readonly seen = new Set<string>();
  private nextSeq = 0;
  /** Scratch space of {@link best}'s walk: its candidate heap, and the walk that last visited each heap position. */
  private open = new Int32Array(0);
  private visited = new Int32Array(0);
  private walks = 0;
  private readonly onEvict?: (entry: FrontierEntry) => void;

  /** @param capacity most entries queued at once (MAX_BUFFER), a positive integer. */
  constructor(capacity: number, options: PriorityFrontierOptions = {}) {
    this.capacity = checkCapacity(capacity);
    this.onEvict = options.onEvict;
    // Start small and double: a 100,000-entry MAX_BUFFER costs nothing until it fills.
    this.slots = new Slots(Math.min(this.capacity, 64));
    this.max = new IndexedHeap(this.slots, true);
    this.min = new IndexedHeap(this.slots, false);
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
    if (existing !== undefined) {
      if (entry.score <= this.slots.score[existing]) return 'kept';
      this.rescore(existing, entry.score);
      return 'raised';
    }
    if (this.seen.has(entry.url)) return 'kept';

    let result: AddResult = 'added';
    if (this.queued.size >= this.capacity) {
      const worst = this.min.top();
      // A newcomer gets the largest sequence number, so with an equal score it ranks below the worst: rejected.
      if (!(entry.score > this.slots.score[worst])) return 'rejected';
      const evicted = this.onEvict ? this.entryAt(worst) : undefined;
      this.seen.delete(this.slots.url[worst]!);
      this.detach(worst);
      if (evicted) this.onEvict!(evicted);
      result = 'evicted-other';
    }
    this.insert(entry.url, entry.score, entry.depth, entry.from, this.nextSeq++);
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
    const slot = this.queued.get(url);
    if (slot === undefined) return false;
    this.rescore(slot, score);
    return true;
  }

  /** Removes a queued URL (it stays remembered as seen). @returns false if it was not queued. */
  remove(url: string): boolean {
    const slot = this.queued.get(url);
    if (slot === undefined) return false;
    this.detach(slot);
    return true;
  }

  /** Removes and returns the best entry, or undefined when empty. */
  popMax(): FrontierEntry | undefined {
    if (this.max.length === 0) return undefined;
    const slot = this.max.top();
    const entry = this.entryAt(slot);
    this.detach(slot);
    return entry;
  }

  /** Removes and returns the worst entry, or undefined when empty. */
  popMin(): FrontierEntry | undefined {
    if (this.min.length === 0) return undefined;
    const slot = this.min.top();
    const entry = this.entryAt(slot);
    this.detach(slot);
    return entry;
  }

  /** Removes and returns the best `n` entries, best first (fewer if fewer are queued). O(n log size). */
  popTop(n: number): FrontierEntry[] {
    const out: FrontierEntry[] = [];
    const k = Math.min(Math.max(0, Math.floor(n)), this.size);
    for (let i = 0; i < k; i++) out.push(this.popMax()!);
    return out;
  }

  /**
   * Up to `n` queued entries that `accept` takes, best first, without removing them: the n best accepted entries.
   * The crawl loop uses it to draw from the best URLs whose site may be contacted now, and most of its calls find
   * few or none (their sites rest), so it works in two steps. First a best-first walk of the heap, over at most
   * `n` + {@link RANK_WALK_EXTRA} entries (O(v log v) for v visited); when that finds `n`, or visited everything,
   * that is the answer. Otherwise every entry not visited ranks below those visited: they are offered to `accept` in
   * heap order (no ordering work) and only the ones it takes are ranked. `accept` must be a pure test (it may be
   * asked about any queued entry, in any order).
   */
  best(n: number, accept: (url: string) => boolean): FrontierEntry[] {
    const out: FrontierEntry[] = [];
    const k = Math.floor(n);
    const max = this.max;
    const length = max.length;
    if (!(k > 0) || length === 0) return out;
    const url = this.slots.url;
    const { score, seq } = this.slots;
    const heap = max.heap;
    // A small max-heap of positions in `max.heap`: the candidates, i.e. children of the entries visited so far. It
    // never holds more than one position more than were visited; kept between calls (no allocation per walk).
    if (this.open.length < length + 1) {
      this.open = new Int32Array(Math.max(64, 2 * length));
      this.visited = new Int32Array(this.open.length);
    }
    const open = this.open;
    const visited = this.visited;
    const stamp = (this.walks = (this.walks + 1) | 0) || (this.walks = 1);
    // Position a holds a better entry than position b: higher score, then earlier insertion (IndexedHeap.before).
    const better = (a: number, b: number): boolean => {
      const sa = score[heap[a]];
      const sb = score[heap[b]];
      return sa !== sb ? sa > sb : seq[heap[a]] < seq[heap[b]];
    };
    let size = 1;
    open[0] = 0;
    let budget = Math.min(length, k + RANK_WALK_EXTRA);
    while (size > 0 && out.length < k && budget > 0) {
      budget--;
      const pos = open[0];
      const last = open[--size];
      if (size > 0) {
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= size) break;
          const c = l + 1 < size && better(open[l + 1], open[l]) ? l + 1 : l;
          if (!better(open[c], last)) break;
          open[i] = open[c];
          i = c;
        }
        open[i] = last;
      }
      visited[pos] = stamp;
      const slot = heap[pos];
      if (accept(url[slot]!)) out.push(this.entryAt(slot));
      for (let child = 2 * pos + 1; child <= 2 * pos + 2 && child < length; child++) {
        let i = size++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (!better(child, open[parent])) break;
          open[i] = open[parent];
          i = parent;
        }
        open[i] = child;
      }
    }
    if (out.length >= k || size === 0) return out;
    // The rest: every position not visited (all rank below the visited ones), the accepted ones ranked.
    const taken: number[] = [];
    for (let pos = 0; pos < length; pos++) {
      if (visited[pos] === stamp) continue;
      const slot = heap[pos];
      if (accept(url[slot]!)) taken.push(slot);
    }
    const need = k - out.length;
    if (need === 1 && taken.length > 0) {
      let bestSlot = taken[0];
      for (let i = 1; i < taken.length; i++) {
        const s = taken[i];
        if (score[s] > score[bestSlot] || (score[s] === score[bestSlot] && seq[s] < seq[bestSlot])) bestSlot = s;
      }
      out.push(this.entryAt(bestSlot));
      return out;
    }
    taken.sort((a, b) => score[b] - score[a] || seq[a] - seq[b]);
    for (let i = 0; i < taken.length && i < need; i++) out.push(this.entryAt(taken[i]));
    return out;
  }

  /**
   * Every queued entry that `accept` takes, best first, without removing them: what {@link best} gives for an `n` as
   * large as the frontier, in one scan (`accept` is asked once per entry, in heap order) and a sort of the accepted.
   */
  ranked(accept: (url: string) => boolean): FrontierEntry[] {
    const { score, seq, url } = this.slots;
    const heap = this.max.heap;
    const taken: number[] = [];
    for (let pos = 0; pos < this.max.length; pos++) {
      const slot = heap[pos];
      if (accept(url[slot]!)) taken.push(slot);
    }
    taken.sort((a, b) => score[b] - score[a] || seq[a] - seq[b]);
    return taken.map((slot) => this.entryAt(slot));
  }

  /**
   * One queued entry drawn uniformly (with `rng`) among those `accept` takes, without removing it; undefined when it
   * takes none. O(size): every queued entry is offered to `accept` (reservoir sampling, in queue order).
   */
  sample(accept: (url: string) => boolean, rng: { int(n: number): number }): FrontierEntry | undefined {
    let chosen: number | undefined;
    let seen = 0;
    for (const [url, slot] of this.queued) {
      if (!accept(url)) continue;
      seen++;
      if (rng.int(seen) === 0) chosen = slot;
    }
    return chosen === undefined ? undefined : this.entryAt(chosen);
  }

  /** The best entry without removing it. */
  peekMax(): FrontierEntry | undefined {
    return this.max.length ? this.entryAt(this.max.top()) : undefined;
  }

  /** The worst entry (the next to be evicted) without removing it. */
  peekMin(): FrontierEntry | undefined {
    return this.min.length ? this.entryAt(this.min.top()) : undefined;
  }

  /** Whether `url` is queued right now. */
  has(url: string): boolean {
    return this.queued.has(url);
  }

  /** A copy of a queued URL's entry, or undefined. */
  entryOf(url: string): FrontierEntry | undefined {
    const slot = this.queued.get(url);
    return slot === undefined ? undefined : this.entryAt(slot);
  }

  /** Score of a queued URL, or undefined. */
  scoreOf(url: string): number | undefined {
    const slot = this.queued.get(url);
    return slot === undefined ? undefined : this.slots.score[slot];
  }

  /** Whether `url` ever entered (queued now, or popped, evicted or removed before). */
  hasSeen(url: string): boolean {
    return this.seen.has(url);
  }

  /** Copies of the queued entries, best first. O(n log n): meant for display and debugging, not for every round. */
  entries(): FrontierEntry[] {
    const { score, seq } = this.slots;
    return [...this.queued.values()].sort((a, b) => score[b] - score[a] || seq[a] - seq[b]).map((slot) => this.entryAt(slot));
  }

  /** Plain-JSON snapshot; {@link PriorityFrontier.fromJSON} rebuilds a frontier that behaves identically. */
  toJSON(): PriorityFrontierState {
    const left: string[] = [];
    for (const url of this.seen) if (!this.queued.has(url)) left.push(url);
    const { score, depth, seq, from } = this.slots;
    const entries: PriorityFrontierState['entries'] = [];
    for (const [url, slot] of this.queued) entries.push([url, score[slot], depth[slot], seq[slot], from[slot] ?? null]);
    return { kind: 'priority', version: 1, capacity: this.capacity, nextSeq: this.nextSeq, entries, left };
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
      // Slots are placed without sifting; both heaps are built in O(n) below.
      const slot = f.allocate();
      f.fill(slot, url, score, depth, from ?? undefined, seq);
      f.max.heap[f.max.length++] = slot;
      f.min.heap[f.min.length++] = slot;
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

  /** A free slot, growing the storage (doubling, up to capacity) when none is left. */
  private allocate(): number {
    if (!this.slots.hasRoom()) {
      const to = Math.min(this.capacity, this.slots.length * 2);
      this.slots.grow(to);
      this.max.grow(to);
      this.min.grow(to);
    }
    return this.slots.take();
  }

  private fill(slot: number, url: string, score: number, depth: number, from: string | undefined, seq: number): void {
    const s = this.slots;
    s.url[slot] = url;
    s.score[slot] = score;
    s.depth[slot] = depth;
    s.from[slot] = from;
    s.seq[slot] = seq;
    this.queued.set(url, slot);
    this.seen.add(url);
  }

  private insert(url: string, score: number, depth: number, from: string | undefined, seq: number): void {
    const slot = this.allocate();
    this.fill(slot, url, score, depth, from, seq);
    this.max.push(slot);
    this.min.push(slot);
  }

  private rescore(slot: number, score: number): void {
    this.slots.score[slot] = score;
    this.max.fix(slot);
    this.min.fix(slot);
  }

  private entryAt(slot: number): FrontierEntry {
    const s = this.slots;
    const entry: FrontierEntry = { url: s.url[slot]!, score: s.score[slot], depth: s.depth[slot] };
    const from = s.from[slot];
    if (from !== undefined) entry.from = from;
    return entry;
  }

  /** Takes a slot out of both heaps and the queued map and frees it; its URL stays in `seen`. */
  private detach(slot: number): void {
    this.max.remove(slot);
    this.min.remove(slot);
    this.queued.delete(this.slots.url[slot]!);
    this.slots.release(slot);
  }
}

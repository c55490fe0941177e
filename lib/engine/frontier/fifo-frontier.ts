import type { FrontierEntry } from '../types';
import { type AddResult, type Frontier, badState, checkCapacity, checkEntry } from './types';

/** Saved form of a {@link FifoFrontier}: plain JSON. Entries are tuples [url, score, depth, from|null], oldest first. */
export type FifoFrontierState = {
  kind: 'fifo';
  version: 1;
  capacity: number;
  entries: [string, number, number, string | null][];
  /** URLs that entered earlier and are no longer queued. */
  left: string[];
};

/**
 * The bounded first-in-first-out frontier of Breadth-First crawling.
 *
 * Rules:
 * - **Order.** First in, first out; scores are carried along but never reorder anything.
 * - **At most once.** Same as the priority frontier: every URL that ever entered is remembered and later sightings
 *   answer `'kept'` (a FIFO never raises).
 * - **Bound.** Never more than `capacity` entries. When full, new URLs are `'rejected'` (nothing is evicted: in
 *   breadth-first order the queued URLs are the shallower ones, so they are the ones worth keeping). A rejected URL
 *   is not remembered and may enter later when there is room.
 *
 * Cost: every operation O(1) amortized: an array with a moving head index, compacted when the dead prefix grows
 * past half the array.
 */
export class FifoFrontier implements Frontier {
  readonly capacity: number;
  private items: FrontierEntry[] = [];
  private head = 0;
  private readonly queued = new Set<string>();
  private readonly seen = new Set<string>();

  /** @param capacity most entries queued at once (MAX_BUFFER), a positive integer. */
  constructor(capacity: number) {
    this.capacity = checkCapacity(capacity);
  }

  /** URLs currently queued. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** URLs that ever entered (queued now or gone). */
  get seenCount(): number {
    return this.seen.size;
  }

  /**
   * Offers an entry: `'added'`, `'kept'` (entered before) or `'rejected'` (full). See {@link AddResult}.
   * @throws TypeError for an entry without a URL, with a non-finite score or a bad depth.
   */
  add(entry: FrontierEntry): AddResult {
    checkEntry(entry);
    if (this.seen.has(entry.url)) return 'kept';
    if (this.size >= this.capacity) return 'rejected';
    const copy: FrontierEntry = { url: entry.url, score: entry.score, depth: entry.depth };
    if (entry.from !== undefined) copy.from = entry.from;
    this.items.push(copy);
    this.queued.add(copy.url);
    this.seen.add(copy.url);
    return 'added';
  }

  /** Removes and returns the oldest entry, or undefined when empty. */
  shift(): FrontierEntry | undefined {
    if (this.head >= this.items.length) return undefined;
    const entry = this.items[this.head];
    (this.items as (FrontierEntry | undefined)[])[this.head] = undefined; // let it be collected
    this.head++;
    this.queued.delete(entry.url);
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** Removes and returns up to `n` oldest entries, oldest first. */
  take(n: number): FrontierEntry[] {
    const out: FrontierEntry[] = [];
    const k = Math.min(Math.max(0, Math.floor(n)), this.size);
    for (let i = 0; i < k; i++) out.push(this.shift()!);
    return out;
  }

  /** The oldest entry without removing it. */
  peek(): FrontierEntry | undefined {
    return this.head < this.items.length ? { ...this.items[this.head] } : undefined;
  }

  /** Whether `url` is queued right now. */
  has(url: string): boolean {
    return this.queued.has(url);
  }

  /** Whether `url` ever entered (queued now, or taken before). */
  hasSeen(url: string): boolean {
    return this.seen.has(url);
  }

  /** Copies of the queued entries, oldest first. */
  entries(): FrontierEntry[] {
    return this.items.slice(this.head).map((e) => ({ ...e }));
  }

  /** Plain-JSON snapshot; {@link FifoFrontier.fromJSON} rebuilds a frontier that behaves identically. */
  toJSON(): FifoFrontierState {
    const left: string[] = [];
    for (const url of this.seen) if (!this.queued.has(url)) left.push(url);
    const entries: FifoFrontierState['entries'] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const e = this.items[i];
      entries.push([e.url, e.score, e.depth, e.from ?? null]);
    }
    return { kind: 'fifo', version: 1, capacity: this.capacity, entries, left };
  }

  /**
   * Rebuilds a frontier from {@link FifoFrontier.toJSON} output.
   * @throws TypeError naming the problem if `state` is malformed.
   */
  static fromJSON(state: unknown): FifoFrontier {
    const bad = (why: string) => badState('fifo', why);
    if (state === null || typeof state !== 'object') bad('not an object');
    const s = state as Partial<FifoFrontierState>;
    if (s.kind !== 'fifo' || s.version !== 1) bad('wrong kind or version');
    if (!Array.isArray(s.entries) || !Array.isArray(s.left)) bad('entries and left must be arrays');
    let capacity: number;
    try {
      capacity = checkCapacity(s.capacity);
    } catch {
      return bad('capacity');
    }
    if (s.entries!.length > capacity) bad(`${s.entries!.length} entries exceed capacity ${capacity}`);
    const f = new FifoFrontier(capacity);
    for (const raw of s.entries!) {
      if (!Array.isArray(raw) || raw.length !== 4) bad('entry is not a 4-tuple');
      const [url, score, depth, from] = raw;
      const entry: FrontierEntry = { url, score, depth };
      if (from !== null) entry.from = from;
      try {
        checkEntry(entry);
      } catch (e) {
        bad((e as Error).message);
      }
      if (f.queued.has(url)) bad(`duplicate url ${url}`);
      f.items.push(entry);
      f.queued.add(url);
      f.seen.add(url);
    }
    for (const url of s.left!) {
      if (typeof url !== 'string') bad('left holds a non-string');
      if (f.queued.has(url)) bad(`${url} is both queued and left`);
      f.seen.add(url);
    }
    return f;
  }
}

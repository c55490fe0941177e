import type { FrontierEntry } from '../types';

/**
 * What PriorityFrontier.add did with an entry:
 * - `'added'`: a URL never seen before entered, and there was room.
 * - `'evicted-other'`: a URL never seen before entered a full frontier by evicting the lowest-ranked entry.
 * - `'raised'`: the URL is still queued and this sighting's score is higher: its score was raised to it.
 * - `'kept'`: nothing changed: the URL is queued with a score at least as high, or it entered earlier and has since
 *   left the frontier (popped, evicted or removed). A URL enters at most once per crawl.
 * - `'rejected'`: the frontier is full and the entry does not rank above its worst entry. The URL did
 *   not enter and is not remembered, so a later sighting may still get in.
 */
export type AddResult = 'added' | 'raised' | 'kept' | 'rejected' | 'evicted-other';

/** Checks a frontier entry offered by a caller; throws a TypeError naming the bad field. */
export function checkEntry(entry: FrontierEntry): void {
  if (entry === null || typeof entry !== 'object') throw new TypeError('frontier entry must be an object');
  if (typeof entry.url !== 'string' || entry.url === '') throw new TypeError('frontier entry needs a non-empty url');
  if (typeof entry.score !== 'number' || !Number.isFinite(entry.score)) {
    throw new TypeError(`frontier entry score must be a finite number, got ${String(entry.score)} for ${entry.url}`);
  }
  if (!Number.isInteger(entry.depth) || entry.depth < 0) {
    throw new TypeError(`frontier entry depth must be a non-negative integer, got ${String(entry.depth)} for ${entry.url}`);
  }
  if (entry.from !== undefined && typeof entry.from !== 'string') {
    throw new TypeError(`frontier entry 'from' must be a string when present (${entry.url})`);
  }
}

/** Checks a capacity argument. */
export function checkCapacity(capacity: unknown): number {
  if (typeof capacity !== 'number' || !Number.isSafeInteger(capacity) || capacity < 1) {
    throw new RangeError(`frontier capacity must be a positive integer, got ${String(capacity)}`);
  }
  return capacity;
}

/** Throws a clear error for malformed saved state. */
export function badState(kind: string, why: string): never {
  throw new TypeError(`invalid ${kind} frontier state: ${why}`);
}

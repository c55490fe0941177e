/**
 * The library's retention policy: keep at most N crawls and/or M megabytes, pinned crawls always kept, the oldest
 * unpinned crawls deleted first. Watches count in both limits like any crawl (their pages are capped, ../watch/cap.ts)
 * and go last: only when deleting every other unpinned crawl is not enough, the oldest watch first. Both limits are off
 * by default: nothing is ever deleted unless the user set one.
 */
import type { RetentionPolicy } from '../model/views';

export type { RetentionPolicy };

export const NO_RETENTION: RetentionPolicy = { keepCrawls: null, maxMegabytes: null };

/** Bounds of the settings (a typo must not delete a library: 0 crawls is not a limit one can set). */
export const RETENTION_BOUNDS = { keepCrawls: { min: 1, max: 10_000 }, maxMegabytes: { min: 1, max: 1_000_000 } };

/** What retention needs to know of a crawl. */
export interface RetainedCrawl {
  id: string;
  createdAt: number;
  pinned?: boolean;
  /** A topic watch: deleted only after every other unpinned crawl. */
  watched?: boolean;
  /** A crawl running now is never deleted. */
  active: boolean;
  /** Approximate bytes its pages take. */
  bytes: number;
}

/** The policy from untrusted input (a message, storage): each limit a whole number within bounds, or null. Throws on junk. */
export function checkRetention(value: unknown): RetentionPolicy {
  if (!value || typeof value !== 'object') throw new Error('Retention settings must be an object.');
  const v = value as Record<string, unknown>;
  const limit = (key: keyof RetentionPolicy, what: string): number | null => {
    const x = v[key];
    if (x === null || x === undefined) return null;
    const { min, max } = RETENTION_BOUNDS[key];
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
      throw new Error(`${what} must be a whole number from ${min} to ${max}, or no limit.`);
    }
    return x;
  };
  return { keepCrawls: limit('keepCrawls', 'Crawls kept'), maxMegabytes: limit('maxMegabytes', 'Storage limit (MB)') };
}

/** The crawls to delete under the policy, oldest first, watches after the rest; pinned and running crawls never. */
export function crawlsToDelete(crawls: readonly RetainedCrawl[], policy: RetentionPolicy): string[] {
  const oldestFirst = [...crawls].sort(
    (a, b) => Number(!!a.watched) - Number(!!b.watched) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const deletable = oldestFirst.filter((c) => !c.pinned && !c.active);
  const out = new Set<string>();
  if (policy.keepCrawls !== null) {
    const unpinned = oldestFirst.filter((c) => !c.pinned);
    let excess = unpinned.length - policy.keepCrawls;
    for (const c of deletable) {
      if (excess <= 0) break;
      out.add(c.id);
      excess--;
    }
  }
  if (policy.maxMegabytes !== null) {
    const limit = policy.maxMegabytes * 1024 * 1024;
    let total = 0;
    for (const c of crawls) if (!out.has(c.id)) total += c.bytes;
    for (const c of deletable) {
      if (total <= limit) break;
      if (out.has(c.id)) continue;
      out.add(c.id);
      total -= c.bytes;
    }
  }
  return deletable.filter((c) => out.has(c.id)).map((c) => c.id);
}

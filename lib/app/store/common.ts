/**
 * Rules the CrawlStore implementations share, so they stay behaviour-identical: input validation, list windows,
 * the orderings IndexedDB's indexes produce, and the patch merge.
 */
import type { PageResult, SkipRecord } from '../../engine';
import type { CrawlProgress, CrawlRecord, ListWindow, SearchIndexRecord } from '../model/records';

/** Rejects values IndexedDB could not key or index (an unindexable record would silently vanish from listings). */
export function checkCrawl(record: CrawlRecord): void {
  if (!record || typeof record !== 'object') throw new TypeError('CrawlStore: crawl record must be an object');
  if (typeof record.id !== 'string' || record.id === '') throw new TypeError('CrawlStore: crawl id must be a non-empty string');
  if (typeof record.updatedAt !== 'number' || !Number.isFinite(record.updatedAt)) {
    throw new TypeError(`CrawlStore: crawl ${JSON.stringify(record.id)} needs a finite numeric updatedAt`);
  }
}

/** Checks a crawl id argument. */
export function checkId(id: string): void {
  if (typeof id !== 'string' || id === '') throw new TypeError('CrawlStore: crawl id must be a non-empty string');
}

/** Pages need a URL (their key) and a finite score (their index key; NaN is not a valid IndexedDB key). */
export function checkPages(crawlId: string, pages: PageResult[]): void {
  checkId(crawlId);
  if (!Array.isArray(pages)) throw new TypeError('CrawlStore: pages must be an array');
  pages.forEach((p, i) => {
    if (!p || typeof p !== 'object') throw new TypeError(`CrawlStore: page #${i} is not an object`);
    if (typeof p.url !== 'string' || p.url === '') throw new TypeError(`CrawlStore: page #${i} has no URL`);
    if (typeof p.score !== 'number' || !Number.isFinite(p.score)) {
      throw new TypeError(`CrawlStore: page ${p.url} has a non-finite score (${String(p.score)})`);
    }
  });
}

/** A list of page URLs to delete: strings, none empty. */
export function checkUrls(crawlId: string, urls: string[]): void {
  checkId(crawlId);
  if (!Array.isArray(urls)) throw new TypeError('CrawlStore: URLs must be an array');
  urls.forEach((u, i) => {
    if (typeof u !== 'string' || u === '') throw new TypeError(`CrawlStore: URL #${i} is not a non-empty string`);
  });
}

/** Skips need a URL (their key) and a finite time (their ordering). */
export function checkSkips(crawlId: string, skips: SkipRecord[]): void {
  checkId(crawlId);
  if (!Array.isArray(skips)) throw new TypeError('CrawlStore: skips must be an array');
  skips.forEach((s, i) => {
    if (!s || typeof s !== 'object') throw new TypeError(`CrawlStore: skip #${i} is not an object`);
    if (typeof s.url !== 'string' || s.url === '') throw new TypeError(`CrawlStore: skip #${i} has no URL`);
    if (typeof s.at !== 'number' || !Number.isFinite(s.at)) {
      throw new TypeError(`CrawlStore: skip ${s.url} has a non-finite time (${String(s.at)})`);
    }
  });
}

/** Normalized list window: offset >= 0, limit >= 0 or Infinity (absent, NaN or Infinity mean "all"). */
export function listWindow(opts?: ListWindow): { offset: number; limit: number } {
  const rawOffset = Number(opts?.offset ?? 0);
  const rawLimit = opts?.limit === undefined ? Infinity : Number(opts.limit);
  const offset = Number.isFinite(rawOffset) && rawOffset > 0 ? Math.floor(rawOffset) : 0;
  const limit = Number.isNaN(rawLimit) || rawLimit === Infinity ? Infinity : Math.max(0, Math.floor(rawLimit));
  return { offset, limit };
}

/** Code-unit string order, the order IndexedDB compares string keys in. */
export function cmpString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** listCrawls order: what a 'prev' cursor over the updatedAt index yields (newest first, ties by id descending). */
export function newestFirst(a: CrawlRecord, b: CrawlRecord): number {
  return b.updatedAt - a.updatedAt || cmpString(b.id, a.id);
}

/** getPages order: what a 'prev' cursor over the [crawlId, score] index yields (best first, ties by URL descending). */
export function bestFirst(a: PageResult, b: PageResult): number {
  return b.score - a.score || cmpString(b.url, a.url);
}

/** getSkips order: what a 'next' cursor over the [crawlId, at] index yields (oldest first, ties by URL). */
export function oldestFirst(a: SkipRecord, b: SkipRecord): number {
  return a.at - b.at || cmpString(a.url, b.url);
}

/** Shallow merge of a patch; the id can never change, whatever the patch (typed or not) says. */
export function mergePatch(record: CrawlRecord, patch: Partial<Omit<CrawlRecord, 'id'>>): CrawlRecord {
  if (!patch || typeof patch !== 'object') throw new TypeError('CrawlStore: patch must be an object');
  const merged = { ...record, ...patch, id: record.id } as CrawlRecord;
  checkCrawl(merged);
  return merged;
}

/** A checkpoint must at least be an object (its contents are the engine's business: the store keeps it opaque). */
export function checkCheckpoint(crawlId: string, checkpoint: unknown): void {
  checkId(crawlId);
  if (!checkpoint || typeof checkpoint !== 'object') throw new TypeError('CrawlStore: checkpoint must be an object');
}

/** Checks a saveProgress argument as addPages, addSkips and saveCheckpoint check their parts. */
export function checkProgress(crawlId: string, progress: CrawlProgress): void {
  checkId(crawlId);
  if (!progress || typeof progress !== 'object') throw new TypeError('CrawlStore: progress must be an object');
  checkPages(crawlId, progress.pages);
  checkSkips(crawlId, progress.skips);
  if (progress.checkpoint !== null) checkCheckpoint(crawlId, progress.checkpoint);
  if (progress.patch !== undefined && (!progress.patch || typeof progress.patch !== 'object')) {
    throw new TypeError('CrawlStore: patch must be an object');
  }
}

/** The window of an already ordered list. */
export function sliceWindow<T>(all: T[], window?: ListWindow): T[] {
  const { offset, limit } = listWindow(window);
  return all.slice(offset, limit === Infinity ? undefined : offset + limit);
}

/** A search index record needs a crawl id, a numeric version and counts, and its data as a string. */
export function checkSearchIndex(record: SearchIndexRecord): void {
  if (!record || typeof record !== 'object') throw new TypeError('CrawlStore: search index must be an object');
  checkId(record.crawlId);
  for (const key of ['version', 'pages', 'bytes'] as const) {
    if (typeof record[key] !== 'number' || !Number.isFinite(record[key])) {
      throw new TypeError(`CrawlStore: search index ${key} must be a finite number`);
    }
  }
  if (typeof record.data !== 'string') throw new TypeError('CrawlStore: search index data must be a string');
}

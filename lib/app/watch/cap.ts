/**
 * How many pages a watch keeps, and which go first. Every check may add up to the crawl's page budget of pages it
 * never saw (known pages answered 304 cost nothing), so a site that offers new URLs at every check would grow a watch
 * without end: after each check the watch keeps at most {@link WATCH_PAGE_FACTOR} times its page budget. What goes:
 * pages the last check neither found nor found changed, least relevant first (the oldest first among equals), and
 * only then the last check's own finds, least relevant first. Seeds always stay (they are where every check starts).
 */
import type { PageResult } from '../../engine';
import type { CrawlSettings, WatchCheck } from '../model/records';

/** A watch keeps at most this many times its crawl's page budget: the first crawl plus one check's worth of finds. */
export const WATCH_PAGE_FACTOR = 2;

/** Most pages the watch of a crawl with these settings keeps. */
export function watchPageCap(settings: Pick<CrawlSettings, 'maxPages'>): number {
  return WATCH_PAGE_FACTOR * Math.max(1, Math.floor(settings.maxPages));
}

/** When the page last told the watch something: found or changed (absent on a page stored before watches). */
const lastNews = (p: PageResult): number => p.changedAt ?? p.firstSeenAt ?? 0;

/** The pages to drop so that at most `cap` remain, in the order they go. */
export function pagesOverCap(
  pages: readonly PageResult[],
  check: Pick<WatchCheck, 'startedAt'> | undefined,
  cap: number,
): PageResult[] {
  const excess = pages.length - cap;
  if (excess <= 0) return [];
  const fromLastCheck = (p: PageResult) =>
    check !== undefined && (p.firstSeenAt === check.startedAt || p.changedAt === check.startedAt);
  const droppable = pages.filter((p) => !p.isSeed);
  droppable.sort(
    (a, b) =>
      Number(fromLastCheck(a)) - Number(fromLastCheck(b)) ||
      a.score - b.score ||
      lastNews(a) - lastNews(b) ||
      (a.url < b.url ? -1 : a.url > b.url ? 1 : 0),
  );
  return droppable.slice(0, excess);
}

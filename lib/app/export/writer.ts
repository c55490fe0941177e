/**
 * An export format as a writer of pieces: a beginning, one piece per page (in the order given: best first), one per
 * skip when the format has them, an end. The same writer makes a whole file from arrays (exportCrawl) and a file
 * streamed window by window from the store (exportCrawlStream), so no step holds a large crawl in one string or one
 * message.
 */
import type { PageResult, SkipRecord } from '../../engine';
import type { CrawlRecord } from '../model/records';

export interface FormatWriter {
  begin(record: CrawlRecord): string;
  /** The page's piece ('' leaves it out). */
  page(page: PageResult): string;
  /** Only listed pages (not noindex) reach `page`. */
  listedOnly: boolean;
  /** Present when the format holds the skipped URLs too: called once before the first skip (even when none). */
  skipsBegin?(): string;
  skip?(skip: SkipRecord): string;
  end(): string;
}

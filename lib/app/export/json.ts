/** JSON export: the whole crawl, lossless enough to re-import (noindex pages included, flagged). */
import type { PageResult, SkipRecord } from '../../engine';
import type { CrawlRecord } from '../store/types';
import { bestFirst } from './common';

/** Format tag of Forager's JSON export. */
export const JSON_FORMAT = 'forager-crawl';
/** Version of the JSON export layout; bump when its shape changes. */
export const JSON_VERSION = 1;

/** The parsed shape of a JSON export. */
export interface CrawlExport {
  format: typeof JSON_FORMAT;
  version: typeof JSON_VERSION;
  /** ISO 8601 time of the export. */
  exportedAt: string;
  /** The crawl record: topic, seeds, source, settings, status, stats, times. */
  crawl: CrawlRecord;
  /** Every stored page, best score first (noindex pages kept, with their flag). */
  pages: PageResult[];
  skips: SkipRecord[];
}

/** Pretty-printed (2 spaces) JSON of the whole crawl. `now` is the export time (epoch ms). */
export function toJson(record: CrawlRecord, pages: PageResult[], skips: SkipRecord[] = [], now = Date.now()): string {
  const doc: CrawlExport = {
    format: JSON_FORMAT,
    version: JSON_VERSION,
    exportedAt: new Date(Number.isFinite(now) ? now : Date.now()).toISOString(),
    crawl: record,
    pages: bestFirst(pages),
    skips: [...skips],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * JSON export: the whole crawl, lossless enough to re-import (noindex pages included, flagged; skips included). The
 * text is exactly `JSON.stringify(doc, null, 2)`, written piece by piece; bidirectional controls are written as `\u`
 * escapes (the same data once parsed, but a viewer shows no reordered text).
 */
import type { PageResult, SkipRecord } from '../../engine';
import type { CrawlRecord } from '../model/records';
import { escapeBidiInJson } from '../rules/text-safety';
import type { FormatWriter } from './writer';

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

/** `value` pretty-printed as it would be at `depth` levels inside a pretty-printed document. */
function nested(value: unknown, depth: number): string {
  return escapeBidiInJson(JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`));
}

/** The JSON file piece by piece; `now` is the export time (epoch ms). */
export function jsonWriter(now = Date.now()): FormatWriter {
  let pages = 0;
  let skips = 0;
  const item = (count: number, value: unknown) => `${count === 0 ? '\n' : ',\n'}    ${nested(value, 2)}`;
  return {
    begin: (record) =>
      `{\n  "format": ${JSON.stringify(JSON_FORMAT)},\n  "version": ${JSON_VERSION},\n` +
      `  "exportedAt": ${JSON.stringify(new Date(Number.isFinite(now) ? now : Date.now()).toISOString())},\n` +
      `  "crawl": ${nested(record, 1)},\n  "pages": [`,
    page: (p) => item(pages++, p),
    listedOnly: false,
    skipsBegin: () => `${pages ? '\n  ]' : ']'},\n  "skips": [`,
    skip: (s) => item(skips++, s),
    end: () => `${skips ? '\n  ]' : ']'}\n}\n`,
  };
}

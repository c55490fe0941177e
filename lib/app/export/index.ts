/**
 * Exports of a crawl's results as JSON, CSV, a browser bookmark file or Markdown: whole from arrays
 * ({@link exportCrawl}), or streamed from the store window by window ({@link exportCrawlStream}: what the results
 * page does, so no runtime message and no string holds a whole large crawl).
 */
import type { PageResult, SkipRecord } from '../../engine';
import type { CrawlRecord } from '../model/records';
import { bookmarksWriter } from './bookmarks';
import { bestFirst, exportFilename, isListed } from './common';
import { csvWriter } from './csv';
import { jsonWriter } from './json';
import { markdownWriter } from './markdown';
import type { FormatWriter } from './writer';

export type ExportFormat = 'json' | 'csv' | 'bookmarks' | 'markdown';

/** A ready-to-download file. */
export interface ExportedFile {
  filename: string;
  mimeType: string;
  content: string;
}

/** Export formats, in menu order. */
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'csv', 'bookmarks', 'markdown'];

const FORMATS: Record<ExportFormat, { ext: string; mimeType: string; writer: (now: number) => FormatWriter }> = {
  json: { ext: 'json', mimeType: 'application/json', writer: jsonWriter },
  csv: { ext: 'csv', mimeType: 'text/csv;charset=utf-8', writer: csvWriter },
  bookmarks: { ext: 'html', mimeType: 'text/html;charset=utf-8', writer: bookmarksWriter },
  markdown: { ext: 'md', mimeType: 'text/markdown;charset=utf-8', writer: markdownWriter },
};

function formatOf(format: ExportFormat) {
  const spec = Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
  if (!spec) throw new Error(`Unknown export format: ${JSON.stringify(format)} (expected one of ${EXPORT_FORMATS.join(', ')})`);
  return spec;
}

/** A crawl read window by window: pages best first, skips oldest first (CrawlStore order); a short window is the last. */
export interface CrawlReader {
  pages(offset: number, limit: number): Promise<PageResult[]>;
  skips(offset: number, limit: number): Promise<SkipRecord[]>;
}

/** The file's name and type, and its text in pieces, reading the crawl one window at a time. */
export function exportCrawlStream(
  format: ExportFormat,
  record: CrawlRecord,
  read: CrawlReader,
  options: { window?: number; now?: number } = {},
): { filename: string; mimeType: string; pieces: AsyncGenerator<string> } {
  const spec = formatOf(format);
  const size = Math.max(1, options.window ?? 5000);
  const writer = spec.writer(options.now ?? Date.now());
  async function* pieces(): AsyncGenerator<string> {
    yield writer.begin(record);
    for (let offset = 0; ; offset += size) {
      const window = await read.pages(offset, size);
      let text = '';
      for (const p of window) if (!writer.listedOnly || isListed(p)) text += writer.page(p);
      if (text) yield text;
      if (window.length < size) break;
    }
    if (writer.skipsBegin && writer.skip) {
      yield writer.skipsBegin();
      for (let offset = 0; ; offset += size) {
        const window = await read.skips(offset, size);
        let text = '';
        for (const s of window) text += writer.skip(s);
        if (text) yield text;
        if (window.length < size) break;
      }
    }
    yield writer.end();
  }
  return { filename: exportFilename(record, spec.ext, options.now), mimeType: spec.mimeType, pieces: pieces() };
}

/**
 * Renders a crawl in one format, whole. Pages come out best score first. JSON holds everything (noindex pages flagged,
 * skips included); CSV, bookmarks and Markdown are result lists and leave noindex pages out. Throws on an unknown format.
 */
export function exportCrawl(
  format: ExportFormat,
  record: CrawlRecord,
  pages: PageResult[],
  skips: SkipRecord[] = [],
  now = Date.now(),
): ExportedFile {
  const spec = formatOf(format);
  const writer = spec.writer(now);
  let content = writer.begin(record);
  for (const p of bestFirst(pages)) if (!writer.listedOnly || isListed(p)) content += writer.page(p);
  if (writer.skipsBegin && writer.skip) {
    content += writer.skipsBegin();
    for (const s of skips) content += writer.skip(s);
  }
  content += writer.end();
  return { filename: exportFilename(record, spec.ext, now), mimeType: spec.mimeType, content };
}

/** The whole JSON export of arrays (`now`: the export time). */
export function toJson(record: CrawlRecord, pages: PageResult[], skips: SkipRecord[] = [], now = Date.now()): string {
  return exportCrawl('json', record, pages, skips, now).content;
}

/** The whole CSV export (with BOM) of the listed pages, best first. */
export function toCsv(pages: PageResult[]): string {
  return exportCrawl('csv', {} as CrawlRecord, pages).content;
}

/** The whole bookmark file. */
export function toBookmarks(record: CrawlRecord, pages: PageResult[]): string {
  return exportCrawl('bookmarks', record, pages).content;
}

/** The whole Markdown text. */
export function toMarkdown(record: CrawlRecord, pages: PageResult[]): string {
  return exportCrawl('markdown', record, pages).content;
}

export { JSON_FORMAT, JSON_VERSION, type CrawlExport } from './json';
export { csvText, startsFormula, CSV_COLUMNS, BOM } from './csv';
export { escapeMarkdown, markdownUrl } from './markdown';
export { exportFilename, slugify, bestFirst, listedPages } from './common';
export type { FormatWriter } from './writer';

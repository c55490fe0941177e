/** Exports of a crawl's results as JSON, CSV, a browser bookmark file or Markdown. */
import type { PageResult, SkipRecord } from '../../engine';
import type { CrawlRecord } from '../store/types';
import { toBookmarks } from './bookmarks';
import { exportFilename } from './common';
import { toCsv } from './csv';
import { toJson } from './json';
import { toMarkdown } from './markdown';

export type ExportFormat = 'json' | 'csv' | 'bookmarks' | 'markdown';

/** A ready-to-download file. */
export interface ExportedFile {
  filename: string;
  mimeType: string;
  content: string;
}

/** Export formats, in menu order. */
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'csv', 'bookmarks', 'markdown'];

const FORMATS: Record<ExportFormat, { ext: string; mimeType: string }> = {
  json: { ext: 'json', mimeType: 'application/json' },
  csv: { ext: 'csv', mimeType: 'text/csv;charset=utf-8' },
  bookmarks: { ext: 'html', mimeType: 'text/html;charset=utf-8' },
  markdown: { ext: 'md', mimeType: 'text/markdown;charset=utf-8' },
};

/**
 * Renders a crawl in one format. Pages come out best score first. JSON holds everything (noindex pages flagged,
 * skips included); CSV, bookmarks and Markdown are result lists and leave noindex pages out. Throws on an unknown format.
 */
export function exportCrawl(
  format: ExportFormat,
  record: CrawlRecord,
  pages: PageResult[],
  skips: SkipRecord[] = [],
): ExportedFile {
  const spec = Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
  if (!spec) throw new Error(`Unknown export format: ${JSON.stringify(format)} (expected one of ${EXPORT_FORMATS.join(', ')})`);
  const content =
    format === 'json'
      ? toJson(record, pages, skips)
      : format === 'csv'
        ? toCsv(pages)
        : format === 'bookmarks'
          ? toBookmarks(record, pages)
          : toMarkdown(record, pages);
  return { filename: exportFilename(record, spec.ext), mimeType: spec.mimeType, content };
}

export { toJson, JSON_FORMAT, JSON_VERSION, type CrawlExport } from './json';
export { toCsv, csvText, CSV_COLUMNS, BOM } from './csv';
export { toBookmarks, escapeHtml } from './bookmarks';
export { toMarkdown, escapeMarkdown, markdownUrl } from './markdown';
export { exportFilename, slugify, bestFirst, listedPages } from './common';

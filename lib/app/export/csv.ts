/**
 * CSV export (RFC 4180): header row, CRLF line ends, quoting where needed, UTF-8 BOM so spreadsheets detect the
 * encoding, and the OWASP defence against formula injection on every text cell.
 */
import type { PageResult } from '../../engine';
import { finite, listedPages } from './common';

/** Column names, in order. */
export const CSV_COLUMNS = ['url', 'title', 'score', 'depth', 'fresh', 'from', 'last_modified', 'fetched_at', 'snippet'] as const;

/** Byte order mark: Excel reads UTF-8 without it as the local code page and mangles accents. */
export const BOM = '\uFEFF';

/**
 * One text cell. A leading = + - @ tab or CR would let a spreadsheet run the cell as a formula, so it gets a
 * leading apostrophe (OWASP CSV injection guidance). Cells with comma, quote, CR or LF are quoted, quotes doubled.
 */
export function csvText(value: unknown): string {
  let s = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A number we format ourselves: exempt from the formula defence because it is only digits, sign, dot, exponent. */
function csvNumber(value: unknown): string {
  const n = finite(value);
  return n === undefined ? '' : String(n);
}

function isoTime(ms: unknown): string {
  const t = finite(ms);
  if (t === undefined) return '';
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** The CSV text (with BOM) of the listed pages (noindex pages left out), best score first. */
export function toCsv(pages: PageResult[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const p of listedPages(pages)) {
    rows.push(
      [
        csvText(p.url),
        csvText(p.title),
        csvNumber(p.score),
        csvNumber(p.depth),
        p.isSeed ? 'false' : 'true',
        csvText(p.from ?? ''),
        csvText(p.lastModified ?? ''),
        isoTime(p.fetchedAt),
        csvText(p.snippet),
      ].join(','),
    );
  }
  return `${BOM + rows.join('\r\n')}\r\n`;
}

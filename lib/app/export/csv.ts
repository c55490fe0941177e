/**
 * CSV export (RFC 4180): header row, CRLF line ends, UTF-8 BOM so spreadsheets detect the encoding, and OWASP's
 * defence against formula injection in full: every text cell quoted (so a `;` or `,` inside it never starts a new
 * cell, whichever separator the spreadsheet splits on), quotes doubled, and a leading apostrophe on a cell whose
 * first visible character could start a formula.
 */
import type { PageResult } from '../../engine';
import { safeText } from '../rules/text-safety';
import { finite, verdicts } from './common';
import type { FormatWriter } from './writer';

/** Column names, in order. */
export const CSV_COLUMNS = [
  'url',
  'title',
  'score',
  'depth',
  'fresh',
  'from',
  'last_modified',
  'fetched_at',
  'snippet',
  'judgement',
] as const;

/** Byte order mark: Excel reads UTF-8 without it as the local code page and mangles accents. */
export const BOM = '\uFEFF';

/**
 * Characters that make a spreadsheet read a cell as a formula when they come first: = + - @ (and their full-width and
 * small-form variants, which some spreadsheets fold to ASCII), tab, CR, LF and NUL.
 */
const FORMULA_TRIGGER = /^[=+\-@\t\r\n\0\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b]/;
/** What a spreadsheet may skip before the first character it reads: spaces and invisible format characters. */
const INVISIBLE_LEAD = /^[ \u00a0\u00ad\u061c\u180e\u200b-\u200f\u2060-\u2064\u3000\ufeff]+/;

/** Whether a spreadsheet could read this text as a formula. */
export function startsFormula(text: string): boolean {
  return FORMULA_TRIGGER.test(text) || FORMULA_TRIGGER.test(text.replace(INVISIBLE_LEAD, ''));
}

/** One text cell: control and bidi-override characters removed, formula start defused, quoted, quotes doubled. */
export function csvText(value: unknown): string {
  let s = safeText(typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
  if (startsFormula(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
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

/** The CSV file, row by row: the listed pages (noindex pages left out) in the order given. */
export function csvWriter(): FormatWriter {
  let judged = verdicts(undefined);
  return {
    begin: (record) => {
      judged = verdicts(record);
      return `${BOM}${CSV_COLUMNS.join(',')}\r\n`;
    },
    page: (p: PageResult) =>
      `${[
        csvText(p.url),
        csvText(p.title),
        csvNumber(p.score),
        csvNumber(p.depth),
        p.isSeed ? 'false' : 'true',
        csvText(p.from ?? ''),
        csvText(p.lastModified ?? ''),
        isoTime(p.fetchedAt),
        csvText(p.snippet),
        csvText(judged.get(p.url) ?? ''),
      ].join(',')}\r\n`,
    listedOnly: true,
    end: () => '',
  };
}

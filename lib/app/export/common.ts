/** Helpers the export formats share: ordering, filtering, URL checks, file names. Text safety is lib/app/text-safety. */
import type { PageResult } from '../../engine';
import type { CrawlRecord } from '../model/records';
import { oneLine } from '../rules/text-safety';

/** The user's verdict on each judged page of a crawl, as the exports write it ('relevant' / 'not relevant'). */
export function verdicts(record: CrawlRecord | undefined): Map<string, 'relevant' | 'not relevant'> {
  const out = new Map<string, 'relevant' | 'not relevant'>();
  for (const j of Array.isArray(record?.judgements) ? record.judgements : [])
    if (j && typeof j.url === 'string') out.set(j.url, j.value === 1 ? 'relevant' : 'not relevant');
  return out;
}

/** Pages best score first; equal (or unusable) scores keep their input order. Does not modify the input. */
export function bestFirst(pages: readonly PageResult[]): PageResult[] {
  const rank = (p: PageResult): number => (typeof p.score === 'number' && !Number.isNaN(p.score) ? p.score : -Infinity);
  return [...pages].sort((a, b) => {
    const d = rank(b) - rank(a);
    return Number.isNaN(d) ? 0 : d; // Infinity - Infinity
  });
}

/** Whether a result list shows the page: a page with a URL that did not ask not to be listed (noindex). */
export function isListed(page: PageResult): boolean {
  return !!page && typeof page.url === 'string' && !page.noindex;
}

/** The pages a result list shows, best first. */
export function listedPages(pages: readonly PageResult[]): PageResult[] {
  return bestFirst(pages.filter(isListed));
}

/** The URL, normalized, when it is absolute http(s); undefined for anything else (javascript:, data:, junk). */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A finite number or undefined. */
export function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Score with two decimals for people ('?' when unusable). */
export function formatScore(score: unknown): string {
  const s = finite(score);
  return s === undefined ? '?' : s.toFixed(2);
}

/** yyyy-mm-dd of an epoch-ms time in local time (the user's calendar), or undefined for an invalid time. */
export function localDate(ms: unknown): string | undefined {
  const t = finite(ms);
  if (t === undefined) return undefined;
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return undefined;
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * File-name slug: ASCII lowercase letters, digits and single hyphens, at most 60 characters, 'crawl' when nothing is
 * left. Accents are folded first so 'Café crème' becomes 'cafe-creme'.
 */
export function slugify(text: unknown): string {
  const folded = typeof text === 'string' ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : '';
  const slug = folded
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'crawl';
}

/** `forager-<slug of topic>-<yyyy-mm-dd of the crawl's start>.<ext>`. */
export function exportFilename(record: CrawlRecord, ext: string, now = Date.now()): string {
  const date = localDate(record?.createdAt) ?? localDate(now);
  return `forager-${slugify(record?.topic?.keywords || record?.name)}-${date}.${ext}`;
}

/** The name people see for a crawl: its name, else its topic, else a fallback. */
export function crawlTitle(record: CrawlRecord): string {
  return oneLine(record?.name) || oneLine(record?.topic?.keywords) || 'Forager crawl';
}

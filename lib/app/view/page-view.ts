/**
 * How one result reads in a list: its title (with fallbacks), a short location ("site › … › tail"), its date with what
 * kind of date it is, and the page that led to it. Plain functions over PageResult, tested under Node.
 */
import type { PageResult } from '../../engine';
import { oneLine } from '../rules/text-safety';

/** The title to show: the page's <title>, else its og:title, else its first <h1>, else its location. */
export function displayTitle(page: PageResult): string {
  for (const t of [page.title, page.ogTitle, page.h1]) {
    const clean = oneLine(t ?? '');
    if (clean) return clean;
  }
  const loc = displayLocation(page.url);
  return loc.tail ? `${loc.site} › ${loc.tail}` : loc.site;
}

export interface Location {
  /** Host without "www." (and the port only when it is not the scheme's default). */
  site: string;
  /** True when path segments sit between the site and the tail. */
  elided: boolean;
  /** The telling end of the path (last segment, decoded; the query when the path is bare). */
  tail: string;
}

const MAX_TAIL = 60;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** "site › … › tail": the scheme dropped, the middle of a long path elided, the end kept (it says most). */
export function displayLocation(url: string): Location {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { site: oneLine(url).slice(0, MAX_TAIL), elided: false, tail: '' };
  }
  const site = u.host.replace(/^www\./i, '');
  const segments = u.pathname.split('/').filter(Boolean).map(decode);
  let tail = segments.length > 0 ? segments[segments.length - 1] : u.search ? decode(u.search.slice(1)) : '';
  if (segments.length > 0 && u.search) tail += `?${decode(u.search.slice(1))}`;
  tail = oneLine(tail);
  if (tail.length > MAX_TAIL) tail = `${tail.slice(0, MAX_TAIL - 1)}…`;
  return { site: oneLine(site), elided: segments.length > 1, tail };
}

/** The location as one string. */
export function locationText(url: string): string {
  const l = displayLocation(url);
  return [l.site, ...(l.elided ? ['…'] : []), ...(l.tail ? [l.tail] : [])].join(' › ');
}

export type DateKind = 'published' | 'updated' | 'server';

export interface PageDate {
  kind: DateKind;
  /** Epoch ms. */
  time: number;
  /** The value as the page or server gave it. */
  raw: string;
}

function parse(value: string | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  // Dates before the web or more than a day ahead are wrong metadata, not news.
  return Number.isFinite(t) && t > Date.UTC(1991, 0, 1) && t < Date.now() + 86_400_000 ? t : null;
}

/**
 * The date to show, from the page's own metadata first: published, else updated (article:modified_time, JSON-LD
 * dateModified, ...), else the server's Last-Modified header (often the time it was generated, so labelled as such).
 */
export function pageDate(page: PageResult): PageDate | null {
  const candidates: [DateKind, string | undefined][] = [
    ['published', page.published],
    ['updated', page.modified],
    ['server', page.lastModified],
  ];
  for (const [kind, raw] of candidates) {
    const time = parse(raw);
    if (time !== null && raw) return { kind, time, raw };
  }
  return null;
}

/** "3 Mar 2024" in the reader's locale. */
export function formatDate(time: number, locale?: string): string {
  return new Date(time).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "3 Mar 2024, 14:05" in the reader's locale and time zone: when a watch's check began (two may fall on one day). */
export function formatDateTime(time: number, locale?: string): string {
  return new Date(time).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "14:05" (the reader's locale and time zone): when a wait ends. */
export function formatClockTime(time: number, locale?: string): string {
  return new Date(time).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}

/** "5 minutes ago", "yesterday", "3 days ago" (then a date past a month). */
export function relativeTime(time: number, now = Date.now(), locale?: string): string {
  const s = Math.round((time - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(s);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 26 * 86400) return rtf.format(Math.round(s / 86400), 'day');
  return formatDate(time, locale);
}

/** A page as one Markdown list item: "[title](url)". Brackets and parentheses escaped so the link holds. */
export function markdownLink(page: PageResult): string {
  const title = displayTitle(page).replace(/([\\[\]])/g, '\\$1');
  const url = page.url.replace(/\(/g, '%28').replace(/\)/g, '%29');
  return `[${title}](${url})`;
}

/** Pages as a Markdown list, one link per line. */
export function markdownList(pages: readonly PageResult[]): string {
  return pages.map((p) => `- ${markdownLink(p)}`).join('\n');
}

/**
 * Time left, from the pace so far: null until a few pages give a pace, or when the crawl does not run.
 * @returns ms
 */
export function timeLeft(stats: { pagesEvaluated: number; maxPages: number; elapsedMs: number }): number | null {
  const { pagesEvaluated: done, maxPages, elapsedMs } = stats;
  if (done < 5 || maxPages <= done || elapsedMs <= 0) return null;
  return (elapsedMs / done) * (maxPages - done);
}

/**
 * Bookmarks export in the Netscape bookmark file format, which Chrome ("Import bookmarks and settings") and Firefox
 * ("Import Bookmarks from HTML") both read. One folder named after the crawl holds the listed pages, best first.
 */
import type { PageResult } from '../../engine';
import type { CrawlRecord } from '../store/types';
import { crawlTitle, finite, httpUrl, listedPages, oneLine } from './common';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Epoch seconds as the format wants them ('0' when unknown). */
function seconds(ms: unknown): string {
  const t = finite(ms);
  return t === undefined || t < 0 ? '0' : String(Math.floor(t / 1000));
}

/**
 * The bookmark file. Only absolute http(s) URLs become bookmarks (others are left out); an empty title falls back to
 * the URL; the snippet, when any, follows as <DD>. Every attribute and text is HTML-escaped.
 */
export function toBookmarks(record: CrawlRecord, pages: PageResult[]): string {
  const lines = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<!-- This is an automatically generated file.',
    '     It will be read and overwritten.',
    '     DO NOT EDIT! -->',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    '<TITLE>Bookmarks</TITLE>',
    '<H1>Bookmarks</H1>',
    '<DL><p>',
    `    <DT><H3 ADD_DATE="${seconds(record?.createdAt)}" LAST_MODIFIED="${seconds(record?.updatedAt)}">${escapeHtml(
      crawlTitle(record),
    )}</H3>`,
    '    <DL><p>',
  ];
  for (const p of listedPages(pages)) {
    const href = httpUrl(p.url);
    if (!href) continue;
    const title = oneLine(p.title) || href;
    lines.push(`        <DT><A HREF="${escapeHtml(href)}" ADD_DATE="${seconds(p.fetchedAt)}">${escapeHtml(title)}</A>`);
    const snippet = oneLine(p.snippet);
    if (snippet) lines.push(`        <DD>${escapeHtml(snippet)}`);
  }
  lines.push('    </DL><p>', '</DL><p>');
  return `${lines.join('\n')}\n`;
}

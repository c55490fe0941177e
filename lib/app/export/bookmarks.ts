/**
 * Bookmarks export in the Netscape bookmark file format, which Chrome ("Import bookmarks and settings") and Firefox
 * ("Import Bookmarks from HTML") both read. One folder named after the crawl holds the listed pages, best first.
 */
import type { PageResult } from '../../engine';
import type { CrawlRecord } from '../model/records';
import { escapeHtml, oneLine } from '../rules/text-safety';
import { crawlTitle, finite, httpUrl, verdicts } from './common';
import type { FormatWriter } from './writer';

/** Epoch seconds as the format wants them ('0' when unknown). */
function seconds(ms: unknown): string {
  const t = finite(ms);
  return t === undefined || t < 0 ? '0' : String(Math.floor(t / 1000));
}

/**
 * The bookmark file, piece by piece. Only absolute http(s) URLs become bookmarks (others are left out); an empty
 * title falls back to the URL; the snippet, when any, follows as <DD>. Every attribute and text is HTML-escaped, with
 * control and bidi-override characters removed.
 */
export function bookmarksWriter(): FormatWriter {
  let judged = verdicts(undefined);
  return {
    begin: (record: CrawlRecord) => {
      judged = verdicts(record);
      return `${[
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
      ].join('\n')}\n`;
    },
    page: (p: PageResult) => {
      const href = httpUrl(p.url);
      if (!href) return '';
      const title = oneLine(p.title) || href;
      // The user's verdict as a tag (Firefox imports TAGS; Chrome ignores it).
      const verdict = judged.get(p.url);
      const tags = verdict ? ` TAGS="forager-${verdict === 'relevant' ? 'relevant' : 'not-relevant'}"` : '';
      let out = `        <DT><A HREF="${escapeHtml(href)}" ADD_DATE="${seconds(p.fetchedAt)}"${tags}>${escapeHtml(title)}</A>\n`;
      const snippet = oneLine(p.snippet);
      if (snippet) out += `        <DD>${escapeHtml(snippet)}\n`;
      return out;
    },
    listedOnly: true,
    end: () => '    </DL><p>\n</DL><p>\n',
  };
}

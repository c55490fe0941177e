/**
 * Markdown export: the topic as heading, a line of settings and stats, then the listed pages as a numbered list
 * `1. [title](url) — score 0.42, fresh` with the snippet on an indented line below.
 */
import type { PageResult } from '../../engine';
import type { CrawlRecord } from '../model/records';
import { oneLine } from '../rules/text-safety';
import { crawlTitle, finite, formatScore, httpUrl, localDate, verdicts } from './common';
import type { FormatWriter } from './writer';

/**
 * Escapes one line of text so Markdown shows it literally: backslash-escapes the characters that open links,
 * emphasis, code, HTML, headings, tables, images and strikethrough, entity-like `&...;`, and what would turn the
 * start of a line into a list item or a setext underline.
 */
export function escapeMarkdown(text: string): string {
  let s = oneLine(text)
    .replace(/[\\`*_[\]()<>#|!~]/g, '\\$&')
    .replace(/&(?=#?[a-zA-Z0-9]+;)/g, '\\&');
  s = s.replace(/^(\d+)([.)])/, '$1\\$2').replace(/^[-+=]/, '\\$&');
  return s;
}

/**
 * A URL usable as a Markdown link destination: http(s) only; spaces, parentheses, angle brackets and backslashes
 * are percent-encoded so the link cannot end early or swallow text.
 */
export function markdownUrl(url: unknown): string | undefined {
  const href = httpUrl(url);
  return href?.replace(/[ ()<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function count(n: unknown): string {
  const v = finite(n);
  return v === undefined ? '?' : String(v);
}

/** The settings/stats line under the heading. */
function summary(record: CrawlRecord): string {
  const settings = record?.settings;
  const stats = record?.stats;
  const params = Object.entries(settings?.params ?? {})
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const parts = [
    `Strategy: ${settings?.strategy ?? '?'}${params ? ` (${params})` : ''}`,
    `Pages: ${count(stats?.pagesEvaluated)}/${count(settings?.maxPages ?? stats?.maxPages)}`,
    `Mean score: ${formatScore(stats?.meanScore)}`,
    `Errors: ${count(stats?.errors)}`,
    `Status: ${record?.status ?? '?'}`,
    `Seeds: ${Array.isArray(record?.seeds) ? record.seeds.length : 0}`,
  ];
  const started = localDate(record?.createdAt);
  if (started) parts.push(`Started: ${started}`);
  return parts.map(escapeMarkdown).join(' · ');
}

/** The Markdown text, piece by piece. Only http(s) pages are listed; an empty title shows the URL. */
export function markdownWriter(): FormatWriter {
  let n = 0;
  let judged = verdicts(undefined);
  return {
    begin: (record: CrawlRecord) => {
      judged = verdicts(record);
      const heading = oneLine(record?.topic?.keywords) || crawlTitle(record);
      return `# ${escapeMarkdown(heading)}\n\n${summary(record)}\n\n`;
    },
    page: (p: PageResult) => {
      const url = markdownUrl(p.url);
      if (!url) return '';
      const marker = `${++n}. `;
      const title = escapeMarkdown(oneLine(p.title) || httpUrl(p.url)!);
      const verdict = judged.get(p.url);
      let out = `${marker}[${title}](${url}) — score ${formatScore(p.score)}, ${p.isSeed ? 'seed' : 'fresh'}${verdict ? `, judged ${verdict}` : ''}\n`;
      const snippet = escapeMarkdown(p.snippet ?? '');
      if (snippet) out += `${' '.repeat(marker.length)}${snippet}\n`;
      return out;
    },
    listedOnly: true,
    end: () => (n === 0 ? 'No pages.\n' : ''),
  };
}

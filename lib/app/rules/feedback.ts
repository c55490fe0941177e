/**
 * The user's judgements as the lists show them: thumbs up and down on a result, hidden sites, and the
 * order a judged list takes.
 *
 * - A judgement moves the topic (Rocchio, lib/engine text/feedback.ts), and every listed page is re-scored against the
 *   moved topic from its stored term profile: no page is fetched or parsed again.
 * - Up-voted pages come first, the rest follow by their re-scored score; down-voted pages and the pages of hidden
 *   sites leave the list (the list's "N hidden, show" brings them back).
 * - Judgements live in the crawl record (`CrawlRecord.judgements`), so they survive restarts and go into exports.
 */
import {
  canonicalizeUrl,
  measuredTopic,
  rescore,
  withFeedback,
  type Judgement,
  type JudgementValue,
  type PageResult,
  type TermVector,
  type Topic,
} from '../../engine';
import type { CrawlRecord } from '../model/records';
import { oneLine } from './text-safety';
import { type ListFilter, visiblePages } from './relevance';
import type { StartDraft } from '../model/views';

/** The verdict on each judged URL. */
export function judgementMap(judgements: readonly Judgement[] | undefined): Map<string, 1 | -1> {
  const out = new Map<string, 1 | -1>();
  for (const j of judgements ?? []) out.set(j.url, j.value);
  return out;
}

/**
 * `judgements` with `url` judged `value` (0 removes its judgement); the latest verdict goes last. The same list when
 * nothing changes.
 */
export function applyJudgement(
  judgements: readonly Judgement[] | undefined,
  url: string,
  value: JudgementValue,
  terms: TermVector,
  at: number,
): Judgement[] {
  const key = canonicalizeUrl(url) ?? url;
  const list = judgements ?? [];
  const before = list.find((j) => j.url === key);
  if ((before?.value ?? 0) === value) return [...list];
  const rest = list.filter((j) => j.url !== key);
  return value === 0 ? rest : [...rest, { url: key, value, terms: { ...terms }, at }];
}

/** The site a page belongs to, as "hide this site" hides it: its origin. */
export function siteKey(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Most sites one crawl hides, and the longest site (scheme://host) taken: the import's bounds too. */
export const MAX_HIDDEN_SITES = 10_000;
export const MAX_SITE_CHARS = 300;

/** `sites` with `site` hidden or shown again. Throws when the site is too long or the list is full. */
export function toggleSite(sites: readonly string[] | undefined, site: string, hidden: boolean): string[] {
  if (site.length > MAX_SITE_CHARS) throw new Error(`A site name is at most ${MAX_SITE_CHARS} characters.`);
  const rest = (sites ?? []).filter((s) => s !== site);
  if (hidden && rest.length >= MAX_HIDDEN_SITES) {
    throw new Error(`A crawl hides at most ${MAX_HIDDEN_SITES} sites: show some again first.`);
  }
  return hidden ? [...rest, site] : rest;
}

/** The topic pages are ranked against: the crawl's topic moved by its judgements. */
export function judgedTopic(topic: Topic, judgements: readonly Judgement[] | undefined): Topic {
  return judgements?.length ? withFeedback(topic, judgements) : topic;
}

/**
 * The pages in the order a judged list shows them: up-voted first, then by score against the judged topic (pages
 * whose score moved are copies with the new score; the others are the same objects, so their rows are not redrawn).
 * Without judgements, the pages as given.
 */
export function rankWithFeedback(
  pages: readonly PageResult[],
  topic: Topic,
  judgements: readonly Judgement[] | undefined,
): PageResult[] {
  if (!judgements?.length) return pages as PageResult[];
  const verdicts = judgementMap(judgements);
  const vec = measuredTopic(judgedTopic(topic, judgements));
  const scored = pages.map((p) => {
    const score = rescore(p, vec);
    return score === p.score ? p : { ...p, score };
  });
  const rank = (p: PageResult) => (verdicts.get(p.url) === 1 ? 1 : 0);
  return scored.sort((a, b) => rank(b) - rank(a) || b.score - a.score || (a.url < b.url ? 1 : a.url > b.url ? -1 : 0));
}

/** URLs the list leaves out for the judgements: down-voted pages and every page of a hidden site. */
export function hiddenByFeedback(
  pages: readonly PageResult[],
  judgements: readonly Judgement[] | undefined,
  hiddenSites: readonly string[] | undefined,
): Set<string> {
  const out = new Set<string>();
  for (const j of judgements ?? []) if (j.value === -1) out.add(j.url);
  if (hiddenSites?.length) {
    const sites = new Set(hiddenSites);
    for (const p of pages) if (sites.has(siteKey(p.url))) out.add(p.url);
  }
  return out;
}

/**
 * The start of "More like this": a crawl seeded by one result, its title as the topic and its snippet and main text
 * as the topic's context (the start view opens with it, for the user to confirm).
 */
export function moreLikeThis(page: PageResult): StartDraft {
  const title = oneLine(page.title || page.ogTitle || page.h1 || '');
  const context = [page.snippet, page.mainText ?? ''].map((s) => oneLine(s)).filter(Boolean);
  return {
    topic: title || context[0]?.slice(0, 200) || page.url,
    seeds: [page.url],
    source: { kind: 'page', pageUrl: page.url },
    context,
  };
}

/** What a judged list needs of its crawl. */
export type JudgedCrawl = Pick<CrawlRecord, 'topic' | 'judgements' | 'hiddenSites'>;

/**
 * The rows a judged list shows, in order: {@link rankWithFeedback}, then the list's filter (lib/app/rules/relevance.ts
 * visiblePages) with the down-voted pages and hidden sites added to the user's hidden pages (unless the filter shows
 * hidden pages). An up-voted page stays listed under the relevance cut: the user said it is relevant.
 * `hiddenCount` is what the list's "N hidden, show" counts.
 */
export function judgedRows(
  pages: readonly PageResult[],
  crawl: JudgedCrawl,
  cut: number,
  filter: ListFilter & { showHidden: boolean },
): { rows: PageResult[]; hiddenCount: number } {
  const ranked = rankWithFeedback(pages, crawl.topic, crawl.judgements);
  const hidden = new Set(filter.hidden ?? []);
  for (const url of hiddenByFeedback(pages, crawl.judgements, crawl.hiddenSites)) hidden.add(url);
  const shown = filter.showHidden ? undefined : hidden;
  const visible = new Set(visiblePages(ranked, cut, { ...filter, hidden: shown }).map((p) => p.url));
  const verdicts = judgementMap(crawl.judgements);
  const rows = ranked.filter(
    (p) =>
      visible.has(p.url) || (verdicts.get(p.url) === 1 && !p.noindex && (filter.showSearch || !p.isSeed) && !shown?.has(p.url)),
  );
  let hiddenCount = 0;
  for (const p of pages) if (hidden.has(p.url) && !p.noindex) hiddenCount++;
  return { rows, hiddenCount };
}

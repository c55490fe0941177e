/**
 * What a new crawl starts from, before the user confirms it: the draft the popup fills from a results page, and the
 * one the context menu ("Crawl from here") hands to the start view of the results page through its URL hash.
 * Also checks what the content script returned: it ran in a web page's tab, so its answer is treated as untrusted.
 */
import type { SerpInfo } from '../model/protocol';
import type { CrawlRecord, SeedSource } from '../model/records';
import { cleanContext, cleanSeed, MAX_SEEDS, MAX_TOPIC_LENGTH } from '../rules/settings';
import { oneLine } from '../rules/text-safety';
import type { StartDraft } from '../model/views';

export type { StartDraft };

/** Why a results page gave no results (lib/app/serp's SerpBlocked, as the content script reports it). */
type SerpBlocked = NonNullable<SerpInfo['blocked']>;

/** The parts of contextMenus.OnClickData used here (Firefox adds linkText). */
export interface MenuClick {
  pageUrl?: string;
  linkUrl?: string;
  linkText?: string;
  selectionText?: string;
  frameUrl?: string;
}

/** Page text the background could read for a topic, when it could. */
export interface PageText {
  title?: string;
  headings?: string[];
  /** <html lang>. */
  lang?: string;
  /** The text of the block holding the clicked link (its paragraph, list item or cell). */
  linkContext?: string;
  /** The first paragraph of the page's main text. */
  intro?: string;
}

/**
 * Headings and link texts that name a kind of block, not a subject: they say nothing about a topic. Lowercase,
 * without trailing punctuation.
 */
const GENERIC_TEXT = new Set([
  'see also',
  'related',
  'related articles',
  'related posts',
  'related pages',
  'contents',
  'table of contents',
  'on this page',
  'in this article',
  'navigation',
  'menu',
  'references',
  'external links',
  'further reading',
  'notes',
  'footnotes',
  'comments',
  'share',
  'share this',
  'more',
  'read more',
  'learn more',
  'more info',
  'click here',
  'here',
  'this',
  'link',
  'home',
  'next',
  'previous',
  'prev',
  'up',
  'top',
  'back',
  'back to top',
  'index',
  'source',
  'download',
]);

/** Whether a heading or link text is generic ("See also", "Read more »"): such text never becomes topic or context. */
export function isGenericText(text: string): boolean {
  const t = collapse(text)
    .toLowerCase()
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '');
  return t === '' || GENERIC_TEXT.has(t);
}

/** Page text as a topic: one line, without control or bidi-override characters (a title is any page's to choose). */
const collapse = (s: string) => oneLine(s);

/**
 * The topic a page suggests: its title and its first headings, deduplicated, cut to a sensible length. Site names
 * after a separator ("Espresso guide | Example Coffee") are kept: the user edits the topic before starting.
 */
export function topicFromPage(text: PageText): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const raw of [text.title ?? '', ...(text.headings ?? []).slice(0, 6)]) {
    const t = collapse(String(raw));
    if (!t || isGenericText(t) || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    parts.push(t);
  }
  const topic = parts.join(' ');
  return topic.length > 200 ? topic.slice(0, 200).replace(/\s+\S*$/, '') : topic;
}

/**
 * The draft of a "Crawl from here" click. On a link: the link is the seed. On a page: the page is the seed. The topic
 * is the selection when there is one, else (Firefox) the link text unless it is generic ("Read more"), else the
 * page's title and headings (generic ones such as "See also" left out). The context is what surrounds it: the
 * link's block (its paragraph or list item), else the page's title and first paragraph.
 */
export function draftFromMenu(info: MenuClick, tab: { url?: string; title?: string } | undefined, page?: PageText): StartDraft {
  const link = cleanSeed(info.linkUrl);
  const pageUrl = cleanSeed(info.pageUrl ?? tab?.url);
  const selection = collapse(info.selectionText ?? '');
  const seeds = link ? [link] : pageUrl ? [pageUrl] : [];
  let topic = selection;
  const linkText = collapse(info.linkText ?? '');
  if (!topic && link && linkText && !isGenericText(linkText)) topic = linkText;
  if (!topic) topic = topicFromPage({ title: page?.title ?? tab?.title, headings: page?.headings });
  const kind: SeedSource['kind'] = link ? 'link' : selection ? 'selection' : 'page';
  const source: SeedSource = { kind };
  if (pageUrl) source.pageUrl = pageUrl;
  const context: string[] = [];
  if (link && page?.linkContext) context.push(page.linkContext);
  else {
    const title = collapse(page?.title ?? tab?.title ?? '');
    if (title && !topic.includes(title)) context.push(title);
    if (page?.intro) context.push(page.intro);
  }
  const draft: StartDraft = { topic: topic.slice(0, MAX_TOPIC_LENGTH), seeds, source, context: cleanContext(context) };
  if (page?.lang) draft.pageLang = page.lang.slice(0, 40);
  return draft;
}

/** `#/new?…` for the results page's start view. */
export function startHash(draft: StartDraft): string {
  const q = new URLSearchParams();
  q.set('topic', draft.topic);
  for (const s of draft.seeds) q.append('seed', s);
  q.set('kind', draft.source.kind);
  if (draft.source.pageUrl) q.set('page', draft.source.pageUrl);
  if (draft.source.engine) q.set('engine', draft.source.engine);
  if (draft.source.query) q.set('query', draft.source.query);
  for (const c of draft.context) q.append('ctx', c);
  if (draft.pageLang) q.set('lang', draft.pageLang);
  return `#/new?${q.toString()}`;
}

/** Reads a start view hash back (anything odd in it is dropped: it is a URL anyone can open). */
export function parseStartHash(hash: string): StartDraft {
  const i = hash.indexOf('?');
  const q = new URLSearchParams(i >= 0 ? hash.slice(i + 1) : '');
  const seeds: string[] = [];
  for (const s of q.getAll('seed')) {
    const url = cleanSeed(s);
    if (url && !seeds.includes(url)) seeds.push(url);
    if (seeds.length >= MAX_SEEDS) break;
  }
  const kinds: SeedSource['kind'][] = ['serp', 'page', 'link', 'selection', 'manual'];
  const kind = kinds.find((k) => k === q.get('kind')) ?? 'manual';
  const source: SeedSource = { kind };
  const page = cleanSeed(q.get('page'));
  if (page) source.pageUrl = page;
  const engine = q.get('engine');
  if (engine) source.engine = engine.slice(0, 40);
  const query = q.get('query');
  if (query) source.query = collapse(query).slice(0, MAX_TOPIC_LENGTH);
  const draft: StartDraft = {
    topic: collapse(q.get('topic') ?? '').slice(0, MAX_TOPIC_LENGTH),
    seeds,
    source,
    context: cleanContext(q.getAll('ctx')),
  };
  const lang = q.get('lang');
  if (lang) draft.pageLang = lang.slice(0, 40);
  return draft;
}

/** Checks the content script's answer; null when it is not a results extraction. */
export function toSerpInfo(raw: unknown): SerpInfo | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (!Array.isArray(r.results)) return null;
  const results: SerpInfo['results'] = [];
  for (const item of r.results.slice(0, MAX_SEEDS)) {
    if (typeof item !== 'object' || item === null) continue;
    const it = item as Record<string, unknown>;
    const url = cleanSeed(it.url);
    if (!url) continue;
    results.push({
      url,
      title: typeof it.title === 'string' ? it.title.slice(0, 500) : '',
      snippet: typeof it.snippet === 'string' ? it.snippet.slice(0, 1000) : '',
      rank: typeof it.rank === 'number' && Number.isFinite(it.rank) ? it.rank : results.length + 1,
    });
  }
  const engineName = typeof r.engineName === 'string' ? collapse(r.engineName).slice(0, 40) : '';
  const info: SerpInfo = {
    engine: typeof r.engine === 'string' ? r.engine.slice(0, 40) : null,
    engineName: engineName || null,
    query: typeof r.query === 'string' ? collapse(r.query).slice(0, MAX_TOPIC_LENGTH) : '',
    results,
    linkCount: typeof r.linkCount === 'number' && Number.isFinite(r.linkCount) ? r.linkCount : 0,
  };
  if (typeof r.lang === 'string' && r.lang.trim()) info.lang = r.lang.trim().slice(0, 40);
  const blocked = BLOCKED_REASONS.find((b) => b === r.blocked);
  if (blocked && results.length === 0) {
    info.blocked = blocked;
    info.visibleLinks = cleanLinks(r.visibleLinks);
  }
  return info;
}

const BLOCKED_REASONS: readonly SerpBlocked[] = ['challenge', 'consent', 'no-results', 'unreadable'];

/** The visible links of the content script's answer: http(s) seeds only, deduplicated, at most MAX_SEEDS. */
function cleanLinks(raw: unknown): NonNullable<SerpInfo['visibleLinks']> {
  const links: NonNullable<SerpInfo['visibleLinks']> = [];
  if (!Array.isArray(raw)) return links;
  for (const item of raw) {
    if (links.length >= MAX_SEEDS) break;
    if (typeof item !== 'object' || item === null) continue;
    const it = item as Record<string, unknown>;
    const url = cleanSeed(it.url);
    if (!url || links.some((l) => l.url === url)) continue;
    links.push({ url, text: typeof it.text === 'string' ? collapse(it.text).slice(0, 200) : '' });
  }
  return links;
}

/**
 * What the popup says it read on the tab: a results page's engine and result count; a search page where nothing
 * could be read (a known engine's page, or any page that is a bot check, a consent wall or an empty search), why,
 * and how many visible links it offers instead; or an ordinary page.
 */
export type TabReading =
  | { kind: 'results'; engineName: string | null; count: number }
  | { kind: 'nothing-read'; engineName: string | null; why: SerpBlocked; links: number }
  | { kind: 'page' };

export function tabReading(serp: SerpInfo | null): TabReading {
  if (!serp) return { kind: 'page' };
  if (serp.results.length > 0) return { kind: 'results', engineName: serp.engineName, count: serp.results.length };
  const why = serp.blocked ?? 'unreadable';
  // An unknown page with nothing on it to read is just a page, not a search that failed.
  if (why === 'unreadable' && !serp.engine) return { kind: 'page' };
  return { kind: 'nothing-read', engineName: serp.engineName, why, links: serp.visibleLinks?.length ?? 0 };
}

/**
 * The draft for "start from the links on this page", offered where no result could be read: the page's visible
 * links as seeds, the query (when the page gave one) or the page's title as topic, the link texts as context.
 * Null when the page shows no link to offer.
 */
export function draftFromVisibleLinks(serp: SerpInfo, pageUrl: string, pageTitle: string): StartDraft | null {
  const links = serp.visibleLinks ?? [];
  if (links.length === 0) return null;
  const source: SeedSource = { kind: 'page' };
  const page = cleanSeed(pageUrl);
  if (page) source.pageUrl = page;
  if (serp.engine) source.engine = serp.engine;
  if (serp.query) source.query = serp.query;
  const draft: StartDraft = {
    topic: (serp.query || collapse(pageTitle)).slice(0, MAX_TOPIC_LENGTH),
    seeds: links.map((l) => l.url),
    source,
    context: cleanContext(links.map((l) => l.text).filter((text) => !isGenericText(text))),
  };
  if (serp.lang) draft.pageLang = serp.lang;
  return draft;
}

/**
 * The draft for the popup on a results page: the query as topic, the organic results as seeds, their titles and
 * snippets as context (the engine's own description of the topic).
 */
export function draftFromSerp(serp: SerpInfo, pageUrl: string): StartDraft {
  const source: SeedSource = { kind: 'serp', query: serp.query };
  if (serp.engine) source.engine = serp.engine;
  const page = cleanSeed(pageUrl);
  if (page) source.pageUrl = page;
  const context = cleanContext(serp.results.flatMap((r) => [r.title, r.snippet]));
  const draft: StartDraft = { topic: serp.query, seeds: serp.results.map((r) => r.url), source, context };
  if (serp.lang) draft.pageLang = serp.lang;
  return draft;
}

/** A draft that starts a crawl again as it was started (Retry; Edit opens it in the start view). */
export function draftFromRecord(record: CrawlRecord): StartDraft {
  const draft: StartDraft = {
    topic: record.topic.keywords,
    seeds: [...record.seeds],
    source: { ...record.source },
    context: [...(record.topic.context ?? [])],
  };
  return draft;
}

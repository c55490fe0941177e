/**
 * Search-results-page extraction: given a rendered results page (its Document and URL), the query and the organic
 * result links, which become a crawl's topic and seeds. Plain DOM reading on the document passed in (no globals),
 * so it runs in a content script, in Node under linkedom, or anywhere a Document exists.
 *
 * Two ways to find results: the engine's selectors (engines are data, lib/app/serp/engines), and when they find
 * nothing (unknown engine, changed markup) a structural fallback: links holding (or held by) an <h2>/<h3>
 * (then, failing those, links holding an ARIA heading or an element classed as a title).
 * Both end in the same filter: redirect wrappers removed, http(s) only, no engine-owned or ad hosts,
 * deduplicated by canonical URL, page order kept.
 */
import { canonicalizeUrl } from '../../engine';
import { ENGINES } from './engines/index';
import { domainMatches, hostMatches, isAdHost } from './hosts';
import { isRedirectWrapper, unwrapRedirect } from './redirect';
import type { EngineSpec, SerpExtraction, SerpResult } from './types';

/** The part of the DOM the extractor uses; a browser Document or a linkedom one both fit. */
export type QueryRoot = Pick<ParentNode, 'querySelector' | 'querySelectorAll'>;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
/** Elements whose text is never visible. */
const INVISIBLE = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT']);
/** Elements that separate words even when the markup has no whitespace between them. */
const BREAKING = new Set([
  'BR',
  'DIV',
  'P',
  'LI',
  'TD',
  'TH',
  'TR',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'UL',
  'OL',
  'TABLE',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'CITE',
  'BLOCKQUOTE',
]);
const MAX_TITLE = 300;
const MAX_SNIPPET = 500;
/** Query parameters tried on pages of unknown engines. */
const DEFAULT_QUERY_PARAMS = ['q', 'query', 'search', 'text', 'p'];
/** Page furniture that never holds organic results (used by the structural fallback). */
const GENERIC_EXCLUDE = [
  'header',
  'footer',
  'nav',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[aria-label="Ads"]',
  '[aria-label="Sponsored"]',
  '[data-text-ad]',
];

/** querySelectorAll that treats an invalid selector (bad engine data) as matching nothing. */
function queryAll(root: QueryRoot, selector: string): Element[] {
  try {
    return Array.from(root.querySelectorAll(selector));
  } catch {
    return [];
  }
}

function queryOne(root: QueryRoot, selector: string): Element | null {
  try {
    return root.querySelector(selector);
  } catch {
    return null;
  }
}

function closest(el: Element, selector: string): Element | null {
  try {
    return el.closest(selector);
  } catch {
    return null;
  }
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function cap(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

/** The text a reader sees: script/style contents skipped, block boundaries kept as spaces, whitespace collapsed. */
export function visibleText(el: Element): string {
  const parts: string[] = [];
  const walk = (node: Node, depth: number): void => {
    // Depth bound: hostile pages can nest deeply enough to exhaust the stack.
    if (depth > 200) return;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        parts.push(child.nodeValue ?? '');
      } else if (child.nodeType === ELEMENT_NODE) {
        const tag = (child as Element).tagName.toUpperCase();
        if (INVISIBLE.has(tag)) continue;
        const breaks = BREAKING.has(tag);
        if (breaks) parts.push(' ');
        walk(child, depth + 1);
        if (breaks) parts.push(' ');
      }
    }
  };
  walk(el, 0);
  return collapse(parts.join(''));
}

/** Whether a path is one of the engine's results paths. */
function pathMatches(path: string, pattern: string): boolean {
  if (pattern === '/') return path === '/' || path === '';
  if (pattern.endsWith('/')) return path.startsWith(pattern) || path === pattern.slice(0, -1);
  if (!path.startsWith(pattern)) return false;
  const next = path.charAt(pattern.length);
  return next === '' || next === '/' || next === ';';
}

/**
 * The engine whose results page `url` is (host and path both match), or undefined.
 * @param engines the engine data to choose from (default: all known engines)
 */
export function detectEngine(url: string, engines: readonly EngineSpec[] = ENGINES): EngineSpec | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return engines.find((e) => e.hosts.some((h) => hostMatches(u.hostname, h)) && e.paths.some((p) => pathMatches(u.pathname, p)));
}

/** The query from the URL, else from the search box. */
function findQuery(doc: QueryRoot, page: URL, engine: EngineSpec | null | undefined): string {
  const params = engine?.queryParam ?? DEFAULT_QUERY_PARAMS;
  for (const name of params) {
    const value = collapse(page.searchParams.get(name) ?? '');
    // On unknown engines 'p' is as often a page number as a query.
    if (value && !(!engine && /^\d+$/.test(value))) return value;
  }
  const inputs =
    engine?.queryInput ?? params.flatMap((n) => [`input[name="${n}"]`, `textarea[name="${n}"]`]).concat('input[type="search"]');
  for (const selector of inputs) {
    for (const el of queryAll(doc, selector)) {
      // The attribute is what the server rendered for this page; the property is what a script set later.
      const value =
        el.tagName.toUpperCase() === 'TEXTAREA'
          ? (el.textContent ?? (el as HTMLTextAreaElement).value)
          : (el.getAttribute('value') ?? (el as HTMLInputElement).value);
      const q = collapse(typeof value === 'string' ? value : '');
      if (q) return q;
    }
  }
  return '';
}

/** The document's base URL: <base href> resolved against the page URL, else the page URL. */
function baseUrl(doc: QueryRoot, pageUrl: string): string {
  const href = queryOne(doc, 'base[href]')?.getAttribute('href');
  if (href) {
    try {
      return new URL(href, pageUrl).href;
    } catch {
      /* a broken <base> is ignored, as browsers do */
    }
  }
  return pageUrl;
}

interface Context {
  base: string;
  /** Domains never taken as seeds (engine-owned, the page's own host). */
  ownDomains: string[];
  exclude: Exclusions;
  seen: Set<string>;
  results: SerpResult[];
}

/**
 * The elements matched by exclusion selectors, found once per page (one combined query; per selector when the
 * combination is invalid, so one bad selector in engine data does not disable the others).
 */
class Exclusions {
  private readonly roots: Set<Element>;

  constructor(doc: QueryRoot, selectors: readonly string[]) {
    let found: Element[] = [];
    if (selectors.length > 0) {
      try {
        found = Array.from(doc.querySelectorAll(selectors.join(', ')));
      } catch {
        found = selectors.flatMap((s) => queryAll(doc, s));
      }
    }
    this.roots = new Set(found);
  }

  /** Whether `el` is, or sits inside, an excluded block. */
  has(el: Element): boolean {
    if (this.roots.size === 0) return false;
    for (let p: Element | null = el; p; p = p.parentElement) if (this.roots.has(p)) return true;
    return false;
  }
}

/** Resolves, unwraps and filters a link; adds the result unless it is a duplicate. Returns whether it was added. */
function accept(ctx: Context, href: string | null, title: string, snippet: string): boolean {
  if (!href) return false;
  const target = unwrapRedirect(href, ctx.base, ENGINES);
  if (!target) return false;
  const url = canonicalizeUrl(target);
  if (!url) return false;
  const parsed = new URL(url);
  const host = parsed.hostname;
  if (ctx.ownDomains.some((d) => domainMatches(host, d)) || isAdHost(host)) return false;
  // A wrapper that could not be unwrapped (malformed, or pointing at a non-http target) leads nowhere useful.
  if (isRedirectWrapper(parsed, ENGINES)) return false;
  if (ctx.seen.has(url)) return false;
  ctx.seen.add(url);
  ctx.results.push({
    url,
    title: cap(title || host, MAX_TITLE),
    snippet: cap(snippet, MAX_SNIPPET),
    rank: ctx.results.length + 1,
  });
  return true;
}

/** Drops elements that sit inside another element of the list (keeps the outermost). */
function outermost(elements: Element[]): Element[] {
  const set = new Set(elements);
  return elements.filter((el) => {
    for (let p = el.parentElement; p; p = p.parentElement) if (set.has(p)) return false;
    return true;
  });
}

/** For every element between the titles and their container: how many titles it holds. */
function titleCounts(titles: readonly Element[], container: Element): Map<Element, number> {
  const counts = new Map<Element, number>();
  for (const title of titles) {
    for (let el: Element | null = title; el && el !== container; el = el.parentElement) {
      counts.set(el, (counts.get(el) ?? 0) + 1);
    }
  }
  return counts;
}

/** The largest ancestor of `title`, below `container` (or the container itself), that holds no other title: the result's own block. */
function resultBlock(title: Element, container: Element, counts: Map<Element, number>, titleCount: number): Element {
  let block = title;
  while (block !== container) {
    const parent = block.parentElement;
    if (!parent) break;
    const n = parent === container ? titleCount : (counts.get(parent) ?? 0);
    if (n > 1) break;
    block = parent;
  }
  return block;
}

function findLink(title: Element, block: Element, engine: EngineSpec): Element | null {
  const around = closest(title, 'a[href]');
  if (around) return around;
  for (const s of [...engine.results.link, 'a[href]']) {
    const inside = queryOne(title, s);
    if (inside && inside.getAttribute('href') !== null) return inside;
  }
  for (const s of engine.results.link) {
    const found = queryOne(block, s);
    if (found && found.getAttribute('href') !== null) return found;
  }
  return null;
}

function findSnippet(block: Element, title: Element, link: Element, engine: EngineSpec): string {
  for (const s of engine.results.snippet) {
    for (const el of queryAll(block, s)) {
      if (el === title || title.contains(el) || el.contains(title) || link.contains(el)) continue;
      const text = visibleText(el);
      if (text) return text;
    }
  }
  return '';
}

/** Results found with the engine's selectors (first container selector that yields any). */
function bySelectors(doc: QueryRoot, ctx: Context, engine: EngineSpec): void {
  const adMarkers = engine.adMarkers ?? [];
  for (const containerSelector of engine.results.container) {
    const containers = outermost(queryAll(doc, containerSelector)).filter((c) => !ctx.exclude.has(c));
    for (const container of containers) {
      const titleSelector = engine.results.title.find((s) => queryOne(container, s) !== null);
      if (!titleSelector) continue;
      const titles = queryAll(container, titleSelector);
      const counts = titleCounts(titles, container);
      for (const title of titles) {
        if (ctx.exclude.has(title)) continue;
        const block = resultBlock(title, container, counts, titles.length);
        if (adMarkers.some((m) => queryOne(block, m) !== null)) continue;
        const link = findLink(title, block, engine);
        if (!link || ctx.exclude.has(link)) continue;
        const text = visibleText(title) || visibleText(link);
        accept(ctx, link.getAttribute('href'), text, findSnippet(block, title, link, engine));
      }
    }
    if (ctx.results.length > 0) return;
  }
}

/**
 * Heading-like elements inside a link, strongest cue first. The fallback uses the first tier that yields any
 * result: real headings (<h2>/<h3>, which nearly every engine uses for result titles), then ARIA headings and
 * elements classed as titles (engines that style divs, e.g. Brave).
 */
const FALLBACK_TIERS: readonly { inside: string; around: string | null }[] = [
  { inside: 'h2, h3', around: 'h2, h3' },
  { inside: '[role="heading"], [class*="title"]', around: null },
];

/** Structural fallback: links holding (or held by) a heading, outside page furniture and excluded blocks. */
function byStructure(doc: QueryRoot, ctx: Context): void {
  const furniture = new Exclusions(doc, GENERIC_EXCLUDE);
  const anchors = queryAll(doc, 'a[href]').filter((a) => !ctx.exclude.has(a) && !furniture.has(a));
  for (const tier of FALLBACK_TIERS) {
    for (const a of anchors) {
      const heading = queryOne(a, tier.inside) ?? (tier.around ? closest(a, tier.around) : null);
      if (!heading) continue;
      const title = a.contains(heading) ? visibleText(heading) : visibleText(a);
      if (title) accept(ctx, a.getAttribute('href'), title, '');
    }
    if (ctx.results.length > 0) return;
  }
}

/**
 * Extracts the query and the organic results of a search-results page.
 * @param doc the rendered page (a Document, or anything with querySelector/querySelectorAll)
 * @param pageUrl the page's URL (resolution base unless the page has <base href>)
 * @param engine the engine's data; default: detected from `pageUrl`; null: treat the page as an unknown engine's
 *   (structural fallback only).
 * @throws TypeError when `pageUrl` is not an absolute URL
 */
export function extractSerp(
  doc: QueryRoot,
  pageUrl: string,
  engine: EngineSpec | null | undefined = detectEngine(pageUrl),
): SerpExtraction {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    throw new TypeError(`extractSerp: page URL is not an absolute URL: ${String(pageUrl).slice(0, 200)}`);
  }
  const ctx: Context = {
    base: baseUrl(doc, page.href),
    ownDomains: [...(engine?.ownDomains ?? []), page.hostname],
    exclude: new Exclusions(doc, engine?.exclude ?? []),
    seen: new Set(),
    results: [],
  };
  let via: SerpExtraction['via'] = 'engine';
  if (engine) bySelectors(doc, ctx, engine);
  if (ctx.results.length === 0) {
    via = 'fallback';
    byStructure(doc, ctx);
  }
  return {
    engine: engine?.id ?? null,
    query: findQuery(doc, page, engine),
    results: ctx.results,
    linkCount: queryAll(doc, 'a[href]').length,
    via,
  };
}

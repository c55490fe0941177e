/**
 * Search-results-page extraction: given a rendered results page (its Document and URL), the query and the organic
 * result links, which become a crawl's topic and seeds. Plain DOM reading on the document passed in (no globals),
 * so it runs in a content script, in Node under linkedom, or anywhere a Document exists.
 *
 * Two ways to find results: the engine's selectors (engines are data, lib/app/serp/engines), and when they find
 * nothing (unknown engine, changed markup) a structural fallback: links holding (or held by) an <h2>/<h3>
 * (then, failing those, links holding an ARIA heading or an element classed as a title).
 * Both end in the same steps: results the user cannot see are dropped; a title nested in an earlier result's block
 * of the same site is that result's sub-result (sitelinks, "more results from this site"), not a result; redirect
 * wrappers are removed; http(s) only; the engine's navigation and ad hosts are dropped; duplicates too; page order
 * is kept and the number of results capped.
 */
import { canonicalizeUrl } from '../../engine';
import { ENGINES } from './engines/index';
import { domainMatches, hostMatches, isAdHost, siteOf } from './hosts';
import { isRedirectWrapper, unwrapRedirect } from './redirect';
import type { EngineSpec, ExtractOptions, SerpExtraction, SerpResult } from './types';

/** The part of the DOM the extractor uses; a browser Document or a linkedom one both fit. */
export type QueryRoot = Pick<ParentNode, 'querySelector' | 'querySelectorAll'>;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
/** Node.compareDocumentPosition: the other node follows. */
const FOLLOWING = 4;
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
/** A description read from a result's longest text must be at least this long (shorter runs are dates, labels). */
const MIN_FALLBACK_SNIPPET = 25;
/** Results kept from a known engine's page (100 per page is the most any engine serves) and from any other page. */
const MAX_RESULTS_KNOWN = 100;
const MAX_RESULTS_UNKNOWN = 50;
/** How far above a module heading the module's block may start (sectionHeadings). */
const SECTION_DEPTH = 3;
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

/**
 * The text a reader sees: script/style contents skipped, block boundaries kept as spaces, whitespace collapsed.
 * @param skip elements whose text is left out (with everything inside them)
 */
export function visibleText(el: Element, skip?: ReadonlySet<Element>): string {
  const parts: string[] = [];
  const walk = (node: Node, depth: number): void => {
    // Depth bound: hostile pages can nest deeply enough to exhaust the stack.
    if (depth > 200) return;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        parts.push(child.nodeValue ?? '');
      } else if (child.nodeType === ELEMENT_NODE) {
        const tag = (child as Element).tagName.toUpperCase();
        if (INVISIBLE.has(tag) || skip?.has(child as Element)) continue;
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

/** Inline styles that hide an element and everything in it (no descendant can undo them). */
const INLINE_REMOVED = /(?:^|;)\s*display\s*:\s*none\b/i;
/** Inline styles that hide an element itself; its descendants may set visibility:visible again. */
const INLINE_INVISIBLE = /(?:^|;)\s*(?:visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0(?:\.0*)?\s*(?:;|$|!))/i;

/**
 * Whether the markup alone lets the user see `el`: no `hidden` attribute and no inline `display:none` on it or an
 * ancestor, no inline `visibility:hidden` or `opacity:0` on the element itself (on an ancestor they decide
 * nothing: a descendant may be visible again, and real pages do that). What needs stylesheets and layout is the
 * content script's check (ExtractOptions.isVisible, lib/app/serp/visibility.ts).
 */
export function markupVisible(el: Element): boolean {
  const own = el.getAttribute('style');
  if (own && INLINE_INVISIBLE.test(own)) return false;
  for (let p: Element | null = el; p; p = p.parentElement) {
    const hidden = p.getAttribute('hidden');
    if (hidden !== null && hidden !== 'until-found') return false;
    const style = p.getAttribute('style');
    if (style && INLINE_REMOVED.test(style)) return false;
  }
  return true;
}

/** Whether a path is one of the engine's results paths. */
function pathMatches(path: string, pattern: string): boolean {
  if (pattern === '/') return path === '/' || path === '';
  if (pattern.endsWith('/')) return path.startsWith(pattern) || path === pattern.slice(0, -1);
  if (!path.startsWith(pattern)) return false;
  const next = path.charAt(pattern.length);
  return next === '' || next === '/' || next === ';';
}

function httpUrl(url: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
}

/**
 * The engine whose results page `url` is (host and path both match), or undefined.
 * @param engines the engine data to choose from (default: all known engines)
 */
export function detectEngine(url: string, engines: readonly EngineSpec[] = ENGINES): EngineSpec | undefined {
  const u = httpUrl(url);
  if (!u) return undefined;
  return engines.find((e) => e.hosts.some((h) => hostMatches(u.hostname, h)) && e.paths.some((p) => pathMatches(u.pathname, p)));
}

/** The engine whose bot-challenge page `url` is, or undefined. */
export function detectChallenge(url: string, engines: readonly EngineSpec[] = ENGINES): EngineSpec | undefined {
  const u = httpUrl(url);
  if (!u) return undefined;
  return engines.find(
    (e) =>
      e.challenge && e.hosts.some((h) => hostMatches(u.hostname, h)) && e.challenge.paths.some((p) => pathMatches(u.pathname, p)),
  );
}

/** Whether `url` is a results page (with a query) of one of the known engines: navigation, never a result. */
function isResultsPage(url: URL): boolean {
  const engine = detectEngine(url.href);
  return !!engine && engine.queryParam.some((name) => (url.searchParams.get(name) ?? '').trim() !== '');
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

  add(el: Element): void {
    this.roots.add(el);
  }

  /** Whether `el` is, or sits inside, an excluded block. */
  has(el: Element): boolean {
    if (this.roots.size === 0) return false;
    for (let p: Element | null = el; p; p = p.parentElement) if (this.roots.has(p)) return true;
    return false;
  }
}

/** One title found on the page, with its link and the block of the page that is its result. */
interface Candidate {
  title: Element;
  link: Element;
  block: Element;
  /** Canonical target, redirect wrapper removed. */
  url: string;
  /** Site of the target (siteOf), for telling sub-results apart. */
  site: string;
  text: string;
}

interface Context {
  base: string;
  engine: EngineSpec | null;
  pageHost: string;
  exclude: Exclusions;
  isVisible: (el: Element) => boolean;
  maxResults: number;
  seen: Set<string>;
  results: SerpResult[];
  hidden: number;
  overCap: number;
}

/**
 * Whether a result link is the engine's own navigation: a results page of any known engine, a link to the engine's
 * service domains, or one on its results hosts under a results or navigation path. On an unknown engine's page,
 * every link to the page's own host is.
 */
function isNavigation(ctx: Context, url: URL): boolean {
  const host = url.hostname;
  const engine = ctx.engine;
  if (!engine) return domainMatches(host, ctx.pageHost);
  if (isResultsPage(url)) return true;
  if ((engine.serviceDomains ?? []).some((d) => domainMatches(host, d))) return true;
  if (!engine.hosts.some((h) => hostMatches(host, h))) return false;
  return [...engine.paths, ...(engine.navigationPaths ?? [])].some((p) => pathMatches(url.pathname, p));
}

/** The canonical http(s) target of a result link, or null when it is none or not a result (navigation, ad, wrapper). */
function resultTarget(ctx: Context, href: string | null): string | null {
  if (!href) return null;
  const target = unwrapRedirect(href, ctx.base, ENGINES);
  if (!target) return null;
  const url = canonicalizeUrl(target);
  if (!url) return null;
  const parsed = new URL(url);
  if (isAdHost(parsed.hostname) || isNavigation(ctx, parsed)) return null;
  // A wrapper that could not be unwrapped (malformed, or pointing at a non-http target) leads nowhere useful.
  if (isRedirectWrapper(parsed, ENGINES)) return null;
  return url;
}

/** Adds a result unless it is a duplicate or over the cap. */
function accept(ctx: Context, c: Candidate, snippet: string): void {
  if (ctx.seen.has(c.url)) return;
  ctx.seen.add(c.url);
  if (ctx.results.length >= ctx.maxResults) {
    ctx.overCap++;
    return;
  }
  ctx.results.push({
    url: c.url,
    title: cap(c.text || new URL(c.url).hostname, MAX_TITLE),
    snippet: cap(snippet, MAX_SNIPPET),
    rank: ctx.results.length + 1,
  });
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

/** Whether a result is shown: its title (or link) visible, and nothing between the title and its block aria-hidden. */
function isShown(ctx: Context, c: Candidate): boolean {
  if (c.link.getAttribute('aria-hidden') === 'true') return false;
  for (let p: Element | null = c.title; p; p = p.parentElement) {
    if (p.getAttribute('aria-hidden') === 'true') return false;
    if (p === c.block) break;
  }
  return ctx.isVisible(c.link.contains(c.title) ? c.title : c.link);
}

/**
 * Leaves out titles nested in an earlier result of the same site (Google's indented "more results from this
 * site", sitelinks with their own headings): a title is a sub-result when some block above it holds only titles of
 * its site, starting with an earlier one that sits less deep in the block than it does. A list of one site's
 * results has them side by side, at one depth, and keeps them all.
 */
function dropSubResults(candidates: Candidate[], container: Element, sideBySide: boolean): Candidate[] {
  const first = new Map<Element, number>();
  const site = new Map<Element, string | null>();
  candidates.forEach((c, i) => {
    for (let el = c.title.parentElement; el && el !== container; el = el.parentElement) {
      if (!first.has(el)) first.set(el, i);
      const s = site.get(el);
      site.set(el, s === undefined || s === c.site ? c.site : null);
    }
  });
  const depthBelow = (el: Element, ancestor: Element): number => {
    let depth = 0;
    for (let p = el.parentElement; p && p !== ancestor; p = p.parentElement) depth++;
    return depth;
  };
  return candidates.filter((c, i) => {
    for (let el = c.title.parentElement; el && el !== container; el = el.parentElement) {
      // Above a block holding another site's title, every block holds one too: no parent result up there.
      if (site.get(el) !== c.site) return true;
      const f = first.get(el) ?? i;
      if (f < i && depthBelow(c.title, el) >= depthBelow(candidates[f].title, el) + (sideBySide ? 0 : 1)) return false;
    }
    return true;
  });
}

/**
 * The blocks opened by module headings (EngineSpec.sectionHeadings) inside `container`: for each heading, its
 * nearest ancestor (at most SECTION_DEPTH levels up, below the container) that holds titles, when all of them
 * follow the heading.
 */
function sectionBlocks(container: Element, selectors: readonly string[], titles: readonly Element[]): Element[] {
  if (selectors.length === 0 || titles.length === 0) return [];
  const firstTitle = new Map<Element, Element>();
  for (const title of titles) {
    for (let el = title.parentElement; el && el !== container; el = el.parentElement)
      if (!firstTitle.has(el)) firstTitle.set(el, title);
  }
  const blocks: Element[] = [];
  for (const heading of queryAll(container, selectors.join(', '))) {
    let el = heading.parentElement;
    for (let depth = 1; el && el !== container && depth <= SECTION_DEPTH; depth++, el = el.parentElement) {
      const first = firstTitle.get(el);
      if (!first) continue;
      if (heading.compareDocumentPosition(first) & FOLLOWING) blocks.push(el);
      break;
    }
  }
  return blocks;
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

function isPartOfTitle(el: Element, c: Candidate): boolean {
  return el === c.title || c.title.contains(el) || el.contains(c.title) || c.link.contains(el) || el.contains(c.link);
}

/** Elements examined for a result's longest text (a hostile block could hold thousands). */
const MAX_TEXT_CANDIDATES = 400;

/** The longest link-free text of a result's block outside its title: the description when no selector names it. */
function longestText(c: Candidate): string {
  let best = '';
  let examined = 0;
  for (const el of queryAll(c.block, 'div, p, span, td, dd, li')) {
    if (++examined > MAX_TEXT_CANDIDATES) break;
    if (isPartOfTitle(el, c) || queryOne(el, 'a[href]') || closest(el, 'a[href]')) continue;
    if ((el.textContent ?? '').length <= best.length) continue;
    const text = visibleText(el);
    if (text.length > best.length) best = text;
  }
  return best.length >= MIN_FALLBACK_SNIPPET ? best : '';
}

function findSnippet(c: Candidate, selectors: readonly string[]): string {
  for (const s of selectors) {
    for (const el of queryAll(c.block, s)) {
      if (el === c.title || c.title.contains(el) || el.contains(c.title) || c.link.contains(el)) continue;
      const text = visibleText(el);
      if (text) return text;
    }
  }
  return longestText(c);
}

/** Candidates for `titles` in `container`: linked, resolvable, shown, not navigation or ads, sub-results left out. */
function candidatesOf(
  ctx: Context,
  container: Element,
  titles: Element[],
  linkOf: (title: Element, block: Element) => Element | null,
  adMarkers: readonly string[],
  titleExclude: readonly string[] = [],
  groupsSideBySide = false,
): Candidate[] {
  const counts = titleCounts(titles, container);
  const found: Candidate[] = [];
  for (const title of titles) {
    if (ctx.exclude.has(title)) continue;
    const block = resultBlock(title, container, counts, titles.length);
    if (adMarkers.some((m) => queryOne(block, m) !== null)) continue;
    const link = linkOf(title, block);
    if (!link || ctx.exclude.has(link)) continue;
    const url = resultTarget(ctx, link.getAttribute('href'));
    if (!url) continue;
    const skip = new Set(titleExclude.flatMap((sel) => queryAll(title, sel)));
    const text = visibleText(title, skip) || visibleText(link, skip);
    // The port counts: two servers on one host are two sites (the test web is many sites on 127.0.0.1).
    const c: Candidate = { title, link, block, url, site: siteOf(new URL(url).host), text };
    if (!isShown(ctx, c)) {
      ctx.hidden++;
      continue;
    }
    found.push(c);
  }
  return dropSubResults(found, container, groupsSideBySide);
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
      for (const block of sectionBlocks(container, engine.sectionHeadings ?? [], titles)) ctx.exclude.add(block);
      const linkOf = (title: Element, block: Element) => findLink(title, block, engine);
      const found = candidatesOf(ctx, container, titles, linkOf, adMarkers, engine.results.titleExclude, true);
      for (const c of found) accept(ctx, c, findSnippet(c, engine.results.snippet));
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
function byStructure(doc: QueryRoot, ctx: Context, root: Element): void {
  const furniture = new Exclusions(doc, GENERIC_EXCLUDE);
  const anchors = queryAll(doc, 'a[href]').filter((a) => !ctx.exclude.has(a) && !furniture.has(a));
  for (const tier of FALLBACK_TIERS) {
    const linkOfTitle = new Map<Element, Element>();
    const titles: Element[] = [];
    for (const a of anchors) {
      const heading = queryOne(a, tier.inside) ?? (tier.around ? closest(a, tier.around) : null);
      if (!heading || linkOfTitle.has(heading)) continue;
      linkOfTitle.set(heading, a);
      titles.push(heading);
    }
    const linkOf = (title: Element) => linkOfTitle.get(title) ?? null;
    for (const c of candidatesOf(ctx, root, titles, linkOf, [])) if (c.text) accept(ctx, c, longestText(c));
    if (ctx.results.length > 0) return;
  }
}

/**
 * Extracts the query and the organic results of a search-results page.
 * @param doc the rendered page (a Document, or anything with querySelector/querySelectorAll)
 * @param pageUrl the page's URL (resolution base unless the page has <base href>)
 * @param engine the engine's data; default: detected from `pageUrl`; null: treat the page as an unknown engine's
 *   (structural fallback only).
 * @param options how to tell what the user sees, and the cap on results
 * @throws TypeError when `pageUrl` is not an absolute URL
 */
export function extractSerp(
  doc: QueryRoot,
  pageUrl: string,
  engine?: EngineSpec | null,
  options: ExtractOptions = {},
): SerpExtraction {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    throw new TypeError(`extractSerp: page URL is not an absolute URL: ${String(pageUrl).slice(0, 200)}`);
  }
  const linkCount = queryAll(doc, 'a[href]').length;
  if (engine === undefined) {
    const challenged = detectChallenge(page.href);
    if (challenged?.challenge) {
      // The challenge stands in for a results page: its query is the one the user asked.
      let query = '';
      const next = page.searchParams.get(challenged.challenge.continueParam);
      if (next) {
        try {
          query = findQuery(doc, new URL(next, page), challenged);
        } catch {
          /* an unparseable continue URL: no query */
        }
      }
      return { engine: challenged.id, query, results: [], linkCount, via: 'engine', challenge: true, hidden: 0, overCap: 0 };
    }
  }
  const spec = engine === undefined ? (detectEngine(page.href) ?? null) : engine;
  const ctx: Context = {
    base: baseUrl(doc, page.href),
    engine: spec,
    pageHost: page.hostname,
    exclude: new Exclusions(doc, spec?.exclude ?? []),
    isVisible: options.isVisible ?? markupVisible,
    maxResults: options.maxResults ?? (spec ? MAX_RESULTS_KNOWN : MAX_RESULTS_UNKNOWN),
    seen: new Set(),
    results: [],
    hidden: 0,
    overCap: 0,
  };
  let via: SerpExtraction['via'] = 'engine';
  if (spec) bySelectors(doc, ctx, spec);
  if (ctx.results.length === 0) {
    via = 'fallback';
    ctx.hidden = 0;
    const root = queryOne(doc, 'body') ?? queryOne(doc, 'html');
    if (root) byStructure(doc, ctx, root);
  }
  return {
    engine: spec?.id ?? null,
    query: findQuery(doc, page, spec),
    results: ctx.results,
    linkCount,
    via,
    challenge: false,
    hidden: ctx.hidden,
    overCap: ctx.overCap,
  };
}

/**
 * Search-results-page extraction: given a rendered results page (its Document and URL), the query and the organic
 * result links, which become a crawl's topic and seeds. Plain DOM reading on the document passed in (no globals),
 * so it runs in a content script, in Node under linkedom, or anywhere a Document exists.
 *
 * Two ways to find results: the engine's selectors (engines are data, lib/app/serp/engines), and when they find
 * nothing (unknown engine, changed markup) the structural fallback (fallback.ts). Both end in the same steps
 * (results.ts). A page that gives nothing says why (blocked.ts) and offers the links the user can see on it.
 */
import { visibleLinks, whyBlocked } from './blocked';
import { closest, Exclusions, markupVisible, outermost, type QueryRoot, queryAll, queryOne } from './dom';
import { ENGINES } from './engines/index';
import { byStructure } from './fallback';
import { baseUrl, detectChallenge, detectEngine, findQuery } from './page';
import { accept, type Context, candidatesOf, findSnippet, sectionBlocks } from './results';
import type { EngineSpec, ExtractOptions, SerpExtraction } from './types';

export { detectChallenge, detectEngine } from './page';
export { markupVisible, visibleText, type QueryRoot } from './dom';

/** Results kept from one page: 100 is the most any engine serves on one page. */
const MAX_RESULTS = 100;

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

/** Results found with the engine's selectors (first container selector that yields any). */
function bySelectors(doc: QueryRoot, ctx: Context, engine: EngineSpec): void {
  const adMarkers = engine.adMarkers ?? [];
  const rules = {
    linkOf: (title: Element, block: Element) => findLink(title, block, engine),
    isAd: (block: Element) => adMarkers.some((m) => queryOne(block, m) !== null),
    titleExclude: engine.results.titleExclude,
    groupsSideBySide: true,
  };
  for (const containerSelector of engine.results.container) {
    const containers = outermost(queryAll(doc, containerSelector)).filter((c) => !ctx.exclude.has(c));
    for (const container of containers) {
      const titleSelector = engine.results.title.find((s) => queryOne(container, s) !== null);
      if (!titleSelector) continue;
      const titles = queryAll(container, titleSelector);
      const headings = (engine.sectionHeadings ?? []).flatMap((s) => queryAll(container, s));
      for (const block of sectionBlocks(container, headings, titles)) ctx.exclude.add(block);
      for (const c of candidatesOf(ctx, container, titles, rules)) accept(ctx, c, findSnippet(c, engine.results.snippet));
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
 * @param options how to tell what the user sees, the cap on results, the engine data to use
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
  const engines = options.engines ?? ENGINES;
  const isVisible = options.isVisible ?? markupVisible;
  const base = baseUrl(doc, page.href);
  const linkCount = queryAll(doc, 'a[href]').length;
  const challenged = engine === undefined ? detectChallenge(page.href, engines) : undefined;
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
    return {
      engine: challenged.id,
      engineName: challenged.name,
      query,
      results: [],
      linkCount,
      via: 'engine',
      challenge: true,
      hidden: 0,
      overCap: 0,
      redirects: 0,
      blocked: 'challenge',
      visibleLinks: visibleLinks(doc, base, page.hostname, engines, isVisible),
    };
  }
  const spec = engine === undefined ? (detectEngine(page.href, engines) ?? null) : engine;
  const query = findQuery(doc, page, spec);
  const ctx: Context = {
    base,
    engine: spec,
    engines,
    pageHost: page.hostname,
    query: query.toLowerCase(),
    exclude: new Exclusions(doc, spec?.exclude ?? []),
    isVisible,
    maxResults: options.maxResults ?? MAX_RESULTS,
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
  const extraction: SerpExtraction = {
    engine: spec?.id ?? null,
    engineName: spec?.name ?? null,
    query,
    results: ctx.results,
    linkCount,
    via,
    challenge: false,
    hidden: ctx.hidden,
    overCap: ctx.overCap,
    redirects: ctx.results.filter((r) => r.redirect).length,
  };
  if (ctx.results.length === 0) {
    extraction.blocked = whyBlocked(doc, base, spec);
    extraction.challenge = extraction.blocked === 'challenge';
    extraction.visibleLinks = visibleLinks(doc, base, page.hostname, engines, isVisible);
  }
  return extraction;
}

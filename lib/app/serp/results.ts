/**
 * From titles to results, the steps engine selectors and the structural fallback share: each title's link and
 * result block, its target (redirect wrappers removed or kept as redirect seeds; navigation, ads and trackers
 * dropped), whether the user sees it, sub-results of the same site left out, the description, and the list itself
 * (page order, no duplicates, a cap).
 */
import { canonicalizeUrl } from '../../engine';
import { cap, closest, type Exclusions, follows, headingLevel, queryAll, queryOne, visibleText } from './dom';
import { domainMatches, hostMatches, isAdHost, siteOf } from './hosts';
import { isResultsPage, pathMatches } from './page';
import {
  GENERIC_TARGET_ATTRIBUTES,
  genericTarget,
  isGenericOpaqueRedirect,
  isOpaqueRedirect,
  isRedirectWrapper,
  targetFromAttributes,
  unwrapRedirect,
} from './redirect';
import type { EngineSpec, SerpResult } from './types';

const MAX_TITLE = 300;
const MAX_SNIPPET = 500;
/** A description read from a result's longest text must be at least this long (shorter runs are dates, labels). */
const MIN_FALLBACK_SNIPPET = 25;
/** How far above a module heading the module's block may start (sectionHeadings). */
const SECTION_DEPTH = 3;
/** Rows after a table result's own row searched for its description. */
const MAX_FOLLOWING_ROWS = 3;
/** Elements examined for a result's longest text (a hostile block could hold thousands). */
const MAX_TEXT_CANDIDATES = 400;
/** First labels of an engine's ad-serving hosts (adcr.naver.com, yabs.yandex.ru): on its own site, never results. */
const AD_SUBDOMAIN = /^(?:ad|ads|adcr|adclick|adx|adserver|adservice|adsrv|yabs|clickserve|pagead|googleads)\d*$/;

/** One title found on the page, with its link and the block of the page that is its result. */
export interface Candidate {
  title: Element;
  link: Element;
  block: Element;
  /** Canonical target, redirect wrapper removed (or the wrapper itself when `redirect`). */
  url: string;
  /** The URL is the engine's opaque redirect link, to be resolved before crawling. */
  redirect: boolean;
  /** Site of the target (siteOf), for telling sub-results apart. */
  site: string;
  text: string;
}

/** The state of one page's extraction. */
export interface Context {
  base: string;
  engine: EngineSpec | null;
  /** The engine data the page is read with (every engine, or fewer in tests). */
  engines: readonly EngineSpec[];
  pageHost: string;
  /** The query, lower-cased: on an unknown engine, a link carrying it is another of its results pages. */
  query: string;
  exclude: Exclusions;
  isVisible: (el: Element) => boolean;
  maxResults: number;
  seen: Set<string>;
  results: SerpResult[];
  hidden: number;
  overCap: number;
}

/** Whether any query parameter of `url` holds the query (another results page of the same engine: a vertical, a related search). */
function carriesQuery(url: URL, query: string): boolean {
  if (query.length < 2) return false;
  // forEach, not the iterators: in a Firefox content script URLSearchParams' iterators are not iterable.
  let found = false;
  url.searchParams.forEach((value) => {
    if (value.replace(/\s+/g, ' ').trim().toLowerCase() === query) found = true;
  });
  return found;
}

/**
 * Whether a result link is the engine's own navigation: a results page of any known engine, a link to the engine's
 * service domains, or one on its results hosts under a results or navigation path. On an unknown engine's page,
 * every link to the page's own host is, and so is a link to its site that carries the page's query (the engine's
 * other verticals and related searches on their own hosts).
 */
function isNavigation(ctx: Context, url: URL): boolean {
  const host = url.hostname;
  const engine = ctx.engine;
  if (isResultsPage(url, ctx.engines)) return true;
  if (!engine)
    return domainMatches(host, ctx.pageHost) || (siteOf(host) === siteOf(ctx.pageHost) && carriesQuery(url, ctx.query));
  if ((engine.serviceDomains ?? []).some((d) => domainMatches(host, d))) return true;
  if (!engine.hosts.some((h) => hostMatches(host, h))) return false;
  return [...engine.paths, ...(engine.navigationPaths ?? [])].some((p) => pathMatches(url.pathname, p));
}

/** Whether `host` is an ad-serving host of the page's own site (adcr.naver.com on search.naver.com). */
function isAdSubdomain(host: string, pageHost: string): boolean {
  return siteOf(host) === siteOf(pageHost) && AD_SUBDOMAIN.test(host.split('.')[0]);
}

/** Whether a link (already unwrapped) goes back to the engine itself: its results hosts, or the page's own site. */
function isOwnLink(ctx: Context, url: URL): boolean {
  if (ctx.engine) return ctx.engine.hosts.some((h) => hostMatches(url.hostname, h));
  return siteOf(url.hostname) === siteOf(ctx.pageHost);
}

/**
 * The canonical http(s) target of a result link, or null when it is none or not a result (navigation, ad, a wrapper
 * that leads nowhere). A wrapper whose target is in an attribute is read there; one whose target is nowhere in the
 * page is kept as itself with `redirect` set.
 */
export function resultTarget(ctx: Context, link: Element, block: Element): { url: string; redirect: boolean } | null {
  const href = link.getAttribute('href');
  if (!href) return null;
  const target = unwrapRedirect(href, ctx.base, ctx.engines);
  if (!target) return null;
  let url = canonicalizeUrl(target);
  if (!url) return null;
  let parsed = new URL(url);
  const redirect = false;
  if (isOwnLink(ctx, parsed)) {
    const attributes = ctx.engine?.targetAttributes ?? GENERIC_TARGET_ATTRIBUTES.map((name) => ({ name }));
    const fromAttribute = targetFromAttributes(link, block, attributes);
    const decoded = fromAttribute ?? (ctx.engine ? null : genericTarget(parsed));
    const real = decoded ? canonicalizeUrl(decoded) : null;
    if (real) {
      url = real;
      parsed = new URL(url);
    } else if (ctx.engine ? isOpaqueRedirect(parsed, ctx.engines) : isGenericOpaqueRedirect(parsed, ctx.pageHost)) {
      return { url, redirect: true };
    }
  }
  if (isAdHost(parsed.hostname) || isAdSubdomain(parsed.hostname, ctx.pageHost) || isNavigation(ctx, parsed)) return null;
  // A wrapper that could not be unwrapped (malformed, or pointing at a non-http target) leads nowhere useful.
  if (isRedirectWrapper(parsed, ctx.engines)) return null;
  return { url, redirect };
}

/** Adds a result unless it is a duplicate or over the cap. */
export function accept(ctx: Context, c: Candidate, snippet: string): void {
  if (ctx.seen.has(c.url)) return;
  ctx.seen.add(c.url);
  if (ctx.results.length >= ctx.maxResults) {
    ctx.overCap++;
    return;
  }
  const result: SerpResult = {
    url: c.url,
    title: cap(c.text || new URL(c.url).hostname, MAX_TITLE),
    snippet: cap(snippet, MAX_SNIPPET),
    rank: ctx.results.length + 1,
  };
  if (c.redirect) result.redirect = true;
  ctx.results.push(result);
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
 * The blocks opened by module headings inside `container`: for each heading, its nearest ancestor (at most
 * SECTION_DEPTH levels up, below the container) that holds titles, when all of them follow the heading. A block
 * holding the heading of another section (`sections`: of the same or a higher level) is more than the module: the
 * module has none then.
 */
export function sectionBlocks(
  container: Element,
  headings: readonly Element[],
  titles: readonly Element[],
  sections: readonly Element[] = [],
): Element[] {
  if (headings.length === 0 || titles.length === 0) return [];
  const firstTitle = new Map<Element, Element>();
  for (const title of titles) {
    for (let el = title.parentElement; el && el !== container; el = el.parentElement)
      if (!firstTitle.has(el)) firstTitle.set(el, title);
  }
  const blocks: Element[] = [];
  for (const heading of headings) {
    let el = heading.parentElement;
    const level = headingLevel(heading);
    for (let depth = 1; el && el !== container && depth <= SECTION_DEPTH; depth++, el = el.parentElement) {
      const block = el;
      if (sections.some((s) => s !== heading && block.contains(s) && headingLevel(s) <= level)) break;
      const first = firstTitle.get(el);
      if (!first) continue;
      if (follows(first, heading)) blocks.push(el);
      break;
    }
  }
  return blocks;
}

function isPartOfTitle(el: Element, c: Candidate): boolean {
  return el === c.title || c.title.contains(el) || el.contains(c.title) || c.link.contains(el) || el.contains(c.link);
}

/** The longest link-free text of a result's block outside its title: the description when no selector names it. */
export function longestText(c: Candidate): string {
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

/** The table rows after a result's row up to the next row holding a link: where a table layout puts its description (DuckDuckGo Lite). */
function followingRows(block: Element): Element[] {
  const rows: Element[] = [];
  if (block.tagName !== 'TR') return rows;
  for (let row = block.nextElementSibling; row && rows.length < MAX_FOLLOWING_ROWS; row = row.nextElementSibling) {
    if (queryOne(row, 'a[href]')) break;
    rows.push(row);
  }
  return rows;
}

export function findSnippet(c: Candidate, selectors: readonly string[]): string {
  for (const part of [c.block, ...followingRows(c.block)]) {
    for (const s of selectors) {
      for (const el of queryAll(part, s)) {
        if (el === c.title || c.title.contains(el) || el.contains(c.title) || c.link.contains(el)) continue;
        const text = visibleText(el);
        if (text) return text;
      }
    }
  }
  return longestText(c);
}

/** How candidates are made from titles (engine data or structure decide each part). */
export interface CandidateRules {
  linkOf: (title: Element, block: Element) => Element | null;
  /** Whether a result's block marks it as an ad. */
  isAd: (block: Element, title: Element) => boolean;
  titleExclude?: readonly string[];
  /** Titles side by side in one block may be one result and its sub-results (Google's mobile cards). */
  groupsSideBySide?: boolean;
}

/** Candidates for `titles` in `container`: linked, resolvable, shown, not navigation or ads, sub-results left out. */
export function candidatesOf(ctx: Context, container: Element, titles: Element[], rules: CandidateRules): Candidate[] {
  const counts = titleCounts(titles, container);
  const found: Candidate[] = [];
  for (const title of titles) {
    if (ctx.exclude.has(title)) continue;
    const block = resultBlock(title, container, counts, titles.length);
    if (rules.isAd(block, title)) continue;
    const link = rules.linkOf(title, block);
    if (!link || ctx.exclude.has(link)) continue;
    const target = resultTarget(ctx, link, block);
    if (!target) continue;
    const skip = new Set((rules.titleExclude ?? []).flatMap((sel) => queryAll(title, sel)));
    const text = visibleText(title, skip) || visibleText(link, skip);
    // The port counts: two servers on one host are two sites (the test web is many sites on 127.0.0.1).
    const site = target.redirect ? `redirect:${target.url}` : siteOf(new URL(target.url).host);
    const c: Candidate = { title, link, block, url: target.url, redirect: target.redirect, site, text };
    if (!isShown(ctx, c)) {
      ctx.hidden++;
      continue;
    }
    found.push(c);
  }
  return dropSubResults(found, container, rules.groupsSideBySide ?? false);
}

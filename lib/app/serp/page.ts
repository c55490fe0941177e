/**
 * What a results page's URL and search box say: which engine serves it (host and path against the engine data),
 * whether it is the engine's bot-challenge page, and the query.
 */
import { ENGINES } from './engines/index';
import { collapse, type QueryRoot, queryAll, queryOne } from './dom';
import { hostMatches } from './hosts';
import type { EngineSpec } from './types';

/** Query parameters tried on pages of unknown engines ('wd'/'word': Baidu-like engines; 'text': Yandex-like). */
const DEFAULT_QUERY_PARAMS = ['q', 'query', 'search', 'text', 'wd', 'word', 'keyword', 'p'];

/** Whether a path is one of the engine's results paths. */
export function pathMatches(path: string, pattern: string): boolean {
  if (pattern === '/') return path === '/' || path === '';
  if (pattern.endsWith('/')) return path.startsWith(pattern) || path === pattern.slice(0, -1);
  if (!path.startsWith(pattern)) return false;
  const next = path.charAt(pattern.length);
  return next === '' || next === '/' || next === ';' || next === '.';
}

export function httpUrl(url: string): URL | undefined {
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

/** Whether `url` is a results page (with a query) of one of `engines`: navigation, never a result. */
export function isResultsPage(url: URL, engines: readonly EngineSpec[]): boolean {
  const engine = detectEngine(url.href, engines);
  return !!engine && engine.queryParam.some((name) => (url.searchParams.get(name) ?? '').trim() !== '');
}

/** The query from the URL, else from the search box. */
export function findQuery(doc: QueryRoot, page: URL, engine: EngineSpec | null | undefined): string {
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
export function baseUrl(doc: QueryRoot, pageUrl: string): string {
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

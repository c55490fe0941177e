/**
 * Seeds that are an engine's opaque redirect link (Baidu's and Sogou's `/link?url=<token>`: SerpResult.redirect):
 * the real target is not in the page, so it is asked of the engine with one request, and the crawl starts from the
 * answer.
 *
 * One GET through the crawl's own fetch (in the extension the address guard's, so the browser's private-network
 * rules and the address checks apply), without cookies or cache (the crawler's `requestInit`), the redirect not
 * followed: the target is the Location of a 3xx, or, when the engine answers 200 with a page that moves on by itself
 * (Sogou and Baidu do, for clients without their cookies), the URL of its `<meta http-equiv="refresh">` or of its
 * `location.replace(...)`. The target must pass the crawl's URL rules (no private or local host unless the crawl
 * allows it) and must not be another redirect link. robots.txt is not asked: the request is the one a user's click
 * on the result makes, and engines disallow their redirect paths to robots.
 *
 * `withRedirectSeeds` wraps a PageFetcher: a fetch of a redirect link resolves it, then fetches the target with the
 * wrapped fetcher (robots.txt, politeness and every rule as for any page); the page is recorded under the target.
 */
import {
  canonicalizeUrl,
  checkUrl,
  DEFAULT_USER_AGENT,
  type FetchOutcome,
  HTML_ACCEPT,
  type PageFetcher,
  requestInit,
  type UrlPolicy,
} from '../../engine';
import { ENGINES } from './engines/index';
import { isOpaqueRedirect, isRedirectWrapper } from './redirect';
import type { EngineSpec } from './types';

/** Bytes of a 200 answer read for a refresh or a script redirect (they sit in the page's first lines). */
const MAX_REDIRECT_PAGE_BYTES = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface ResolveOptions {
  /** The crawl's fetch (the extension passes its address guard's). */
  fetch: typeof fetch;
  /** The crawl's URL rules, applied to the redirect link and to its target. */
  policy?: UrlPolicy;
  timeoutMs?: number;
  userAgent?: string;
  signal?: AbortSignal;
  /** Engine data that says what a redirect link is (default: every known engine). */
  engines?: readonly EngineSpec[];
}

export type Resolution = { ok: true; url: string } | { ok: false; detail: string };

/**
 * Whether a seed is a known engine's opaque redirect link, to resolve before crawling. An unknown engine's redirect
 * link (kept by the fallback) is not recognisable once it is a plain seed: the crawler fetches it as a page, its
 * redirects followed under robots.txt and every rule.
 */
export function isRedirectSeed(url: string, engines: readonly EngineSpec[] = ENGINES): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return isOpaqueRedirect(u, engines);
}

/** Reads the first bytes of a body as text (UTF-8; a redirect target is ASCII in any of the engines' encodings). */
async function headText(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maxBytes) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(total, maxBytes));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, Math.min(c.byteLength, bytes.length - at));
    bytes.set(part, at);
    at += part.byteLength;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

const META_TAG = /<meta\b[^>]*>/gi;
const REFRESH_URL = /content\s*=\s*["']?\s*\d*\s*;?\s*url\s*=\s*["']?([^"'>\s]+)/i;
const SCRIPT_REDIRECT = /(?:window\.|document\.|top\.)?location(?:\.href)?\s*(?:=|\.replace\(|\.assign\()\s*["']([^"']+)["']/i;

/** The target a page that moves on by itself names: its meta refresh, else its script's location change. */
export function pageRedirectTarget(html: string): string | null {
  const refresh = (html.match(META_TAG) ?? []).find((tag) => /http-equiv\s*=\s*["']?refresh/i.test(tag));
  const found = (refresh ? REFRESH_URL.exec(refresh) : null) ?? SCRIPT_REDIRECT.exec(html);
  if (!found) return null;
  return found[1].replace(/&amp;/g, '&').replace(/\\\//g, '/');
}

/** Resolves one redirect link with one request; see the module comment. */
export async function resolveRedirect(url: string, options: ResolveOptions): Promise<Resolution> {
  const policy = options.policy ?? {};
  const engines = options.engines ?? ENGINES;
  const asked = checkUrl(url, policy);
  if (!asked.ok) return { ok: false, detail: `redirect link refused (${asked.detail})` };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let location: string | null = null;
  try {
    const init = requestInit(options.userAgent ?? DEFAULT_USER_AGENT, HTML_ACCEPT, controller.signal, 'manual');
    const response = await options.fetch(url, init);
    if (response.status >= 300 && response.status < 400) {
      location = response.headers.get('location');
      response.body?.cancel().catch(() => {});
      if (!location) return { ok: false, detail: `HTTP ${response.status} without Location` };
    } else if (response.type === 'opaqueredirect') {
      return { ok: false, detail: 'the browser hid the redirect (no Location)' };
    } else if (response.ok) {
      location = response.redirected && response.url && response.url !== url ? response.url : null;
      location ??= pageRedirectTarget(await headText(response, MAX_REDIRECT_PAGE_BYTES));
      if (!location) return { ok: false, detail: `HTTP ${response.status} names no target` };
    } else {
      response.body?.cancel().catch(() => {});
      return { ok: false, detail: `HTTP ${response.status}` };
    }
  } catch (error) {
    return { ok: false, detail: controller.signal.aborted ? 'timeout or aborted' : String(error).slice(0, 200) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  const target = canonicalizeUrl(location, url);
  if (!target) return { ok: false, detail: `invalid target ${location.slice(0, 200)}` };
  const verdict = checkUrl(target, policy);
  if (!verdict.ok) return { ok: false, detail: `target ${target} refused (${verdict.detail})` };
  const parsed = new URL(target);
  if (isRedirectWrapper(parsed, engines) || isOpaqueRedirect(parsed, engines)) {
    return { ok: false, detail: `target ${target} is another redirect link` };
  }
  return { ok: true, url: target };
}

/**
 * A PageFetcher that resolves redirect seeds (isRedirectSeed) before fetching them with `inner`; every other URL
 * goes to `inner` unchanged. A link that does not resolve is a failed page ('redirect') with the reason.
 */
export function withRedirectSeeds<F extends PageFetcher>(inner: F, options: Omit<ResolveOptions, 'signal'>): F {
  const policy = options.policy ?? inner.urlPolicy;
  const wrapped: PageFetcher = {
    ...inner,
    fetch: async (url, signal, validators): Promise<FetchOutcome> => {
      if (!isRedirectSeed(url, options.engines)) return inner.fetch(url, signal, validators);
      const started = Date.now();
      const resolved = await resolveRedirect(url, { ...options, policy, signal });
      if (!resolved.ok) {
        return { ok: false, url, reason: 'redirect', detail: resolved.detail, elapsedMs: Date.now() - started };
      }
      const outcome = await inner.fetch(resolved.url, signal);
      return { ...outcome, url };
    },
  };
  // Methods of a class instance are not own properties: bind the rest of the fetcher's interface to it.
  for (const key of ['isReady', 'close', 'stats'] as const) {
    const fn = (inner as unknown as Record<string, unknown>)[key];
    if (typeof fn === 'function') (wrapped as unknown as Record<string, unknown>)[key] = fn.bind(inner);
  }
  return wrapped as F;
}

/**
 * Search engines' redirect links (click trackers) and how to get the result's own URL back: from a query
 * parameter (`/url?q=`, `/ck/a?u=a1<base64>`, `/l/?uddg=`), a path segment (`/RU=<target>/RK=`), an attribute of
 * the link (`data-mdurl`, `data-url`, `mu`), or, on an unknown engine's page, any parameter of a link to the page's
 * own site holding an absolute URL (plain, percent-encoded or base64). A wrapper whose target is not in the page
 * (Baidu's `/link?url=<token>`) is an opaque redirect: it is kept as a seed to resolve (resolve-redirect.ts).
 */
import { closest } from './dom';
import { hostMatches, siteOf } from './hosts';
import type { EngineSpec, RedirectRule } from './types';

/** Decodes base64 (URL-safe or standard alphabet, padding optional) holding UTF-8 text; null when it is not that. */
export function decodeBase64Url(value: string): string | null {
  let b64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(b64) || b64.length % 4 === 1) return null;
  b64 += '='.repeat((4 - (b64.length % 4)) % 4);
  try {
    const binary = atob(b64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** An absolute http(s) URL string, or null. */
function absoluteHttp(value: string): string | null {
  try {
    const u = new URL(value.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The raw value a rule reads (query parameter or path segment), percent-decoded; null when absent. */
function ruleValue(url: URL, rule: RedirectRule): string | null {
  if (rule.param) return url.searchParams.get(rule.param);
  if (!rule.pathSegment) return null;
  // Yahoo: /_ylt=.../RV=2/RE=.../RO=10/RU=<percent-encoded target>/RK=2/RS=...
  const path = url.pathname;
  const at = path.indexOf(`/${rule.pathSegment}`);
  if (at < 0) return null;
  const start = at + 1 + rule.pathSegment.length;
  const end = path.indexOf('/', start);
  try {
    return decodeURIComponent(path.slice(start, end < 0 ? undefined : end));
  } catch {
    return null;
  }
}

/** Whether a rule's host and path fit `url`. */
function ruleFits(url: URL, rule: RedirectRule, defaultHosts: readonly string[]): boolean {
  const hosts = rule.hosts ?? defaultHosts;
  if (!hosts.some((h) => hostMatches(url.hostname, h))) return false;
  return !rule.pathPrefix || url.pathname.startsWith(rule.pathPrefix);
}

/** Applies one rule to a parsed wrapper URL; the target, or null when the rule does not apply or yields no http(s) URL. */
export function applyRedirectRule(url: URL, rule: RedirectRule, defaultHosts: readonly string[]): string | null {
  if (rule.opaque || !ruleFits(url, rule, defaultHosts)) return null;
  let value = ruleValue(url, rule);
  if (!value) return null;
  if (rule.prefix) {
    if (!value.startsWith(rule.prefix)) return null;
    value = value.slice(rule.prefix.length);
  }
  if (rule.decode === 'base64url') {
    value = decodeBase64Url(value);
    if (value === null) return null;
  }
  return absoluteHttp(value);
}

/**
 * Whether `url` sits where one of the engines' redirect rules looks (host and path), whether or not it could be
 * unwrapped: such a link is a click tracker, never a result in its own right.
 */
export function isRedirectWrapper(url: URL, engines: readonly EngineSpec[]): boolean {
  return engines.some((engine) =>
    (engine.redirect ?? []).some(
      (rule) =>
        ruleFits(url, rule, engine.hosts) &&
        (!rule.pathSegment || url.pathname.includes(`/${rule.pathSegment}`)) &&
        (!rule.opaque || !!ruleValue(url, rule)),
    ),
  );
}

/** Whether `url` is an engine's opaque redirect (its target is not in the link): a seed to resolve with one request. */
export function isOpaqueRedirect(url: URL, engines: readonly EngineSpec[]): boolean {
  return engines.some((engine) =>
    (engine.redirect ?? []).some((rule) => rule.opaque && ruleFits(url, rule, engine.hosts) && !!ruleValue(url, rule)),
  );
}

/**
 * Resolves `href` against `base` and peels off every engine redirect wrapper it recognizes (nested ones too).
 * Returns the absolute URL (unchanged when no rule applies), or null when `href` cannot be resolved.
 */
export function unwrapRedirect(href: string, base: string, engines: readonly EngineSpec[]): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  // A wrapper inside a wrapper is rare; three rounds bound the work on hostile input.
  for (let round = 0; round < 3; round++) {
    let next: string | null = null;
    for (const engine of engines) {
      for (const rule of engine.redirect ?? []) {
        next = applyRedirectRule(url, rule, engine.hosts);
        if (next) break;
      }
      if (next) break;
    }
    if (!next) break;
    url = new URL(next);
  }
  return url.href;
}

/** Attributes that hold a result's real target on engines that wrap their links (360's data-mdurl, Sogou's data-url). */
export const GENERIC_TARGET_ATTRIBUTES: readonly string[] = ['data-mdurl', 'data-url', 'data-href', 'data-landurl', 'mu'];

/**
 * The real target named by an attribute of a result link or of an element around it (up to `block`), or null.
 * @param names attributes to read, most specific first
 */
export function targetFromAttributes(
  link: Element,
  block: Element,
  names: readonly { name: string; on?: string }[],
): string | null {
  for (const { name, on } of names) {
    if (on && !closest(link, on)) continue;
    for (let el: Element | null = link; el; el = el.parentElement) {
      const value = el.getAttribute(name);
      const target = value ? absoluteHttp(value) : null;
      if (target) return target;
      if (el === block) break;
    }
  }
  return null;
}

/** Query parameters that carry a redirect's target on many engines (`url=`, `u=`, `q=`, `uddg=`, ...). */
const TARGET_PARAMS = [
  'url',
  'u',
  'q',
  'uddg',
  'target',
  'dest',
  'destination',
  'to',
  'redirect',
  'redir',
  'link',
  'r',
  'goto',
  'out',
];
/** Paths of redirect endpoints (`/link?url=<token>`, `/url?q=`, `/l/?uddg=`, `/click`, `/r/`): unknown engines' wrappers. */
const REDIRECT_PATH = /^\/(?:link|url|l|r|redirect|redir|out|go|goto|click|clk|away|visit|rd|jump)(?:\/|\.[a-z]+$|$)/i;

/**
 * On an unknown engine's page, a link to the page's own site that carries an absolute URL in a query parameter
 * (plain, percent-encoded, or base64 with an optional two-letter prefix such as Bing's 'a1'): that URL.
 */
export function genericTarget(url: URL): string | null {
  // forEach, not the iterators: in a Firefox content script URLSearchParams' iterators are not iterable.
  const keys: string[] = [];
  url.searchParams.forEach((_value, key) => {
    keys.push(key);
  });
  const names = [...TARGET_PARAMS.filter((p) => url.searchParams.has(p)), ...keys];
  for (const name of names) {
    const value = url.searchParams.get(name);
    if (!value || value.length < 8) continue;
    const direct = /^https?:\/\//i.test(value) ? absoluteHttp(value) : null;
    if (direct) return direct;
    if (/^[A-Za-z0-9_-]{12,}={0,2}$/.test(value)) {
      for (const candidate of [value, value.slice(2)]) {
        const decoded = decodeBase64Url(candidate);
        if (decoded && /^https?:\/\//i.test(decoded)) return absoluteHttp(decoded);
      }
    }
  }
  return null;
}

/**
 * Whether a link to the page's own site is a redirect endpoint whose target is not in the link (an opaque token in
 * a parameter, or a long path token): an unknown engine's `/link?url=<token>`.
 */
export function isGenericOpaqueRedirect(url: URL, pageHost: string): boolean {
  if (siteOf(url.hostname) !== siteOf(pageHost)) return false;
  if (!REDIRECT_PATH.test(url.pathname)) return false;
  let token = false;
  url.searchParams.forEach((v) => {
    if (v.length >= 16 && /^[A-Za-z0-9_\-.~%=+/]+$/.test(v)) token = true;
  });
  return token;
}

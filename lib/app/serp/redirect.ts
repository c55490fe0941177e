/** Unwrapping of search engines' redirect links (click trackers) back to the result's own URL. */
import type { EngineSpec, RedirectRule } from './types';
import { hostMatches } from './hosts';

/** Decodes URL-safe base64 (padding optional) holding UTF-8 text; null when it is not that. */
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

/** Applies one rule to a parsed wrapper URL; the target, or null when the rule does not apply or yields no http(s) URL. */
export function applyRedirectRule(url: URL, rule: RedirectRule, defaultHosts: readonly string[]): string | null {
  const hosts = rule.hosts ?? defaultHosts;
  if (!hosts.some((h) => hostMatches(url.hostname, h))) return null;
  if (rule.pathPrefix && !url.pathname.startsWith(rule.pathPrefix)) return null;
  let value: string | null = null;
  if (rule.param) {
    value = url.searchParams.get(rule.param);
  } else if (rule.pathSegment) {
    // Yahoo: /_ylt=.../RV=2/RE=.../RO=10/RU=<percent-encoded target>/RK=2/RS=...
    const path = url.pathname;
    const at = path.indexOf(`/${rule.pathSegment}`);
    if (at < 0) return null;
    const start = at + 1 + rule.pathSegment.length;
    const end = path.indexOf('/', start);
    try {
      value = decodeURIComponent(path.slice(start, end < 0 ? undefined : end));
    } catch {
      return null;
    }
  }
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
        (rule.hosts ?? engine.hosts).some((h) => hostMatches(url.hostname, h)) &&
        (!rule.pathPrefix || url.pathname.startsWith(rule.pathPrefix)) &&
        (!rule.pathSegment || url.pathname.includes(`/${rule.pathSegment}`)),
    ),
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

/**
 * When a page gives no results: why (a bot check, a consent wall, a search that found nothing, or markup nothing
 * could read), and the links the user can see on it, which the popup offers as seeds instead. The reasons come from
 * the engine's data (`EngineSpec.blocked` selectors) and, on any page, from the labels the page's title and
 * headings carry (labels.ts) and from consent forms posting to a consent host.
 */
import { canonicalizeUrl } from '../../engine';
import { collapse, type QueryRoot, queryAll, queryOne, visibleText } from './dom';
import { domainMatches, isAdHost } from './hosts';
import { CHALLENGE_LABELS, CONSENT_LABELS, matchesLabel, saysNoResults } from './labels';
import { unwrapRedirect } from './redirect';
import type { EngineSpec, SerpBlocked, VisibleLink } from './types';

/** At most this many visible links are offered. */
const MAX_VISIBLE_LINKS = 100;
/** Elements whose text can announce why a page shows nothing. */
const ANNOUNCING = 'title, h1, h2, h3, [role="heading"], [role="alert"], p, div, span';
/** Elements read for a "no results" sentence (bounded: a hostile page can be huge). */
const MAX_SENTENCES = 2000;

function anyMatch(doc: QueryRoot, selectors: readonly string[] | undefined): boolean {
  return (selectors ?? []).some((s) => queryAll(doc, s).length > 0);
}

/** The texts of the page's title and headings. */
function headlines(doc: QueryRoot): string[] {
  return queryAll(doc, 'title, h1, h2, h3, [role="heading"], [role="alert"]').map(
    (el) => visibleText(el) || collapse(el.textContent ?? ''),
  );
}

/** Whether a form on the page submits to a consent service (consent.google.com, consent.yahoo.com, ...). */
function hasConsentForm(doc: QueryRoot, base: string): boolean {
  return queryAll(doc, 'form[action]').some((form) => {
    try {
      return /^consent\.|^guce\./.test(new URL(form.getAttribute('action') ?? '', base).hostname);
    } catch {
      return false;
    }
  });
}

/** Why a page that gave no results gave none. */
export function whyBlocked(doc: QueryRoot, base: string, engine: EngineSpec | null): SerpBlocked {
  const blocked = engine?.blocked;
  const lines = headlines(doc);
  if (anyMatch(doc, blocked?.challenge) || lines.some((t) => matchesLabel(t, CHALLENGE_LABELS))) return 'challenge';
  if (anyMatch(doc, blocked?.consent) || hasConsentForm(doc, base) || lines.some((t) => matchesLabel(t, CONSENT_LABELS)))
    return 'consent';
  if (anyMatch(doc, blocked?.noResults)) return 'no-results';
  let read = 0;
  for (const el of queryAll(doc, ANNOUNCING)) {
    if (++read > MAX_SENTENCES) break;
    const raw = el.textContent ?? '';
    if (raw.length > 400 || raw.trim() === '') continue;
    if (saysNoResults(visibleText(el))) return 'no-results';
  }
  return 'unreadable';
}

/**
 * The page's links the user can see, as seeds to offer when no result was read: http(s), redirect wrappers
 * removed, not to the page's own host, not ads, not any known engine's navigation; page order, no duplicates.
 */
export function visibleLinks(
  doc: QueryRoot,
  base: string,
  pageHost: string,
  engines: readonly EngineSpec[],
  isVisible: (el: Element) => boolean,
): VisibleLink[] {
  const links: VisibleLink[] = [];
  const seen = new Set<string>();
  const root = queryOne(doc, 'body') ?? queryOne(doc, 'html');
  if (!root) return links;
  for (const a of queryAll(root, 'a[href]')) {
    if (links.length >= MAX_VISIBLE_LINKS) break;
    const target = unwrapRedirect(a.getAttribute('href') ?? '', base, engines);
    const url = target ? canonicalizeUrl(target) : null;
    if (!url || seen.has(url)) continue;
    const host = new URL(url).hostname;
    if (domainMatches(host, pageHost) || isAdHost(host)) continue;
    if (engines.some((e) => [...e.hosts, ...(e.serviceDomains ?? [])].some((h) => domainMatches(host, h)))) continue;
    if (a.getAttribute('aria-hidden') === 'true' || !isVisible(a)) continue;
    seen.add(url);
    links.push({ url, text: visibleText(a).slice(0, 200) });
  }
  return links;
}

/**
 * A page's outlinks: the raw links the pass collects (href, anchor text with img alt, rel=nofollow, token range for
 * the context), resolved, canonicalized, deduplicated by URL and capped, with anchor terms and context terms either
 * side. Anchors are bounded while parsing and when merged, against pages that wrap whole articles in one link.
 */
import type { LinkFeature } from '../types';
import { tokenize, tokenizeInto } from '../text/tokenize';
import { canonicalizeUrl } from '../url/canonical';
import { collapse, own } from './visible-text';

/** Most distinct outlinks kept per page; later new URLs are dropped (pages with 20,000 links exist). */
export const DEFAULT_MAX_LINKS = 5000;
/** Terms either side of a link kept as its context. */
export const DEFAULT_CONTEXT_WINDOW = 10;
/**
 * Most distinct anchor texts merged into one deduplicated link, and their total length: one anchor is cut there too
 * (a hostile page wrapped 60,671 characters in one link), and no more raw anchor text than a few times that is kept
 * while parsing.
 */
const MAX_ANCHORS = 4;
export const MAX_ANCHOR_CHARS = 300;
const MAX_RAW_ANCHOR_CHARS = 4 * MAX_ANCHOR_CHARS;

export interface RawLink {
  href: string;
  anchor: string[];
  /** Characters in `anchor` (kept below MAX_RAW_ANCHOR_CHARS). */
  anchorChars: number;
  fallback: string;
  tokStart: number;
  tokEnd: number;
  nofollow: boolean;
  depth: number;
}

interface LinkAcc {
  feature: LinkFeature;
  anchors: string[];
  allNofollow: boolean;
}

/** A collapsed anchor cut to MAX_ANCHOR_CHARS, at a space when there is one in its last fifth. */
function capAnchor(text: string): string {
  if (text.length <= MAX_ANCHOR_CHARS) return text;
  const cut = text.lastIndexOf(' ', MAX_ANCHOR_CHARS);
  return text.slice(0, cut > MAX_ANCHOR_CHARS * 0.8 ? cut : MAX_ANCHOR_CHARS);
}

/** Adds text to a link's raw anchor, up to MAX_RAW_ANCHOR_CHARS in all. */
export function addAnchorText(link: RawLink, text: string): void {
  const room = MAX_RAW_ANCHOR_CHARS - link.anchorChars;
  if (room <= 0) return;
  const part = text.length > room ? text.slice(0, room) : text;
  link.anchor.push(part);
  link.anchorChars += part.length;
}

export function hasToken(value: string | undefined, token: string): boolean {
  if (!value) return false;
  return value
    .toLowerCase()
    .split(/[\s,]+/)
    .includes(token);
}

export function resolveHttp(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export function buildLinks(
  raws: RawLink[],
  baseUrl: string,
  tokens: string[],
  window: number,
  maxLinks: number,
  language: string,
): LinkFeature[] {
  const byUrl = new Map<string, LinkAcc>();
  const canonicalCache = new Map<string, string | null>();
  for (const raw of raws) {
    const href = raw.href.trim();
    if (href === '' || href.charCodeAt(0) === 35 /* '#': this page */) continue;
    let url = canonicalCache.get(href);
    if (url === undefined) {
      url = canonicalizeUrl(href, baseUrl);
      canonicalCache.set(href, url);
    }
    if (url === null) continue; // unparsable, javascript:, mailto:, data:, tel:, ftp: ...
    let anchorText = capAnchor(collapse(raw.anchor.join('')));
    if (!anchorText) anchorText = capAnchor(collapse(raw.fallback.slice(0, MAX_RAW_ANCHOR_CHARS)));
    anchorText = own(anchorText);
    const acc = byUrl.get(url);
    if (acc) {
      acc.allNofollow &&= raw.nofollow;
      if (
        anchorText &&
        acc.anchors.length < MAX_ANCHORS &&
        !acc.anchors.includes(anchorText) &&
        acc.feature.anchorText.length + anchorText.length < MAX_ANCHOR_CHARS
      ) {
        acc.anchors.push(anchorText);
        acc.feature.anchorText = acc.feature.anchorText ? `${acc.feature.anchorText} | ${anchorText}` : anchorText;
        tokenizeInto(anchorText, language, acc.feature.anchorTerms);
      }
      continue;
    }
    if (byUrl.size >= maxLinks) break;
    byUrl.set(url, {
      feature: {
        url,
        anchorText,
        anchorTerms: tokenize(anchorText, language),
        contextBefore: tokens.slice(Math.max(0, raw.tokStart - window), raw.tokStart),
        contextAfter: tokens.slice(raw.tokEnd, raw.tokEnd + window),
        nofollow: raw.nofollow,
      },
      anchors: anchorText ? [anchorText] : [],
      allNofollow: raw.nofollow,
    });
  }
  const out: LinkFeature[] = [];
  for (const acc of byUrl.values()) {
    acc.feature.nofollow = acc.allNofollow;
    out.push(acc.feature);
  }
  return out;
}

/**
 * URL canonicalization: one spelling per resource, so the crawl never fetches the same page twice under two names.
 *
 * Hand-written on top of WHATWG `URL` rather than a package such as normalize-url: `URL` already does the RFC 3986 /
 * WHATWG work (scheme and host case, IDNA, default ports, dot segments, IPv4 number forms), and what remains is
 * policy (which parameters are tracking, whether to keep 'www.'), which is ours to decide and small.
 */

/** Query parameters that only track the visitor and never change the page. Matched case-insensitively. */
const TRACKING_PARAMS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  'igshid',
  'yclid',
  'ref_src',
  'ref_url',
  'twclid',
  'ttclid',
  'li_fat_id',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'vero_conv',
  'wickedid',
  'rb_clickid',
  's_cid',
  'srsltid',
]);
/** Parameter prefixes that are tracking: utm_source, utm_medium, ... */
const TRACKING_PREFIXES = ['utm_'];

/** Whether a (decoded) query parameter name is a tracking parameter. */
export function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  return TRACKING_PARAMS.has(n) || TRACKING_PREFIXES.some((p) => n.startsWith(p));
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes percent-escapes of unreserved characters and uppercases the hex digits of all other escapes. */
function normalizeEscapes(s: string): string {
  if (s.indexOf('%') < 0) return s;
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Canonical form of the query string (without '?'): escapes normalized, empty pairs and tracking parameters
 * dropped, parameters sorted by name with a stable sort (the order of repeated names can matter, so it is kept).
 * Works on the raw pairs rather than URLSearchParams, whose serializer would re-encode values (' ' -> '+').
 */
function canonicalQuery(search: string): string {
  if (search.length <= 1) return '';
  const pairs: { key: string; pair: string }[] = [];
  for (const raw of search.slice(1).split('&')) {
    if (raw === '') continue;
    const pair = normalizeEscapes(raw);
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (isTrackingParam(decodeName(key))) continue;
    pairs.push({ key, pair });
  }
  // Array.prototype.sort is stable (ES2019).
  pairs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return pairs.map((p) => p.pair).join('&');
}

/**
 * Resolves `href` against `base` and returns its canonical form, or null when it cannot be parsed or is not
 * http(s). Canonical: lowercase scheme and host, no default port, no fragment, dot segments resolved,
 * percent-escapes of unreserved characters decoded and the hex of other escapes uppercased, query parameters
 * sorted (stable) without tracking parameters (utm_*, gclid, fbclid, ...), no empty '?'.
 * 'www.' is kept: www.example.com and example.com can be different sites.
 */
export function canonicalizeUrl(href: string, base?: string): string | null {
  if (typeof href !== 'string') return null;
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    // An unusable base must not lose absolute links.
    if (base === undefined) return null;
    try {
      url = new URL(href.trim());
    } catch {
      return null;
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  url.hash = '';
  const path = normalizeEscapes(url.pathname);
  const query = canonicalQuery(url.search);
  const auth = url.username ? `${url.username + (url.password ? `:${url.password}` : '')}@` : '';
  return `${url.protocol}//${auth}${url.host}${path}${query ? `?${query}` : ''}`;
}

/**
 * The origin of an absolute http(s) URL ('http://127.0.0.1:8080' of 'http://127.0.0.1:8080/a?b'), or undefined for
 * anything else. Canonical URLs (see {@link canonicalizeUrl}) are read by slicing, without parsing: the politeness
 * checks ask this for every frontier candidate they look at.
 */
export function originOf(url: string): string | undefined {
  const fast = /^https?:\/\/[a-z0-9.\-:[\]]+(?=[/?#]|$)/.exec(url);
  if (fast && !/:(?:80|443)$/.test(fast[0])) return fast[0]; // a default port: let URL drop it
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

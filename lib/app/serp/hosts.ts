/** Host patterns (engine data) and hosts that never give seeds. */

const patternCache = new Map<string, RegExp>();

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles a host pattern: leading '*.' = any subdomain labels (or none), trailing '.*' = a country TLD. */
function compile(pattern: string): RegExp {
  let p = pattern.trim().toLowerCase();
  let prefix = '';
  let suffix = '';
  if (p.startsWith('*.')) {
    prefix = '(?:[a-z0-9-]+\\.)*';
    p = p.slice(2);
  }
  if (p.endsWith('.*')) {
    // 'com', 'de', 'cat', 'co.uk', 'com.au': the shapes Google's country domains take.
    suffix = '\\.(?:[a-z]{2,3}|[a-z]{2,3}\\.[a-z]{2})';
    p = p.slice(0, -2);
  }
  return new RegExp(`^${prefix}${escapeRegExp(p)}${suffix}$`);
}

/** Whether `host` matches a host pattern such as 'www.google.*', '*.search.yahoo.com' or 'www.bing.com'. */
export function hostMatches(host: string, pattern: string): boolean {
  let re = patternCache.get(pattern);
  if (!re) {
    re = compile(pattern);
    patternCache.set(pattern, re);
  }
  return re.test(host.toLowerCase().replace(/\.$/, ''));
}

/** Whether `host` is `domain` or one of its subdomains (`domain` may end in '.*' for any country TLD). */
export function domainMatches(host: string, domain: string): boolean {
  return hostMatches(host, domain.startsWith('*.') ? domain : `*.${domain}`);
}

/**
 * Ad-serving and tracking domains: a link there is an ad or a beacon, never an organic result, whatever page
 * it is on. Subdomains included.
 */
export const AD_TRACKING_DOMAINS: readonly string[] = [
  'googleadservices.com',
  'googlesyndication.com',
  'doubleclick.net',
  'google-analytics.com',
  'googletagmanager.com',
  'googletagservices.com',
  'adservice.google.*',
  'dartsearch.net',
  'atdmt.com',
  'amazon-adsystem.com',
  'adnxs.com',
  'adsrvr.org',
  'criteo.com',
  'criteo.net',
  'taboola.com',
  'outbrain.com',
  'moatads.com',
  'scorecardresearch.com',
  'adform.net',
  'serving-sys.com',
  'rubiconproject.com',
  'pubmatic.com',
  'openx.net',
  'advertising.com',
  'ads.yahoo.com',
  'bat.bing.com',
  'ad.doubleclick.net',
  'clickserve.dartsearch.net',
];

/** Whether `host` belongs to a known ad-serving or tracking domain. */
export function isAdHost(host: string): boolean {
  return AD_TRACKING_DOMAINS.some((d) => domainMatches(host, d));
}

/** Second-level labels under which country TLDs register names (example.co.uk, example.com.au). */
const COUNTRY_SECOND_LEVEL = new Set([
  'co',
  'com',
  'org',
  'net',
  'ac',
  'gov',
  'edu',
  'ne',
  'or',
  'go',
  'gob',
  'nic',
  'ltd',
  'plc',
]);

/**
 * The site a host belongs to, near enough to tell "more results from the same site" apart from other sites:
 * the registrable name (dell.com for www.dell.com and deals.dell.com; bbc.co.uk), without a public-suffix list.
 * IP addresses and hosts with a port ('127.0.0.1:8080') are their own site.
 */
export function siteOf(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (/^[\d.]+$/.test(h) || h.includes(':')) return h;
  const labels = h.split('.');
  if (labels.length <= 2) return h;
  const tld = labels[labels.length - 1];
  const second = labels[labels.length - 2];
  const keep = tld.length === 2 && COUNTRY_SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

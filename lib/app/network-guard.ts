/**
 * The browser-side guard for what lib/url/rules.ts cannot check in a browser: redirect hops. A browser's fetch with
 * `redirect: 'manual'` hides the Location, so the fetcher re-issues the request with `redirect: 'follow'` and only
 * sees where it landed; a public page could bounce the crawler through the user's router on the way. Session rules
 * of the declarativeNetRequest API apply to every request and every hop the extension itself makes (its own
 * origin as the initiator), before it is sent: block private and local hosts, allow the crawl's own private hosts
 * (a seed on the user's network).
 *
 * The rules are data built here (pure, tested under Node against {@link isPrivateHost}); the background installs them
 * with `declarativeNetRequest.updateSessionRules`. They match the URL as the browser serializes it (WHATWG: IPv4 in
 * dotted decimal whatever its spelling, IPv6 compressed in lower case, host names lower case).
 *
 * They block a little more than {@link isPrivateHost} refuses, never less: every IPv6 literal outside global unicast
 * 2000::/3 and every 6to4 (2002::/16) literal, where lib decodes the embedded IPv4 and may allow it. A DNS name that
 * resolves to a private address is not caught here either (the rules see names, not addresses).
 */
import { isPrivateHost } from '../engine';

// The URL is serialized (every octet is 0-255 already), so an octet pattern need not check the range: shorter rules.
const OCTET = '[0-9]{1,3}';

/**
 * Private and reserved IPv4 ranges as dotted-decimal patterns (the same list as isPrivateIPv4 in rules.ts), grouped
 * by prefix length so that few rules cover them: each rule is a regex the browser runs on the extension's requests.
 */
const PRIVATE_IPV4 = [
  // 0/8 "this network", 10/8, 127/8 loopback, 224/4 multicast, 240/4 reserved and broadcast
  `(?:0|10|127|22[4-9]|2[3-5][0-9])\\.${OCTET}\\.${OCTET}\\.${OCTET}`,
  // 169.254/16 link-local (cloud metadata), 192.168/16, 198.18/15 benchmarking, 172.16/12, 100.64/10 CGNAT
  `(?:169\\.254|192\\.168|198\\.1[89]|172\\.(?:1[6-9]|2[0-9]|3[01])|100\\.(?:6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7]))\\.${OCTET}\\.${OCTET}`,
  // 192.0.0/24 IETF, 192.0.2/24, 198.51.100/24 and 203.0.113/24 documentation
  `(?:192\\.0\\.[02]|198\\.51\\.100|203\\.0\\.113)\\.${OCTET}`,
];

/**
 * IPv6 literals outside global unicast 2000::/3 (a first group of fewer than four hex digits, or one not starting
 * with 2 or 3: loopback, unspecified, mapped and compatible IPv4, NAT64, link-local, unique-local, multicast), plus
 * documentation 2001:db8::/32 and 6to4 2002::/16.
 */
const PRIVATE_IPV6 = '\\[(?:[^23\\]][^\\]]*|[23][0-9a-f]{0,2}(?::[^\\]]*)?|2001:db8:[^\\]]*|2002:[^\\]]*)\\]';

/** Single-label names (localhost, intranet hosts) and the reserved local suffixes. */
const PRIVATE_NAMES = ['[^./:@\\[\\]]+\\.?', '[^/:@\\[\\]]*\\.(?:localhost|local|internal|home\\.arpa|localdomain)\\.?'];

/** Scheme, optional user info, then the host: what comes before a host pattern. */
const URL_HEAD = '^https?://(?:[^/@]*@)?';
/** After the host: an optional port and the path's first slash (a serialized http(s) URL always has one). */
const URL_TAIL = '(?::[0-9]+)?/';

/**
 * regexFilters (RE2, also JavaScript RegExps) for http(s) URLs whose host is private or local: several, because
 * Chrome refuses a rule whose regex compiles to more than 2 KB.
 */
export const PRIVATE_URL_FILTERS = [...PRIVATE_IPV4, PRIVATE_IPV6, ...PRIVATE_NAMES].map(
  (host) => `${URL_HEAD}(?:${host})${URL_TAIL}`,
);

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regexFilter for http(s) URLs on exactly these hosts (as URL.hostname gives them: lower case, IPv6 bracketed). */
export function hostsUrlFilter(hosts: string[]): string {
  return `${URL_HEAD}(?:${hosts.map((h) => escapeRegex(h.toLowerCase())).join('|')})${URL_TAIL}`;
}

/**
 * The subset of declarativeNetRequest's Rule this guard uses (plain data; the background passes it on). Only
 * 'xmlhttprequest' (what fetch() is, in both browsers): the browser then never runs these rules on the user's own
 * page loads, images or scripts.
 */
export interface GuardRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: { regexFilter: string; initiatorDomains: string[]; resourceTypes: ['xmlhttprequest'] };
}

/** The allow rule's id; block rules are 1, 2, ... (one per filter). */
const ALLOW_RULE_ID = 100;

/** Rule ids this guard owns (removed and re-added together). */
export const GUARD_RULE_IDS = [...PRIVATE_URL_FILTERS.map((_, i) => i + 1), ALLOW_RULE_ID];

/**
 * The session rules for a crawl: block the extension's own requests to private hosts (`ownDomain` is the host of
 * the extension's origin: Chrome's extension id, Firefox's internal UUID), except to `allowedPrivateHosts` (the
 * crawl's private seed hosts, as the URL policy's `privateHosts`). Public hosts in that list need no rule.
 */
export function networkGuardRules(ownDomain: string, allowedPrivateHosts: string[] = []): GuardRule[] {
  const rules: GuardRule[] = PRIVATE_URL_FILTERS.map((regexFilter, i) => ({
    id: i + 1,
    priority: 1,
    action: { type: 'block' },
    condition: { regexFilter, initiatorDomains: [ownDomain], resourceTypes: ['xmlhttprequest'] },
  }));
  const allowed = allowedPrivateHosts.filter((h) => isPrivateHost(h));
  if (allowed.length) {
    rules.push({
      id: ALLOW_RULE_ID,
      priority: 2,
      action: { type: 'allow' },
      condition: { regexFilter: hostsUrlFilter(allowed), initiatorDomains: [ownDomain], resourceTypes: ['xmlhttprequest'] },
    });
  }
  return rules;
}

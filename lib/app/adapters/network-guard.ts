/**
 * The browser-side guard for what lib/engine/url/rules.ts cannot check in a browser on its own: requests the browser
 * makes for the extension outside the fetcher's sight (redirect hops it follows itself). Session rules of the
 * declarativeNetRequest API apply to every request and every hop the extension itself makes (its own origin as the
 * initiator), before it is sent: block private and local hosts, allow the crawl's own private hosts (seeds on the
 * user's network that the user ticked), host and port exactly.
 *
 * The rules are data built here (pure, tested under Node against {@link isPrivateHost}); the background installs them
 * with `declarativeNetRequest.updateSessionRules`, and no crawl starts unless that succeeded. They match the URL as
 * the browser serializes it (WHATWG: IPv4 in dotted decimal whatever its spelling, IPv6 compressed in lower case, host
 * names lower case). Block rules are a fixed handful of regexFilters, each far below Chrome's 2 KB compiled-regex
 * limit; allow rules are plain urlFilters, one per host and scheme, so no number or length of seed hosts can make a
 * rule too big.
 *
 * They block a little more than {@link isPrivateHost} refuses, never less: every IPv6 literal outside global unicast
 * 2000::/3 and every 6to4 (2002::/16) literal, where lib decodes the embedded IPv4 and may allow it. A DNS name that
 * resolves to a private address is not caught here (the rules see names, not addresses): lib/app/adapters/address-guard.ts does that.
 */
import { isPrivateHost, normalizeNamedHost } from '../../engine';

// The URL is serialized (every octet is 0-255 already), so an octet pattern need not check the range: shorter rules.
const OCTET = '[0-9]{1,3}';

/**
 * Private and reserved IPv4 ranges as dotted-decimal patterns (the same list as ipv4Kind in rules.ts), grouped
 * by prefix length so that few rules cover them: each rule is a regex the browser runs on the extension's requests.
 */
const PRIVATE_IPV4 = [
  // 0/8 "this network", 10/8, 127/8 loopback, 224/4 multicast, 240/4 reserved and broadcast
  `(?:0|10|127|22[4-9]|2[3-5][0-9])\\.${OCTET}\\.${OCTET}\\.${OCTET}`,
  // 169.254/16 link-local (cloud metadata), 192.168/16, 198.18/15 benchmarking, 172.16/12, 100.64/10 CGNAT
  `(?:169\\.254|192\\.168|198\\.1[89]|172\\.(?:1[6-9]|2[0-9]|3[01])|100\\.(?:6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7]))\\.${OCTET}\\.${OCTET}`,
  // 192.0.0/24 IETF, 192.0.2/24, 198.51.100/24 and 203.0.113/24 documentation; Azure's host agent 168.63.129.16
  `(?:192\\.0\\.[02]|198\\.51\\.100|203\\.0\\.113)\\.${OCTET}|168\\.63\\.129\\.16`,
];

/** After a 16-bit group: more groups, or the end of the literal. */
const REST = '(?::[^\\]]*)?';

/**
 * IPv6 literals outside global unicast 2000::/3 (a first group of fewer than four hex digits, or one not starting
 * with 2 or 3: loopback, unspecified, mapped and compatible IPv4, NAT64, link-local, unique-local, multicast), and
 * 6to4 2002::/16; then, in a rule of their own (one pattern for all compiles past Chrome's 2 KB limit), the special
 * blocks inside 2000::/3: 2001::/23 IETF assignments, documentation 2001:db8::/32 and 3fff::/20.
 */
const PRIVATE_IPV6 = [
  `\\[(?:[^23\\]][^\\]]*|[23][0-9a-f]{0,2}${REST}|2002:[^\\]]*)\\]`,
  `\\[(?:2001:(?::[^\\]]*|(?:[0-9a-f]{1,2}|1[0-9a-f]{2}|db8)${REST})|3fff:(?::[^\\]]*|[0-9a-f]{1,3}${REST}))\\]`,
];

/** Single-label names (localhost, intranet hosts, "metadata"), the reserved local suffixes and metadata.goog. */
const PRIVATE_NAMES = [
  '[^./:@\\[\\]]+\\.?',
  '[^/:@\\[\\]]*\\.(?:localhost|local|internal|home\\.arpa|localdomain)\\.?',
  'metadata\\.goog\\.?',
];

/** Scheme, optional user info, then the host: what comes before a host pattern. */
const URL_HEAD = '^https?://(?:[^/@]*@)?';
/** After the host: an optional port and the path's first slash (a serialized http(s) URL always has one). */
const URL_TAIL = '(?::[0-9]+)?/';

/**
 * regexFilters (RE2, also JavaScript RegExps) for http(s) URLs whose host is private or local: several, because
 * Chrome refuses a rule whose regex compiles to more than 2 KB.
 */
export const PRIVATE_URL_FILTERS = [...PRIVATE_IPV4, ...PRIVATE_IPV6, ...PRIVATE_NAMES].map(
  (host) => `${URL_HEAD}(?:${host})${URL_TAIL}`,
);

/**
 * The subset of declarativeNetRequest's Rule this guard uses (plain data; the background passes it on). Only
 * 'xmlhttprequest' (what fetch() is, in both browsers): the browser then never runs these rules on the user's own
 * page loads, images or scripts.
 */
export interface GuardRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: ({ regexFilter: string } | { urlFilter: string }) & {
    initiatorDomains: string[];
    resourceTypes: ['xmlhttprequest'];
  };
}

/** Allow rules are numbered from here; block rules are 1, 2, ... (one per filter). */
const FIRST_ALLOW_RULE_ID = 1000;

/**
 * Most private hosts one crawl may name. Two allow rules each, far below the browsers' session-rule limit (5000 in
 * Chrome); a start request carries at most 500 seeds, so this is never reached by the extension's own requests.
 */
export const MAX_GUARD_HOSTS = 2000;

/**
 * urlFilters for requests to exactly this host and port, over http and https: `|http://192.168.1.20:8080/`. An entry
 * without a port names each scheme's default port, which the browser leaves out of the URL.
 */
export function namedHostUrlFilters(entry: string): string[] {
  const named = normalizeNamedHost(entry);
  if (!named) return [];
  const url = new URL(`http://${named}/`);
  const explicitPort = /:(\d+)$/.exec(named)?.[1];
  const hostname = url.hostname;
  return (
    [
      ['http', '80'],
      ['https', '443'],
    ] as const
  ).map(([scheme, defaultPort]) => {
    const port = explicitPort ?? defaultPort;
    return `|${scheme}://${port === defaultPort ? hostname : `${hostname}:${port}`}/`;
  });
}

/**
 * The session rules for a crawl: block the extension's own requests to private hosts (`ownDomain` is the host of
 * the extension's origin: Chrome's extension id, Firefox's internal UUID), except to `allowedPrivateHosts` (the
 * crawl's ticked private seed hosts, as the URL policy's `privateHosts`: host and port). Public hosts in that list
 * need no rule. Throws when more than {@link MAX_GUARD_HOSTS} hosts are named (the crawl must not start then).
 */
export function networkGuardRules(ownDomain: string, allowedPrivateHosts: string[] = []): GuardRule[] {
  const scope = { initiatorDomains: [ownDomain], resourceTypes: ['xmlhttprequest'] as ['xmlhttprequest'] };
  const rules: GuardRule[] = PRIVATE_URL_FILTERS.map((regexFilter, i) => ({
    id: i + 1,
    priority: 1,
    action: { type: 'block' },
    condition: { regexFilter, ...scope },
  }));
  const allowed = [
    ...new Set(
      allowedPrivateHosts
        .map((h) => normalizeNamedHost(h))
        .filter((h): h is string => h !== null && isPrivateHost(new URL(`http://${h}/`).hostname)),
    ),
  ];
  if (allowed.length > MAX_GUARD_HOSTS) {
    throw new Error(`${allowed.length} private hosts named; the network guard takes at most ${MAX_GUARD_HOSTS}`);
  }
  let id = FIRST_ALLOW_RULE_ID;
  for (const host of allowed) {
    for (const urlFilter of namedHostUrlFilters(host)) {
      rules.push({ id: id++, priority: 2, action: { type: 'allow' }, condition: { urlFilter, ...scope } });
    }
  }
  return rules;
}

/**
 * robots.txt rules per RFC 9309, with a matcher whose cost per URL is bounded whatever the file holds.
 *
 * Why not robots-parser's matcher: it keeps every prefix length a pattern could have matched, which costs
 * O(pattern x path) per rule, and a `*` resets that set to the whole path: two `Disallow` lines of 240,000 `*` took
 * 1.2 s per URL (in the extension, on the service worker's thread). Here:
 * - runs of `*` collapse to one (`**` matches what `*` matches);
 * - a pattern is split at its `*` into literal pieces once, when parsed; matching is a prefix test and then a
 *   left-most `indexOf` per piece (left-most is optimal when `*` is the only wildcard), so a rule costs
 *   O(path) string searches in the number of its pieces;
 * - a pattern with more literal characters than a fetchable URL may have (2,048) can never match and is dropped;
 * - rules are sorted longest first (Allow first among equals), so the first match decides (RFC 9309 2.2.2: the most
 *   specific, i.e. longest, match wins, and Allow wins a tie).
 * The file itself is capped at 500 KB by the caller (lib/engine/fetch/robots.ts), which bounds the number of rules.
 *
 * Groups (RFC 9309 2.1, 2.2.1): consecutive `user-agent` lines open a group; the crawler obeys the groups whose
 * product token equals its own (case-insensitive), merged; otherwise the `*` groups, merged; otherwise nothing is
 * disallowed. `/robots.txt` itself is always allowed. `crawl-delay` (not in the RFC, widely used) is read from the
 * same groups.
 */

/** Literal characters a pattern may hold and still match a URL the crawler would fetch (UrlPolicy.maxUrlLength). */
export const MAX_PATTERN_LITERALS = 2048;

interface Rule {
  allow: boolean;
  /** Length of the normalized pattern: the precedence of the rule. */
  length: number;
  /** Literal text before the first `*`: the path must start with it. */
  prefix: string;
  /** Literal pieces after each `*`, in order (empty when the pattern has no `*`). */
  pieces: string[];
  /** The pattern ended with `$`: the path must end where the pattern does. */
  anchored: boolean;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelaySeconds?: number;
}

/**
 * Upper-cases percent escapes and percent-encodes characters outside printable ASCII (as URL paths hold them), as
 * RFC 9309 2.2.2 asks of both sides.
 */
function normalizeEncoding(text: string): string {
  let out = text;
  if (/[^ -~]/.test(out)) {
    out = out.replace(/[^ -~]+/g, (chunk) => {
      try {
        return encodeURIComponent(chunk);
      } catch {
        return ''; // a lone surrogate: nothing a URL could hold
      }
    });
  }
  return out.replace(/%[0-9a-f]{2}/gi, (percent) => percent.toUpperCase());
}

/** Parses one Allow/Disallow pattern; undefined for an empty one or one that can never match. */
function compileRule(raw: string, allow: boolean): Rule | undefined {
  let pattern = normalizeEncoding(raw.trim()).replace(/\*{2,}/g, '*');
  if (pattern === '') return undefined;
  let anchored = false;
  if (pattern.endsWith('$')) {
    anchored = true;
    pattern = pattern.slice(0, -1);
  }
  const parts = pattern.split('*');
  let literals = 0;
  for (const part of parts) literals += part.length;
  if (literals > MAX_PATTERN_LITERALS) return undefined;
  return {
    allow,
    length: pattern.length + (anchored ? 1 : 0),
    prefix: parts[0],
    pieces: parts.slice(1),
    anchored,
  };
}

/** Whether `rule` matches `path` (the URL's path and query, percent-encoded). */
function matches(rule: Rule, path: string): boolean {
  if (!path.startsWith(rule.prefix)) return false;
  const pieces = rule.pieces;
  if (pieces.length === 0) return !rule.anchored || path.length === rule.prefix.length;
  let at = rule.prefix.length;
  const last = pieces.length - 1;
  for (let i = 0; i < last; i++) {
    const found = path.indexOf(pieces[i], at);
    if (found < 0) return false;
    at = found + pieces[i].length;
  }
  const tail = pieces[last];
  if (rule.anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return path.indexOf(tail, at) >= 0;
}

/** The token a `user-agent` line names: its leading letters, `_` and `-`, lower-cased; `*` for the wildcard. */
function agentToken(value: string): string {
  const v = value.trim();
  if (v.startsWith('*')) return '*';
  return (/^[A-Za-z_-]+/.exec(v)?.[0] ?? '').toLowerCase();
}

/** A parsed robots.txt; see the module comment. */
export class RobotsRules {
  private readonly groups: Group[] = [];
  private readonly chosen = new Map<string, { rules: Rule[]; crawlDelaySeconds?: number }>();

  constructor(text: string) {
    let current: Group | null = null;
    let inAgents = false;
    for (const rawLine of text.split(/\r\n|\r|\n/)) {
      const hash = rawLine.indexOf('#');
      const line = hash >= 0 ? rawLine.slice(0, hash) : rawLine;
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'user-agent') {
        if (!inAgents || !current) {
          current = { agents: [], rules: [] };
          this.groups.push(current);
        }
        inAgents = true;
        const token = agentToken(value);
        if (token) current.agents.push(token);
        continue;
      }
      if (key !== 'allow' && key !== 'disallow' && key !== 'crawl-delay') continue; // sitemap, host, unknown keys
      inAgents = false;
      if (!current) continue; // rules before any user-agent line belong to no group
      if (key === 'crawl-delay') {
        const seconds = Number(value);
        if (current.crawlDelaySeconds === undefined && value !== '' && Number.isFinite(seconds) && seconds >= 0) {
          current.crawlDelaySeconds = seconds;
        }
        continue;
      }
      const rule = compileRule(value, key === 'allow');
      if (rule) current.rules.push(rule);
    }
  }

  /** The merged rules and crawl delay that apply to `productToken` (cached per token). */
  private forAgent(productToken: string): { rules: Rule[]; crawlDelaySeconds?: number } {
    const token = productToken.toLowerCase();
    let found = this.chosen.get(token);
    if (found) return found;
    let groups = this.groups.filter((g) => g.agents.includes(token));
    if (groups.length === 0) groups = this.groups.filter((g) => g.agents.includes('*'));
    const rules = groups.flatMap((g) => g.rules);
    rules.sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow));
    const delay = groups.find((g) => g.crawlDelaySeconds !== undefined)?.crawlDelaySeconds;
    found = delay === undefined ? { rules } : { rules, crawlDelaySeconds: delay };
    this.chosen.set(token, found);
    return found;
  }

  /** Whether `productToken` may fetch `url` (an absolute http(s) URL of the origin this file came from). */
  isAllowed(url: string, productToken: string): boolean {
    let path: string;
    try {
      const u = new URL(url);
      path = normalizeEncoding(u.pathname + u.search);
    } catch {
      return false;
    }
    if (path === '/robots.txt') return true;
    for (const rule of this.forAgent(productToken).rules) {
      if (matches(rule, path)) return rule.allow;
    }
    return true;
  }

  /** The crawl-delay for `productToken` in seconds, if its groups set one. */
  crawlDelaySeconds(productToken: string): number | undefined {
    return this.forAgent(productToken).crawlDelaySeconds;
  }

  /** Rules kept over all groups (for tests and diagnostics). */
  get ruleCount(): number {
    let n = 0;
    for (const g of this.groups) n += g.rules.length;
    return n;
  }
}

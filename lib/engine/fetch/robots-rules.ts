/**
 * robots.txt rules per RFC 9309: the file's groups, and which of them a crawler obeys.
 *
 * Groups (RFC 9309 2.1, 2.2.1): consecutive `user-agent` lines open a group, whose `allow` and `disallow` lines
 * follow; other records (`crawl-delay`, `sitemap`, unknown keys) neither open nor close a group (2.2.4), and blank
 * lines and comments are nothing. The crawler obeys the groups whose product token equals its own
 * (case-insensitive), merged; otherwise the `*` groups, merged; otherwise nothing is disallowed. `/robots.txt` itself
 * is always allowed. `crawl-delay` (not in the RFC, widely used) is read from the same groups.
 *
 * Lines are read as Google's parser reads them in production (google/robotstxt), where that reads more of what the
 * site meant and the RFC does not forbid it: a line without a colon whose key and value are one word each
 * (`disallow /x`), the frequent misspellings of the keys (`useragent`, `user agent`, `dissallow`, `disalow`, ...).
 * Lines keep their full length (Google cuts them at 16,664 bytes; the RFC does not).
 *
 * Matching (lib/engine/fetch/robots-matcher.ts) compiles a group's patterns once per crawler; its cost per URL is
 * bounded by the URL, whatever the file holds. The file is capped at 500 KB by the caller (robots.ts).
 */
import { type PatternRule, PatternSet } from './robots-matcher';

interface Group {
  agents: string[];
  rules: PatternRule[];
  crawlDelaySeconds?: number;
}

/** Keys by what they mean: the RFC's, `crawl-delay`, and the misspellings Google accepts. */
const KEYS = new Map<string, 'user-agent' | 'allow' | 'disallow' | 'crawl-delay'>([
  ['user-agent', 'user-agent'],
  ['useragent', 'user-agent'],
  ['user agent', 'user-agent'],
  ['allow', 'allow'],
  ['disallow', 'disallow'],
  ['dissallow', 'disallow'],
  ['dissalow', 'disallow'],
  ['disalow', 'disallow'],
  ['diasllow', 'disallow'],
  ['disallaw', 'disallow'],
  ['crawl-delay', 'crawl-delay'],
]);

/** A line's key (lower-cased) and value, or undefined for a line that holds none (blank, comment, no separator). */
function keyAndValue(rawLine: string): { key: string; value: string } | undefined {
  const hash = rawLine.indexOf('#');
  const line = (hash >= 0 ? rawLine.slice(0, hash) : rawLine).trim();
  const colon = line.indexOf(':');
  if (colon >= 0) return { key: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() };
  const words = /^(\S+)[ \t]+(\S+)$/.exec(line); // `disallow /x`: a key and a value, the colon forgotten
  return words ? { key: words[1].toLowerCase(), value: words[2] } : undefined;
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
  private readonly chosen = new Map<string, { patterns: PatternSet; crawlDelaySeconds?: number }>();

  constructor(text: string) {
    let current: Group | null = null;
    let inAgents = false;
    for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
      const line = keyAndValue(rawLine);
      const kind = line && KEYS.get(line.key);
      if (!line || !kind) continue; // sitemap, host, unknown keys: other records
      if (kind === 'user-agent') {
        if (!inAgents || !current) {
          current = { agents: [], rules: [] };
          this.groups.push(current);
        }
        inAgents = true;
        const token = agentToken(line.value);
        if (token) current.agents.push(token);
        continue;
      }
      if (!current) continue; // records before any user-agent line belong to no group
      if (kind === 'crawl-delay') {
        const seconds = Number(line.value);
        if (current.crawlDelaySeconds === undefined && line.value !== '' && Number.isFinite(seconds) && seconds >= 0) {
          current.crawlDelaySeconds = seconds;
        }
        continue;
      }
      inAgents = false;
      if (line.value !== '') current.rules.push({ pattern: line.value, allow: kind === 'allow' });
    }
  }

  /** The merged rules, compiled, and crawl delay that apply to `productToken` (kept per token). */
  private forAgent(productToken: string): { patterns: PatternSet; crawlDelaySeconds?: number } {
    const token = productToken.toLowerCase();
    let found = this.chosen.get(token);
    if (found) return found;
    let groups = this.groups.filter((g) => g.agents.includes(token));
    if (groups.length === 0) groups = this.groups.filter((g) => g.agents.includes('*'));
    const patterns = new PatternSet(groups.flatMap((g) => g.rules));
    const delay = groups.find((g) => g.crawlDelaySeconds !== undefined)?.crawlDelaySeconds;
    found = delay === undefined ? { patterns } : { patterns, crawlDelaySeconds: delay };
    this.chosen.set(token, found);
    return found;
  }

  /** Whether `productToken` may fetch `url` (an absolute http(s) URL of the origin this file came from). */
  isAllowed(url: string, productToken: string): boolean {
    let path: string;
    try {
      const u = new URL(url);
      path = u.pathname + u.search;
    } catch {
      return false;
    }
    if (path === '/robots.txt') return true;
    return this.forAgent(productToken).patterns.allows(path);
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

/**
 * robots.txt per RFC 9309: fetched once per origin (concurrent callers share one request), parsed into
 * {@link RobotsRules} (lib/engine/fetch/robots-rules.ts: a matcher of bounded cost per URL), kept in a bounded LRU
 * cache. Its timeouts and lifetimes run on the injected {@link Clock}.
 *
 * Status handling (RFC 9309 section 2.3.1):
 * - 2xx: the rules apply (the first 500 KB are parsed; a cut last line is dropped).
 * - 3xx: up to 5 redirects are followed, each hop checked against the URL rules; more, or a refused hop,
 *   means "unavailable" (allow all). The rules found apply to the origin that was asked, as the RFC says.
 * - 4xx ("unavailable"): everything is allowed. Exception: 429 is treated like 5xx, because a server that
 *   says "too many requests" should not then receive a crawl.
 * - 5xx, network error, timeout ("unreachable"): everything is disallowed, but that verdict is cached only
 *   for `unreachableTtlMs` (default 5 minutes) so a transient outage does not shut the origin out for the crawl.
 *   The verdict says why (the skip reason and detail the fetcher reports): the user is told that the site could not
 *   be reached, not that its robots.txt said no.
 * Successful and 4xx results are cached for `ttlMs` (default 24 h, the RFC's upper bound).
 */
import { type Clock, realClock } from '../clock';
import type { SkipReason } from '../types';
import { checkHost, type UrlPolicy } from '../url/rules';
import { DEFAULT_USER_AGENT, Deadline, classifyError, discardBody, isRedirectStatus, readBodyCapped, requestInit } from './http';
import { RobotsRules } from './robots-rules';

export interface RobotsCacheOptions {
  /** Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Sent as User-Agent; its product token (e.g. 'Forager') is matched against robots.txt groups. */
  userAgent?: string;
  /** Whole robots.txt request, redirects and body included. Default 10000. */
  timeoutMs?: number;
  /** Bytes of robots.txt parsed. Default 500 KB (RFC 9309 asks for at least 500 KiB). */
  maxBytes?: number;
  /** Default 5 (RFC 9309 asks to follow at least five). */
  maxRedirects?: number;
  /** Origins kept. Default 1000. */
  maxOrigins?: number;
  /** Lifetime of a fetched (2xx) or unavailable (4xx) robots.txt. Default 24 h. */
  ttlMs?: number;
  /** Lifetime of an "unreachable" (5xx, 429, network, timeout) verdict. Default 5 min. */
  unreachableTtlMs?: number;
  /** URL rules applied to redirect hops of robots.txt requests (e.g. allowPrivate for tests). */
  urlPolicy?: UrlPolicy;
  /** Default the real clock. */
  clock?: Clock;
}

/** What is known about one origin's robots.txt. */
export type RobotsStatus =
  | { kind: 'rules'; rules: RobotsRules }
  | { kind: 'allow-all'; detail: string }
  /** Unreachable (RFC 9309 2.3.1.4): `reason` and `detail` say why, e.g. 'network' / 'fetch failed: ENOTFOUND'. */
  | { kind: 'disallow-all'; reason: Extract<SkipReason, 'network' | 'timeout' | 'http-error'>; detail: string };

/** Whether one URL may be fetched, and at what pace. */
export type RobotsVerdict =
  | { allowed: true; crawlDelayMs?: number }
  | { allowed: false; unreachable: false }
  | { allowed: false; unreachable: true; reason: Extract<SkipReason, 'network' | 'timeout' | 'http-error'>; detail: string };

interface CachedStatus {
  status: RobotsStatus;
  expires: number;
}

const ROBOTS_ACCEPT = 'text/plain,*/*;q=0.1';

/**
 * The URL rules that matter for a robots.txt redirect hop: http(s), no credentials, allowed host, no private
 * address. The page rules (non-HTML extensions such as .txt, trap patterns) do not apply to robots.txt.
 */
function checkRobotsHop(url: string, policy: UrlPolicy = {}): { ok: true } | { ok: false; detail: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, detail: 'unparsable URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, detail: `scheme ${u.protocol}` };
  if (u.href.length > (policy.maxUrlLength ?? 2048)) return { ok: false, detail: 'URL too long' };
  if (u.username || u.password) return { ok: false, detail: 'URL carries credentials' };
  const host = u.hostname;
  if (policy.allowedHosts && !policy.allowedHosts.some((h) => host === h.toLowerCase() || host.endsWith(`.${h.toLowerCase()}`))) {
    return { ok: false, detail: `host ${host} not allowed` };
  }
  return checkHost(u, policy);
}

/** The product token robots.txt groups are matched against: 'Forager/0.1 (+...)' -> 'Forager'. */
export function productToken(userAgent: string): string {
  return userAgent.trim().split(/[/\s;(]/)[0] || '*';
}

/** Caches robots.txt verdicts per origin; see the module comment for the RFC 9309 rules applied. */
export class RobotsCache {
  private readonly entries = new Map<string, CachedStatus>();
  private readonly inflight = new Map<string, Promise<CachedStatus>>();
  private readonly fetchFn: typeof fetch;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly maxOrigins: number;
  private readonly ttlMs: number;
  private readonly unreachableTtlMs: number;
  private readonly urlPolicy: UrlPolicy | undefined;
  private readonly clock: Clock;
  /** robots.txt requests made (for stats and tests). */
  fetches = 0;

  constructor(options: RobotsCacheOptions = {}) {
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 500 * 1024;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.maxOrigins = Math.max(1, options.maxOrigins ?? 1000);
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.unreachableTtlMs = options.unreachableTtlMs ?? 5 * 60 * 1000;
    this.urlPolicy = options.urlPolicy;
    this.clock = options.clock ?? realClock;
  }

  /** Whether `url` may be fetched by `userAgent` (default: this cache's user agent). Never throws. */
  async isAllowed(url: string, userAgent = this.userAgent): Promise<boolean> {
    return (await this.verdict(url, userAgent)).allowed;
  }

  /** The Crawl-delay for `userAgent` on `url`'s origin in milliseconds, if robots.txt sets one. */
  async crawlDelayMs(url: string, userAgent = this.userAgent): Promise<number | undefined> {
    const verdict = await this.verdict(url, userAgent);
    return verdict.allowed ? verdict.crawlDelayMs : undefined;
  }

  /** Whether `url` may be fetched, its origin's crawl delay, or why its site counts as unreachable. Never throws. */
  async verdict(url: string, userAgent = this.userAgent): Promise<RobotsVerdict> {
    const status = await this.status(url);
    if (!status) return { allowed: false, unreachable: false }; // not an http(s) URL: nothing to crawl
    if (status.kind === 'allow-all') return { allowed: true };
    if (status.kind === 'disallow-all') {
      return { allowed: false, unreachable: true, reason: status.reason, detail: status.detail };
    }
    const token = productToken(userAgent);
    if (!status.rules.isAllowed(url, token)) return { allowed: false, unreachable: false };
    const seconds = status.rules.crawlDelaySeconds(token);
    return seconds === undefined ? { allowed: true } : { allowed: true, crawlDelayMs: seconds * 1000 };
  }

  /**
   * The verdict for `url`'s origin, fetching robots.txt if it is not cached; undefined for URLs that are not
   * http(s). Concurrent callers for one origin share one request.
   */
  async status(url: string): Promise<RobotsStatus | undefined> {
    let origin: string;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
      origin = parsed.origin;
    } catch {
      return undefined;
    }
    const cached = this.entries.get(origin);
    if (cached && cached.expires > this.clock.now()) {
      // LRU: move to the most recent end.
      this.entries.delete(origin);
      this.entries.set(origin, cached);
      return cached.status;
    }
    let pending = this.inflight.get(origin);
    if (!pending) {
      pending = this.load(origin).then((entry) => {
        this.inflight.delete(origin);
        this.entries.delete(origin);
        this.entries.set(origin, entry);
        while (this.entries.size > this.maxOrigins) {
          this.entries.delete(this.entries.keys().next().value as string);
        }
        return entry;
      });
      this.inflight.set(origin, pending);
    }
    return (await pending).status;
  }

  /** Origins cached. */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  /** Fetches and classifies one origin's robots.txt. Never rejects. */
  private async load(origin: string): Promise<CachedStatus> {
    const deadline = new Deadline(this.timeoutMs, undefined, this.clock);
    const allow = (detail: string): CachedStatus => ({
      status: { kind: 'allow-all', detail },
      expires: this.clock.now() + this.ttlMs,
    });
    const disallow = (reason: 'network' | 'timeout' | 'http-error', detail: string): CachedStatus => ({
      status: { kind: 'disallow-all', reason, detail },
      expires: this.clock.now() + this.unreachableTtlMs,
    });
    let current = `${origin}/robots.txt`;
    try {
      for (let hops = 0; ; hops++) {
        this.fetches++;
        let response = await deadline.race(this.fetchFn(current, requestInit(this.userAgent, ROBOTS_ACCEPT, deadline.signal)));
        if (response.type === 'opaqueredirect') {
          // Browser: manual redirects are opaque. Let the browser follow them and check where it ended.
          response = await deadline.race(
            this.fetchFn(current, requestInit(this.userAgent, ROBOTS_ACCEPT, deadline.signal, 'follow')),
          );
          if (response.url && response.url !== current) {
            const verdict = checkRobotsHop(response.url, this.urlPolicy);
            if (!verdict.ok) {
              discardBody(response);
              return allow(`robots.txt redirected to a refused URL: ${verdict.detail}`);
            }
          }
        }
        if (isRedirectStatus(response.status)) {
          const location = response.headers.get('location');
          discardBody(response);
          if (!location) return allow(`HTTP ${response.status} without Location`);
          if (hops >= this.maxRedirects) return allow('too many redirects');
          let next: string;
          try {
            next = new URL(location, current).href;
          } catch {
            return allow('invalid redirect Location');
          }
          const verdict = checkRobotsHop(next, this.urlPolicy);
          if (!verdict.ok) return allow(`robots.txt redirected to a refused URL: ${verdict.detail}`);
          current = next;
          continue;
        }
        if (response.status >= 200 && response.status < 300) {
          const { body, truncated } = await readBodyCapped(response, this.maxBytes, deadline);
          let text = new TextDecoder('utf-8').decode(body);
          if (truncated) text = text.slice(0, Math.max(0, text.lastIndexOf('\n')));
          return { status: { kind: 'rules', rules: new RobotsRules(text) }, expires: this.clock.now() + this.ttlMs };
        }
        discardBody(response);
        if (response.status === 429 || response.status >= 500) return disallow('http-error', `HTTP ${response.status}`);
        return allow(`HTTP ${response.status}`);
      }
    } catch (error) {
      const { reason, detail } = classifyError(error, deadline);
      // 'aborted' cannot happen (no outer signal): it would be a network failure of some other kind.
      if (reason === 'timeout') return disallow('timeout', `timeout after ${this.timeoutMs} ms`);
      return disallow('network', detail);
    } finally {
      deadline.dispose();
    }
  }
}

/**
 * The crawler's page fetcher: URL rules, robots.txt, per-origin politeness and global concurrency, manually
 * followed and re-checked redirects, a deadline covering headers and body, a byte cap, and HTML-only bodies.
 * It never throws: every failure is a FetchFailure with a SkipReason.
 *
 * Redirects: in Node (undici) `redirect: 'manual'` exposes the 3xx and its Location, so every hop is
 * canonicalized and checked (URL rules, loop, hop count, robots.txt of the hop's origin) before it is
 * contacted, and each hop is scheduled politely on its own origin. In browsers `redirect: 'manual'` yields an
 * opaque response (type 'opaqueredirect', status 0, no Location); the request is then re-issued with
 * `redirect: 'follow'` and only the final `response.url` can be checked here (the browser's own limit of 20
 * redirects applies), and a refused final URL is dropped unread. The extension closes the gap for private hosts
 * with browser rules that block its own requests' hops (lib/app/adapters/network-guard.ts).
 *
 * Politeness (lib/engine/fetch/scheduler.ts): a fetch takes its site's slot synchronously, when it is called, and
 * holds it while robots.txt is read (once per origin per day, by the RobotsCache) and the page is requested; so the
 * crawl loop, which asks {@link Fetcher.isReady} before it starts a fetch, never sends a second request to a busy
 * site. Retry-After on 429/503 rests the site for as long as it asks, up to `maxRetryAfterMs`; a site that asks for
 * longer is not contacted again by this fetcher (its URLs fail at once with the reason), so it never stalls a crawl.
 * The fetcher tries each URL once; it marks the failures another attempt may not have (`transient`: a timeout, 5xx,
 * 429) and the crawl loop decides whether and when to ask again, so a retry waits without holding a fetch slot.
 *
 * Time (timeouts, pauses, Retry-After) runs on the injected {@link Clock}.
 */
import { type Clock, realClock } from '../clock';
import type {
  FetchFailure,
  FetchNotModified,
  FetchOutcome,
  FetchSuccess,
  PageFetcher,
  ReadyGate,
  SkipReason,
  Validators,
} from '../types';
import { RobotsCache, type RobotsVerdict } from './robots';
import { urlChecker, type UrlPolicy } from '../url/rules';
import { canonicalizeUrl, originOf } from '../url/canonical';
import {
  DEFAULT_USER_AGENT,
  Deadline,
  DeadlineError,
  HTML_ACCEPT,
  classifyError,
  hasValidators,
  describeNetworkError,
  discardBody,
  isHtmlMediaType,
  isRedirectStatus,
  linkedSignal,
  looksLikeHtml,
  mediaType,
  parseRetryAfter,
  raceAbort,
  readBodyCapped,
  requestInit,
  responseValidators,
} from './http';
import { PolitenessScheduler, type Lease, type SlowSiteRule } from './scheduler';

/** URLs whose site gate the fetcher remembers for isReady (then it starts over). */
const MAX_ORIGINS_KEPT = 50_000;

/** What a fetcher's site gates read: its scheduler, clock and the sites it leaves alone. */
interface GateContext {
  readonly scheduler: PolitenessScheduler;
  readonly clock: Clock;
  readonly leftAlone: Map<string, string>;
  /** Bumped whenever a site is left alone. */
  leftAloneVersion: number;
}

/**
 * One site's (origin's) readiness, shared by all its URLs: the crawl asks it for every queued URL its strategy walks
 * past, most of them on sites that are busy or resting, many times between two changes. The answer is kept until
 * the scheduler changes or the clock moves.
 */
class SiteGate implements ReadyGate {
  private version = -1;
  private leftAloneVersion = -1;
  private at = Number.NaN;
  private answer = false;

  constructor(
    private readonly ctx: GateContext,
    /** Undefined for a URL without an origin: it fails at once without a request, so it is always ready. */
    readonly origin: string | undefined,
  ) {}

  ready(): boolean {
    const origin = this.origin;
    if (origin === undefined) return true;
    const ctx = this.ctx;
    const scheduler = ctx.scheduler;
    const now = ctx.clock.now();
    if (this.version === scheduler.version && this.at === now && this.leftAloneVersion === ctx.leftAloneVersion) {
      return this.answer;
    }
    // A site left alone fails its URLs at once without a request: always ready.
    const answer = (ctx.leftAlone.size > 0 && ctx.leftAlone.has(origin)) || scheduler.isReady(origin);
    this.version = scheduler.version;
    this.leftAloneVersion = ctx.leftAloneVersion;
    this.at = now;
    this.answer = answer;
    return answer;
  }
}

export interface FetcherOptions {
  /** Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Default 'Forager/0.1 (+personal topical crawler)'. Browsers ignore it in fetch. */
  userAgent?: string;
  /** Network time budget of one page, all redirect hops and the body included (queue waits excluded). Default 10000. */
  timeoutMs?: number;
  /** Body bytes kept; the rest is cancelled unread. Default {@link DEFAULT_MAX_BYTES}. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Minimum pause between the end of one request and the start of the next to the same origin. Default 1000; 0 = politeness off. */
  politenessDelayMs?: number;
  /** Requests in flight over all sites (the crawl keeps this many fetches going). Default 6. */
  maxInFlight?: number;
  /**
   * Requests in flight to one site. Default 1 while politeness is on (politenessDelayMs > 0); with politeness off,
   * `maxInFlight` (no limit of its own), except that a site much slower than the others gets one at a time.
   */
  maxPerSite?: number;
  /** When a site counts as slow while several requests per site are allowed; false turns the rule off (scheduler.ts). */
  slowSite?: SlowSiteRule | false;
  /** Default true. */
  respectRobots?: boolean;
  /** URL rules for every URL and redirect hop; the crawl applies the same rules to outlinks (one place for both). */
  urlPolicy?: UrlPolicy;
  /** Where time comes from (timeouts, pauses, Retry-After, robots.txt lifetimes). Default the real clock. */
  clock?: Clock;
  /** robots.txt cache to use (e.g. shared between fetchers); default a new one with this fetcher's settings. */
  robots?: RobotsCache;
  /** Longest robots.txt Crawl-delay honoured. Default 30000. */
  maxCrawlDelayMs?: number;
  /**
   * Longest Retry-After (on 429/503) a site is waited for. Default 60000: a crawl of a few hundred pages takes
   * minutes, so a site that wants a longer pause is out of this crawl; it is left alone (not contacted again by this
   * fetcher), and its queued URLs are skipped with the reason instead of holding up the crawl.
   */
  maxRetryAfterMs?: number;
}

/** Counters of one fetcher. */
export interface FetcherStats {
  /** fetch() calls finished. */
  fetches: number;
  succeeded: number;
  /** Failures by reason. */
  failed: Partial<Record<SkipReason, number>>;
  /** HTTP requests sent for pages (redirect hops and browser re-issues included; robots.txt excluded). */
  requests: number;
  /** Conditional requests answered 304 Not Modified. */
  notModified: number;
  /** robots.txt requests sent. */
  robotsRequests: number;
  /** Body bytes kept. */
  bytes: number;
  /** Requests holding a slot now. */
  inFlight: number;
  /** fetch() calls waiting for a slot now. */
  queued: number;
  /** Sites left alone for the rest of the crawl because their Retry-After exceeded maxRetryAfterMs. */
  sitesLeftAlone: number;
}

/** A PageFetcher that can be closed and reports counters. */
export type Fetcher = PageFetcher & {
  /** Aborts requests in flight and waiting; later fetch() calls resolve as 'aborted'. */
  close(): void;
  stats(): FetcherStats;
};

/** Requests in flight when not told otherwise (the crawl assumes it too for a fetcher that does not say). */
export const DEFAULT_MAX_IN_FLIGHT = 6;

/** A hop's result: a finished outcome, or the next URL to go to. */
type HopResult =
  | { done: Omit<FetchSuccess, 'elapsedMs'> | Omit<FetchNotModified, 'elapsedMs'> | Omit<FetchFailure, 'elapsedMs'> }
  | { next: string };

/**
 * Answers another attempt may not get (FetchFailure.transient): request timeout, too early, too many requests, the
 * server errors that mean "not now" (501 Not Implemented and 505 are lasting), and the CDN's timeouts 522 and 524
 * (Scrapy's list, with 425).
 */
const TRANSIENT_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504, 522, 524]);

/** Sites left alone (Retry-After too long) remembered at most; a hostile crawl cannot grow the map without bound. */
const MAX_SITES_LEFT_ALONE = 10_000;

/**
 * Body bytes a page fetch keeps by default: 1 MiB. Today's pages put much before their content (inline scripts,
 * styles, JSON state): of the six real search-result pages in the tests' data (113 KiB to 1.9 MiB), five keep at most
 * 18 of their 39-151 links and 247 of their 579-3,989 words when cut at 100 KiB (Startpage's none: its body starts at
 * 99 KiB); cut at 1 MiB, five are whole and the sixth keeps 140 of 151 links. Reading a 1 MiB page costs the
 * evaluator about 18 ms (4 ms at 100 KiB). Still a cap: a page that never ends costs at most this much.
 */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

/** Creates a polite page fetcher; see the module comment. */
export function createFetcher(options: FetcherOptions = {}): Fetcher {
  const fetchFn: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? 5;
  const politenessDelayMs = Math.max(0, options.politenessDelayMs ?? 1000);
  const respectRobots = options.respectRobots ?? true;
  const policy: UrlPolicy = options.urlPolicy ?? {};
  const checkUrl = urlChecker(policy);
  const clock = options.clock ?? realClock;
  const maxCrawlDelayMs = options.maxCrawlDelayMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const maxInFlight = Math.max(1, Math.floor(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT) || 1);
  const maxPerSite = Math.min(maxInFlight, options.maxPerSite ?? (politenessDelayMs > 0 ? 1 : maxInFlight));
  const scheduler = new PolitenessScheduler({ maxInFlight, maxPerSite, clock, slowSite: options.slowSite });
  const robots = options.robots ?? new RobotsCache({ fetch: fetchFn, userAgent, timeoutMs, urlPolicy: policy, clock });
  const closer = new AbortController();
  const counters = {
    fetches: 0,
    succeeded: 0,
    requests: 0,
    notModified: 0,
    bytes: 0,
    failed: {} as Partial<Record<SkipReason, number>>,
  };
  /** Origin -> why it is left alone (a Retry-After beyond maxRetryAfterMs). */
  const leftAlone = new Map<string, string>();
  const gateContext: GateContext = { scheduler, clock, leftAlone, leftAloneVersion: 0 };

  function leaveAlone(origin: string, why: string): void {
    gateContext.leftAloneVersion++;
    leftAlone.set(origin, why);
    if (leftAlone.size > MAX_SITES_LEFT_ALONE) leftAlone.delete(leftAlone.keys().next().value as string);
  }

  /**
   * One request to `url` while holding its origin's slot. `validators` (the first hop's only: they describe the page
   * at the URL asked for, not at a redirect's target) make it conditional.
   */
  async function hop(
    url: string,
    deadline: Deadline,
    onRetryAfter: (ms: number) => void,
    validators?: Validators,
  ): Promise<HopResult> {
    const fail = (reason: SkipReason, detail: string, status?: number): HopResult => ({
      done: {
        ok: false,
        url,
        reason,
        detail,
        ...(status !== undefined ? { status } : {}),
        ...(status !== undefined && TRANSIENT_STATUSES.has(status) ? { transient: true as const } : {}),
      },
    });
    const conditional = hasValidators(validators) ? validators : undefined;
    counters.requests++;
    let response = await deadline.race(fetchFn(url, requestInit(userAgent, HTML_ACCEPT, deadline.signal, 'manual', conditional)));
    let finalUrl = url;
    if (response.type === 'opaqueredirect') {
      counters.requests++;
      try {
        response = await deadline.race(fetchFn(url, requestInit(userAgent, HTML_ACCEPT, deadline.signal, 'follow', conditional)));
      } catch (error) {
        if (classifyError(error, deadline).reason !== 'network') throw error; // timeouts and aborts as usual
        // The extension's browser rules refuse hops to private hosts this way too (lib/app/adapters/network-guard.ts).
        return fail(
          'redirect',
          `redirect not followed to its end: a hop to a private host refused by the browser, or a network error (${describeNetworkError(error)})`,
        );
      }
      if (response.url && response.url !== url) {
        const landed = canonicalizeUrl(response.url);
        const verdict = landed ? checkUrl(landed) : { ok: false as const, detail: 'unparsable URL' };
        if (!verdict.ok) {
          discardBody(response);
          return fail('redirect', `redirected to a refused URL ${response.url} (${verdict.detail})`);
        }
        if (respectRobots && !(await deadline.race(robots.isAllowed(landed!, userAgent)))) {
          discardBody(response);
          return fail('robots', `robots.txt disallows redirect target ${landed}`);
        }
        finalUrl = response.url;
      }
    }
    const status = response.status;
    if (status === 304 && conditional) {
      // Not modified since the validators were taken: nothing to read, nothing to evaluate.
      discardBody(response);
      const { etag, lastModified } = responseValidators(response.headers);
      return {
        done: {
          ok: true,
          notModified: true,
          url: '',
          finalUrl,
          status: 304,
          ...(etag !== undefined ? { etag } : {}),
          ...(lastModified !== undefined ? { lastModified } : {}),
        },
      };
    }
    if (isRedirectStatus(status)) {
      const location = response.headers.get('location');
      discardBody(response);
      if (!location) return fail('redirect', `HTTP ${status} without Location`, status);
      const next = canonicalizeUrl(location, url);
      if (!next) return fail('redirect', `invalid redirect Location ${location.slice(0, 200)}`, status);
      return { next };
    }
    if (status < 200 || status >= 300) {
      discardBody(response);
      if (status === 429 || status === 503) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'), clock.now());
        if (retryAfter !== undefined) {
          onRetryAfter(retryAfter);
          return fail('http-error', `HTTP ${status}, Retry-After ${Math.ceil(retryAfter / 1000)} s`, status);
        }
      }
      return fail('http-error', `HTTP ${status}`, status);
    }
    const contentType = response.headers.get('content-type') ?? undefined;
    const type = mediaType(contentType);
    if (type && !isHtmlMediaType(type)) {
      discardBody(response);
      return fail('not-html', `Content-Type ${type}`, status);
    }
    const { body, truncated } = await readBodyCapped(response, maxBytes, deadline);
    if (!type && !looksLikeHtml(body)) {
      return fail('not-html', 'no Content-Type and the body does not look like HTML', status);
    }
    counters.bytes += body.byteLength;
    const { etag, lastModified } = responseValidators(response.headers);
    return {
      done: {
        ok: true,
        url: '',
        finalUrl,
        status,
        ...(contentType !== undefined ? { contentType } : {}),
        ...(lastModified !== undefined ? { lastModified } : {}),
        ...(etag !== undefined ? { etag } : {}),
        body,
        truncated,
      },
    };
  }

  /**
   * The whole fetch of one URL, hop by hop. `spent` accumulates network time. Takes the first hop's site slot
   * before its first await, so the site counts as busy from the moment fetch() is called.
   */
  async function run(
    url: string,
    signal: AbortSignal,
    spent: { ms: number },
    validators?: Validators,
  ): Promise<Omit<FetchOutcome, 'elapsedMs'>> {
    const fail = (reason: SkipReason, detail: string, status?: number): Omit<FetchFailure, 'elapsedMs'> => ({
      ok: false,
      url,
      reason,
      detail,
      ...(status !== undefined ? { status } : {}),
    });
    // The page's own request timed out. (A robots.txt that did not answer is not: its verdict is remembered for
    // minutes, and a retry would fail again at once.)
    const timedOut = () => ({ ...fail('timeout', `timeout after ${timeoutMs} ms`), transient: true as const });
    const aborted = () => fail('aborted', closer.signal.aborted ? 'fetcher closed' : 'aborted');
    if (signal.aborted) return aborted();
    const first = checkUrl(url);
    if (!first.ok) return fail('url-refused', first.detail);
    let current = canonicalizeUrl(url) ?? url;
    const seen = new Set([url, current]);
    let redirects = 0;
    for (;;) {
      const origin = originOf(current) ?? current;
      const leftAloneWhy = leftAlone.get(origin);
      if (leftAloneWhy) return fail('http-error', leftAloneWhy);
      let lease: Lease;
      try {
        lease = await scheduler.acquire(origin, signal);
      } catch {
        return aborted();
      }
      let restMs = 0;
      let notBeforeMs: number | undefined;
      let result: HopResult;
      try {
        if (respectRobots) {
          let verdict: RobotsVerdict;
          try {
            verdict = await raceAbort(robots.verdict(current, userAgent), signal);
          } catch {
            return aborted();
          }
          if (!verdict.allowed) {
            if (verdict.unreachable) {
              return fail(verdict.reason, `site unreachable: robots.txt could not be fetched (${verdict.detail})`);
            }
            return fail('robots', redirects ? `robots.txt disallows redirect target ${current}` : 'disallowed by robots.txt');
          }
          if (verdict.crawlDelayMs !== undefined) restMs = Math.min(verdict.crawlDelayMs, maxCrawlDelayMs);
        }
        restMs = Math.max(restMs, politenessDelayMs);
        const deadline = new Deadline(timeoutMs - spent.ms, signal, clock);
        const started = clock.now();
        try {
          result = await hop(
            current,
            deadline,
            (ms) => {
              if (ms <= maxRetryAfterMs) notBeforeMs = ms;
              else {
                leaveAlone(
                  origin,
                  `not contacted: the site asked for a pause of ${Math.ceil(ms / 1000)} s (Retry-After), longer than the ` +
                    `${Math.round(maxRetryAfterMs / 1000)} s a crawl waits for one site`,
                );
              }
            },
            redirects === 0 ? validators : undefined,
          );
        } catch (error) {
          const { reason, detail } = classifyError(error, deadline);
          if (reason === 'aborted') return aborted();
          return reason === 'timeout' ? timedOut() : fail(reason, detail);
        } finally {
          spent.ms += Math.max(0, clock.now() - started);
          deadline.dispose();
        }
      } finally {
        lease.release({ delayMs: restMs, notBeforeMs });
      }
      if ('done' in result) {
        // A site that asked for a longer pause than a crawl waits is not asked again: nothing to retry.
        if (!result.done.ok && result.done.transient && leftAlone.has(origin)) {
          const { transient: _, ...lasting } = result.done;
          return { ...lasting, url };
        }
        return { ...result.done, url };
      }
      const next = result.next;
      if (seen.has(next)) return fail('redirect', `redirect loop at ${next}`);
      redirects++;
      if (redirects > maxRedirects) return fail('redirect', `more than ${maxRedirects} redirects`);
      const verdict = checkUrl(next);
      if (!verdict.ok) return fail('redirect', `redirect to a refused URL ${next} (${verdict.detail})`);
      seen.add(next);
      current = next;
      if (spent.ms >= timeoutMs) return timedOut();
    }
  }

  async function fetchPage(url: string, signal?: AbortSignal, validators?: Validators): Promise<FetchOutcome> {
    const spent = { ms: 0 };
    const link = linkedSignal([signal, closer.signal]);
    let outcome: FetchOutcome;
    try {
      const partial = await run(url, link.signal, spent, validators);
      outcome = { ...partial, elapsedMs: spent.ms } as FetchOutcome;
    } catch (error) {
      // Last line of defence: nothing above should throw, but the contract is "never throws".
      const reason: SkipReason = error instanceof DeadlineError ? 'aborted' : 'network';
      outcome = { ok: false, url, reason, detail: describeNetworkError(error), elapsedMs: spent.ms };
    } finally {
      link.dispose();
    }
    counters.fetches++;
    if (outcome.ok && outcome.notModified) counters.notModified++;
    else if (outcome.ok) counters.succeeded++;
    else counters.failed[outcome.reason] = (counters.failed[outcome.reason] ?? 0) + 1;
    return outcome;
  }

  // The loop asks about the same queued URLs again and again while their sites rest: remember each one's site gate.
  const gates = new Map<string, SiteGate>();
  const gateByOrigin = new Map<string | undefined, SiteGate>();
  const gateOf = (url: string): SiteGate => {
    let gate = gates.get(url);
    if (gate === undefined) {
      if (gates.size >= MAX_ORIGINS_KEPT) {
        gates.clear();
        gateByOrigin.clear();
      }
      const origin = originOf(url);
      gate = gateByOrigin.get(origin);
      if (gate === undefined) {
        gate = new SiteGate(gateContext, origin);
        gateByOrigin.set(origin, gate);
      }
      gates.set(url, gate);
    }
    return gate;
  };

  return {
    fetch: fetchPage,
    maxInFlight,
    urlPolicy: policy,
    clock,
    isReady(url: string): boolean {
      return gateOf(url).ready();
    },
    gate: gateOf,
    nextReadyAt: () => scheduler.nextReadyAt(),
    nextReadySite: () => {
      const next = scheduler.nextReady();
      return next && { site: next.origin, at: next.at };
    },
    close() {
      closer.abort();
      scheduler.close();
    },
    stats: () => ({
      fetches: counters.fetches,
      succeeded: counters.succeeded,
      failed: { ...counters.failed },
      requests: counters.requests,
      notModified: counters.notModified,
      robotsRequests: robots.fetches,
      bytes: counters.bytes,
      inFlight: scheduler.inFlight(),
      queued: scheduler.queued(),
      sitesLeftAlone: leftAlone.size,
    }),
  };
}

/**
 * The crawl loop: the one place where a URL goes from the strategy's frontier to the fetcher, the evaluator, and
 * back to the strategy as an evaluated page with outlinks. The CLI, the extension's background and the lab all
 * consume the events it yields.
 *
 * How it schedules: there are no rounds. The loop keeps the fetcher's `maxInFlight` fetches going; whenever one
 * ends, its outcome is booked (the page is shown to the strategy at once, its outlinks filtered by the URL rules and
 * by meta robots nofollow, here and nowhere else) and its event emitted, and the freed slot goes to the strategy's
 * next choice among the URLs whose site may be contacted now (the fetcher answers that from its politeness: one
 * request per site at a time and the pause between requests by default, Retry-After, robots.txt crawl-delay). A
 * slow or resting site holds only its own URLs; when every queued URL waits for its site, the loop sleeps until the
 * first site is ready again or a fetch ends. Fetches are not started past the page budget (pages so far plus
 * fetches in flight never exceed it).
 *
 * Retries: a fetch that failed transiently (the fetcher marks timeouts, 5xx and 429 so) is booked as a 'retry'
 * event, not a skip; its URL waits without a slot (2 s, then 8 s, and until its site is ready) and then goes before
 * the strategy's next choice, `CrawlLimits.retries` times (2 by default). Only the last failure reaches the strategy
 * and the skips. Without retries a page behind one dropped request was lost to the crawl for good.
 *
 * Time comes from the fetcher's clock (lib/engine/clock.ts): on a VirtualClock with a fetch that answers on its
 * timers, the same seed gives the same crawl, bit for bit. On the real network the order of pages depends on when
 * answers come.
 *
 * Checkpoints: `checkpoint()` is valid at any moment. Booking an outcome and emitting its event are one synchronous
 * step, so a checkpoint taken while an event is handled covers exactly the outcomes whose events were delivered;
 * fetches in flight and URLs waiting for a retry are in it as `inFlight` (with their failed attempts) and are fetched
 * again on resume.
 */
import { type Clock, realClock, type TimerHandle } from './clock';
import { DEFAULT_MAX_IN_FLIGHT } from './fetch/fetcher';
import { errorMessage } from './errors';
import { localEvaluator } from './html/evaluate';
import { measuredTopic, pageProfile, withFeedback } from './text/feedback';
import { cosineMeasured, measure, type MeasuredVector } from './text/vector';
import { createStrategy } from './strategies/index';
import { canonicalizeUrl, originOf } from './url/canonical';
import { checkUrl, urlChecker, type UrlCheck, type UrlPolicy } from './url/rules';
import type {
  CrawlCheckpoint,
  CrawlEvent,
  CrawlLimits,
  CrawlStats,
  Evaluator,
  FrontierEntry,
  Judgement,
  JudgementValue,
  LinkFeature,
  PageEvaluation,
  PageFetcher,
  PageResult,
  ReadyGate,
  RefusedLinks,
  SkipRecord,
  Strategy,
  StrategyContext,
  TermVector,
  Topic,
  Validators,
} from './types';

export const DEFAULT_LIMITS: CrawlLimits = { maxPages: 500, maxBuffer: 256 };
/** CrawlLimits.retries when absent: a URL gets three attempts in all, as with most crawlers' defaults. */
export const DEFAULT_RETRIES = 2;

/** Shortest wait for a site (or a retry) that the crawl's stats report, while nothing else can be done (ms). */
export const WAIT_SHOWN_MS = 10_000;

/**
 * How long a URL waits after its `attempt`-th transient failure: 2 s, 8 s, 32 s... (its site's own rest, e.g. a
 * Retry-After, comes on top: the URL is taken only once its site is ready).
 */
export function retryDelayMs(attempt: number): number {
  return 2000 * 4 ** Math.max(0, attempt - 1);
}

/** Examples kept per URL rule in {@link RefusedLinks}, and their length. */
const REFUSED_EXAMPLES = 3;
const REFUSED_EXAMPLE_CHARS = 300;
/** Site gates of queued URLs remembered per crawl (then it starts over). */
const URL_GATES_KEPT = 100_000;
/** The gate of a URL fetched already: ready (it is dropped when handed out). */
const FETCHED_GATE: ReadyGate = { ready: () => true };

export interface CrawlOptions {
  topic: Topic;
  /** Seed URLs; canonicalized, deduplicated; refused ones are emitted as skips first. Ignored when resuming. */
  seeds: string[];
  strategy: { name: string; params?: StrategyContext['params']; seed?: number };
  limits?: Partial<CrawlLimits>;
  /**
   * Fetches politely, and is the one place of the crawl's settings that concern the network: requests in flight
   * (`maxInFlight`), the URL rules (`urlPolicy`, applied to outlinks too) and the clock (`clock`).
   */
  fetcher: PageFetcher;
  /** Defaults to evaluating in this thread. */
  evaluator?: Evaluator;
  signal?: AbortSignal;
  /** Continue this crawl instead of starting a new one (version 2; see migrateCheckpoint for version 1). */
  checkpoint?: CrawlCheckpoint;
  /** Words either side of a link kept as its context. */
  contextWindow?: number;
  /**
   * What is known of pages fetched before (a topic watch's earlier checks), by canonical URL: their fetches are
   * conditional, and a 304 answer is a `not-modified` event instead of a page (not evaluated, not counted in
   * `maxPages`, its links not followed: they are the ones the page had). Give them again when resuming.
   */
  validators?: ReadonlyMap<string, Validators>;
  /**
   * Pages to fetch again besides the seeds (a watch's best pages so far): queued with the seeds, at depth 0, but not
   * seeds (their pages are not `isSeed`). Ignored when resuming (the checkpoint's frontier holds them).
   */
  revisit?: string[];
}

/** A running crawl. `events()` drives it; it does nothing until iterated. */
export interface Crawl {
  events(): AsyncGenerator<CrawlEvent>;
  /** Stop starting fetches; those in flight finish. A checkpoint event follows once they have. */
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  /** The state right now, as plain data; valid at any moment, and not changed by the crawl going on. */
  checkpoint(): CrawlCheckpoint;
  stats(): CrawlStats;
  /**
   * The user's verdict on a page (1 relevant, -1 not, 0 undo): the topic moves (Rocchio), pages of this run are
   * re-scored from their profiles, the strategy learns and re-scores its frontier. `terms` is the page's profile
   * (PageResult.profile.terms); without it, the profile of a page this run fetched is used, else the topic does not
   * move. Kept in the checkpoint. Valid at any moment, before, during and after `events()`.
   */
  judge(url: string, value: JudgementValue, terms?: TermVector): void;
  /** The topic pages are scored against now: the crawl's topic with the judgements' feedback. */
  currentTopic(): Topic;
  /** The judgements so far, oldest first. */
  judgements(): Judgement[];
}

/** Convenience: the events of a new crawl. */
export function crawl(options: CrawlOptions): AsyncGenerator<CrawlEvent> {
  return createCrawl(options).events();
}

export function createCrawl(options: CrawlOptions): Crawl {
  return new CrawlRun(options);
}

interface Timings {
  fetchMs: number;
  evaluateMs: number;
  strategyMs: number;
}

/** What one fetch came to, before it is booked. */
type Outcome =
  | { kind: 'page'; page: PageResult; evaluation: PageEvaluation }
  | { kind: 'not-modified'; etag?: string; lastModified?: string }
  | { kind: 'skip'; reason: SkipRecord['reason']; detail: string; transient?: boolean };

/** A finished fetch waiting to be booked (null outcome: stopped by an abort, fetched again on resume). */
interface Finished {
  entry: FrontierEntry;
  outcome: Outcome | null;
}

/**
 * The name a URL-rule refusal is counted under, from the rule's detail text (lib/engine/url/rules.ts writes it).
 * Unknown details count as 'other' and keep their text in the examples.
 */
export function refusalRule(detail: string): string {
  // url/rules.ts checkHost's refusals ('private host 10.0.0.1 (...)'), and the wording of older checkpoints.
  if (detail.startsWith('private host ') || detail.startsWith('private or local host')) return 'private host';
  if (/^host .* not allowed$/.test(detail)) return 'host not allowed';
  if (detail.startsWith('scheme ')) return 'scheme';
  if (detail.startsWith('non-HTML extension')) return 'non-HTML extension';
  if (detail.startsWith('URL longer than')) return 'too long';
  if (detail === 'URL carries credentials') return 'credentials';
  if (detail.startsWith('calendar-like') || detail.includes('numeric path segments')) return 'calendar';
  if (detail.includes('path segments')) return 'too deep';
  if (detail.includes('repeated more than')) return 'repeated segment';
  if (detail.startsWith('session id')) return 'session id';
  if (detail === 'unparsable URL' || detail === 'not a string') return 'invalid';
  return 'other';
}

class CrawlRun implements Crawl {
  /** The topic as given, without feedback. */
  private readonly baseTopic: Topic;
  /** What pages are scored against: baseTopic with the judgements' feedback. */
  private topic: Topic;
  private topicVec: MeasuredVector;
  private readonly judged = new Map<string, Judgement>();
  /** Term profiles of the pages this run evaluated, for re-scoring them when the topic moves. */
  private readonly profiles = new Map<string, TermVector>();
  private readonly limits: CrawlLimits;
  private readonly strategySpec: CrawlCheckpoint['strategy'];
  private readonly strategy: Strategy;
  private readonly evaluator: Evaluator;
  private readonly fetcher: PageFetcher;
  private readonly policy: UrlPolicy;
  private readonly clock: Clock;
  private readonly maxInFlight: number;
  private readonly seeds: string[];
  private readonly seedSet: Set<string>;
  private readonly fetched = new Set<string>();
  /** URL -> the fetcher's gate of its site, or FETCHED_GATE (see {@link ready}); without fetcher gates, unused. */
  private readonly gates = new Map<string, ReadyGate>();
  /** Seeds refused by the URL rules: emitted as skips when the crawl starts. */
  private readonly seedSkips: SkipRecord[] = [];
  /** URLs taken from the strategy and not booked yet, in the order they were taken (started or still to start). */
  private readonly inFlight = new Map<string, FrontierEntry>();
  /** Entries of a resumed checkpoint's inFlight not started again yet: they go before the strategy's choices. */
  private readonly resumeQueue: FrontierEntry[] = [];
  /** URLs whose fetch failed transiently, each waiting until `at` (clock time); also in `inFlight`. */
  private readonly retryQueue: { entry: FrontierEntry; at: number }[] = [];
  private readonly retries: number;
  private retried = 0;
  /** What the crawl waits for while nothing else can be done (CrawlStats.waiting). */
  private waitingFor: { site: string; until: number } | undefined;
  private readonly finished: Finished[] = [];
  private linksRefused: RefusedLinks = { total: 0, byRule: {} };
  /** The URL rules on outlinks, verdicts kept (shared with other crawls under the same rules object). */
  private readonly checkLink: (url: string) => UrlCheck;
  private refusedReported = 0;
  private running = 0;
  private pagesEvaluated = 0;
  private errors = 0;
  private scoreSum = 0;
  private notModified = 0;
  private elapsedBefore = 0;
  private startedAt = 0;
  private started = false;
  private stopped = false;
  private pausedFlag = false;
  private wake: (() => void) | null = null;
  readonly timings: Timings = { fetchMs: 0, evaluateMs: 0, strategyMs: 0 };

  constructor(private readonly options: CrawlOptions) {
    this.fetcher = options.fetcher;
    const fetched = this.fetched;
    const gateOf = options.fetcher.gate?.bind(options.fetcher);
    const isReady = options.fetcher.isReady?.bind(options.fetcher);
    if (gateOf) {
      // One lookup per URL asked: its site's gate (which keeps its answer until the fetcher's state or the time
      // changes), or the always-ready gate of a fetched URL (markFetched drops a URL's entry).
      const gates = this.gates;
      this.ready = (url) => {
        let gate = gates.get(url);
        if (gate === undefined) {
          gate = fetched.has(url) ? FETCHED_GATE : gateOf(url);
          if (gates.size >= URL_GATES_KEPT) gates.clear();
          gates.set(url, gate);
        }
        return gate.ready();
      };
    } else this.ready = isReady ? (url) => fetched.has(url) || isReady(url) : () => true;
    this.clock = options.fetcher.clock ?? realClock;
    this.policy = options.fetcher.urlPolicy ?? {};
    this.checkLink = urlChecker(this.policy);
    this.maxInFlight = Math.max(1, Math.floor(options.fetcher.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT) || 1);
    this.evaluator = options.evaluator ?? localEvaluator;
    const cp = options.checkpoint;
    if (cp) {
      if ((cp.version as number) === 1) {
        throw new Error('This checkpoint is version 1 (the batch loop): convert it with migrateCheckpoint first');
      }
      if (cp.version !== 2) throw new Error(`Unsupported checkpoint version ${String(cp.version)}`);
      this.baseTopic = cp.topic;
      for (const j of cp.judgements ?? []) this.judged.set(j.url, j);
      this.topic = withFeedback(cp.topic, this.judged.values());
      this.limits = { ...cp.limits, ...options.limits };
      this.strategySpec = cp.strategy;
      this.seeds = cp.seeds;
      this.strategy = createStrategy(cp.strategy.name, this.context(cp.strategy));
      this.strategy.restore(cp.strategy.state);
      for (const url of cp.fetched) this.fetched.add(url);
      for (const entry of cp.inFlight) {
        this.resumeQueue.push(entry);
        this.inFlight.set(entry.url, entry);
      }
      this.pagesEvaluated = cp.pagesEvaluated;
      this.errors = cp.errors;
      this.scoreSum = cp.scoreSum;
      this.notModified = cp.notModified ?? 0;
      this.retried = cp.retried ?? 0;
      this.elapsedBefore = cp.elapsedMs;
      this.linksRefused = structuredClone(cp.linksRefused);
      this.refusedReported = this.linksRefused.total;
    } else {
      this.baseTopic = options.topic;
      this.topic = options.topic;
      this.limits = { ...DEFAULT_LIMITS, ...options.limits };
      this.strategySpec = {
        name: options.strategy.name,
        params: options.strategy.params ?? {},
        seed: options.strategy.seed ?? 1,
        state: null,
      };
      this.strategy = createStrategy(this.strategySpec.name, this.context(this.strategySpec));
      const seeds: string[] = [];
      for (const raw of options.seeds) {
        const url = canonicalizeUrl(raw.trim());
        const verdict = url
          ? checkUrl(url, { ...this.policy, allowedHosts: undefined })
          : { ok: false as const, detail: 'not an http(s) URL' };
        if (!url || !verdict.ok) {
          this.errors++;
          this.seedSkips.push({
            url: raw,
            reason: 'url-refused',
            detail: verdict.ok ? 'invalid URL' : verdict.detail,
            at: this.clock.now(),
          });
          continue;
        }
        if (!seeds.includes(url)) seeds.push(url);
      }
      this.seeds = seeds;
      const again: string[] = [];
      for (const raw of options.revisit ?? []) {
        const url = canonicalizeUrl(raw);
        if (url && !seeds.includes(url) && !again.includes(url) && checkUrl(url, this.policy).ok) again.push(url);
      }
      this.strategy.addSeeds([...seeds, ...again]);
    }
    this.seedSet = new Set(this.seeds);
    this.topicVec = measuredTopic(this.topic);
    if (!(this.limits.maxPages > 0)) throw new Error('maxPages must be a positive number');
    if (!(this.limits.maxBuffer > 0)) throw new Error('maxBuffer must be a positive number');
    const retries = this.limits.retries ?? DEFAULT_RETRIES;
    if (!(retries >= 0)) throw new Error('retries must be 0 or more');
    this.retries = Math.floor(retries);
  }

  private context(spec: { params: StrategyContext['params']; seed: number }): StrategyContext {
    return { topic: this.topic, maxBuffer: this.limits.maxBuffer, seed: spec.seed, params: spec.params };
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  pause(): void {
    this.pausedFlag = true;
  }

  resume(): void {
    this.pausedFlag = false;
    this.wakeUp();
  }

  stats(): CrawlStats {
    return {
      pagesEvaluated: this.pagesEvaluated,
      maxPages: this.limits.maxPages,
      errors: this.errors,
      frontierSize: this.strategy.frontierSize() + this.resumeQueue.length + this.retryQueue.length,
      fetchesInFlight: this.running,
      elapsedMs: this.elapsedBefore + (this.startedAt ? this.clock.now() - this.startedAt : 0),
      meanScore: this.pagesEvaluated ? this.scoreSum / this.pagesEvaluated : 0,
      linksRefused: this.linksRefused.total,
      ...(this.notModified ? { notModified: this.notModified } : {}),
      ...(this.retried ? { retried: this.retried } : {}),
      ...(this.waitingFor ? { waiting: { ...this.waitingFor } } : {}),
      timings: { ...this.timings },
    };
  }

  checkpoint(): CrawlCheckpoint {
    return {
      version: 2,
      topic: this.baseTopic,
      seeds: [...this.seeds],
      // A strategy's save() may hand out its live arrays and objects; the checkpoint must not change as the crawl
      // goes on (it may be written out later), so the state is copied.
      strategy: { ...this.strategySpec, state: structuredClone(this.strategy.save()) },
      limits: { ...this.limits },
      fetched: [...this.fetched],
      inFlight: [...this.inFlight.values()].map((e) => ({ ...e })),
      pagesEvaluated: this.pagesEvaluated,
      errors: this.errors,
      scoreSum: this.scoreSum,
      elapsedMs: this.stats().elapsedMs,
      linksRefused: structuredClone(this.linksRefused),
      ...(this.notModified ? { notModified: this.notModified } : {}),
      ...(this.retried ? { retried: this.retried } : {}),
      ...(this.judged.size ? { judgements: this.judgements() } : {}),
    };
  }

  currentTopic(): Topic {
    return this.topic;
  }

  judgements(): Judgement[] {
    return [...this.judged.values()].map((j) => ({ ...j, terms: { ...j.terms } }));
  }

  judge(url: string, value: JudgementValue, terms?: TermVector): void {
    if (value !== 1 && value !== 0 && value !== -1) throw new Error(`a judgement is 1, 0 or -1, not ${String(value)}`);
    const key = canonicalizeUrl(url) ?? url;
    const before = this.judged.get(key);
    const previous: JudgementValue = before?.value ?? 0;
    if (previous === value) return;
    const t0 = this.clock.now();
    if (value === 0) this.judged.delete(key);
    else {
      const profile = terms ?? before?.terms ?? this.profiles.get(key) ?? {};
      // Re-inserted, so the order is the order of the latest verdicts.
      this.judged.delete(key);
      this.judged.set(key, { url: key, value, terms: { ...profile }, at: this.clock.now() });
    }
    const old = this.topicVec;
    this.topic = withFeedback(this.baseTopic, this.judged.values());
    this.topicVec = measuredTopic(this.topic);
    const moved = new Map<string, number>();
    for (const [page, profile] of this.profiles) {
      const m = measure(profile);
      const delta = cosineMeasured(m, this.topicVec) - cosineMeasured(m, old);
      if (delta !== 0) moved.set(page, delta);
    }
    this.strategy.onJudgement?.({ url: key, value, previous, topic: this.topic, moved });
    this.timings.strategyMs += this.clock.now() - t0;
  }

  async *events(): AsyncGenerator<CrawlEvent> {
    if (this.started) throw new Error('A crawl can be run once; resume from its checkpoint instead');
    this.started = true;
    this.startedAt = this.clock.now();
    const signal = this.options.signal;
    const onAbort = () => this.wakeUp();
    signal?.addEventListener('abort', onAbort);
    try {
      for (const skip of this.seedSkips.splice(0)) yield { type: 'skip', skip, stats: this.stats() };
      yield { type: 'progress', stats: this.stats() };
      for (;;) {
        this.waitingFor = undefined;
        if (signal?.aborted) break;
        this.fill(signal);
        const next = this.finished.shift();
        if (next) {
          const event = this.book(next);
          // The freed slot goes out before the event is handled: the strategy has seen the page already.
          this.fill(signal);
          if (event) yield event;
          continue;
        }
        if (this.running > 0) {
          await this.sleep(signal);
          continue;
        }
        // Nothing in flight.
        if (this.pagesEvaluated >= this.limits.maxPages) {
          yield* this.standStill();
          yield { type: 'done', reason: 'budget', stats: this.stats() };
          return;
        }
        if (this.pausedFlag) {
          yield* this.standStill();
          await this.sleep(signal);
          continue;
        }
        if (this.strategy.frontierSize() === 0 && this.resumeQueue.length === 0 && this.retryQueue.length === 0) {
          yield* this.standStill();
          yield { type: 'done', reason: 'exhausted', stats: this.stats() };
          return;
        }
        // URLs are queued but every one waits for its site or its retry: sleep until the first is ready.
        if (this.fetcher.nextReadyAt?.() === undefined && this.nextRetryAt() === undefined) {
          // The fetcher says nothing rests, yet nothing was ready: do not wait for a change that will not come.
          if (
            !this.dispatch(
              this.take(() => true),
              signal,
            )
          ) {
            yield* this.standStill();
            yield { type: 'done', reason: 'exhausted', stats: this.stats() };
            return;
          }
          continue;
        }
        this.waitingFor = this.longWait();
        yield { type: 'progress', stats: this.stats() };
        await this.sleep(signal);
      }
      yield* this.standStill();
      yield { type: 'done', reason: 'aborted', stats: this.stats() };
    } finally {
      this.stopped = true;
      signal?.removeEventListener('abort', onAbort);
      this.elapsedBefore += this.clock.now() - this.startedAt;
      this.startedAt = 0;
    }
  }

  /** The events of a standstill: the refused-links summary when it grew, then a checkpoint. */
  private *standStill(): Generator<CrawlEvent> {
    if (this.linksRefused.total !== this.refusedReported) {
      this.refusedReported = this.linksRefused.total;
      yield { type: 'links-refused', refused: structuredClone(this.linksRefused), stats: this.stats() };
    }
    yield { type: 'checkpoint' };
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * Waits for something to happen: a fetch ends, resume() or abort, or (when slots are free and URLs wait for their
   * site) the moment the first resting site may be contacted again.
   */
  private sleep(signal?: AbortSignal): Promise<void> {
    if (this.finished.length > 0 || signal?.aborted) return Promise.resolve();
    let timer: TimerHandle | undefined;
    const waiting =
      !this.pausedFlag && this.running < this.maxInFlight && this.running + this.pagesEvaluated < this.limits.maxPages;
    const siteReadyAt = waiting ? this.fetcher.nextReadyAt?.() : undefined;
    const retryAt = waiting ? this.nextRetryAt() : undefined;
    const readyAt = siteReadyAt === undefined || (retryAt !== undefined && retryAt < siteReadyAt) ? retryAt : siteReadyAt;
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      if (readyAt !== undefined) timer = this.clock.setTimer(() => this.wakeUp(), readyAt - this.clock.now());
    }).finally(() => {
      if (timer !== undefined) this.clock.clearTimer(timer);
    });
  }

  /**
   * While every URL left waits: the site the crawl goes on with first and when, if that is {@link WAIT_SHOWN_MS} or
   * more away (a politeness pause of a second is no news).
   */
  private longWait(): { site: string; until: number } | undefined {
    const now = this.clock.now();
    let first: { site: string; until: number } | undefined;
    const site = this.fetcher.nextReadySite?.();
    if (site) first = { site: site.site, until: site.at };
    for (const { entry, at } of this.retryQueue) {
      if (at > now && (first === undefined || at < first.until)) first = { site: originOf(entry.url) ?? entry.url, until: at };
    }
    return first && first.until - now >= WAIT_SHOWN_MS ? first : undefined;
  }

  /** When the first URL waiting for a retry may be fetched again; undefined when none waits any more. */
  private nextRetryAt(): number | undefined {
    const now = this.clock.now();
    let first: number | undefined;
    for (const { at } of this.retryQueue) if (at > now && (first === undefined || at < first)) first = at;
    return first;
  }

  /** Whether a URL may be handed out now: its site may be contacted (or it was fetched already and will be dropped). */
  private readonly ready: (url: string) => boolean;

  private markFetched(url: string): void {
    this.fetched.add(url);
    this.gates.delete(url);
  }

  /** Starts fetches while slots are free, the budget allows and a ready URL is queued. */
  private fill(signal?: AbortSignal): void {
    while (
      !this.pausedFlag &&
      !signal?.aborted &&
      this.running < this.maxInFlight &&
      this.pagesEvaluated + this.running < this.limits.maxPages
    ) {
      if (!this.dispatch(this.take(this.ready), signal)) return;
    }
  }

  /**
   * The next URL to fetch: a resumed one first (when its site is ready), then one whose retry is due (and its site
   * ready), else the strategy's choice.
   */
  private take(ready: (url: string) => boolean): FrontierEntry | null {
    for (;;) {
      const index = this.resumeQueue.findIndex((e) => ready(e.url));
      let entry: FrontierEntry | null;
      let retry = -1;
      if (index < 0 && this.retryQueue.length > 0) {
        const now = this.clock.now();
        retry = this.retryQueue.findIndex((r) => r.at <= now && ready(r.entry.url));
      }
      if (index >= 0) {
        entry = this.resumeQueue.splice(index, 1)[0];
      } else if (retry >= 0) {
        entry = this.retryQueue.splice(retry, 1)[0].entry;
      } else {
        const t0 = this.clock.now();
        entry = this.strategy.next(ready);
        this.timings.strategyMs += this.clock.now() - t0;
        if (entry) this.inFlight.set(entry.url, entry);
      }
      if (!entry || !this.fetched.has(entry.url)) return entry;
      this.inFlight.delete(entry.url); // fetched already (e.g. reached through a redirect): never again
    }
  }

  /** Starts fetching `entry`; false when there is none. */
  private dispatch(entry: FrontierEntry | null, signal?: AbortSignal): boolean {
    if (!entry) return false;
    this.running++;
    void this.process(entry, signal).then((outcome) => {
      if (this.stopped) return;
      this.finished.push({ entry, outcome });
      this.wakeUp();
    });
    return true;
  }

  /**
   * Books a finished fetch into the crawl's state and returns its event, in one synchronous step: the outcome
   * counts, the page or failure is shown to the strategy, the URL leaves `inFlight`. An outcome stopped by an abort
   * is not booked: its URL stays in `inFlight` and is fetched again on resume.
   */
  private book({ entry, outcome }: Finished): CrawlEvent | null {
    this.running--;
    if (!outcome) return null;
    const url = entry.url;
    this.inFlight.delete(url);
    const t0 = this.clock.now();
    try {
      if (outcome.kind === 'skip' && outcome.transient && (entry.attempt ?? 0) < this.retries) {
        // It may pass: the URL waits (without a fetch slot) and is fetched again; the strategy hears of it only if
        // the last attempt fails too.
        const attempt = (entry.attempt ?? 0) + 1;
        const at = this.clock.now() + retryDelayMs(attempt);
        const again: FrontierEntry = { ...entry, attempt };
        this.inFlight.set(url, again);
        this.retryQueue.push({ entry: again, at });
        this.retried++;
        return { type: 'retry', url, attempt, reason: outcome.reason, detail: outcome.detail, at, stats: this.stats() };
      }
      if (outcome.kind === 'page' && outcome.page.url !== url && this.fetched.has(outcome.page.url)) {
        // Two URLs that redirect to one page: the page counts once.
        outcome = { kind: 'skip', reason: 'redirect', detail: `redirects to ${outcome.page.url}, already fetched` };
      }
      this.markFetched(url);
      if (outcome.kind === 'not-modified') {
        // Unchanged since the last fetch: nothing new to learn, and its links are the ones it had. The strategy
        // releases the URL as it does a failure's (it will not be fetched again).
        this.notModified++;
        this.strategy.onError?.(url, 'not-modified');
        const { etag, lastModified } = outcome;
        return {
          type: 'not-modified',
          url,
          ...(etag !== undefined ? { etag } : {}),
          ...(lastModified !== undefined ? { lastModified } : {}),
          stats: this.stats(),
        };
      }
      if (outcome.kind === 'skip') {
        this.errors++;
        this.strategy.onError?.(url, outcome.reason);
        const tries = (entry.attempt ?? 0) + 1;
        const detail = tries > 1 ? `${outcome.detail} (${tries} attempts)` : outcome.detail;
        const skip: SkipRecord = { url, reason: outcome.reason, detail, at: this.clock.now() };
        return { type: 'skip', skip, stats: this.stats() };
      }
      const { page, evaluation } = outcome;
      this.markFetched(page.url);
      if (page.profile) this.profiles.set(page.url, page.profile.terms);
      this.pagesEvaluated++;
      this.scoreSum += page.score;
      // Meta robots nofollow: the page's links are not followed, whatever the strategy (its evaluation goes without them).
      const nofollow = evaluation.robots.nofollow;
      this.strategy.onPage({
        url: page.url,
        requestedUrl: url,
        depth: entry.depth,
        from: entry.from,
        isSeed: page.isSeed,
        evaluation: nofollow ? { ...evaluation, links: [] } : evaluation,
        links: nofollow ? [] : this.followable(evaluation.links, page.url),
      });
      return { type: 'page', page, stats: this.stats() };
    } finally {
      this.timings.strategyMs += this.clock.now() - t0;
    }
  }

  /** One URL: fetch and evaluate; no bookkeeping (see book). Null when the crawl was stopped mid-fetch. */
  private async process(entry: FrontierEntry, signal?: AbortSignal): Promise<Outcome | null> {
    const url = entry.url;
    const t0 = this.clock.now();
    let response: Awaited<ReturnType<PageFetcher['fetch']>>;
    try {
      response = await this.fetcher.fetch(url, signal, this.options.validators?.get(url), entry.from);
    } catch (error) {
      // The contract says fetchers never throw; one that does must not stop the crawl.
      return { kind: 'skip', reason: 'network', detail: errorMessage(error) };
    } finally {
      this.timings.fetchMs += this.clock.now() - t0;
    }
    if (!response.ok) {
      if (response.reason === 'aborted' || signal?.aborted) return null;
      return {
        kind: 'skip',
        reason: response.reason,
        detail: response.detail,
        ...(response.transient ? { transient: true } : {}),
      };
    }
    if (signal?.aborted) return null;
    if (response.notModified) {
      const { etag, lastModified } = response;
      return {
        kind: 'not-modified',
        ...(etag !== undefined ? { etag } : {}),
        ...(lastModified !== undefined ? { lastModified } : {}),
      };
    }
    const finalUrl = canonicalizeUrl(response.finalUrl) ?? url;
    let evaluation: PageEvaluation;
    // The topic may move (a judgement) while the page is evaluated: its profile is measured against the one it was scored with.
    const topic = this.topic;
    const topicVec = this.topicVec;
    const t1 = this.clock.now();
    try {
      evaluation = await this.evaluator.evaluate({
        url: finalUrl,
        body: response.body,
        contentType: response.contentType,
        topic,
        contextWindow: this.options.contextWindow,
      });
    } catch (error) {
      return { kind: 'skip', reason: 'evaluation', detail: errorMessage(error) };
    } finally {
      this.timings.evaluateMs += this.clock.now() - t1;
    }
    const page: PageResult = {
      url: finalUrl,
      title: evaluation.title,
      snippet: evaluation.snippet,
      ...(evaluation.mainText ? { mainText: evaluation.mainText } : {}),
      score: evaluation.score,
      depth: entry.depth,
      from: entry.from,
      fetchedAt: this.clock.now(),
      lastModified: response.lastModified,
      ...(response.etag !== undefined ? { etag: response.etag } : {}),
      ...(evaluation.contentHash ? { contentHash: evaluation.contentHash } : {}),
      isSeed: this.seedSet.has(url) || this.seedSet.has(finalUrl),
      ...(evaluation.robots.noindex ? { noindex: true } : {}),
      ...(evaluation.published ? { published: evaluation.published } : {}),
      ...(evaluation.modified ? { modified: evaluation.modified } : {}),
      // Title fallbacks only matter when there is no title (and cost storage on every page otherwise).
      ...(!evaluation.title && evaluation.ogTitle ? { ogTitle: evaluation.ogTitle } : {}),
      ...(!evaluation.title && evaluation.h1 ? { h1: evaluation.h1 } : {}),
      profile: pageProfile(evaluation.terms ?? {}, topicVec),
    };
    return { kind: 'page', page, evaluation };
  }

  /** Outlinks the strategy may queue: not the page itself, not fetched, allowed by the URL rules (refusals counted). */
  private followable(links: LinkFeature[], pageUrl: string): LinkFeature[] {
    const out: LinkFeature[] = [];
    for (const link of links) {
      if (link.url === pageUrl || this.fetched.has(link.url)) continue;
      const verdict = this.checkLink(link.url);
      if (verdict.ok) {
        out.push(link);
        continue;
      }
      const rule = refusalRule(verdict.detail);
      const counted = (this.linksRefused.byRule[rule] ??= { count: 0, examples: [] });
      counted.count++;
      this.linksRefused.total++;
      if (counted.examples.length < REFUSED_EXAMPLES) {
        counted.examples.push({ url: link.url.slice(0, REFUSED_EXAMPLE_CHARS), detail: verdict.detail });
      }
    }
    return out;
  }
}

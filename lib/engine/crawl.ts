/**
 * The crawl loop: the one place where a URL goes from the strategy's frontier to the fetcher, the evaluator, and
 * back to the strategy as an evaluated page with outlinks. The CLI, the extension's background and the lab all
 * consume the events it yields.
 *
 * Rounds: the strategy hands out a batch (Best-N-First: the top N, shuffled); the batch is fetched concurrently
 * (the fetcher enforces politeness), each outcome is emitted as soon as it is in, and only when the whole batch is
 * in are the pages shown to the strategy, in batch order. That keeps a crawl reproducible whatever the network's
 * timing, and makes a checkpoint a clean cut: state at the start of the round + the outcomes already in.
 */
import { localEvaluator } from './html/evaluate';
import { createStrategy } from './strategies/index';
import { canonicalizeUrl } from './url/canonical';
import { checkUrl, type UrlPolicy } from './url/rules';
import type {
  CrawlCheckpoint,
  CrawlEvent,
  CrawlLimits,
  CrawlStats,
  Evaluator,
  FrontierEntry,
  LinkFeature,
  PageEvaluation,
  PageFetcher,
  PageResult,
  PendingOutcome,
  SkipRecord,
  Strategy,
  StrategyContext,
  Topic,
} from './types';

export const DEFAULT_LIMITS: CrawlLimits = { maxPages: 500, maxBuffer: 256 };

export interface CrawlOptions {
  topic: Topic;
  /** Seed URLs; canonicalized, deduplicated; refused ones are recorded as skips. Ignored when resuming. */
  seeds: string[];
  strategy: { name: string; params?: StrategyContext['params']; seed?: number };
  limits?: Partial<CrawlLimits>;
  fetcher: PageFetcher;
  /** Defaults to evaluating in this thread. */
  evaluator?: Evaluator;
  /** Rules every outlink must pass before it reaches the strategy. */
  urlPolicy?: UrlPolicy;
  signal?: AbortSignal;
  /** Continue this crawl instead of starting a new one. */
  checkpoint?: CrawlCheckpoint;
  /** Fetches this loop keeps started at once within a batch (the fetcher queues per origin). Default 6. */
  concurrency?: number;
  /** Words either side of a link kept as its context. */
  contextWindow?: number;
  now?: () => number;
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

class CrawlRun implements Crawl {
  private readonly topic: Topic;
  private readonly limits: CrawlLimits;
  private readonly strategySpec: CrawlCheckpoint['strategy'];
  private readonly strategy: Strategy;
  private readonly evaluator: Evaluator;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly seeds: string[];
  private readonly seedSet: Set<string>;
  private readonly fetched = new Set<string>();
  /** Outlinks refused by the URL rules, recorded once each (not counted as errors: nothing was fetched). */
  private readonly refused = new Set<string>();
  private results: PageResult[] = [];
  private skips: SkipRecord[] = [];
  private pendingBatch: FrontierEntry[] = [];
  private pendingDone = new Map<string, PendingOutcome>();
  private pagesEvaluated = 0;
  private errors = 0;
  private scoreSum = 0;
  private elapsedBefore = 0;
  private startedAt = 0;
  private inFlight = 0;
  private started = false;
  private pausedFlag = false;
  private wake: (() => void) | null = null;
  readonly timings: Timings = { fetchMs: 0, evaluateMs: 0, strategyMs: 0 };

  constructor(private readonly options: CrawlOptions) {
    this.now = options.now ?? Date.now;
    this.evaluator = options.evaluator ?? localEvaluator;
    this.concurrency = Math.max(1, options.concurrency ?? 6);
    const cp = options.checkpoint;
    if (cp) {
      if (cp.version !== 1) throw new Error(`Unsupported checkpoint version ${String(cp.version)}`);
      this.topic = cp.topic;
      this.limits = { ...cp.limits, ...options.limits };
      this.strategySpec = cp.strategy;
      this.seeds = cp.seeds;
      this.strategy = createStrategy(cp.strategy.name, this.context(cp.strategy));
      this.strategy.restore(cp.strategy.state);
      for (const url of cp.fetched) this.fetched.add(url);
      for (const skip of cp.skips) if (skip.reason === 'url-refused') this.refused.add(skip.url);
      this.results = [...cp.results];
      this.skips = [...cp.skips];
      this.pendingBatch = [...cp.pendingBatch];
      for (const o of cp.pendingDone) this.pendingDone.set(o.url, o);
      this.pagesEvaluated = cp.pagesEvaluated;
      this.errors = cp.errors;
      this.scoreSum = cp.scoreSum;
      this.elapsedBefore = cp.elapsedMs;
    } else {
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
          ? checkUrl(url, { ...options.urlPolicy, allowedHosts: undefined })
          : { ok: false as const, detail: 'not an http(s) URL' };
        if (!url || !verdict.ok) {
          this.recordSkip({
            url: raw,
            reason: 'url-refused',
            detail: verdict.ok ? 'invalid URL' : verdict.detail,
            at: this.now(),
          });
          continue;
        }
        if (!seeds.includes(url)) seeds.push(url);
      }
      this.seeds = seeds;
      this.strategy.addSeeds(seeds);
    }
    this.seedSet = new Set(this.seeds);
    if (!(this.limits.maxPages > 0)) throw new Error('maxPages must be a positive number');
    if (!(this.limits.maxBuffer > 0)) throw new Error('maxBuffer must be a positive number');
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
    this.wake?.();
  }

  stats(): CrawlStats {
    return {
      pagesEvaluated: this.pagesEvaluated,
      maxPages: this.limits.maxPages,
      errors: this.errors,
      frontierSize: this.strategy.frontierSize(),
      fetchesInFlight: this.inFlight,
      elapsedMs: this.elapsedBefore + (this.startedAt ? this.now() - this.startedAt : 0),
      meanScore: this.pagesEvaluated ? this.scoreSum / this.pagesEvaluated : 0,
      timings: { ...this.timings },
    };
  }

  checkpoint(): CrawlCheckpoint {
    const stats = this.stats();
    return {
      version: 1,
      topic: this.topic,
      seeds: [...this.seeds],
      // A strategy's save() may hand out its live arrays and objects; the checkpoint must not change as the crawl
      // goes on (it may be written out later), so the state is copied.
      strategy: { ...this.strategySpec, state: structuredClone(this.strategy.save()) },
      limits: { ...this.limits },
      fetched: [...this.fetched],
      pendingBatch: [...this.pendingBatch],
      pendingDone: [...this.pendingDone.values()],
      results: [...this.results],
      skips: [...this.skips],
      pagesEvaluated: this.pagesEvaluated,
      errors: this.errors,
      scoreSum: this.scoreSum,
      elapsedMs: stats.elapsedMs,
    };
  }

  async *events(): AsyncGenerator<CrawlEvent> {
    if (this.started) throw new Error('A crawl can be run once; resume from its checkpoint instead');
    this.started = true;
    this.startedAt = this.now();
    const signal = this.options.signal;
    // Wake a paused loop when the crawl is stopped.
    const onAbort = () => this.wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      while (true) {
        if (signal?.aborted) break;
        if (this.pendingBatch.length === 0) {
          const remaining = this.limits.maxPages - this.pagesEvaluated;
          if (remaining <= 0) {
            yield { type: 'done', reason: 'budget', stats: this.stats() };
            return;
          }
          const t0 = this.now();
          const offered = this.strategy.nextBatch(remaining);
          this.timings.strategyMs += this.now() - t0;
          if (offered.length === 0) {
            yield { type: 'done', reason: 'exhausted', stats: this.stats() };
            return;
          }
          this.pendingBatch = offered.filter((e) => !this.fetched.has(e.url));
          this.pendingDone.clear();
          yield { type: 'progress', stats: this.stats() };
        }
        yield* this.runBatch(signal);
        if (signal?.aborted) break;
        if (this.pendingDone.size === this.pendingBatch.length) {
          const refused = this.finishBatch();
          for (const skip of refused) yield { type: 'skip', skip, stats: this.stats() };
          yield { type: 'checkpoint' };
        } else {
          // Paused part-way: the remaining fetches wait for resume().
          yield { type: 'checkpoint' };
          await this.waitWhilePaused(signal);
        }
      }
      yield { type: 'checkpoint' };
      yield { type: 'done', reason: 'aborted', stats: this.stats() };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.elapsedBefore += this.now() - this.startedAt;
      this.startedAt = 0;
    }
  }

  private waitWhilePaused(signal?: AbortSignal): Promise<void> {
    if (!this.pausedFlag || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = () => {
        if (this.pausedFlag && !signal?.aborted) return;
        this.wake = null;
        resolve();
      };
    });
  }

  /** Fetches and evaluates the batch's outstanding URLs, yielding each outcome as it arrives. Stops launching when paused or aborted. */
  private async *runBatch(signal?: AbortSignal): AsyncGenerator<CrawlEvent> {
    const todo = this.pendingBatch.filter((e) => !this.pendingDone.has(e.url));
    const running = new Map<number, Promise<{ id: number; outcome: PendingOutcome | null }>>();
    let next = 0;
    let id = 0;
    while (true) {
      while (!this.pausedFlag && !signal?.aborted && running.size < this.concurrency && next < todo.length) {
        const entry = todo[next++];
        const taskId = id++;
        this.inFlight++;
        running.set(
          taskId,
          this.process(entry, signal).then((outcome) => ({ id: taskId, outcome })),
        );
      }
      if (running.size === 0) return;
      const { id: doneId, outcome } = await Promise.race(running.values());
      running.delete(doneId);
      this.inFlight--;
      if (!outcome) continue; // aborted: not recorded, fetched again on resume
      const recorded = this.record(outcome);
      if (recorded.kind === 'page') yield { type: 'page', page: recorded.page, stats: this.stats() };
      else yield { type: 'skip', skip: recorded.skip, stats: this.stats() };
    }
  }

  /**
   * Books an outcome into the crawl's state in one synchronous step, so a checkpoint taken at any moment sees
   * either all of it or none of it (a finished fetch not yet booked is simply fetched again on resume).
   */
  private record(outcome: PendingOutcome): PendingOutcome {
    if (outcome.kind === 'page' && outcome.page.url !== outcome.url && this.fetched.has(outcome.page.url)) {
      // Two URLs that redirect to one page: the page counts once.
      const skip: SkipRecord = {
        url: outcome.url,
        reason: 'redirect',
        detail: `redirects to ${outcome.page.url}, already fetched`,
        at: this.now(),
      };
      outcome = { url: outcome.url, kind: 'skip', skip };
    }
    this.fetched.add(outcome.url);
    if (outcome.kind === 'page') {
      this.fetched.add(outcome.page.url);
      this.pagesEvaluated++;
      this.scoreSum += outcome.page.score;
      this.results.push(outcome.page);
    } else {
      this.recordSkip(outcome.skip);
    }
    this.pendingDone.set(outcome.url, outcome);
    return outcome;
  }

  /** One URL: fetch and evaluate; no bookkeeping (see record). Returns null when the crawl was stopped mid-fetch. */
  private async process(entry: FrontierEntry, signal?: AbortSignal): Promise<PendingOutcome | null> {
    const url = entry.url;
    const skip = (reason: SkipRecord['reason'], detail: string): PendingOutcome => ({
      url,
      kind: 'skip',
      skip: { url, reason, detail, at: this.now() },
    });
    const t0 = this.now();
    const response = await this.options.fetcher.fetch(url, signal);
    this.timings.fetchMs += this.now() - t0;
    if (!response.ok) {
      if (response.reason === 'aborted' || signal?.aborted) return null;
      return skip(response.reason, response.detail);
    }
    if (signal?.aborted) return null;
    const finalUrl = canonicalizeUrl(response.finalUrl) ?? url;
    let evaluation: PageEvaluation;
    const t1 = this.now();
    try {
      evaluation = await this.evaluator.evaluate({
        url: finalUrl,
        body: response.body,
        contentType: response.contentType,
        topic: this.topic,
        contextWindow: this.options.contextWindow,
      });
    } catch (error) {
      return skip('evaluation', error instanceof Error ? error.message : String(error));
    } finally {
      this.timings.evaluateMs += this.now() - t1;
    }
    const page: PageResult = {
      url: finalUrl,
      title: evaluation.title,
      snippet: evaluation.snippet,
      score: evaluation.score,
      depth: entry.depth,
      from: entry.from,
      fetchedAt: this.now(),
      lastModified: response.lastModified,
      isSeed: this.seedSet.has(url) || this.seedSet.has(finalUrl),
      ...(evaluation.robots.noindex ? { noindex: true } : {}),
      ...(evaluation.published ? { published: evaluation.published } : {}),
      ...(evaluation.modified ? { modified: evaluation.modified } : {}),
      // Title fallbacks only matter when there is no title (and cost storage on every page otherwise).
      ...(!evaluation.title && evaluation.ogTitle ? { ogTitle: evaluation.ogTitle } : {}),
      ...(!evaluation.title && evaluation.h1 ? { h1: evaluation.h1 } : {}),
    };
    return { url, kind: 'page', page, evaluation };
  }

  private recordSkip(record: SkipRecord): void {
    this.errors++;
    this.skips.push(record);
  }

  /** The round is complete: show the strategy every outcome, in batch order. Returns the outlinks refused meanwhile. */
  private finishBatch(): SkipRecord[] {
    const t0 = this.now();
    const refused: SkipRecord[] = [];
    for (const entry of this.pendingBatch) {
      const outcome = this.pendingDone.get(entry.url);
      if (!outcome) continue;
      if (outcome.kind === 'skip') {
        this.strategy.onError?.(entry.url, outcome.skip.reason);
        continue;
      }
      const evaluation = outcome.evaluation;
      const links = evaluation.robots.nofollow ? [] : this.followable(evaluation.links, outcome.page.url, refused);
      this.strategy.onPage({
        url: outcome.page.url,
        depth: entry.depth,
        from: entry.from,
        isSeed: outcome.page.isSeed,
        evaluation,
        links,
      });
    }
    this.pendingBatch = [];
    this.pendingDone.clear();
    this.timings.strategyMs += this.now() - t0;
    return refused;
  }

  private followable(links: LinkFeature[], pageUrl: string, refused: SkipRecord[]): LinkFeature[] {
    const policy = this.options.urlPolicy;
    const out: LinkFeature[] = [];
    for (const link of links) {
      if (link.url === pageUrl || this.fetched.has(link.url)) continue;
      if (this.refused.has(link.url)) continue;
      const verdict = checkUrl(link.url, policy);
      if (!verdict.ok) {
        this.refused.add(link.url);
        const record: SkipRecord = { url: link.url, reason: 'url-refused', detail: verdict.detail, at: this.now() };
        this.skips.push(record);
        refused.push(record);
        continue;
      }
      out.push(link);
    }
    return out;
  }
}

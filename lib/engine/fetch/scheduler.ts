/**
 * Politeness scheduler: at most `maxPerSite` requests in flight per origin (1 when politeness is on), a minimum pause
 * between the end of one request and the start of the next to the same origin, and at most `maxInFlight` requests
 * in flight over all origins.
 *
 * Each origin has its own FIFO queue; the global slot is taken only once the origin has room and its pause is over,
 * so requests waiting on a slow or delayed origin never hold up other origins.
 *
 * Slow sites: when more than one request per origin is allowed (politeness off), an origin whose requests hold their
 * slot much longer than the typical origin's (a moving average over {@link SlowSiteRule.factor} times the median of
 * the origins seen, and at least {@link SlowSiteRule.minMs}; a timeout counts its whole wait) gets one request at a
 * time until it answers faster again. More parallel requests do not make a strained site answer sooner (Scrapy's
 * AutoThrottle aims at one request per site for the same reason); they only take slots other sites could use. A
 * crawl of a single site, or of sites that are all slow, keeps every slot: the rule is relative. The crawl loop asks {@link isReady}
 * before it starts a fetch, so in a crawl the queues stay short: a request is queued only on a redirect hop to a busy
 * origin. All waiting runs on the injected {@link Clock}.
 */
import { type Clock, realClock, type TimerHandle } from '../clock';

/** A granted slot: release it exactly once, saying how long the origin must rest afterwards. */
export interface Lease {
  readonly origin: string;
  /**
   * Frees the slot. The origin's next request starts no earlier than `delayMs` from now (and no earlier than
   * `notBeforeMs` from now, e.g. a Retry-After).
   */
  release(opts?: { delayMs?: number; notBeforeMs?: number }): void;
}

export interface SchedulerOptions {
  /** Requests in flight across all origins. */
  maxInFlight: number;
  /** Requests in flight to one origin. Default 1. */
  maxPerSite?: number;
  /** Default the real clock. */
  clock?: Clock;
  /** One request at a time for origins much slower than the rest (see the module comment); false turns it off. */
  slowSite?: SlowSiteRule | false;
}

/** When an origin counts as slow: its average slot time over `factor` x the median origin's, and over `minMs`. */
export interface SlowSiteRule {
  factor: number;
  minMs: number;
}

/** Four times the median origin, and at least a quarter second: 50 ms sites next to a 60 ms one stay parallel. */
export const DEFAULT_SLOW_SITE_RULE: SlowSiteRule = { factor: 4, minMs: 250 };
/** Weight of the newest request in an origin's moving average of slot time. */
const LATENCY_WEIGHT = 0.25;
/** Origins whose slot times are remembered (the most recently answered); bounds memory and the median's cost. */
const LATENCY_ORIGINS = 512;
/** Releases between two computations of the median origin's slot time. */
const MEDIAN_EVERY = 8;

/** Thrown to waiters whose signal aborted or whose scheduler closed. */
export class SchedulerAbortError extends Error {
  constructor(message = 'aborted while waiting for a slot') {
    super(message);
    this.name = 'SchedulerAbortError';
  }
}

interface Waiter {
  resolve(lease: Lease): void;
  reject(error: Error): void;
  detach(): void;
}

interface OriginState {
  /** Requests holding a slot of this origin. */
  active: number;
  /** Clock ms before which no request to this origin may start. */
  nextAllowed: number;
  queue: Waiter[];
  /** The wake-up timer while the origin rests with requests queued. */
  timer: TimerHandle | undefined;
  /** In the global ready queue, waiting for a global slot. */
  ready: boolean;
}

/** Per-origin politeness plus a global limit; see the module comment. */
export class PolitenessScheduler {
  private readonly origins = new Map<string, OriginState>();
  /** Origins whose head request may start as soon as a global slot frees, FIFO. */
  private readonly readyQueue: string[] = [];
  private active = 0;
  private closed = false;
  private readonly clock: Clock;
  readonly maxInFlight: number;
  readonly maxPerSite: number;
  private readonly slowSite: SlowSiteRule | false;
  /** Origin -> moving average of the ms its requests held a slot; insertion order = least recently answered first. */
  private readonly slotMs = new Map<string, number>();
  /** The median of {@link slotMs}'s values, when at least two origins answered. */
  private medianSlotMs: number | undefined;
  private releasesSinceMedian = 0;
  /**
   * Bumped by every change that can change what {@link isReady} answers (requests granted, queued, released or
   * given up; pauses set; closing); with the clock's time it tells a cached answer is still true (see the fetcher's
   * site gates).
   */
  version = 0;

  constructor(options: SchedulerOptions) {
    this.maxInFlight = Math.max(1, Math.floor(options.maxInFlight) || 1);
    this.maxPerSite = Math.max(1, Math.floor(options.maxPerSite ?? 1) || 1);
    this.clock = options.clock ?? realClock;
    this.slowSite = options.slowSite ?? DEFAULT_SLOW_SITE_RULE;
  }

  /** Requests `origin` may have in flight now: {@link maxPerSite}, or 1 while it is slow (see the module comment). */
  perSiteLimit(origin: string): number {
    if (this.maxPerSite === 1 || !this.slowSite || this.medianSlotMs === undefined) return this.maxPerSite;
    const own = this.slotMs.get(origin);
    if (own === undefined) return this.maxPerSite;
    const slow = own > Math.max(this.slowSite.minMs, this.slowSite.factor * this.medianSlotMs);
    return slow ? 1 : this.maxPerSite;
  }

  /**
   * Waits for a slot for `origin`. The request joins the origin's queue synchronously (so {@link isReady} says no
   * from this moment), and is granted at once when the origin is ready. Rejects with {@link SchedulerAbortError} if
   * `signal` aborts first (the request leaves the queue) or the scheduler is closed.
   */
  acquire(origin: string, signal?: AbortSignal): Promise<Lease> {
    if (this.closed) return Promise.reject(new SchedulerAbortError('scheduler closed'));
    if (signal?.aborted) return Promise.reject(new SchedulerAbortError());
    const state = this.state(origin);
    return new Promise<Lease>((resolve, reject) => {
      const onAbort = () => {
        this.version++;
        const index = state.queue.indexOf(waiter);
        if (index >= 0) state.queue.splice(index, 1);
        if (state.queue.length === 0) this.unready(origin, state);
        this.forgetIfIdle(origin, state);
        reject(new SchedulerAbortError());
      };
      const waiter: Waiter = {
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.version++;
      state.queue.push(waiter);
      this.pump(origin);
    });
  }

  /** Whether a request to `origin` acquired now would be granted at once (no queue, room, pause over, a global slot). */
  isReady(origin: string): boolean {
    if (this.active >= this.maxInFlight) return false;
    const state = this.origins.get(origin);
    if (state === undefined) return true;
    // The crawl asks this for every queued URL it walks past, mostly of busy or resting sites: those tests first.
    if (state.active >= (this.maxPerSite === 1 ? 1 : this.perSiteLimit(origin))) return false;
    return state.queue.length === 0 && state.nextAllowed <= this.clock.now();
  }

  /**
   * The earliest clock time at which an origin that is only resting (nothing queued, room for a request) becomes
   * ready, or undefined when none is resting. Origins that are busy become ready when a request ends instead.
   */
  nextReadyAt(): number | undefined {
    return this.nextReady()?.at;
  }

  /** The origin that {@link nextReadyAt} is about, with its time; undefined when none is resting. */
  nextReady(): { origin: string; at: number } | undefined {
    const now = this.clock.now();
    let earliest: { origin: string; at: number } | undefined;
    for (const [origin, state] of this.origins) {
      if (state.queue.length > 0 || state.active >= this.perSiteLimit(origin) || state.nextAllowed <= now) continue;
      if (earliest === undefined || state.nextAllowed < earliest.at) earliest = { origin, at: state.nextAllowed };
    }
    return earliest;
  }

  /** Pushes an origin's next allowed start to at least `now + ms` (e.g. Retry-After on a robots.txt). */
  delayOrigin(origin: string, ms: number): void {
    this.version++;
    const state = this.state(origin);
    state.nextAllowed = Math.max(state.nextAllowed, this.clock.now() + ms);
  }

  /** Clock ms before which `origin` gets no request (0 when unknown). */
  nextAllowedAt(origin: string): number {
    return this.origins.get(origin)?.nextAllowed ?? 0;
  }

  /** Requests holding a slot. */
  inFlight(): number {
    return this.active;
  }

  /** Requests waiting for a slot. */
  queued(): number {
    let n = 0;
    for (const state of this.origins.values()) n += state.queue.length;
    return n;
  }

  /** Rejects every waiter and refuses new ones; leases already granted can still be released. */
  close(): void {
    this.version++;
    this.closed = true;
    for (const state of this.origins.values()) {
      if (state.timer !== undefined) this.clock.clearTimer(state.timer);
      state.timer = undefined;
      for (const waiter of state.queue.splice(0)) {
        waiter.detach();
        waiter.reject(new SchedulerAbortError('scheduler closed'));
      }
    }
    this.readyQueue.length = 0;
  }

  private state(origin: string): OriginState {
    let state = this.origins.get(origin);
    if (!state) {
      state = { active: 0, nextAllowed: 0, queue: [], timer: undefined, ready: false };
      this.origins.set(origin, state);
      if (this.origins.size > 2000) this.prune();
    }
    return state;
  }

  private idle(state: OriginState, now: number): boolean {
    return state.active === 0 && state.queue.length === 0 && state.timer === undefined && state.nextAllowed <= now;
  }

  /** Drops idle origins whose pause is over, keeping the map bounded on long crawls. */
  private prune(): void {
    const now = this.clock.now();
    for (const [origin, state] of this.origins) if (this.idle(state, now)) this.origins.delete(origin);
  }

  private forgetIfIdle(origin: string, state: OriginState): void {
    if (this.idle(state, this.clock.now())) this.origins.delete(origin);
  }

  private unready(origin: string, state: OriginState): void {
    if (!state.ready) return;
    state.ready = false;
    const index = this.readyQueue.indexOf(origin);
    if (index >= 0) this.readyQueue.splice(index, 1);
  }

  /** Moves `origin` forward: rest until its pause ends, then queue for (or take) a global slot. */
  private pump(origin: string): void {
    const state = this.origins.get(origin);
    if (!state || this.closed || state.queue.length === 0 || state.timer !== undefined || state.ready) return;
    if (state.active >= this.perSiteLimit(origin)) return; // a release pumps again
    const wait = state.nextAllowed - this.clock.now();
    if (wait > 0) {
      state.timer = this.clock.setTimer(() => {
        state.timer = undefined;
        this.pump(origin);
      }, wait);
      return;
    }
    state.ready = true;
    this.readyQueue.push(origin);
    this.drain();
  }

  /** Hands free global slots to ready origins in FIFO order. */
  private drain(): void {
    while (this.active < this.maxInFlight && this.readyQueue.length > 0) {
      const origin = this.readyQueue.shift()!;
      const state = this.origins.get(origin);
      if (!state) continue;
      state.ready = false;
      const waiter = state.queue.shift();
      if (!waiter) continue;
      waiter.detach();
      this.version++;
      state.active++;
      this.active++;
      waiter.resolve(this.lease(origin, state));
      this.pump(origin); // room for another of its requests (maxPerSite > 1): back in line
    }
  }

  /** Folds one request's slot time into its origin's moving average, and now and then the median over origins. */
  private observe(origin: string, ms: number): void {
    if (!this.slowSite || this.maxPerSite === 1) return;
    const previous = this.slotMs.get(origin);
    this.slotMs.delete(origin); // re-inserted last: the map stays in order of the latest answer
    this.slotMs.set(origin, previous === undefined ? ms : previous + LATENCY_WEIGHT * (ms - previous));
    if (this.slotMs.size > LATENCY_ORIGINS) this.slotMs.delete(this.slotMs.keys().next().value as string);
    if (++this.releasesSinceMedian < MEDIAN_EVERY && this.medianSlotMs !== undefined) return;
    this.releasesSinceMedian = 0;
    if (this.slotMs.size < 2) {
      this.medianSlotMs = undefined;
      return;
    }
    const values = [...this.slotMs.values()].sort((a, b) => a - b);
    const mid = values.length >> 1;
    this.medianSlotMs = values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }

  private lease(origin: string, state: OriginState): Lease {
    let released = false;
    const grantedAt = this.clock.now();
    return {
      origin,
      release: (opts = {}) => {
        if (released) return;
        released = true;
        this.version++;
        const now = this.clock.now();
        this.observe(origin, now - grantedAt);
        state.active--;
        state.nextAllowed = Math.max(state.nextAllowed, now + (opts.delayMs ?? 0), now + (opts.notBeforeMs ?? 0));
        this.active--;
        this.pump(origin);
        this.drain();
        this.forgetIfIdle(origin, state);
      },
    };
  }
}

/**
 * Politeness scheduler: at most one request in flight per origin, a minimum pause between the end of one
 * request and the start of the next to the same origin, and a global concurrency limit.
 *
 * Each origin has its own FIFO queue; the global slot is taken only once the origin is free and its pause
 * is over, so requests waiting on a slow or delayed origin never hold up other origins.
 */

/** A granted slot: release it exactly once, saying how long the origin must rest afterwards. */
export interface Lease {
  readonly origin: string;
  /**
   * Frees the origin and the global slot. The origin's next request starts no earlier than
   * `delayMs` from now (and no earlier than `notBeforeMs` from now, e.g. a Retry-After).
   */
  release(opts?: { delayMs?: number; notBeforeMs?: number }): void;
}

export interface SchedulerOptions {
  /** Requests in flight across all origins. */
  concurrency: number;
  now?: () => number;
  /** Waits `ms`; injected by tests. The default uses setTimeout (cleared on close). */
  sleep?: (ms: number) => Promise<void>;
}

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
  busy: boolean;
  /** Epoch ms before which no request to this origin may start. */
  nextAllowed: number;
  queue: Waiter[];
  /** A wake-up is pending for this origin. */
  sleeping: boolean;
  /** In the global ready queue, waiting for a global slot. */
  ready: boolean;
}

/** Per-origin politeness plus global concurrency; see the module comment. */
export class PolitenessScheduler {
  private readonly origins = new Map<string, OriginState>();
  /** Origins whose head request may start as soon as a global slot frees, FIFO. */
  private readonly readyQueue: string[] = [];
  private active = 0;
  private closed = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly concurrency: number;

  constructor(options: SchedulerOptions) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency) || 1);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => this.defaultSleep(ms));
  }

  /**
   * Waits for a slot for `origin`. Rejects with {@link SchedulerAbortError} if `signal` aborts first (the
   * request leaves the queue) or the scheduler is closed.
   */
  acquire(origin: string, signal?: AbortSignal): Promise<Lease> {
    if (this.closed) return Promise.reject(new SchedulerAbortError('scheduler closed'));
    if (signal?.aborted) return Promise.reject(new SchedulerAbortError());
    const state = this.state(origin);
    return new Promise<Lease>((resolve, reject) => {
      const onAbort = () => {
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
      state.queue.push(waiter);
      this.pump(origin);
    });
  }

  /** Pushes an origin's next allowed start to at least `now + ms` (e.g. Retry-After on a robots.txt). */
  delayOrigin(origin: string, ms: number): void {
    const state = this.state(origin);
    state.nextAllowed = Math.max(state.nextAllowed, this.now() + ms);
  }

  /** Epoch ms before which `origin` gets no request (0 when unknown). */
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
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const state of this.origins.values()) {
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
      state = { busy: false, nextAllowed: 0, queue: [], sleeping: false, ready: false };
      this.origins.set(origin, state);
      if (this.origins.size > 2000) this.prune();
    }
    return state;
  }

  /** Drops idle origins whose pause is over, keeping the map bounded on long crawls. */
  private prune(): void {
    const now = this.now();
    for (const [origin, state] of this.origins) {
      if (!state.busy && state.queue.length === 0 && !state.sleeping && state.nextAllowed <= now) {
        this.origins.delete(origin);
      }
    }
  }

  private forgetIfIdle(origin: string, state: OriginState): void {
    if (!state.busy && state.queue.length === 0 && !state.sleeping && state.nextAllowed <= this.now()) {
      this.origins.delete(origin);
    }
  }

  private unready(origin: string, state: OriginState): void {
    if (!state.ready) return;
    state.ready = false;
    const index = this.readyQueue.indexOf(origin);
    if (index >= 0) this.readyQueue.splice(index, 1);
  }

  /** Moves `origin` forward: sleep until its pause ends, then queue for (or take) a global slot. */
  private pump(origin: string): void {
    const state = this.origins.get(origin);
    if (!state || this.closed || state.busy || state.queue.length === 0 || state.sleeping || state.ready) return;
    const wait = state.nextAllowed - this.now();
    if (wait > 0) {
      state.sleeping = true;
      this.sleep(wait).then(
        () => {
          state.sleeping = false;
          this.pump(origin);
        },
        () => {
          state.sleeping = false;
        },
      );
      return;
    }
    state.ready = true;
    this.readyQueue.push(origin);
    this.drain();
  }

  /** Hands free global slots to ready origins in FIFO order. */
  private drain(): void {
    while (this.active < this.concurrency && this.readyQueue.length > 0) {
      const origin = this.readyQueue.shift()!;
      const state = this.origins.get(origin);
      if (!state) continue;
      state.ready = false;
      const waiter = state.queue.shift();
      if (!waiter) continue;
      waiter.detach();
      state.busy = true;
      this.active++;
      waiter.resolve(this.lease(origin, state));
    }
  }

  private lease(origin: string, state: OriginState): Lease {
    let released = false;
    return {
      origin,
      release: (opts = {}) => {
        if (released) return;
        released = true;
        const now = this.now();
        state.busy = false;
        state.nextAllowed = Math.max(state.nextAllowed, now + (opts.delayMs ?? 0), now + (opts.notBeforeMs ?? 0));
        this.active--;
        this.pump(origin);
        this.drain();
        this.forgetIfIdle(origin, state);
      },
    };
  }

  private defaultSleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new SchedulerAbortError('scheduler closed'));
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

/**
 * The engine's one source of time. The crawl loop, the politeness scheduler, the fetcher (timeouts, deadlines,
 * Retry-After) and the robots.txt cache read the time and set their timers through a {@link Clock}, never through
 * Date.now or setTimeout directly, so a crawl can run on simulated time: with a {@link VirtualClock} and a fetch that
 * answers on that clock's timers, the same seed gives the same crawl, bit for bit, with no real waiting.
 */

/** A timer set by {@link Clock.setTimer}; only the clock that made it can read it. */
export type TimerHandle = unknown;

/** Where the engine gets the time and its timers from. */
export interface Clock {
  /** Milliseconds; never decreases. The real clock gives epoch ms; a virtual one starts wherever it was told to. */
  now(): number;
  /** Calls `fn` once, `ms` milliseconds of this clock's time from now (0 and negative: as soon as possible). */
  setTimer(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer that has not fired; fired, cancelled or unknown handles are ignored. */
  clearTimer(handle: TimerHandle): void;
}

/** Wall-clock time: Date.now and the platform's setTimeout. The default everywhere. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimer: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/** Thrown by {@link sleep} when its signal aborts. */
export class SleepAbortedError extends Error {
  constructor() {
    super('aborted while waiting');
    this.name = 'SleepAbortedError';
  }
}

/** Resolves after `ms` of `clock`'s time; rejects with {@link SleepAbortedError} as soon as `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new SleepAbortedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clock.clearTimer(timer);
      reject(new SleepAbortedError());
    };
    const timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface VirtualTimer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * Simulated time: `now()` moves only when {@link fireNext} fires a timer. Timers fire in order of their time, and
 * timers due at the same time in the order they were set, so a program whose only sources of time and asynchrony are
 * this clock and promises runs the same way every time.
 *
 * Driving it (a discrete-event loop; the engine has no way to tell when promise callbacks have settled, so the driver
 * lives with the caller, e.g. in Node):
 *
 *   const clock = new VirtualClock();
 *   const done = consume(createCrawl({ ..., clock, fetcher: createFetcher({ clock, fetch: simulatedFetch }) }).events());
 *   let finished = false;
 *   done.finally(() => (finished = true));
 *   while (!finished) {
 *     await new Promise((r) => setImmediate(r)); // let every pending promise callback run
 *     if (!finished && !clock.fireNext()) throw new Error('stalled: nothing scheduled and the crawl is not done');
 *   }
 */
export class VirtualClock implements Clock {
  private time: number;
  private seq = 0;
  /** Min-heap on (at, id). */
  private heap: VirtualTimer[] = [];
  /** Ids of the timers set and neither fired nor cancelled (a cancelled one stays in the heap until it surfaces). */
  private live = new Set<number>();

  /** @param start the time `now()` returns before any timer fired (e.g. 0, or an epoch ms for realistic dates). */
  constructor(start = 0) {
    if (!Number.isFinite(start)) throw new RangeError(`VirtualClock start must be a finite number, got ${String(start)}`);
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    const timer: VirtualTimer = { id: ++this.seq, at: this.time + delay, fn };
    this.live.add(timer.id);
    this.push(timer);
    return timer.id;
  }

  clearTimer(handle: TimerHandle): void {
    if (typeof handle === 'number') this.live.delete(handle);
  }

  /** Timers set and neither fired nor cancelled. */
  get pending(): number {
    return this.live.size;
  }

  /** When the next timer fires, or undefined when none is set. */
  nextTimerAt(): number | undefined {
    this.dropCancelled();
    return this.heap[0]?.at;
  }

  /**
   * Moves the time to the earliest timer and fires that one timer (others due at the same time fire on the next
   * calls, after the caller has let the promise callbacks it caused run). Returns false when no timer is set.
   */
  fireNext(): boolean {
    this.dropCancelled();
    const timer = this.pop();
    if (!timer) return false;
    this.live.delete(timer.id);
    if (timer.at > this.time) this.time = timer.at;
    timer.fn();
    return true;
  }

  /** Moves the time forward to `time` without firing anything (timers due before it fire late, at `time`). */
  advanceTo(time: number): void {
    if (time > this.time) this.time = time;
  }

  private dropCancelled(): void {
    while (this.heap.length > 0 && !this.live.has(this.heap[0].id)) this.pop();
  }

  private before(a: VirtualTimer, b: VirtualTimer): boolean {
    return a.at < b.at || (a.at === b.at && a.id < b.id);
  }

  private push(timer: VirtualTimer): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(timer);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(timer, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = timer;
  }

  private pop(): VirtualTimer | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const r = l + 1;
        const c = r < heap.length && this.before(heap[r], heap[l]) ? r : l;
        if (!this.before(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }
}

/**
 * Live updates from the background to open UIs (popup, results page), throttled: a fast crawl produces hundreds of
 * events a second, a UI needs a few frames' worth. Updates per crawl are merged (latest record, all new pages) and
 * sent at most once per interval to each subscriber. A subscriber is "not ready" until its snapshot has been sent, so
 * deltas never arrive before the state they apply to.
 */
import type { LiveServerMessage } from '../model/protocol';
import type { CrawlRecord } from '../model/records';
import type { PageResult } from '../../engine';

/** Where messages go (a runtime Port in the extension, an array in tests). */
export interface LiveSink {
  post(message: LiveServerMessage): void;
}

export interface Subscription {
  /** Sends the snapshot (or anything) first, then releases the deltas held meanwhile. */
  ready(first?: LiveServerMessage): void;
  /** Which crawl it follows; undefined follows every crawl. */
  follow(id: string | undefined): void;
  close(): void;
}

interface Subscriber {
  sink: LiveSink;
  id: string | undefined;
  ready: boolean;
  held: LiveServerMessage[];
}

interface PendingUpdate {
  record: CrawlRecord;
  pages: PageResult[];
}

/** Fan-out with per-interval batching. */
export class LiveHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly pending = new Map<string, PendingUpdate>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFlush = -Infinity;

  /** @param intervalMs minimum time between two deliveries (default 250 ms). */
  constructor(
    private readonly intervalMs = 250,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  /** Registers a sink; it receives nothing until `ready()`. */
  subscribe(sink: LiveSink, id?: string): Subscription {
    const sub: Subscriber = { sink, id, ready: false, held: [] };
    this.subscribers.add(sub);
    return {
      ready: (first) => {
        if (!this.subscribers.has(sub)) return;
        if (first) this.send(sub, first);
        sub.ready = true;
        const held = sub.held;
        sub.held = [];
        for (const m of held) this.send(sub, m);
      },
      follow: (next) => {
        sub.id = next;
      },
      close: () => {
        this.subscribers.delete(sub);
      },
    };
  }

  /**
   * A crawl changed: its latest record and pages that arrived. Delivered within one interval; a change of status is
   * never merged away: what is pending goes first, so every subscriber sees each status a crawl passed through (a
   * crawl that starts and ends within one interval is seen running, then done: the badge's end notice relies on it).
   */
  update(id: string, record: CrawlRecord, pages: PageResult[] = []): void {
    let p = this.pending.get(id);
    if (p && p.record.status !== record.status) {
      this.flush();
      p = undefined;
    }
    if (p) {
      p.record = record;
      if (pages.length) p.pages.push(...pages);
    } else {
      this.pending.set(id, { record, pages: [...pages] });
    }
    this.schedule();
  }

  /** The list of crawls changed; delivered right away (rare, and lists should not lag). */
  crawlsChanged(): void {
    this.flush();
    this.broadcast(() => true, { type: 'crawls-changed' });
  }

  /** Delivers everything pending now (also used before a crawl's final update). */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.lastFlush = this.now();
    const batch = [...this.pending.entries()];
    this.pending.clear();
    for (const [id, p] of batch) {
      const message: LiveServerMessage = { type: 'update', id, record: p.record, pages: p.pages };
      this.broadcast((s) => s.id === undefined || s.id === id, message);
    }
  }

  /** Cancels the timer (background shutting down / tests). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private broadcast(match: (s: Subscriber) => boolean, message: LiveServerMessage): void {
    for (const sub of this.subscribers) {
      if (!match(sub)) continue;
      if (sub.ready) this.send(sub, message);
      else sub.held.push(message);
    }
  }

  private send(sub: Subscriber, message: LiveServerMessage): void {
    try {
      sub.sink.post(message);
    } catch {
      // The port closed under us (popup gone): forget it.
      this.subscribers.delete(sub);
    }
  }
}

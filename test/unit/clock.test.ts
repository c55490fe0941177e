/**
 * The engine's clock: VirtualClock itself, and a whole crawl driven on simulated time (the contract the lab's
 * network model builds on): same seed, same pages, bit for bit, with no real waiting.
 */
import { describe, expect, it, vi } from 'vitest';
import { sleep, SleepAbortedError, VirtualClock } from '../../lib/engine/clock';
import { createCrawl } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import type { CrawlEvent } from '../../lib/engine/types';
import { seedsFor, topicQuery } from '../../harness/testweb/generate';
import { memoryWeb } from '../../harness/testweb/memory';
import { runOnVirtualClock } from '../../harness/virtual-time';

describe('VirtualClock', () => {
  it('fires timers in time order, equal times in the order set, and skips cancelled ones', () => {
    const clock = new VirtualClock(1000);
    const fired: string[] = [];
    clock.setTimer(() => fired.push('c@30'), 30);
    clock.setTimer(() => fired.push('a@10'), 10);
    const cancelled = clock.setTimer(() => fired.push('x@20'), 20);
    clock.setTimer(() => fired.push('b@10'), 10);
    clock.setTimer(() => fired.push('now'), -5);
    clock.clearTimer(cancelled);
    clock.clearTimer('not a handle');
    expect(clock.pending).toBe(4);
    expect(clock.nextTimerAt()).toBe(1000);
    const times: number[] = [];
    while (clock.fireNext()) times.push(clock.now());
    expect(fired).toEqual(['now', 'a@10', 'b@10', 'c@30']);
    expect(times).toEqual([1000, 1010, 1010, 1030]);
    expect(clock.pending).toBe(0);
    expect(clock.fireNext()).toBe(false);
  });

  it('timers set while firing run after those already due at the same time', () => {
    const clock = new VirtualClock();
    const fired: string[] = [];
    clock.setTimer(() => {
      fired.push('first');
      clock.setTimer(() => fired.push('nested'), 0);
    }, 5);
    clock.setTimer(() => fired.push('second'), 5);
    while (clock.fireNext());
    expect(fired).toEqual(['first', 'second', 'nested']);
    expect(clock.now()).toBe(5);
  });

  it('sleep resolves on the clock and rejects when its signal aborts', async () => {
    const clock = new VirtualClock();
    const done = sleep(clock, 250);
    expect(clock.nextTimerAt()).toBe(250);
    clock.fireNext();
    await done;
    expect(clock.now()).toBe(250);
    const controller = new AbortController();
    const waiting = sleep(clock, 100, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(SleepAbortedError);
    expect(clock.pending).toBe(0);
  });
});

describe('a crawl on a virtual clock', () => {
  /** One crawl of the test web in memory, politeness on (1 s per site), sites answering after 40-390 ms. */
  async function simulatedCrawl(strategy: { name: string; params?: Record<string, number> }, seed: number, maxPages = 80) {
    const clock = new VirtualClock(Date.UTC(2025, 0, 1));
    const mem = memoryWeb({
      seed: 2,
      pagesPerTopic: 40,
      clock,
      latencyMs: (site, _url, n) => 40 + 50 * Number(site.slice(4)) + (n % 7) * 3,
    });
    const topic = mem.web.topics[0].id;
    const fetcher = createFetcher({
      fetch: mem.fetch,
      clock,
      politenessDelayMs: 1000,
      maxInFlight: 8,
      urlPolicy: { allowPrivate: 'loopback' },
    });
    const run = createCrawl({
      topic: topicQuery(mem.web, topic),
      seeds: seedsFor(mem.web, topic, 3).map((p) => mem.urlOf(p)),
      strategy: { ...strategy, seed },
      limits: { maxPages, maxBuffer: 256 },
      fetcher,
    });
    const events: CrawlEvent[] = [];
    const consume = async () => {
      for await (const e of run.events()) events.push(e);
    };
    // No real timer may be set while the crawl runs: all waiting is on the virtual clock.
    const realTimers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await runOnVirtualClock(clock, consume());
    } finally {
      realTimers.mockRestore();
    }
    const pages = events.flatMap((e) => (e.type === 'page' ? [e.page] : []));
    const done = events.at(-1) as Extract<CrawlEvent, { type: 'done' }>;
    return { pages, done, requests: mem.requests, realTimers: realTimers.mock.calls.length, clock };
  }

  it('gives the same pages in the same order, at the same simulated times, run after run', async () => {
    for (const strategy of [{ name: 'forager' }, { name: 'best-n-first', params: { n: 16 } }, { name: 'infospiders' }]) {
      const a = await simulatedCrawl(strategy, 7);
      const b = await simulatedCrawl(strategy, 7);
      expect(a.done.reason, strategy.name).toBe('budget');
      expect(a.pages).toHaveLength(80);
      expect(b.pages.map((p) => [p.url, p.fetchedAt])).toEqual(a.pages.map((p) => [p.url, p.fetchedAt]));
      expect(b.requests).toEqual(a.requests);
      expect(b.done.stats.elapsedMs).toBe(a.done.stats.elapsedMs);
      // Another seed draws differently (a check that the comparison above can fail).
      if (strategy.name !== 'infospiders') {
        const c = await simulatedCrawl(strategy, 8);
        expect(c.pages.map((p) => p.url)).not.toEqual(a.pages.map((p) => p.url));
      }
    }
  }, 240_000);

  it('keeps politeness in simulated time without waiting for real', async () => {
    const { requests, done, realTimers } = await simulatedCrawl({ name: 'forager' }, 3, 120);
    // One request at a time per site, and at least 1 s from the end of one to the start of the next.
    const bySite = new Map<string, typeof requests>();
    for (const r of requests) bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
    for (const [site, list] of bySite) {
      for (let i = 1; i < list.length; i++) {
        const gap = list[i].at - list[i - 1].answeredAt!;
        // robots.txt is read, then the first page requested at once; every later request waits the delay.
        if (!list[i - 1].url.endsWith('/robots.txt')) expect(gap, `${site} request ${i}`).toBeGreaterThanOrEqual(1000);
        else expect(gap).toBeGreaterThanOrEqual(0);
      }
    }
    // 120 pages over 8 sites at one request per site and second: at least 120 / 8 s of simulated time.
    expect(done.stats.elapsedMs).toBeGreaterThan(15_000);
    expect(realTimers).toBe(0);
  }, 120_000);
});

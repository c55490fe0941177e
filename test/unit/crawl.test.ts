/**
 * The crawl loop end to end: over real HTTP (the generated test web on 127.0.0.1, the real fetcher and evaluator),
 * and on a virtual clock where timing matters (politeness, Retry-After).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../lib/engine/clock';
import { createCrawl, type CrawlOptions } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import { canonicalizeUrl } from '../../lib/engine/url/canonical';
import type { CrawlCheckpoint, CrawlEvent, PageResult, RefusedLinks, SkipRecord } from '../../lib/engine/types';
import { onTopicUrls, seedsFor, topicQuery } from '../../harness/testweb/generate';
import { memoryWeb } from '../../harness/testweb/memory';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';
import { runOnVirtualClock } from '../../harness/virtual-time';

const LOOPBACK = { allowPrivate: 'loopback' as const };

function fetcher(extra: Parameters<typeof createFetcher>[0] = {}) {
  return createFetcher({ politenessDelayMs: 0, maxInFlight: 8, urlPolicy: LOOPBACK, ...extra });
}

async function collect(events: AsyncGenerator<CrawlEvent>) {
  const pages: PageResult[] = [];
  const skips: SkipRecord[] = [];
  let refused: RefusedLinks | undefined;
  let done: Extract<CrawlEvent, { type: 'done' }> | undefined;
  const types: CrawlEvent['type'][] = [];
  const retries: Extract<CrawlEvent, { type: 'retry' }>[] = [];
  const waits: { site: string; until: number; at: number }[] = [];
  for await (const e of events) {
    types.push(e.type);
    if (e.type === 'progress' && e.stats.waiting) waits.push({ ...e.stats.waiting, at: e.stats.elapsedMs });
    if (e.type === 'page') pages.push(e.page);
    if (e.type === 'retry') retries.push(e);
    if (e.type === 'skip') skips.push(e.skip);
    if (e.type === 'links-refused') refused = e.refused;
    if (e.type === 'done') done = e;
  }
  return { pages, skips, refused, types, retries, waits, done: done! };
}

const html = (body: string) =>
  new Response(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`, {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  });

describe('crawl over the test web', () => {
  let web: RunningTestWeb;
  beforeAll(async () => {
    web = await startTestWeb({ seed: 7 });
  });
  afterAll(() => web.close());

  function baseOptions(topicId: string, strategy: CrawlOptions['strategy'], maxPages: number): CrawlOptions {
    return {
      topic: topicQuery(web.web, topicId),
      seeds: seedsFor(web.web, topicId, 3).map((p) => web.urlOf(p)),
      strategy,
      limits: { maxPages, maxBuffer: 256 },
      fetcher: fetcher(),
    };
  }

  it('Best-N-First finds more on-topic pages than Breadth-First from the same seeds, on every generated web', async () => {
    // Summed over three topics, 80 pages each. Measured on web seeds 1..6: Best-N-First (N=4) finds 1.30x to 1.64x
    // the on-topic pages of Breadth-First; single topics can be close (45 vs 49), so the assertion is on the sum.
    for (const webSeed of [1, 3, 5]) {
      const w = await startTestWeb({ seed: webSeed });
      const found = { bfs: 0, bnf: 0 };
      for (const topic of w.web.topics.slice(0, 3)) {
        const onTopic = new Set(onTopicUrls(w.web, topic.id, (s) => w.origins[s]).map((u) => canonicalizeUrl(u)!));
        for (const [key, strategy] of [
          ['bfs', { name: 'breadth-first', seed: webSeed }],
          ['bnf', { name: 'best-n-first', params: { n: 4 }, seed: webSeed }],
        ] as const) {
          const run = await collect(
            createCrawl({
              topic: topicQuery(w.web, topic.id),
              seeds: seedsFor(w.web, topic.id, 3).map((p) => w.urlOf(p)),
              strategy,
              limits: { maxPages: 80, maxBuffer: 256 },
              fetcher: fetcher(),
            }).events(),
          );
          expect(run.pages).toHaveLength(80);
          found[key] += run.pages.filter((p) => onTopic.has(p.url)).length;
        }
      }
      await w.close();
      expect(found.bnf, `web seed ${webSeed}`).toBeGreaterThan(found.bfs * 1.15);
    }
  }, 180_000);

  it('counts only evaluated pages toward the budget and stops there', async () => {
    const topic = web.web.topics[1].id;
    const run = await collect(createCrawl(baseOptions(topic, { name: 'best-n-first', params: { n: 16 }, seed: 5 }, 40)).events());
    expect(run.done.reason).toBe('budget');
    expect(run.pages).toHaveLength(40);
    expect(run.done.stats.pagesEvaluated).toBe(40);
    expect(new Set(run.pages.map((p) => p.url)).size).toBe(40);
    const seeds = new Set(seedsFor(web.web, topic, 3).map((p) => canonicalizeUrl(web.urlOf(p))));
    for (const p of run.pages) expect(p.isSeed).toBe(seeds.has(p.url));
    expect(run.pages.filter((p) => p.isSeed)).toHaveLength(3);
  });

  it('sends no cookies although every page sets one', async () => {
    const before = web.requests.length;
    await collect(createCrawl(baseOptions(web.web.topics[2].id, { name: 'best-n-first', seed: 1 }, 30)).events());
    const mine = web.requests.slice(before);
    expect(mine.length).toBeGreaterThan(30);
    for (const r of mine) expect(r.headers.cookie).toBeUndefined();
  });

  it('resumes from checkpoints cut at random points: the budget is reached, every URL fetched once', async () => {
    for (const rngSeed of [11, 12]) {
      const topic = web.web.topics[0].id;
      const opts = (): CrawlOptions => ({
        ...baseOptions(topic, { name: 'best-n-first', params: { n: 8 }, seed: rngSeed }, 120),
        limits: { maxPages: 120, maxBuffer: 64 },
      });
      const logStart = web.requests.length;
      let checkpoint: CrawlCheckpoint | undefined;
      const pages: PageResult[] = [];
      let cuts = 0;
      let rng = rngSeed;
      const random = () => (rng = (rng * 1103515245 + 12345) % 2147483648) / 2147483648;
      while (true) {
        const run = createCrawl(checkpoint ? { ...opts(), checkpoint } : opts());
        let finished = false;
        let pauseAfter = 5 + Math.floor(random() * 25);
        for await (const e of run.events()) {
          if (e.type === 'page') {
            pages.push(e.page);
            // Pause at a random page: fetches in flight finish, and the crawl stands still.
            if (--pauseAfter === 0) run.pause();
          }
          if (e.type === 'checkpoint' && run.paused) {
            expect(run.stats().fetchesInFlight).toBe(0);
            checkpoint = JSON.parse(JSON.stringify(run.checkpoint())) as CrawlCheckpoint; // as stored: plain data
            expect(checkpoint.inFlight).toEqual([]);
            expect(checkpoint.pagesEvaluated).toBe(pages.length);
            break;
          }
          if (e.type === 'done') finished = true;
        }
        if (finished) break;
        cuts++;
      }
      expect(cuts).toBeGreaterThan(2);
      expect(pages).toHaveLength(120);
      expect(new Set(pages.map((p) => p.url)).size).toBe(120);
      // Each page requested exactly once over all the resumed runs.
      const counts = new Map<string, number>();
      for (const r of web.requests.slice(logStart)) {
        if (!r.url.endsWith('/robots.txt')) counts.set(r.url, (counts.get(r.url) ?? 0) + 1);
      }
      expect(counts.size).toBeGreaterThanOrEqual(120);
      for (const [url, n] of counts) expect(n, url).toBe(1);
    }
  });

  it('hands out checkpoints that stay as they were while the crawl goes on (they may be written out later)', async () => {
    const strategies: [string, Record<string, number>][] = [
      ['forager', { n: 4 }],
      ['best-n-first', { n: 4 }],
      ['infospiders', {}],
      ['anchor-text', {}],
    ];
    for (const [name, params] of strategies) {
      const run = createCrawl(baseOptions(web.web.topics[1].id, { name, params, seed: 5 }, 60));
      const taken: { checkpoint: CrawlCheckpoint; copy: CrawlCheckpoint }[] = [];
      let pages = 0;
      for await (const e of run.events()) {
        // Taken at arbitrary moments (mid-batch, at batch ends), as the background's write-behind does.
        if (e.type === 'page' && ++pages % 7 === 0) {
          const checkpoint = run.checkpoint();
          taken.push({ checkpoint, copy: structuredClone(checkpoint) });
        }
      }
      expect(taken.length).toBeGreaterThan(5);
      for (const { checkpoint, copy } of taken) expect(checkpoint, name).toEqual(copy);
    }
  });

  it('a checkpoint taken while an event is handled covers exactly the outcomes delivered; fetches in flight are in it', async () => {
    const run = createCrawl(baseOptions(web.web.topics[2].id, { name: 'forager', seed: 3 }, 40));
    const delivered = new Set<string>();
    let outcomes = 0;
    let standstills = 0;
    let sawInFlight = false;
    for await (const e of run.events()) {
      if (e.type === 'page') delivered.add(e.page.url);
      if (e.type === 'page' || e.type === 'skip') {
        outcomes++;
        const cp = run.checkpoint();
        expect(cp.pagesEvaluated).toBe(delivered.size);
        expect(cp.pagesEvaluated + cp.errors).toBe(outcomes);
        for (const url of delivered) expect(cp.fetched).toContain(url);
        // What is in flight is in the checkpoint, and none of it was delivered.
        expect(cp.inFlight.length).toBeGreaterThanOrEqual(run.stats().fetchesInFlight);
        for (const entry of cp.inFlight) expect(delivered.has(entry.url)).toBe(false);
        if (cp.inFlight.length > 0) sawInFlight = true;
      }
      if (e.type === 'checkpoint') {
        standstills++;
        expect(run.stats().fetchesInFlight).toBe(0);
        expect(run.checkpoint().inFlight).toEqual([]);
      }
    }
    expect(sawInFlight).toBe(true);
    expect(standstills).toBe(1); // the end
  });

  it('stops through AbortSignal with what it gathered, and the checkpoint continues the crawl', async () => {
    const controller = new AbortController();
    const opts = {
      ...baseOptions(web.web.topics[3].id, { name: 'best-n-first', params: { n: 4 }, seed: 9 }, 60),
      signal: controller.signal,
    };
    const run = createCrawl(opts);
    const pages: PageResult[] = [];
    let last: CrawlCheckpoint | undefined;
    let reason = '';
    for await (const e of run.events()) {
      if (e.type === 'page') {
        pages.push(e.page);
        if (pages.length === 20) controller.abort();
      }
      if (e.type === 'checkpoint') last = run.checkpoint();
      if (e.type === 'done') reason = e.reason;
    }
    expect(reason).toBe('aborted');
    expect(last!.pagesEvaluated).toBe(pages.length);
    const resumed = await collect(createCrawl({ ...opts, signal: undefined, checkpoint: last }).events());
    expect(resumed.done.reason).toBe('budget');
    const all = [...pages, ...resumed.pages].map((p) => p.url);
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
  });
});

describe('crawl meets hostile pages', () => {
  let web: RunningTestWeb;
  beforeAll(async () => {
    web = await startTestWeb({ seed: 5, hostile: true });
  });
  afterAll(() => web.close());

  it('records a reason for every bad page and loses nothing already gathered', async () => {
    const topic = web.web.topics[0];
    const o = web.origins[web.web.primarySite[topic.id]];
    const hostile = [
      'big',
      'binary',
      'notype',
      'wrongtype',
      'cp1252',
      'sjis',
      'loop-a',
      'hang',
      'trickle',
      '404',
      '500',
      '429',
      'links20k',
      'js-links',
      'calendar/2026/11',
      'malformed',
      'internal',
    ].map((p) => `${o}/hostile/${p}`);
    // Seeds on the hostile site only: with one request at a time per site, seeds elsewhere would fill the budget
    // while the hostile site works through its queue.
    const seeds = [...hostile, `${web.origins[web.web.privateSite]}/private/secret.html`];
    const run = await collect(
      createCrawl({
        topic: topicQuery(web.web, topic.id),
        seeds,
        strategy: { name: 'breadth-first', seed: 1 },
        // Retries off: they would outlast the budget here (they have their own tests on a virtual clock below).
        limits: { maxPages: 80, maxBuffer: 256, retries: 0 },
        // One request at a time per site, as a polite crawl: eight at once to the hostile site would put /big's 10 MB
        // stream (served by this same process) in the way of every other request's time budget.
        fetcher: fetcher({ timeoutMs: 1500, maxPerSite: 1 }),
      }).events(),
    );
    expect(run.done.reason).toBe('budget');
    const reasonOf = (path: string) => run.skips.find((s) => s.url.endsWith(path))?.reason;
    expect(reasonOf('/hostile/wrongtype')).toBe('not-html');
    expect(reasonOf('/hostile/loop-a')).toBe('redirect');
    expect(reasonOf('/hostile/hang')).toBe('timeout');
    expect(reasonOf('/hostile/trickle')).toBe('timeout');
    expect(reasonOf('/hostile/404')).toBe('http-error');
    expect(reasonOf('/hostile/500')).toBe('http-error');
    expect(reasonOf('/hostile/429')).toBe('http-error');
    expect(reasonOf('/private/secret.html')).toBe('robots');
    // Outlinks to private addresses are refused without a request, counted, not recorded one by one.
    expect(run.skips.some((s) => s.reason === 'url-refused')).toBe(false);
    const privateHosts = run.refused!.byRule['private host'];
    expect(privateHosts.count).toBeGreaterThanOrEqual(3);
    expect(privateHosts.examples.map((x) => x.url)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^http:\/\/(10\.0\.0\.1|169\.254\.169\.254|192\.168\.1\.1)\//)]),
    );
    expect(web.requests.some((r) => r.url.includes('/private/') || r.url.includes('10.0.0.1'))).toBe(false);
    const evaluated = new Map(run.pages.map((p) => [new URL(p.url).pathname, p]));
    for (const ok of ['big', 'binary', 'notype', 'cp1252', 'sjis', 'links20k', 'js-links', 'malformed', 'internal']) {
      expect(evaluated.has(`/hostile/${ok}`), ok).toBe(true);
    }
    expect(evaluated.get('/hostile/cp1252')!.snippet + evaluated.get('/hostile/cp1252')!.title).toMatch(/caf|é/i);
    // The calendar never runs away with the budget.
    expect(run.pages.filter((p) => p.url.includes('/calendar/')).length).toBeLessThan(10);
    // Every hostile seed ended as a page or a recorded skip.
    const seen = new Set([...run.pages.map((p) => p.url), ...run.skips.map((s) => s.url)]);
    for (const s of hostile) expect(seen.has(canonicalizeUrl(s)!), s).toBe(true);
  }, 90_000);
});

describe('the continuous loop on a virtual clock', () => {
  /** A crawl of the in-memory test web on a virtual clock; `wrap` may answer some requests itself. */
  async function simulated(opts: {
    politenessDelayMs: number;
    maxPages: number;
    latencyMs?: number | ((site: string) => number);
    wrap?: (url: string, clock: VirtualClock) => Response | undefined;
    strategy?: string;
    slowSite?: false;
    retries?: number;
  }) {
    const clock = new VirtualClock(Date.UTC(2025, 0, 1));
    const latency = opts.latencyMs;
    const latencyMs = typeof latency === 'function' ? latency : () => latency ?? 50;
    const mem = memoryWeb({ seed: 2, pagesPerTopic: 60, clock, latencyMs });
    const contacted: { url: string; at: number }[] = [];
    const fetchFn: typeof fetch = (input, init) => {
      contacted.push({ url: String(input), at: clock.now() });
      const own = opts.wrap?.(String(input), clock);
      return own ? Promise.resolve(own) : mem.fetch(input, init);
    };
    const topic = mem.web.topics[0].id;
    const run = createCrawl({
      topic: topicQuery(mem.web, topic),
      // Seeds on every site, so that every site has URLs to fetch from the start.
      seeds: mem.web.sites.map((site) => mem.urlOf(mem.web.fronts[site])),
      strategy: { name: opts.strategy ?? 'forager', seed: 1 },
      limits: { maxPages: opts.maxPages, maxBuffer: 256, ...(opts.retries !== undefined ? { retries: opts.retries } : {}) },
      fetcher: createFetcher({
        fetch: fetchFn,
        clock,
        timeoutMs: 10_000,
        politenessDelayMs: opts.politenessDelayMs,
        maxInFlight: 8,
        urlPolicy: LOOPBACK,
        slowSite: opts.slowSite,
      }),
    });
    const result = await runOnVirtualClock(clock, collect(run.events()));
    return { ...result, mem, contacted, clock, start: Date.UTC(2025, 0, 1) };
  }

  it('one 503 with Retry-After: 999999 does not stall the crawl: the site is left alone, the others go on', async () => {
    let refusals = 0;
    const { done, skips, contacted, mem, pages } = await simulated({
      politenessDelayMs: 1000,
      maxPages: 60,
      wrap: (url) => {
        if (!url.startsWith('http://127.0.0.1:9001/') || url.endsWith('/robots.txt')) return undefined;
        refusals++;
        return new Response('busy', { status: 503, headers: { 'retry-after': '999999', 'content-type': 'text/html' } });
      },
    });
    expect(done.reason).toBe('budget');
    expect(pages).toHaveLength(60);
    // The batch loop waited 10 minutes here, and again in each later round that held one of the site's URLs.
    expect(done.stats.elapsedMs).toBeLessThan(60_000);
    expect(refusals).toBe(1);
    const site1 = mem.origins.site1;
    expect(contacted.filter((c) => c.url.startsWith(site1) && !c.url.endsWith('/robots.txt'))).toHaveLength(1);
    const later = skips.filter((s) => s.url.startsWith(site1) && s.detail.startsWith('not contacted'));
    expect(skips.find((s) => s.url.startsWith(site1))?.detail).toBe('HTTP 503, Retry-After 999999 s');
    expect(later.length).toBeGreaterThan(0);
  });

  it('fetches a URL again after transient failures (a 503, then no answer), without holding a slot meanwhile', async () => {
    let target = '';
    let attempts = 0;
    const { pages, skips, retries, contacted, done } = await simulated({
      politenessDelayMs: 1000,
      // About 8 pages a second: the budget outlasts the three attempts (~22 s).
      maxPages: 300,
      wrap: (url) => {
        // The first page asked of site1 (its front page, a seed).
        target ||= url.startsWith('http://127.0.0.1:9001/') && !url.endsWith('/robots.txt') ? url : '';
        if (url !== target) return undefined;
        attempts++;
        if (attempts === 1) return new Response('busy', { status: 503, headers: { 'content-type': 'text/html' } });
        // The second attempt gets no answer: the fetcher's timeout (10 s) ends it. The third is served.
        if (attempts === 2) return new Response(new ReadableStream({ start() {} }), { headers: { 'content-type': 'text/html' } });
        return undefined;
      },
    });
    expect(done.reason).toBe('budget');
    expect(attempts).toBe(3);
    expect(retries.map((r) => [r.url, r.attempt, r.reason])).toEqual([
      [target, 1, 'http-error'],
      [target, 2, 'timeout'],
    ]);
    expect(pages.some((p) => p.url === target)).toBe(true);
    expect(skips.some((s) => s.url === target)).toBe(false);
    expect(done.stats.retried).toBe(2);
    expect(done.stats.errors).toBe(skips.length);
    // Each attempt waits its pause after the failure before: 2 s, then 8 s after the timeout.
    const times = contacted.filter((c) => c.url === target).map((c) => c.at);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(2000);
    expect(retries[1].at - retries[0].at).toBeGreaterThanOrEqual(10_000 + 8000);
    expect(times[2]).toBeGreaterThanOrEqual(retries[1].at);
    // Meanwhile the crawl went on: the waiting URL holds no fetch slot.
    expect(pages.filter((p) => p.fetchedAt > times[0] && p.fetchedAt < times[2]).length).toBeGreaterThan(20);
  });

  it('gives up after `retries` more attempts (the last failure is the skip); lasting failures are not retried', async () => {
    const run = (retries?: number) => {
      let failing = '';
      let missing = '';
      const result = simulated({
        politenessDelayMs: 1000,
        maxPages: 120,
        ...(retries !== undefined ? { retries } : {}),
        wrap: (url) => {
          failing ||= url.startsWith('http://127.0.0.1:9003/') && !url.endsWith('/robots.txt') ? url : '';
          if (url === failing) return new Response('oops', { status: 500, headers: { 'content-type': 'text/html' } });
          missing ||= url.startsWith('http://127.0.0.1:9004/') && !url.endsWith('/robots.txt') ? url : '';
          if (url === missing) return new Response('gone', { status: 404, headers: { 'content-type': 'text/html' } });
          return undefined;
        },
      });
      return result.then((r) => ({ ...r, failing, missing }));
    };
    const byDefault = await run();
    const tries = (r: typeof byDefault, url: string) => r.contacted.filter((c) => c.url === url).length;
    expect(tries(byDefault, byDefault.failing)).toBe(3);
    expect(byDefault.skips.find((s) => s.url === byDefault.failing)).toMatchObject({
      reason: 'http-error',
      detail: 'HTTP 500 (3 attempts)',
    });
    expect(tries(byDefault, byDefault.missing)).toBe(1);
    expect(byDefault.skips.find((s) => s.url === byDefault.missing)?.detail).toBe('HTTP 404');
    expect(byDefault.retries.every((r) => r.url === byDefault.failing)).toBe(true);

    const once = await run(0);
    expect(tries(once, once.failing)).toBe(1);
    expect(once.retries).toEqual([]);
    expect(once.skips.find((s) => s.url === once.failing)?.detail).toBe('HTTP 500');
    expect(once.done.stats.retried).toBeUndefined();
  });

  it('keeps a URL waiting for its retry in the checkpoint, with its attempts, and fetches it on resume', async () => {
    const clock = new VirtualClock(Date.UTC(2025, 0, 1));
    const mem = memoryWeb({ seed: 2, pagesPerTopic: 60, clock, latencyMs: () => 50 });
    const target = mem.urlOf(mem.web.fronts[mem.web.sites[2]]);
    let failures = 0;
    const requested: string[] = [];
    const fetchFor =
      (failTarget: boolean): typeof fetch =>
      (input, init) => {
        requested.push(String(input));
        if (failTarget && String(input) === target) {
          failures++;
          return Promise.resolve(new Response('busy', { status: 502, headers: { 'content-type': 'text/html' } }));
        }
        return mem.fetch(input, init);
      };
    const options = (failTarget: boolean): CrawlOptions => ({
      topic: topicQuery(mem.web, mem.web.topics[0].id),
      seeds: mem.web.sites.map((site) => mem.urlOf(mem.web.fronts[site])),
      strategy: { name: 'forager', seed: 1 },
      limits: { maxPages: 100, maxBuffer: 256 },
      fetcher: createFetcher({
        fetch: fetchFor(failTarget),
        clock,
        politenessDelayMs: 1000,
        maxInFlight: 8,
        urlPolicy: LOOPBACK,
      }),
    });
    const controller = new AbortController();
    const first = createCrawl({ ...options(true), signal: controller.signal });
    let checkpoint: CrawlCheckpoint | undefined;
    const before = await runOnVirtualClock(
      clock,
      (async () => {
        const pages: string[] = [];
        for await (const e of first.events()) {
          if (e.type === 'page') pages.push(e.page.url);
          if (e.type === 'retry') {
            checkpoint = first.checkpoint();
            controller.abort();
          }
        }
        return pages;
      })(),
    );
    expect(failures).toBe(1);
    expect(checkpoint!.inFlight).toContainEqual(expect.objectContaining({ url: target, attempt: 1 }));
    expect(checkpoint!.fetched).not.toContain(target);
    expect(checkpoint!.retried).toBe(1);
    const resumed = await runOnVirtualClock(clock, collect(createCrawl({ ...options(false), checkpoint }).events()));
    expect(resumed.done.reason).toBe('budget');
    expect(resumed.pages.some((p) => p.url === target)).toBe(true);
    expect(resumed.done.stats.retried).toBe(1);
    expect(before.length + resumed.pages.length).toBe(100);
    expect(new Set([...before, ...resumed.pages.map((p) => p.url)]).size).toBe(100);
  });

  it('when every URL left waits on a Retry-After, the stats say which site and until when; none once it goes on', async () => {
    const refused = new Set<string>();
    const { waits, done, clock, start, pages } = await simulated({
      politenessDelayMs: 1000,
      maxPages: 40,
      // Every site answers its first page request with 503, Retry-After: 60: nothing else to do for a minute.
      wrap: (url) => {
        const site = new URL(url).origin;
        if (url.endsWith('/robots.txt') || refused.has(site)) return undefined;
        refused.add(site);
        return new Response('busy', { status: 503, headers: { 'retry-after': '60', 'content-type': 'text/html' } });
      },
    });
    expect(done.reason).toBe('budget');
    expect(pages.length).toBe(40);
    expect(waits.length).toBeGreaterThan(0);
    const first = waits[0];
    expect(first.site).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Until the first site's rest ends: a minute after its 503 (within the seconds the seven 503s took).
    expect(first.until - start).toBeGreaterThanOrEqual(60_000);
    expect(first.until - start).toBeLessThan(70_000);
    // Short politeness pauses are never reported, and the crawl's end carries no wait.
    expect(waits.every((w) => w.until - (start + w.at) >= 10_000)).toBe(true);
    expect(done.stats.waiting).toBeUndefined();
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
  });

  it('a site resting for Retry-After: 30 holds only its own URLs', async () => {
    let refusedAt = -1;
    const { pages, contacted, mem, done } = await simulated({
      politenessDelayMs: 1000,
      maxPages: 300,
      wrap: (url, clock) => {
        if (refusedAt >= 0 || !url.startsWith('http://127.0.0.1:9002/') || url.endsWith('/robots.txt')) return undefined;
        refusedAt = clock.now();
        return new Response('busy', { status: 503, headers: { 'retry-after': '30', 'content-type': 'text/html' } });
      },
    });
    expect(done.reason).toBe('budget');
    expect(refusedAt).toBeGreaterThan(0);
    const site2 = mem.origins.site2;
    const next = contacted.find((c) => c.url.startsWith(site2) && c.at > refusedAt);
    expect(next!.at - refusedAt).toBeGreaterThanOrEqual(30_000);
    // Meanwhile the other sites kept going: at one request per site and second, about 7 x 30 pages.
    const meanwhile = pages.filter((p) => p.fetchedAt > refusedAt && p.fetchedAt < refusedAt + 30_000);
    expect(meanwhile.length).toBeGreaterThan(150);
    expect(meanwhile.every((p) => !p.url.startsWith(site2))).toBe(true);
  });

  it('with politeness off, a site far slower than the others holds one slot, not all of them', async () => {
    // site3 answers after 3 s, the others after 50 ms; 8 slots, several requests per site allowed.
    const latencyMs = (site: string) => (site === 'site3' ? 3000 : 50);
    const adaptive = await simulated({ politenessDelayMs: 0, maxPages: 300, latencyMs });
    const fixed = await simulated({ politenessDelayMs: 0, maxPages: 300, latencyMs, slowSite: false });
    /** The most requests to site3 in flight at once, among those sent after its first answer. */
    const busiest = (requests: typeof adaptive.mem.requests) => {
      const slow = requests.filter((r) => r.site === 'site3' && !r.url.endsWith('/robots.txt'));
      const firstAnswer = Math.min(...slow.map((r) => r.answeredAt ?? Number.POSITIVE_INFINITY));
      let most = 0;
      for (const r of slow.filter((x) => x.at >= firstAnswer)) {
        most = Math.max(most, slow.filter((x) => x.at <= r.at && (x.answeredAt ?? Number.POSITIVE_INFINITY) > r.at).length);
      }
      return most;
    };
    expect(adaptive.done.reason).toBe('budget');
    expect(fixed.done.reason).toBe('budget');
    expect(busiest(adaptive.mem.requests)).toBe(1);
    // Without the rule the slow site takes several slots at once (the check above can fail) and the crawl is slower.
    expect(busiest(fixed.mem.requests)).toBeGreaterThan(1);
    expect(adaptive.done.stats.elapsedMs).toBeLessThan(fixed.done.stats.elapsedMs);
  });

  it('with politeness off and every site equally slow, keeps several requests per site (the rule is relative)', async () => {
    const { mem, done } = await simulated({ politenessDelayMs: 0, maxPages: 120, latencyMs: 3000 });
    expect(done.reason).toBe('budget');
    const pages = mem.requests.filter((r) => !r.url.endsWith('/robots.txt'));
    const concurrent = (site: string) =>
      Math.max(
        ...pages
          .filter((r) => r.site === site)
          .map((r) => pages.filter((x) => x.site === site && x.at <= r.at && (x.answeredAt ?? Infinity) > r.at).length),
      );
    expect(Math.max(...mem.web.sites.map(concurrent))).toBeGreaterThan(1);
  });

  it('with politeness on, keeps every site with URLs busy: at least 90% of the rate politeness allows', async () => {
    // 8 sites, each answering after 50 ms and contacted at most once per 1 s after its last answer: 8 / 1.05 s at best.
    const { pages, done, start } = await simulated({ politenessDelayMs: 1000, maxPages: 200, latencyMs: 50 });
    expect(done.reason).toBe('budget');
    const first = Math.min(...pages.map((p) => p.fetchedAt));
    const last = Math.max(...pages.map((p) => p.fetchedAt));
    const rate = (pages.length - 1) / ((last - first) / 1000);
    expect(first - start).toBeLessThan(1000);
    expect(rate).toBeGreaterThanOrEqual(0.9 * (8 / 1.05));
  });

  it('applies meta robots nofollow in the loop, for every strategy: the links of such a page reach none', async () => {
    for (const name of [
      'forager',
      'best-n-first',
      'breadth-first',
      'pagerank',
      'infospiders',
      'shark-search',
      'anchor-text',
      'adaptive-bnf',
    ]) {
      const requested: string[] = [];
      const fetchFn: typeof fetch = async (input) => {
        const url = String(input);
        requested.push(url);
        if (url.endsWith('/robots.txt')) return new Response('', { status: 404 });
        return html(
          url.endsWith('/seed')
            ? '<meta name="robots" content="nofollow"><p>solar telescope</p><a href="/linked">solar telescope</a>'
            : '<p>solar</p>',
        );
      };
      const run = await collect(
        createCrawl({
          topic: { keywords: 'solar telescope' },
          seeds: ['https://nofollow.example/seed'],
          strategy: { name, seed: 1 },
          limits: { maxPages: 10 },
          fetcher: createFetcher({ fetch: fetchFn, politenessDelayMs: 0 }),
        }).events(),
      );
      expect(run.done.reason, name).toBe('exhausted');
      expect(run.pages.map((p) => p.url)).toEqual(['https://nofollow.example/seed']);
      expect(requested.some((u) => u.endsWith('/linked'))).toBe(false);
    }
  });

  it('counts refused outlinks per rule with a few examples instead of a skip record each', async () => {
    // A hostile page: 3,000 links the URL rules refuse, and one good one.
    const bad = [
      ...Array.from({ length: 1000 }, (_, i) => `<a href="/events/1850/${1 + (i % 12)}/${i}">x</a>`),
      ...Array.from({ length: 1000 }, (_, i) => `<a href="http://10.0.${i >> 8}.${i & 255}/">x</a>`),
      ...Array.from({ length: 1000 }, (_, i) => `<a href="/img/${i}.jpg">x</a>`),
    ].join('');
    const fetchFn: typeof fetch = async (input) => {
      const url = String(input);
      if (url.endsWith('/robots.txt')) return new Response('', { status: 404 });
      return html(url.endsWith('/hostile') ? `${bad}<a href="/good">good</a>` : '<p>fine</p>');
    };
    const crawl = createCrawl({
      topic: { keywords: 'anything' },
      seeds: ['https://h.example/hostile'],
      strategy: { name: 'breadth-first', seed: 1 },
      limits: { maxPages: 10 },
      fetcher: createFetcher({ fetch: fetchFn, politenessDelayMs: 0 }),
    });
    const run = await collect(crawl.events());
    expect(run.pages.map((p) => p.url)).toEqual(['https://h.example/hostile', 'https://h.example/good']);
    expect(run.skips).toEqual([]); // the batch loop stored 3,000 skip records here
    expect(run.refused!.total).toBe(3000);
    expect(Object.fromEntries(Object.entries(run.refused!.byRule).map(([k, v]) => [k, v.count]))).toEqual({
      calendar: 1000,
      'private host': 1000,
      'non-HTML extension': 1000,
    });
    for (const rule of Object.values(run.refused!.byRule)) expect(rule.examples).toHaveLength(3);
    expect(run.types.slice(-3)).toEqual(['links-refused', 'checkpoint', 'done']);
    expect(run.done.stats.linksRefused).toBe(3000);
    const cp = crawl.checkpoint();
    expect(cp.linksRefused.total).toBe(3000);
    expect(JSON.stringify(cp).length).toBeLessThan(20_000);
  });

  it('reports an unreachable seed as unreachable, not as disallowed by robots.txt', async () => {
    // A loopback port nobody listens on (just closed): connection refused, so its robots.txt cannot be fetched.
    const closed = await startTestWeb({ seed: 1, sites: 2, topics: 1, pagesPerTopic: 8 });
    const origin = closed.origins.site0;
    await closed.close();
    const run = await collect(
      createCrawl({
        topic: { keywords: 'anything' },
        seeds: [`${origin}/page`],
        strategy: { name: 'forager', seed: 1 },
        limits: { maxPages: 5 },
        fetcher: fetcher(),
      }).events(),
    );
    expect(run.skips).toHaveLength(1);
    expect(run.skips[0]).toMatchObject({ url: `${origin}/page`, reason: 'network' });
    expect(run.skips[0].detail).toMatch(/^site unreachable: robots\.txt could not be fetched \(.*ECONNREFUSED/);
  });
});

/**
 * The crawl loop end to end over real HTTP: the generated test web on 127.0.0.1, the real fetcher and evaluator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawl, type CrawlOptions } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import { canonicalizeUrl } from '../../lib/engine/url/canonical';
import type { CrawlCheckpoint, CrawlEvent, PageResult, SkipRecord } from '../../lib/engine/types';
import { onTopicUrls, seedsFor, topicQuery } from '../../harness/testweb/generate';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';

const LOOPBACK = { allowPrivate: 'loopback' as const };

function fetcher(extra: Parameters<typeof createFetcher>[0] = {}) {
  return createFetcher({ politenessDelayMs: 0, concurrency: 8, urlPolicy: LOOPBACK, ...extra });
}

async function collect(events: AsyncGenerator<CrawlEvent>) {
  const pages: PageResult[] = [];
  const skips: SkipRecord[] = [];
  let done: Extract<CrawlEvent, { type: 'done' }> | undefined;
  for await (const e of events) {
    if (e.type === 'page') pages.push(e.page);
    if (e.type === 'skip') skips.push(e.skip);
    if (e.type === 'done') done = e;
  }
  return { pages, skips, done: done! };
}

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
      urlPolicy: LOOPBACK,
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
              urlPolicy: LOOPBACK,
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

  it('resumes from checkpoints cut at random points with the same pages, each fetched once', async () => {
    for (const rngSeed of [11, 12]) {
      const topic = web.web.topics[0].id;
      const opts = (): CrawlOptions => ({
        ...baseOptions(topic, { name: 'best-n-first', params: { n: 8 }, seed: rngSeed }, 120),
        limits: { maxPages: 120, maxBuffer: 64 },
      });
      const whole = await collect(createCrawl(opts()).events());
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
            // Pause mid-batch at a random page: fetches in flight finish, the rest of the batch waits in the checkpoint.
            if (--pauseAfter === 0) run.pause();
          }
          if (e.type === 'checkpoint' && run.paused) {
            checkpoint = JSON.parse(JSON.stringify(run.checkpoint())) as CrawlCheckpoint; // as stored: plain data
            break;
          }
          if (e.type === 'done') finished = true;
        }
        if (finished) break;
        cuts++;
      }
      expect(cuts).toBeGreaterThan(2);
      expect(pages.map((p) => p.url).sort()).toEqual(whole.pages.map((p) => p.url).sort());
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

  it('signals clean cuts: at a checkpoint event the checkpoint holds every page so far and nothing in flight', async () => {
    const run = createCrawl(baseOptions(web.web.topics[2].id, { name: 'forager', params: { n: 4 }, seed: 3 }, 40));
    let pages = 0;
    let cuts = 0;
    for await (const e of run.events()) {
      if (e.type === 'page') pages++;
      if (e.type !== 'checkpoint') continue;
      cuts++;
      const cp = run.checkpoint();
      expect(cp.results).toHaveLength(pages);
      expect(cp.pagesEvaluated).toBe(pages);
      expect(run.stats().fetchesInFlight).toBe(0);
    }
    expect(cuts).toBeGreaterThan(5);
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
    expect(last!.results.length).toBe(pages.length);
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
    const seeds = [
      ...seedsFor(web.web, topic.id, 2).map((p) => web.urlOf(p)),
      ...hostile,
      `${web.origins[web.web.privateSite]}/private/secret.html`,
    ];
    const run = await collect(
      createCrawl({
        topic: topicQuery(web.web, topic.id),
        seeds,
        strategy: { name: 'breadth-first', params: { n: 32 }, seed: 1 },
        limits: { maxPages: 80, maxBuffer: 256 },
        fetcher: fetcher({ timeoutMs: 1500 }),
        urlPolicy: LOOPBACK,
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
    expect(reasonOf('10.0.0.1/')).toBe('url-refused');
    expect(run.skips.find((s) => s.url.startsWith('http://169.254.169.254'))?.reason).toBe('url-refused');
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
  });
});

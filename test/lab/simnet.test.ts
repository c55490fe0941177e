/**
 * Crawls on the simulated network: the engine's own loop and fetcher on the engine's VirtualClock, with the lab's
 * simulated fetch. The same seeds give the same crawl and the same times, bit for bit; another network seed gives
 * other times; the fetcher's politeness holds on simulated time; nothing waits for real.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawl, createFetcher, VirtualClock } from '../../lib/engine';
import { simulatedWeb } from '../../lab/docweb/server';
import { networkModel, SimulatedNetwork } from '../../lab/network';
import { CachingEvaluator, type CrawlTask, LAB_URL_POLICY, runCrawlTask } from '../../lab/run';
import { driveOnClock, SentAnswers, type SimulatedRequest, simulatedFetch } from '../../lab/simnet';
import { loadSitesDir } from '../../lab/sites';

const SITES = ['alpha', 'beta', 'gamma', 'delta'];
const PAGES = 30;
let dir: string;
let web: ReturnType<typeof simulatedWeb>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-simnet-'));
  // Four sites of 30 pages; each page links three pages of its site and one of the next site (by its real home).
  SITES.forEach((name, s) => {
    mkdirSync(join(dir, name));
    const next = SITES[(s + 1) % SITES.length];
    for (let i = 0; i < PAGES; i++) {
      const links = [(i + 1) % PAGES, (i * 7 + 3) % PAGES, (i * 11 + 5) % PAGES].map((j) => `<a href="p${j}.html">page ${j}</a>`);
      links.push(`<a href="https://${next}.example/p${(i * 5) % PAGES}.html">${next} ${i}</a>`);
      writeFileSync(
        join(dir, name, `p${i}.html`),
        `<!DOCTYPE html><title>${name} ${i}</title><h1>${name} page ${i}</h1><p>${'solar energy panels '.repeat(1 + (i % 5))} ` +
          `${'x'.repeat(200 * i)}</p>${links.join(' ')}`,
      );
    }
  });
  writeFileSync(
    join(dir, 'sites.json'),
    JSON.stringify({ format: 'docweb-sites/1', sites: SITES.map((name) => ({ name, homes: [`//${name}.example`] })) }),
  );
  web = simulatedWeb({ sites: loadSitesDir(dir) });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = (networkSeed: number, strategy = 'best-n-first'): CrawlTask => ({
  index: 0,
  topicId: 'solar',
  topic: { keywords: 'solar panels' },
  seedUrls: [web.urlFor('alpha/p0.html'), web.urlFor('gamma/p0.html')],
  strategy: { name: strategy, params: { n: 4 } },
  seed: 1,
  maxPages: 80,
  maxBuffer: 256,
  fetchConcurrency: 4,
  network: { model: 'wan', seed: networkSeed, politenessMs: 1000 },
});

describe('crawls on the simulated network', () => {
  it('give the same pages at the same simulated times for the same seeds, bit for bit, and other times for another network seed', async () => {
    const a = await runCrawlTask(task(1), new CachingEvaluator(), undefined, web);
    const b = await runCrawlTask(task(1), new CachingEvaluator(), undefined, web);
    const c = await runCrawlTask(task(2), new CachingEvaluator(), undefined, web);
    expect(a.urls.length).toBe(80);
    expect(a.times).toHaveLength(80);
    expect(b.urls).toEqual(a.urls);
    expect(b.times).toEqual(a.times);
    expect(c.times).not.toEqual(a.times);
    for (let i = 1; i < a.times!.length; i++) expect(a.times![i]).toBeGreaterThanOrEqual(a.times![i - 1]);
    // 80 pages from four sites at most one request per second each: at least ~20 s of simulated time, and less of
    // real time (nothing waits for real).
    expect(a.times![79]).toBeGreaterThan(19_000);
    expect(a.elapsedMs).toBeLessThan(a.times![79]);
  }, 60_000);

  it('give the same crawl through a reading cache that crawls of other topics and strategies filled first', async () => {
    const warm = new CachingEvaluator();
    const other = (t: CrawlTask, keywords: string, language?: string): CrawlTask => ({
      ...t,
      topicId: keywords,
      topic: { keywords, ...(language ? { language } : {}), weights: { boilerplate: 0.5 } },
    });
    await runCrawlTask(other(task(1, 'breadth-first'), 'energy page'), warm, undefined, web);
    await runCrawlTask(other(task(1), 'beta gamma', 'fr'), warm, undefined, web);
    const readings = warm.size;
    for (const strategy of ['best-n-first', 'shark-search', 'infospiders']) {
      const t: CrawlTask = {
        ...task(1, strategy),
        ...(strategy === 'best-n-first' ? {} : { strategy: { name: strategy, params: {} } }),
      };
      const cold = await runCrawlTask(t, new CachingEvaluator(), undefined, web);
      const hot = await runCrawlTask(t, warm, undefined, web);
      expect(hot.cacheHits).toBeGreaterThan(0);
      expect([hot.urls, hot.isSeed, hot.scores, hot.times, hot.errors, hot.done]).toEqual([
        cold.urls,
        cold.isSeed,
        cold.scores,
        cold.times,
        cold.errors,
        cold.done,
      ]);
    }
    // The pages were read once for every topic: the later crawls added readings only for pages not met before.
    expect(warm.size).toBeLessThanOrEqual(SITES.length * PAGES + 1);
    expect(readings).toBeGreaterThan(0);
  }, 60_000);

  it('give the same crawl with the answers kept as sent (long pages cut at the cap) as with every page rendered again', async () => {
    // A cap below most pages' length (they grow by 200 bytes a page), so most answers are kept cut.
    const maxBytes = 2000;
    const crawlWith = async (answers?: SentAnswers) => {
      const clock = new VirtualClock();
      const network = new SimulatedNetwork(networkModel('wan'), 1, Object.keys(web.origins));
      const log: SimulatedRequest[] = [];
      const fetch = simulatedFetch({ web, network, clock, maxBytes, log, ...(answers ? { answers } : {}) });
      const fetcher = createFetcher({
        fetch,
        clock,
        politenessDelayMs: 1000,
        maxInFlight: 4,
        respectRobots: false,
        urlPolicy: LAB_URL_POLICY,
        maxBytes,
      });
      const crawl = createCrawl({
        topic: { keywords: 'solar panels' },
        seeds: [web.urlFor('alpha/p0.html'), web.urlFor('gamma/p3.html')],
        strategy: { name: 'best-n-first', params: { n: 2 } },
        limits: { maxPages: 70 },
        fetcher,
      });
      const pages: [string, number, number][] = [];
      const consume = async () => {
        for await (const ev of crawl.events()) if (ev.type === 'page') pages.push([ev.page.url, ev.page.score, clock.now()]);
      };
      await driveOnClock(clock, consume());
      fetcher.close();
      return { pages, log, stats: fetcher.stats() };
    };
    const plain = await crawlWith();
    // Room for a few answers only: kept ones are dropped and asked again.
    const answers = new SentAnswers(web, maxBytes, 5 * (maxBytes + 1));
    const first = await crawlWith(answers);
    const again = await crawlWith(answers);
    expect(plain.pages).toHaveLength(70);
    for (const run of [first, again]) {
      expect(run.pages).toEqual(plain.pages);
      expect(run.log).toEqual(plain.log);
      expect(run.stats).toEqual(plain.stats);
    }
    expect(answers.size).toBeGreaterThan(0);
    expect(answers.size).toBeLessThanOrEqual(5);
    expect(() =>
      simulatedFetch({
        web,
        network: new SimulatedNetwork(networkModel('wan'), 1, []),
        clock: new VirtualClock(),
        maxBytes: 99,
        answers,
      }),
    ).toThrow(/99/);
  }, 60_000);

  it("run the engine's loop and fetcher on the VirtualClock: one request at a time per site, a second apart at least", async () => {
    const clock = new VirtualClock();
    const network = new SimulatedNetwork(networkModel('wan'), 1, Object.keys(web.origins));
    const log: SimulatedRequest[] = [];
    const fetch = simulatedFetch({ web, network, clock, maxBytes: 100 * 1024, log });
    const fetcher = createFetcher({
      fetch,
      clock,
      politenessDelayMs: 1000,
      maxInFlight: 4,
      respectRobots: false,
      urlPolicy: LAB_URL_POLICY,
    });
    const crawl = createCrawl({
      topic: { keywords: 'solar panels' },
      seeds: [web.urlFor('alpha/p0.html'), web.urlFor('beta/p0.html')],
      strategy: { name: 'breadth-first' },
      limits: { maxPages: 60 },
      fetcher,
    });
    let pages = 0;
    const consume = async () => {
      for await (const ev of crawl.events()) if (ev.type === 'page') pages++;
    };
    await driveOnClock(clock, consume());
    fetcher.close();
    expect(pages).toBe(60);
    const bySite = new Map<string, number[]>();
    for (const r of log) bySite.set(r.site, [...(bySite.get(r.site) ?? []), r.at]);
    expect(bySite.size).toBe(4);
    for (const [site, starts] of bySite)
      for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1], site).toBeGreaterThanOrEqual(1000);
    // Several sites in flight at once: the crawl took less simulated time than its requests one after another.
    const serial = log.reduce((sum, r) => sum + ((r.answeredAt ?? r.at) - r.at), 0) + 1000 * (log.length - 1);
    expect(clock.now()).toBeLessThan(serial);
  }, 60_000);
});

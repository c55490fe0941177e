import { afterEach, describe, expect, it } from 'vitest';
import { restoreLanguageSources, useLanguageSources } from './language-builds';
import type { CrawlStore } from '../../lib/app/model/records';
import type { StartRequest } from '../../lib/app/model/protocol';
import type { Evaluator, FetchOutcome, PageFetcher } from '../../lib/engine/types';

/**
 * The extension's service worker is built without language data (wxt.config.ts: lib/engine/text/
 * language-sources.absent.ts): its evaluator Worker analyses the topic and the links' URLs. Here a copy of the app
 * and engine built that way runs whole crawls through the runner, with every strategy, a judgement and a topic in
 * German, its evaluator being another copy of the engine that has the data (as the Worker has): the crawls must
 * end as they do with all data at hand, page for page, and never ask for language data.
 */
type Engine = typeof import('../../lib/engine');
interface Build {
  engine: Engine;
  runner: typeof import('../../lib/app/runner');
  memoryStore: typeof import('../../lib/app/store/memory-store');
}

async function build(sources: 'static' | 'absent'): Promise<Build> {
  useLanguageSources(sources);
  return {
    engine: await import('../../lib/engine'),
    runner: await import('../../lib/app/runner'),
    memoryStore: await import('../../lib/app/store/memory-store'),
  };
}

afterEach(restoreLanguageSources);

/** 40 pages on 4 sites: German pages about cat food and English ones about gardening, linking across. */
function makeWeb(): Map<string, string> {
  const web = new Map<string, string>();
  const n = 40;
  for (let i = 0; i < n; i++) {
    const german = i % 2 === 0;
    const text = german
      ? 'Katzenfutter für junge Katzen: Nassfutter, Trockenfutter und frisches Wasser. Die richtige Fütterung hält Katzen gesund.'
      : 'Gardening for beginners: tomatoes need sunlight, compost and regular watering through the summer months.';
    const links = [1, 2, 5, 11].map((d) => {
      const j = (i + d) % n;
      const path = j % 2 === 0 ? `/katzen/futter-ratgeber-${j}` : `/garden/tomato-guide-${j}`;
      return `<a href="https://site${j % 4}.example${path}">${j % 2 === 0 ? 'Mehr über Katzenfutter' : 'More gardening'}</a>`;
    });
    const path = german ? `/katzen/futter-ratgeber-${i}` : `/garden/tomato-guide-${i}`;
    web.set(
      `https://site${i % 4}.example${path}`,
      `<!doctype html><html lang="${german ? 'de' : 'en'}"><head><title>${german ? 'Katzenfutter' : 'Garden'} ${i}</title></head>` +
        `<body><main><h1>${text}</h1><p>${text} ${text}</p>${links.join(' ')}</main></body></html>`,
    );
  }
  return web;
}

/**
 * Answers from the web in memory, one fetch at a time (so both builds crawl in the same order); the fetch numbered
 * `holdAt` waits for `release`, so a judgement lands at the same point of both crawls.
 */
function memoryFetcher(web: Map<string, string>, holdAt: number, release: Promise<void>): PageFetcher & { started: number } {
  const fetcher = {
    maxInFlight: 1,
    started: 0,
    async fetch(url: string): Promise<FetchOutcome> {
      if (++fetcher.started === holdAt) await release;
      const html = web.get(url);
      if (!html) return { ok: false, url, reason: 'http-error', detail: 'HTTP 404', status: 404, elapsedMs: 1 };
      const body = new TextEncoder().encode(html);
      return { ok: true, url, finalUrl: url, status: 200, contentType: 'text/html', body, truncated: false, elapsedMs: 1 };
    },
  };
  return fetcher;
}

/** Waits (polling, no time assumed) until `cond` holds. */
async function until(cond: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 5000; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const START: StartRequest = {
  topic: 'Katzenfutter junge Katzen',
  seeds: ['https://site0.example/katzen/futter-ratgeber-0', 'https://site1.example/garden/tomato-guide-1'],
  source: { kind: 'serp', engine: 'google', query: 'Katzenfutter junge Katzen' },
  // The results page's interface is English; its snippets are German: the topic is German.
  pageLang: 'en',
  context: ['Katzenfutter im Test: welches Futter für junge Katzen?', 'Nassfutter oder Trockenfutter für Katzen | Ratgeber'],
  settings: { maxPages: 25, maxBuffer: 64, politenessDelayMs: 0, seed: 5 },
};

/**
 * Runs one crawl through `app`'s runner with `evaluator`. While its 8th fetch waits, the user judges its third page
 * relevant: the running crawl moves its topic and re-scores its frontier (lib/engine crawl.judge).
 */
async function crawl(app: Build, evaluator: Evaluator, strategy: string) {
  const store: CrawlStore = app.memoryStore.createMemoryStore();
  const web = makeWeb();
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const fetcher = memoryFetcher(web, 8, held);
  const runner = new app.runner.CrawlRunner({
    store,
    evaluator,
    makeFetcher: () => fetcher,
    createCrawl: app.engine.createCrawl,
    flushEveryMs: 0,
  });
  const record = await runner.start({ ...START, settings: { ...START.settings, strategy } });
  await until(
    async () => (await store.getPages(record.id)).length >= 7 || (await store.getCrawl(record.id))?.status !== 'running',
    'the pages before the held fetch',
  );
  const early = await store.getCrawl(record.id);
  if (early?.status !== 'running') return { done: early, pages: [] };
  const third = (await store.getPages(record.id))[2];
  await runner.judge(record.id, third.url, 1);
  release();
  await runner.whenIdle();
  const done = await store.getCrawl(record.id);
  const pages = await store.getPages(record.id);
  return { done, pages: pages.map((p) => `${p.url} ${p.score.toFixed(6)}`) };
}

describe("the service worker's build has no language data and needs none", () => {
  it('refuses every piece of language data, saying why', async () => {
    const absent = await build('absent');
    expect(() => absent.engine.tokenize('running cats', 'en')).toThrow(/no language data in this build \(stem:en\)/);
    expect(() =>
      absent.engine.detectLanguage(
        'Die Katzen schlafen gern in der Sonne und trinken frisches Wasser aus einer Schale am Fenster.',
      ),
    ).toThrow(/detector/);
    expect(() => absent.engine.analyseTopic({ keywords: 'Katzen' })).toThrow(/no language data/);
    // A topic analysed elsewhere is scored without any.
    const atHand = await build('static');
    const topic = atHand.engine.analyseTopic({ keywords: 'Katzenfutter', context: ['Futter für Katzen'] });
    const again = await build('absent');
    expect(again.engine.isAnalysed(topic)).toBe(true);
    expect(Object.keys(again.engine.topicVector(topic))).toContain('katzenfutt');
  });

  it('runs crawls of every strategy, page for page as with all data at hand', async () => {
    const atHand = await build('static');
    const worker: Evaluator = {
      evaluate: async (input) => atHand.engine.evaluatePage(input),
      analyseTopic: async (topic, hints) => atHand.engine.analyseTopic(topic, hints),
    };
    const strategies = atHand.engine.listStrategies().map((s) => s.name);
    expect(strategies).toContain('forager');
    const expected = new Map<string, Awaited<ReturnType<typeof crawl>>>();
    for (const name of strategies) expected.set(name, await crawl(atHand, atHand.engine.localEvaluator, name));

    const serviceWorker = await build('absent');
    for (const name of strategies) {
      const got = await crawl(serviceWorker, worker, name);
      expect(got.done?.status, `${name}: ${got.done?.error ?? ''}`).toBe('done');
      expect(got.done?.topic.language, name).toBe('de');
      expect(got.done?.topic, 'the record keeps no analysis').not.toHaveProperty('analysis');
      expect(got.pages.length, name).toBeGreaterThanOrEqual(20);
      expect(got.pages, name).toEqual(expected.get(name)?.pages);
    }
  });
});

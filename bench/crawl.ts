/**
 * Whole-crawl throughput: the generated test web over loopback, politeness off, the real fetcher and evaluator.
 * Prints pages per second and where the time goes (fetch wait, evaluation, strategy), medians over runs.
 *
 *   npx tsx bench/crawl.ts
 */
import { createCrawl } from '../lib/engine';
import { createFetcher } from '../lib/engine';
import { seedsFor, topicQuery } from '../harness/testweb/generate';
import { startTestWeb } from '../harness/testweb/server';
import { median } from './stats';

export interface CrawlBenchResult {
  pagesPerSecond: number;
  pages: number;
  wallMs: number;
  evaluateMsPerPage: number;
  fetchMsPerPage: number;
  strategyMsPerPage: number;
}

/** One crawl of `maxPages` over a fresh test web; returns its figures. */
export async function crawlOnce(
  maxPages = 600,
  strategy = { name: 'best-n-first', params: { n: 16 } },
): Promise<CrawlBenchResult> {
  const web = await startTestWeb({ seed: 2, pagesPerTopic: 200 });
  try {
    const topic = web.web.topics[0].id;
    const policy = { allowPrivate: 'loopback' as const };
    const run = createCrawl({
      topic: topicQuery(web.web, topic),
      seeds: seedsFor(web.web, topic, 3).map((p) => web.urlOf(p)),
      strategy: { ...strategy, seed: 1 },
      limits: { maxPages, maxBuffer: 256 },
      fetcher: createFetcher({ politenessDelayMs: 0, maxInFlight: 8, urlPolicy: policy }),
    });
    const t0 = performance.now();
    let pages = 0;
    for await (const e of run.events()) if (e.type === 'page') pages++;
    const wallMs = performance.now() - t0;
    const t = run.stats().timings!;
    return {
      pagesPerSecond: pages / (wallMs / 1000),
      pages,
      wallMs,
      evaluateMsPerPage: t.evaluateMs / pages,
      fetchMsPerPage: t.fetchMs / pages,
      strategyMsPerPage: t.strategyMs / pages,
    };
  } finally {
    await web.close();
  }
}

export async function benchCrawl(runs = 3): Promise<Record<string, number>> {
  const results: CrawlBenchResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await crawlOnce());
  return {
    'crawl pages/s (median)': median(results.map((r) => r.pagesPerSecond)),
    'crawl pages per run': results[0].pages,
    'crawl wall ms (median)': median(results.map((r) => r.wallMs)),
    'evaluate ms/page (median)': median(results.map((r) => r.evaluateMsPerPage)),
    'fetch ms/page, overlapping (median)': median(results.map((r) => r.fetchMsPerPage)),
    'strategy ms/page (median)': median(results.map((r) => r.strategyMsPerPage)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchCrawl();
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(40)} ${v.toFixed(2)}`);
}

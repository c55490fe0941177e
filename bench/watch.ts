/**
 * What a topic watch's check costs against the crawl it checks: the test web (seed 2, 200 pages per topic) over
 * loopback, politeness off, the real fetcher and evaluator. A crawl of 300 pages, then 5% of its pages get new main
 * text and 5% a new footer date, and a check runs as lib/app/watch plans it (the seeds plus the pages found, with
 * their validators). Prints requests, 304s, evaluations, body bytes and where the time went, first crawl and check.
 *
 *   npx tsx bench/watch.ts
 */
import { createCrawl, createFetcher, type CrawlEvent, type PageResult, type Validators } from '../lib/engine';
import { seedsFor, topicQuery } from '../harness/testweb/generate';
import { startTestWeb } from '../harness/testweb/server';

interface RunFigures {
  pages: PageResult[];
  notModified: number;
  requests: number;
  bytes: number;
  wallMs: number;
  evaluateMs: number;
}

async function run(events: AsyncGenerator<CrawlEvent>, stats: () => { requests: number; bytes: number }): Promise<RunFigures> {
  const t0 = performance.now();
  const pages: PageResult[] = [];
  let notModified = 0;
  let evaluateMs = 0;
  for await (const e of events) {
    if (e.type === 'page') pages.push(e.page);
    if (e.type === 'not-modified') notModified++;
    if (e.type === 'done') evaluateMs = e.stats.timings?.evaluateMs ?? 0;
  }
  return { pages, notModified, ...stats(), wallMs: performance.now() - t0, evaluateMs };
}

export async function benchWatch(maxPages = 300): Promise<Record<string, number>> {
  const web = await startTestWeb({ seed: 2, pagesPerTopic: 200 });
  try {
    const topicId = web.web.topics[0].id;
    const topic = topicQuery(web.web, topicId);
    const seeds = seedsFor(web.web, topicId, 3).map((p) => web.urlOf(p));
    const strategy = { name: 'best-n-first', params: { n: 16 } };
    const fetcher = () => createFetcher({ politenessDelayMs: 0, maxInFlight: 8, urlPolicy: { allowPrivate: 'loopback' } });

    const f1 = fetcher();
    const first = await run(createCrawl({ topic, seeds, strategy, limits: { maxPages }, fetcher: f1 }).events(), () =>
      f1.stats(),
    );
    f1.close();

    const keyOf = new Map([...web.web.pages.values()].map((p) => [web.urlOf(p), p.key]));
    const known = first.pages.filter((p) => !p.isSeed);
    const share = Math.max(1, Math.round(known.length * 0.05));
    for (const p of known.slice(0, share)) web.changePage(keyOf.get(p.url)!);
    for (const p of known.slice(share, 2 * share)) web.touchPage(keyOf.get(p.url)!);

    const validators = new Map<string, Validators>(
      first.pages.map((p) => [p.url, { etag: p.etag, lastModified: p.lastModified }]),
    );
    const f2 = fetcher();
    const check = await run(
      createCrawl({
        topic,
        seeds,
        strategy,
        limits: { maxPages },
        fetcher: f2,
        validators,
        revisit: first.pages.map((p) => p.url),
      }).events(),
      () => f2.stats(),
    );
    f2.close();
    const before = new Map(first.pages.map((p) => [p.url, p.contentHash]));
    const changed = check.pages.filter((p) => before.has(p.url) && before.get(p.url) !== p.contentHash).length;
    const fresh = check.pages.filter((p) => !before.has(p.url)).length;
    return {
      'first crawl: pages evaluated': first.pages.length,
      'first crawl: page requests': first.requests,
      'first crawl: body bytes read': first.bytes,
      'first crawl: evaluation ms (summed)': first.evaluateMs,
      'first crawl: wall ms': first.wallMs,
      'pages given new main text / a new footer only': share,
      'check: page requests': check.requests,
      'check: answered 304 (not evaluated)': check.notModified,
      'check: pages evaluated (changed bytes, or new)': check.pages.length,
      'check: of them, main content changed': changed,
      'check: of them, never seen before': fresh,
      'check: body bytes read': check.bytes,
      'check: evaluation ms (summed)': check.evaluateMs,
      'check: wall ms': check.wallMs,
    };
  } finally {
    await web.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [k, v] of Object.entries(await benchWatch()))
    console.log(`${k.padEnd(56)} ${Number.isInteger(v) ? v : v.toFixed(1)}`);
}

/**
 * Strategy cost side by side: crawls of the generated test web (6 topics x 400 pages, loopback, politeness off) with
 * each strategy named on the command line, alternated run by run (the machine is shared and noisy). Prints per
 * strategy the median strategy time per page (onPage + nextBatch, the loop's own timing), its ratio to the first
 * strategy, and the size of the strategy's checkpoint state and of the whole checkpoint after `--pages` pages.
 *
 *   npx tsx bench/strategy.ts [--runs 5] [--pages 2000] forager forager-classic
 */
import { createCrawl, createFetcher } from '../lib/engine';
import { seedsFor, topicQuery } from '../harness/testweb/generate';
import { startTestWeb } from '../harness/testweb/server';

interface Figures {
  strategyMsPerPage: number;
  pages: number;
  stateBytes: number;
  checkpointBytes: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function crawl(strategy: string, maxPages: number): Promise<Figures> {
  const web = await startTestWeb({ seed: 2, pagesPerTopic: 400 });
  try {
    const topic = web.web.topics[0].id;
    const policy = { allowPrivate: 'loopback' as const };
    const run = createCrawl({
      topic: topicQuery(web.web, topic),
      seeds: seedsFor(web.web, topic, 3).map((p) => web.urlOf(p)),
      strategy: { name: strategy, seed: 1 },
      limits: { maxPages, maxBuffer: 256 },
      fetcher: createFetcher({ politenessDelayMs: 0, maxInFlight: 8, urlPolicy: policy }),
    });
    let pages = 0;
    for await (const e of run.events()) if (e.type === 'page') pages++;
    const checkpoint = run.checkpoint();
    return {
      strategyMsPerPage: run.stats().timings!.strategyMs / pages,
      pages,
      stateBytes: new TextEncoder().encode(JSON.stringify(checkpoint.strategy.state)).length,
      checkpointBytes: new TextEncoder().encode(JSON.stringify(checkpoint)).length,
    };
  } finally {
    await web.close();
  }
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(args.splice(i, 2)[1]);
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} takes a positive whole number`);
  return v;
};
const runs = option('runs', 5);
const pages = option('pages', 2000);
const strategies = args.length ? args : ['forager', 'forager-classic'];
const results = new Map<string, Figures[]>(strategies.map((s) => [s, []]));
for (let r = 0; r < runs; r++) {
  // Alternate the order so neither strategy always runs on a warmer (or busier) machine.
  const order = r % 2 === 0 ? strategies : [...strategies].reverse();
  for (const s of order) results.get(s)!.push(await crawl(s, pages));
}
const base = median(results.get(strategies[0])!.map((f) => f.strategyMsPerPage));
console.log(`${runs} runs of ${pages} pages each, alternated`);
for (const [s, fs] of results) {
  const ms = median(fs.map((f) => f.strategyMsPerPage));
  console.log(
    `${s.padEnd(18)} strategy ms/page ${ms.toFixed(3)} (x${(ms / base).toFixed(2)} of ${strategies[0]}; runs ${fs
      .map((f) => f.strategyMsPerPage.toFixed(3))
      .join(' ')}), pages ${fs[0].pages}, state ${(fs[0].stateBytes / 1024).toFixed(1)} KiB, checkpoint ${(
      fs[0].checkpointBytes / 1024
    ).toFixed(1)} KiB`,
  );
}

/**
 * Whole lab crawls in this tree against another checkout's (`--baseline DIR`, e.g. the commit before a speed-up, with
 * a node_modules link): the same jobs on the simulated network, in one thread, alternating crawl by crawl between the
 * two trees, each with its own evaluation cache as its `lab run` keeps it. Checks that every crawl gives the same
 * pages in the same order at the same simulated times, with the same scores, errors and ending, and prints each
 * tree's CPU seconds per crawl (process.cpuUsage around each crawl; medians and sums).
 *
 * Run: npx tsx bench/crawl-identity.ts --baseline DIR --topics FILE [--strategies a,b,...] [--tasks 2]
 *        [--budget 2000] [--network wan] [--corpus docweb-l]
 * Exits 1 on any difference.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { simulatedWeb } from '../lab/docweb/server';
import { corpusByName, loadSitesFile } from '../lab/docweb/prepare';
import type { CrawlOutcome, CrawlTask, LabStrategy } from '../lab/run';
import * as here from '../lab/run';
import { loadSitesDir } from '../lab/sites';
import { loadTopics, seedsOf, type TaskId } from '../lab/topics';
import { median } from './stats';

function arg(name: string, fallback?: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

type RunModule = typeof here;

/** One tree's way of running a crawl with the evaluation cache its `lab run` would use for that topic. */
interface Tree {
  name: string;
  run(task: CrawlTask): Promise<CrawlOutcome>;
  cpu: number[];
}

function treeOf(name: string, mod: RunModule, web: Parameters<RunModule['runCrawlTask']>[3]): Tree {
  // Older trees kept one cache per topic (EvaluatorCaches); this one keeps one for every topic.
  const m = mod as RunModule & { EvaluatorCaches?: new () => { get(topic: string): here.CachingEvaluator } };
  const perTopic = m.EvaluatorCaches ? new m.EvaluatorCaches() : undefined;
  const shared = perTopic ? undefined : new mod.CachingEvaluator();
  return {
    name,
    cpu: [],
    run: (task) => mod.runCrawlTask(task, perTopic ? perTopic.get(task.topicId) : shared!, undefined, web),
  };
}

async function main(): Promise<void> {
  const baselineDir = arg('baseline');
  const topicsFile = arg('topics');
  if (!baselineDir || !topicsFile) throw new Error('needs --baseline DIR and --topics FILE');
  const entry = join(resolve(baselineDir), 'lab', 'run.ts');
  if (!existsSync(entry)) throw new Error(`--baseline ${baselineDir}: no lab/run.ts there`);
  const base = (await import(entry)) as RunModule;
  const corpus = corpusByName(arg('corpus', 'docweb-l')!);
  const cache = resolve(arg('cache', corpus.cacheDir)!);
  const sites = loadSitesDir(join(cache, 'sites'), corpus.sitesFile);
  const web = simulatedWeb({ sites, redirectStubs: !!loadSitesFile(corpus.sitesFile).redirectStubs });
  const strategies: LabStrategy[] = here.parseStrategies(
    arg(
      'strategies',
      'forager,bfs1,bfs16,bfs64,bfs256,breadth-first,pagerank,infospiders,shark-search,anchor-text,adaptive-bnf',
    )!,
  );
  const tasks = arg('tasks', '2')!
    .split(',')
    .map((t) => Number(t) as TaskId);
  const budget = Number(arg('budget', '2000'));
  const network = { model: arg('network', 'wan')!, seed: 1, politenessMs: 1000 };
  const topics = loadTopics(topicsFile).topics;

  const trees = [treeOf('baseline', base, web), treeOf('this tree', here, web)];
  let crawls = 0;
  let differ = 0;
  let pages = 0;
  let index = 0;
  for (const topic of topics) {
    for (const task of tasks) {
      const resultsPage = await here.resultsPageContext(web, seedsOf(topic, task));
      for (const strategy of strategies) {
        const job = { topic, task, strategy, seed: 1 };
        const crawlTask: CrawlTask = {
          index: index++,
          topicId: topic.id,
          topic: here.labTopic(job, resultsPage),
          seedUrls: seedsOf(topic, task).map((id) => web.urlFor(id)),
          strategy: { name: strategy.name, params: here.strategyParams(strategy.params) },
          seed: 1,
          maxPages: budget,
          maxBuffer: 256,
          fetchConcurrency: 8,
          network,
        };
        // Alternate which tree goes first, so neither always meets a warmer (or fuller) heap.
        const order = crawls % 2 === 0 ? trees : [...trees].reverse();
        const out = new Map<string, CrawlOutcome>();
        for (const tree of order) {
          const c0 = process.cpuUsage();
          out.set(tree.name, await tree.run(crawlTask));
          const c = process.cpuUsage(c0);
          tree.cpu.push((c.user + c.system) / 1e6);
        }
        const a = out.get('baseline')!;
        const b = out.get('this tree')!;
        const same =
          JSON.stringify([a.urls, a.isSeed, a.scores, a.times, a.errors, a.done]) ===
          JSON.stringify([b.urls, b.isSeed, b.scores, b.times, b.errors, b.done]);
        crawls++;
        pages += b.urls.length;
        if (!same) differ++;
        const cpu = trees.map((t) => `${t.name} ${t.cpu[t.cpu.length - 1].toFixed(2)} s`).join(', ');
        console.log(
          `${topic.id} task${task} ${strategy.label}: ${b.urls.length} pages, ${same ? 'identical' : 'DIFFERENT'} (${cpu})`,
        );
      }
    }
  }
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  console.log(`\n${crawls} crawls, ${pages} pages each way: ${differ} differ (pages, order, simulated times, scores)`);
  for (const t of trees) {
    console.log(
      `${t.name.padEnd(10)} CPU per crawl: median ${median(t.cpu).toFixed(2)} s, total ${sum(t.cpu).toFixed(1)} s ` +
        `(${((sum(t.cpu) / pages) * 2000).toFixed(2)} s per 2,000 pages)`,
    );
  }
  await web.close();
  if (differ) process.exit(1);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});

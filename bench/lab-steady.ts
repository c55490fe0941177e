/**
 * The lab's crawls in their steady state: every page read already (as in a long run, where a worker's cache of
 * readings holds a topic's pages after its first crawls), so what is measured is the crawl machinery (loop, fetcher,
 * strategies, simulated network, serving, scoring). Runs the jobs once to fill each tree's reading cache, then
 * `--rounds` more times, alternating the trees crawl by crawl (with `--baseline DIR`, another checkout), and prints
 * each strategy's median CPU seconds per crawl in each tree (process.cpuUsage around each crawl). With `--profile
 * FILE` it records a CPU profile of this tree's measured crawls (node:inspector), writes it to FILE (open it in
 * Chrome's DevTools) and prints where the time went: self time by function and by file. With `--allocations` it
 * measures what the crawls allocate instead of their CPU (V8's sampling heap profiler, counting the objects collected
 * since; one crawl per job and tree): megabytes per crawl by strategy in each tree, and this tree's functions that
 * allocate most.
 *
 * Run: npx tsx bench/lab-steady.ts --topics FILE [--baseline DIR] [--strategies a,b,...] [--tasks 2]
 *        [--budget 2000] [--rounds 2] [--network wan] [--corpus docweb-l] [--profile out.cpuprofile] [--top 40]
 *        [--allocations]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative, resolve } from 'node:path';
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

interface Tree {
  name: string;
  run(task: CrawlTask): Promise<CrawlOutcome>;
  /** Strategy label -> CPU seconds of each measured crawl. */
  cpu: Map<string, number[]>;
}

function treeOf(name: string, mod: RunModule, web: Parameters<RunModule['runCrawlTask']>[3]): Tree {
  const evaluator = new mod.CachingEvaluator();
  return { name, cpu: new Map(), run: (task) => mod.runCrawlTask(task, evaluator, undefined, web) };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by function and by file of a CPU profile. */
function summarize(profile: Profile, top: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const root = process.cwd();
  const where = (n: ProfileNode) => {
    const url = n.callFrame.url.replace(/^file:\/\//, '');
    return url ? relative(root, url) : '';
  };
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const file = where(n) || n.callFrame.functionName || '(native)';
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${where(n)}:${n.callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    total += ms;
  }
  const show = (title: string, m: Map<string, number>) => {
    console.log(`\n${title} (self time, ${total.toFixed(0)} ms sampled)`);
    for (const [k, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((100 * ms) / total).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${k}`);
    }
  };
  show('By file', byFile);
  show('By function', byFunction);
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/**
 * Bytes allocated by each job's crawl in each tree (objects collected since included), and by function over this
 * tree's crawls.
 */
async function allocations(trees: Tree[], jobs: { label: string; task: CrawlTask }[], top: number): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  const byStrategy = trees.map(() => new Map<string, number[]>());
  const byFunction = new Map<string, number>();
  const root = process.cwd();
  for (const job of jobs) {
    for (let t = 0; t < trees.length; t++) {
      // Sampling every 4 KB on average; the flags (newer than Node's typings) keep the samples of objects that were
      // collected since, which are most of them.
      const sampling = { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
      await session.post('HeapProfiler.startSampling', sampling);
      await trees[t].run(job.task);
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
        profile: { head: AllocationNode };
      };
      const mine = trees[t].name === 'this tree';
      let total = 0;
      const walk = (n: AllocationNode) => {
        if (mine) {
          const url = n.callFrame.url.replace(/^file:\/\//, '');
          const key = `${n.callFrame.functionName || '(anonymous)'} ${url ? relative(root, url) : ''}:${n.callFrame.lineNumber + 1}`;
          byFunction.set(key, (byFunction.get(key) ?? 0) + n.selfSize);
        }
        total += n.selfSize;
        for (const c of n.children) walk(c);
      };
      walk(profile.head);
      const list = byStrategy[t].get(job.label) ?? [];
      list.push(total / 1e6);
      byStrategy[t].set(job.label, list);
    }
  }
  session.disconnect();
  const crawls = jobs.length / byStrategy[0].size;
  console.log(`\nMB allocated per crawl (objects collected since included), median of ${crawls} crawls per strategy`);
  console.log(`${'strategy'.padEnd(16)}${trees.map((t) => t.name.padStart(12)).join('')}`);
  for (const label of byStrategy[0].keys()) {
    console.log(`${label.padEnd(16)}${byStrategy.map((m) => median(m.get(label)!).toFixed(0).padStart(12)).join('')}`);
  }
  const all = [...byFunction.values()].reduce((a, b) => a + b, 0);
  console.log(`\nThis tree, by function (bytes allocated, ${(all / 1e6).toFixed(0)} MB sampled)`);
  for (const [k, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * bytes) / all).toFixed(1).padStart(5)}%  ${(bytes / 1e6).toFixed(0).padStart(6)} MB  ${k}`);
  }
}

async function main(): Promise<void> {
  const topicsFile = arg('topics');
  if (!topicsFile) throw new Error('needs --topics FILE');
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
  const rounds = Number(arg('rounds', '2'));
  const top = Number(arg('top', '40'));
  const profileFile = arg('profile');
  const network = { model: arg('network', 'wan')!, seed: 1, politenessMs: 1000 };
  const topics = loadTopics(topicsFile).topics;

  const trees = [treeOf('this tree', here, web)];
  const baselineDir = arg('baseline');
  if (baselineDir) {
    const base = (await import(join(resolve(baselineDir), 'lab', 'run.ts'))) as RunModule;
    trees.unshift(treeOf('baseline', base, web));
  }

  const jobs: { label: string; task: CrawlTask }[] = [];
  for (const topic of topics) {
    for (const task of tasks) {
      const resultsPage = await here.resultsPageContext(web, seedsOf(topic, task));
      for (const strategy of strategies) {
        const job = { topic, task, strategy, seed: 1 };
        jobs.push({
          label: strategy.label,
          task: {
            index: jobs.length,
            topicId: topic.id,
            topic: here.labTopic(job, resultsPage),
            seedUrls: seedsOf(topic, task).map((id) => web.urlFor(id)),
            strategy: { name: strategy.name, params: here.strategyParams(strategy.params) },
            seed: 1,
            maxPages: budget,
            maxBuffer: 256,
            fetchConcurrency: 8,
            network,
          },
        });
      }
    }
  }

  // Fill every tree's reading cache (and warm the code) first.
  for (const tree of trees) for (const job of jobs) await tree.run(job.task);
  console.log(`${jobs.length} jobs warmed in ${trees.length} tree(s)`);
  if (process.argv.includes('--allocations')) {
    await allocations(trees, jobs, top);
    await web.close();
    return;
  }

  const session = profileFile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
  }
  let crawls = 0;
  for (let round = 0; round < rounds; round++) {
    for (const job of jobs) {
      const order = crawls++ % 2 === 0 ? trees : [...trees].reverse();
      for (const tree of order) {
        const profiling = session && tree.name === 'this tree';
        if (profiling) await session.post('Profiler.start');
        const c0 = process.cpuUsage();
        await tree.run(job.task);
        const c = process.cpuUsage(c0);
        if (profiling) {
          const { profile } = await session.post('Profiler.stop');
          (tree as Tree & { profiles?: Profile[] }).profiles ??= [];
          (tree as Tree & { profiles?: Profile[] }).profiles!.push(profile as unknown as Profile);
        }
        const list = tree.cpu.get(job.label) ?? [];
        list.push((c.user + c.system) / 1e6);
        tree.cpu.set(job.label, list);
      }
    }
  }

  console.log(`\nCPU seconds per crawl, median of ${rounds * topics.length * tasks.length} crawls per strategy`);
  console.log(`${'strategy'.padEnd(16)}${trees.map((t) => t.name.padStart(12)).join('')}`);
  const all = trees.map(() => [] as number[]);
  for (const s of strategies) {
    const cells = trees.map((t, i) => {
      const xs = t.cpu.get(s.label) ?? [];
      all[i].push(...xs);
      return median(xs).toFixed(2).padStart(12);
    });
    console.log(`${s.label.padEnd(16)}${cells.join('')}`);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`${'mean'.padEnd(16)}${all.map((xs) => mean(xs).toFixed(2).padStart(12)).join('')}`);

  const profiles = (trees.find((t) => t.name === 'this tree') as Tree & { profiles?: Profile[] }).profiles;
  if (profileFile && profiles?.length) {
    // One profile of all measured crawls: the nodes of each, renumbered, and their samples one after the other.
    const merged: Profile & { startTime: number; endTime: number } = {
      nodes: [],
      samples: [],
      timeDeltas: [],
      startTime: 0,
      endTime: 0,
    };
    let offset = 0;
    let end = 0;
    for (const p of profiles) {
      let maxId = 0;
      for (const n of p.nodes) {
        maxId = Math.max(maxId, n.id);
        merged.nodes.push({ ...n, id: n.id + offset, ...(n.children ? { children: n.children.map((c) => c + offset) } : {}) });
      }
      for (const s of p.samples) merged.samples.push(s + offset);
      merged.timeDeltas.push(...p.timeDeltas);
      end += p.timeDeltas.reduce((a, b) => a + b, 0);
      offset += maxId;
    }
    merged.endTime = end;
    writeFileSync(profileFile, JSON.stringify(merged));
    summarize(merged, top);
  }
  session?.disconnect();
  await web.close();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});

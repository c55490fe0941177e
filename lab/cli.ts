/**
 * `npm run lab -- <command>`: the crawl lab.
 *   prepare   download and unpack DocWeb (once; --repin, --force)
 *   serve     serve DocWeb (or --sites DIR) on 127.0.0.1 until interrupted
 *   run       crawl every topic x task x strategy x RNG seed and report the metrics
 *   report    rebuild the table and HTML report from a results JSON
 *   content   main-content reading on the article-extraction benchmark, beside Readability.js
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { join, resolve } from 'node:path';
import { Analysis, compareStrategies, type Comparison, type MetricResult, missedTargets } from './analysis';
import { type CorpusIndex, loadCorpusIndex } from './corpus';
import { runContentBenchmark } from './content/command';
import { runLosses } from './losses';
import { mergeResults } from './merge';
import { spreadOverSeeds } from './metrics';
import { corpusByName, DEFAULT_CORPUS, loadSitesFile, pageCountDifferences, prepareCorpus, REPO_ROOT } from './docweb/prepare';
import { simulatedWeb, startLocalWeb, type LocalWeb } from './docweb/server';
import { htmlReport, textTable, type LabResults } from './report';
import { DEFAULT_RETRIES } from '../lib/engine';
import { networkModel } from './network';
import { type NetworkSetting, parseStrategies, readingCacheFor, runCrawls, type CrawlJob } from './run';
import { oneLine } from '../lib/app/node';
import { loadSitesDir, type SiteConfig } from './sites';
import { generateTopics, splitOf } from './topic-generator';
import { type LabTopic, loadTopics, seedsOf, TOPIC_KINDS, type TaskId, validateTopics } from './topics';

const HELP = `Forager crawl lab

  npm run lab -- prepare [--corpus NAME] [--repin] [--force] [--cache DIR]
  npm run lab -- serve [--corpus NAME | --sites DIR] [--port N] [--delay MS]
  npm run lab -- run --topics FILE [options]
  npm run lab -- report --from results.json [--from more.json ...] [--json merged.json] [--report out.html]
                      [--compare a,b] [--baseline old.json]
  npm run lab -- topics [--corpus NAME] [--out PREFIX]   generate topics: PREFIX-tune.json, PREFIX-test.json
                                                         (default lab/topics-<corpus>)
  npm run lab -- content [--worst N] [--rounds N] [--json FILE]
                      main-content reading on the article-extraction benchmark (181 pages, committed): precision,
                      recall and F1 of Forager's main text, of Readability.js run beside it and of all visible text;
                      the worst pages; ms per page over N timing rounds (default 3; 0 skips timing)
  npm run lab -- misses --pages FILE --topics FILE [--corpus NAME] [--strategy LABEL] [--budget N]
                      the reachable targets each crawl of run --pages missed within N pages (default 1000), by their
                      distance in links from what it crawled; then, per task and strategy, how much each topic's
                      recall of the reachable targets moves between RNG seeds
  npm run lab -- losses --topics FILE --strategy LABEL [--corpus NAME] [--budget N] [--tasks LIST] [--seed K]
                      [--max-buffer N] [--network MODEL] [--politeness MS]
                      crawls each topic to N pages (default 1000; simulated network, default wan) and says where each
                      reachable target it missed is: queued (its rank), reserved, failed, dropped by the bounded
                      frontier, or unseen (on a site entered or not), and what the pages after N/2 were

run options:
  --topics FILE        topics in docweb-topics/1 format (required)
  --strategies LIST    e.g. bfs1,bfs16,bfs64,bfs256,breadth-first or name:key=value,key=value (default bfs1,bfs16,bfs64,bfs256,breadth-first)
  --budgets LIST       pages per crawl at which to report (default 250,500,1000); crawls run once to the largest
  --max-buffer N       frontier capacity MAX_BUFFER (default 256)
  --retries N          times a fetch that timed out or got a 5xx/429 is tried again (default: the engine's, 2)
  --seeds N            RNG seeds 1..N per crawl (default 3)
  --first-seed K       RNG seeds K..K+N-1 instead (more seeds for a run already made: merge with report --from)
  --tasks LIST         1 (seeds = examples), 2 (seeds = neighbors) (default 1,2)
  --ks LIST            top-k sizes of the static coverage metrics (default 25,50,100)
  --step N             pages between points of the dynamic view (default 50)
  --compare A,B        paired comparison of two strategy labels (repeatable; default: each strategy vs the first)
  --json FILE          every number as JSON
  --report FILE        HTML report with plots
  --corpus NAME        docweb (default; 7 sites, 3,540 pages) or docweb-l (35 sites, 44,099 pages); prepared when missing
  --sites DIR          a folder of sites to use instead of a corpus (each subfolder one origin)
  --workers N          worker threads running crawls and building the corpus index (default: one per core; 0 = none)
  --parallel N         crawls at once per worker (default 4 over HTTP, 1 on the simulated network)
  --reading-cache MB   page readings each worker keeps, estimated (default: half the free memory shared among the
                       workers, 2048 to 6144; the worker's heap grows with it)
  --fetch-concurrency N  fetches in flight per crawl (default 8)
  --max-bytes N        fetcher body cap (default: the engine's)
  --delay MS           server delay per request over HTTP (default 0)
  --network MODEL      crawl on a simulated network on a virtual clock instead of HTTP: wan (heavy-tailed latency,
                       slow and failing sites) or lan; pages come from memory, nothing waits for real
  --network-seed N     seed of the network's draws (default 1)
  --politeness MS      pause between requests to one site on the simulated network (default 1000, the engine's)
  --times LIST         simulated seconds at which recall and harvest are tabled (default 30,60,300)
  --first-targets LIST time to the first k targets, for these k (default 1,10,25)
  --corpus-cache FILE  where the corpus index is cached ('none': do not cache; default under .cache/lab)
  --rebuild-index      build the corpus index even when the cache is valid (run, topics)
  --pages FILE         every crawl's page sequence (corpus ids, simulated times) as JSON, for diagnosing crawls

report options:
  --from FILE          a results JSON of run --json; repeated: results of runs with the same topics, budgets and
                       network and disjoint RNG seeds (tasks may differ), merged into those of one run over all their seeds
                       (a strategy only one file has is taken as it is)
  --json FILE          the results (merged ones, say) as JSON
  --compare A,B        as for run; with --baseline, A from --from against B from the baseline
  --baseline FILE      another run's results JSON on the same topics (an older tree, say): paired comparisons of
                       each strategy against the baseline's strategy of the same label (or the --compare pairs)
`;

type Args = { _: string[]; [k: string]: string | boolean | string[] | undefined };

/** Minimal `--key value` / `--flag` parser; repeated keys become arrays. */
export function parseArgs(argv: string[]): Args {
  const out: Args = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      out._.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(2, eq) : a.slice(2);
    let value: string | boolean;
    if (eq > 0) value = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    else value = true;
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else out[key] = [...(Array.isArray(prev) ? prev : [String(prev)]), String(value)];
  }
  return out;
}

function str(args: Args, key: string, fallback?: string): string | undefined {
  const v = args[key];
  if (v === undefined) return fallback;
  if (v === true) throw new Error(`--${key} needs a value`);
  return Array.isArray(v) ? v[v.length - 1] : String(v);
}

function int(args: Args, key: string, fallback: number, min = 1): number {
  const v = str(args, key);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${key} must be a whole number >= ${min}, got ${v}`);
  return n;
}

function intList(args: Args, key: string, fallback: string, min = 1): number[] {
  const text = str(args, key, fallback)!;
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (!list.length || list.some((n) => !Number.isInteger(n) || n < min))
    throw new Error(`--${key} must be a comma-separated list of whole numbers >= ${min}, got ${text}`);
  return [...new Set(list)].sort((a, b) => a - b);
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The sites to serve: --sites DIR, or a named corpus (--corpus, default DocWeb), prepared first if missing. */
function resolveSites(args: Args): { sites: SiteConfig[]; redirectStubs: boolean; description: string; corpus: string } {
  const dir = str(args, 'sites');
  if (dir) {
    const config = join(resolve(dir), 'sites.json');
    return {
      sites: loadSitesDir(resolve(dir)),
      redirectStubs: existsSync(config)
        ? !!(JSON.parse(readFileSync(config, 'utf8')) as { redirectStubs?: boolean }).redirectStubs
        : false,
      description: `sites folder ${resolve(dir)}`,
      corpus: 'sites',
    };
  }
  const corpus = corpusByName(str(args, 'corpus', DEFAULT_CORPUS)!);
  const cache = resolve(str(args, 'cache', corpus.cacheDir)!);
  const manifest = prepareCorpus({ corpus, cacheDir: cache, log });
  const diffs = pageCountDifferences(manifest);
  if (diffs.length) log(`${corpus.name} page counts differ from sites.json's expectedPages: ${diffs.join('; ')}`);
  return {
    sites: loadSitesDir(join(cache, 'sites'), corpus.sitesFile),
    redirectStubs: !!loadSitesFile(corpus.sitesFile).redirectStubs,
    description: `${corpus.name} (${manifest.packages.map((p) => `${p.name} ${p.version}`).join(', ')})`,
    corpus: corpus.name,
  };
}

/** Worker threads that evaluate pages when the corpus index is built: --workers, default one per core. */
function indexWorkers(args: Args): number {
  return int(args, 'workers', Math.max(1, availableParallelism()), 0);
}

function corpusCacheFile(sites: SiteConfig[]): string {
  const key = createHash('sha1')
    .update(sites.map((s) => s.dir).join('\0'))
    .digest('hex')
    .slice(0, 12);
  return join(REPO_ROOT, '.cache', 'lab', `corpus-${key}.idx`);
}

/** The corpus index of these sites: cached (--corpus-cache FILE, or 'none'), rebuilt on --rebuild-index. */
function corpusIndexFor(args: Args, web: LocalWeb, sites: SiteConfig[], redirectStubs: boolean): Promise<CorpusIndex> {
  const cacheArg = str(args, 'corpus-cache');
  const cacheFile = cacheArg === 'none' ? undefined : cacheArg ? resolve(cacheArg) : corpusCacheFile(sites);
  return loadCorpusIndex(web, sites, {
    cacheFile,
    redirectStubs,
    workers: indexWorkers(args),
    rebuild: !!args['rebuild-index'],
    log,
  });
}

async function cmdRun(args: Args): Promise<void> {
  const topicsFile = str(args, 'topics');
  if (!topicsFile) throw new Error('run needs --topics FILE (docweb-topics/1)');
  const strategies = parseStrategies(str(args, 'strategies', 'bfs1,bfs16,bfs64,bfs256,breadth-first')!);
  const budgets = intList(args, 'budgets', '250,500,1000');
  const ks = intList(args, 'ks', '25,50,100');
  const tasks = intList(args, 'tasks', '1,2') as TaskId[];
  if (tasks.some((t) => t !== 1 && t !== 2)) throw new Error('--tasks takes 1 and/or 2');
  const nSeeds = int(args, 'seeds', 3);
  const firstSeed = int(args, 'first-seed', 1);
  const seeds = Array.from({ length: nSeeds }, (_, i) => firstSeed + i);
  const maxBuffer = int(args, 'max-buffer', 256);
  const retries = int(args, 'retries', DEFAULT_RETRIES, 0);
  const step = int(args, 'step', 50);
  const networkName = str(args, 'network');
  const network: NetworkSetting | undefined = networkName
    ? {
        model: networkModel(networkName).name,
        seed: int(args, 'network-seed', 1, 0),
        politenessMs: int(args, 'politeness', 1000, 0),
      }
    : undefined;
  const timeSeconds = intList(args, 'times', '30,60,300');
  const firstTargets = intList(args, 'first-targets', '1,10,25');
  // On the simulated network a crawl never waits, so one at a time per thread keeps each core busy.
  const parallel = int(args, 'parallel', network ? 1 : 4);
  const workers = int(args, 'workers', Math.max(1, availableParallelism()), 0);
  const fetchConcurrency = int(args, 'fetch-concurrency', 8);
  const readingCacheMb = str(args, 'reading-cache') ? int(args, 'reading-cache', 1, 1) : undefined;
  const maxBytesText = str(args, 'max-bytes');
  const maxBytes = maxBytesText ? int(args, 'max-bytes', 0) : undefined;
  const compareArgs = args.compare === undefined ? [] : ([] as string[]).concat(args.compare as string | string[]);

  const { sites, redirectStubs, description, corpus: corpusName } = resolveSites(args);
  const t0 = Date.now();
  const web = network
    ? simulatedWeb({ sites, redirectStubs })
    : await startLocalWeb({ sites, redirectStubs, delayMs: int(args, 'delay', 0, 0) });
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    const corpus = await corpusIndexFor(args, web, sites, redirectStubs);
    const topics = loadTopics(topicsFile, (id) => corpus.position.has(id)).topics;
    const split = splitSummary(topics);
    log(
      `lab: ${topics.length} topics from ${topicsFile} (${split.name === 'none' ? 'hand-made list, no split' : `split: ${split.name}`})`,
    );
    const labels = strategies.map((s) => s.label);
    const pairs: [string, string][] = compareArgs.length
      ? compareArgs.map((c) => {
          const [a, b, extra] = c.split(',').map((s) => s.trim());
          if (!a || !b || extra !== undefined) throw new Error(`--compare takes two strategy labels A,B, got ${c}`);
          for (const x of [a, b])
            if (!labels.includes(x)) throw new Error(`--compare: ${x} is not one of the strategies (${labels.join(', ')})`);
          return [a, b] as [string, string];
        })
      : labels.slice(1).map((l) => [l, labels[0]] as [string, string]);

    const jobs: CrawlJob[] = [];
    for (const topic of topics)
      for (const task of tasks)
        for (const strategy of strategies) for (const seed of seeds) jobs.push({ topic, task, strategy, seed });
    log(
      `lab: ${jobs.length} crawls of ${Math.max(...budgets)} pages (${topics.length} topics x ${tasks.length} tasks x ${strategies.length} strategies x ${seeds.length} seeds), ${parallel} at a time`,
    );
    const readingCacheBytes = readingCacheMb === undefined ? readingCacheFor(workers, freemem()) : readingCacheMb * 2 ** 20;
    if (workers > 0) log(`lab: each of ${workers} workers keeps up to ${readingCacheBytes / 2 ** 20} MB of page readings`);
    // Each crawl is measured as it ends, while the workers crawl on (after the last one, only the tables are left).
    const analysis = new Analysis(topics, corpus, {
      budgets,
      ks,
      step,
      ...(network ? { time: { seconds: timeSeconds, firstTargets } } : {}),
    });
    const { records, stats } = await runCrawls({
      onRecord: (record, index) => analysis.add(record, index),
      web,
      jobs,
      maxPages: Math.max(...budgets),
      maxBuffer,
      retries,
      workers,
      parallel,
      fetchConcurrency,
      maxBytes,
      readingCacheBytes,
      network,
      sites,
      redirectStubs,
      signal: abort.signal,
      log,
    });
    const crawlSeconds = (Date.now() - t0) / 1000;
    const pagesFile = str(args, 'pages');
    if (pagesFile) {
      writeFileSync(
        pagesFile,
        JSON.stringify(records.map(({ scores: _s, ...r }) => ({ ...r, pages: r.pages.map((p) => p.id) }))),
      );
      log(`wrote ${pagesFile}`);
    }
    const { results, statics, timeToTargets } = analysis.finish();
    const comparisons: Comparison[] = pairs.flatMap(([a, b]) => compareStrategies(results, a, b));
    const siteCounts: Record<string, number> = {};
    for (const id of corpus.ids) siteCounts[id.split('/')[0]] = (siteCounts[id.split('/')[0]] ?? 0) + 1;
    const res: LabResults = {
      format: 'forager-lab-results/1',
      meta: {
        createdAt: new Date().toISOString(),
        topicsFile,
        topics: topics.map((t) => t.id),
        strategies,
        tasks,
        budgets,
        seeds,
        maxBuffer,
        retries,
        ks,
        step,
        corpus: {
          name: corpusName,
          sites: siteCounts,
          pages: corpus.ids.length,
          hubs: corpus.hub.reduce((n, h) => n + h, 0),
          description,
        },
        split,
        ...(network
          ? {
              network: {
                model: network.model,
                description: networkModel(network.model).description,
                seed: network.seed,
                politenessMs: network.politenessMs,
                maxInFlight: fetchConcurrency,
                seconds: timeSeconds,
                firstTargets,
              },
            }
          : {}),
        wallSeconds: (Date.now() - t0) / 1000,
        cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
        crawls: records.length,
        pagesFetched: records.reduce((s, r) => s + r.pages.length, 0),
        evaluations: stats.evaluations,
        evaluationCacheHits: stats.cacheHits,
      },
      results,
      ...(network ? { timeToTargets } : {}),
      comparisons,
      statics,
      crawls: records.map((r) => ({
        topic: r.topic,
        task: r.task,
        strategy: r.strategy,
        seed: r.seed,
        pages: r.pages.length,
        errors: r.errors,
        done: r.done,
        elapsedMs: r.elapsedMs,
      })),
    };
    const short = records.filter((r) => r.pages.length < Math.max(...budgets));
    if (short.length)
      log(
        `note: ${short.length} crawls ran out of URLs before ${Math.max(...budgets)} pages; their later budgets use every page they crawled`,
      );
    log(`lab: crawls done in ${crawlSeconds.toFixed(1)} s, total ${res.meta.wallSeconds.toFixed(1)} s`);
    output(res, args);
  } finally {
    process.removeListener('SIGINT', onSigint);
    await web.close();
  }
}

function output(res: LabResults, args: Args): void {
  process.stdout.write(`${textTable(res)}\n`);
  const json = str(args, 'json');
  if (json) {
    writeFileSync(
      json,
      JSON.stringify(res, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)),
    );
    log(`wrote ${json}`);
  }
  const report = str(args, 'report');
  if (report) {
    writeFileSync(report, htmlReport(res));
    log(`wrote ${report}`);
  }
}

function readResults(file: string): LabResults {
  const res = JSON.parse(readFileSync(file, 'utf8'), (_k, v) => (v === null ? NaN : v)) as LabResults;
  if (res.format !== 'forager-lab-results/1') throw new Error(`${file}: not a forager-lab-results/1 file`);
  return res;
}

function cmdReport(args: Args): void {
  const v = args.from;
  if (v === undefined || v === true) throw new Error('report needs --from results.json');
  const files = ([] as string[]).concat(v as string | string[]);
  // Several files: one run over all their RNG seeds (lab/merge.ts); the comparisons are the merge's unless --compare.
  const res = files.length === 1 ? readResults(files[0]) : mergeResults(files.map(readResults), files);
  if (files.length > 1) res.meta.mergedFrom = files;
  const from = files.join(' + ');
  const baselineFile = str(args, 'baseline');
  const baseline = baselineFile ? readResults(baselineFile).results : undefined;
  const compareArgs = args.compare === undefined ? [] : ([] as string[]).concat(args.compare as string | string[]);
  const labels = (r: MetricResult[]) => [...new Set(r.map((x) => x.strategy))];
  const pairs: [string, string][] = compareArgs.map((c) => {
    const [a, b, extra] = c.split(',').map((s) => s.trim());
    if (!a || !b || extra !== undefined) throw new Error(`--compare takes two strategy labels A,B, got ${c}`);
    if (!labels(res.results).includes(a)) throw new Error(`--compare: ${a} is not a strategy of ${from}`);
    if (!labels(baseline ?? res.results).includes(b))
      throw new Error(`--compare: ${b} is not a strategy of ${baselineFile ?? from}`);
    return [a, b];
  });
  // A baseline without --compare: every strategy against the one of the same label in the baseline.
  if (baseline && pairs.length === 0) {
    for (const label of labels(res.results)) if (labels(baseline).includes(label)) pairs.push([label, label]);
    if (pairs.length === 0) throw new Error(`${from} and ${baselineFile} have no strategy label in common: use --compare A,B`);
  }
  if (pairs.length) res.comparisons = pairs.flatMap(([a, b]) => compareStrategies(res.results, a, b, baseline));
  output(res, args);
}

/**
 * Which split a list of topics is: generated topics (those with a `kind`) are tuning or test by the hash rule of
 * lab/topic-generator.ts (splitOf); a list without kinds is hand-made and has no split.
 */
function splitSummary(topics: LabTopic[]): NonNullable<LabResults['meta']['split']> {
  if (!topics.every((t) => t.kind)) return { name: 'none', tune: 0, test: 0 };
  const tune = topics.filter((t) => splitOf(t) === 'tune').length;
  const test = topics.length - tune;
  return { name: tune && test ? 'mixed' : tune ? 'tune' : 'test', tune, test };
}

/** The topics file of a generated split: `<prefix>-tune.json` or `<prefix>-test.json`. */
function writeTopicsFile(file: string, corpus: string, topics: LabTopic[], note: string): void {
  const data = { format: 'docweb-topics/1' as const, corpus: `${corpus}; ${note}`, topics };
  writeFileSync(file, `${JSON.stringify(data, null, 1)}\n`);
}

async function cmdTopics(args: Args): Promise<void> {
  const { sites, redirectStubs, corpus: corpusName } = resolveSites(args);
  const web = simulatedWeb({ sites, redirectStubs });
  const corpus = await corpusIndexFor(args, web, sites, redirectStubs);
  const { topics, candidates } = generateTopics(corpus, sites, web);
  for (const t of topics) validateTopics({ format: 'docweb-topics/1', topics: [t] }, t.id, (id) => corpus.position.has(id));
  const prefix = resolve(str(args, 'out', join(REPO_ROOT, 'lab', `topics-${corpusName}`))!);
  const note = 'generated by `npm run lab -- topics` (lab/topic-generator.ts); split by lab/topic-generator.ts splitOf';
  const tune = topics.filter((t) => splitOf(t) === 'tune');
  const test = topics.filter((t) => splitOf(t) === 'test');
  writeTopicsFile(`${prefix}-tune.json`, corpusName, tune, `${note}: tuning split`);
  writeTopicsFile(`${prefix}-test.json`, corpusName, test, `${note}: test split`);
  const byKind = (list: LabTopic[]) =>
    TOPIC_KINDS.map((k) => `${k} ${list.filter((t) => t.kind === k).length}`).join(', ') +
    `; ${list.filter((t) => t.language && t.language !== 'en').length} not in English`;
  process.stdout.write(
    `candidates: ${Object.entries(candidates)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}\n` +
      `wrote ${prefix}-tune.json: ${tune.length} topics (${byKind(tune)})\n` +
      `wrote ${prefix}-test.json: ${test.length} topics (${byKind(test)})\n`,
  );
}

async function cmdServe(args: Args): Promise<void> {
  const { sites, redirectStubs } = resolveSites(args);
  const web: LocalWeb = await startLocalWeb({
    sites,
    redirectStubs,
    basePort: int(args, 'port', 0, 0),
    delayMs: int(args, 'delay', 0, 0),
  });
  for (const [name, origin] of Object.entries(web.origins)) process.stdout.write(`${name.padEnd(12)} ${origin}/\n`);
  process.stdout.write(`${'portal'.padEnd(12)} ${web.portal}/\n(Ctrl-C to stop)\n`);
  await new Promise<void>((r) => process.once('SIGINT', () => r()));
  await web.close();
}

export async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const cmd = args._[0];
  if (!cmd || cmd === 'help' || args.help) {
    process.stdout.write(HELP);
    return;
  }
  if (cmd === 'prepare') {
    const corpus = corpusByName(str(args, 'corpus', DEFAULT_CORPUS)!);
    const manifest = prepareCorpus({ corpus, cacheDir: str(args, 'cache'), repin: !!args.repin, force: !!args.force, log });
    const diffs = pageCountDifferences(manifest);
    process.stdout.write(
      `${corpus.name} ready: ${manifest.totalPages} pages (${manifest.sites.map((s) => `${s.name} ${s.pages}`).join(', ')})\n` +
        (diffs.length
          ? `Differences from sites.json's expectedPages:\n  ${diffs.join('\n  ')}\n`
          : "Page counts match sites.json's expectedPages.\n"),
    );
  } else if (cmd === 'run') await cmdRun(args);
  else if (cmd === 'report') cmdReport(args);
  else if (cmd === 'serve') await cmdServe(args);
  else if (cmd === 'topics') await cmdTopics(args);
  else if (cmd === 'misses') await cmdMisses(args);
  else if (cmd === 'losses') await cmdLosses(args);
  else if (cmd === 'content')
    runContentBenchmark({ worst: int(args, 'worst', 15), rounds: int(args, 'rounds', 3, 0), json: str(args, 'json') });
  else throw new Error(`unknown command "${cmd}"\n${HELP}`);
}

async function cmdMisses(args: Args): Promise<void> {
  const pagesFile = str(args, 'pages');
  const topicsFile = str(args, 'topics');
  if (!pagesFile || !topicsFile) throw new Error(`misses needs --pages FILE (from run --pages) and --topics FILE\n${HELP}`);
  const budget = int(args, 'budget', 1000, 1);
  const strategy = str(args, 'strategy');
  const { sites, redirectStubs } = resolveSites(args);
  const web = simulatedWeb({ sites, redirectStubs });
  const corpus = await corpusIndexFor(args, web, sites, redirectStubs);
  const topics = new Map(loadTopics(resolve(topicsFile), (id) => corpus.position.has(id)).topics.map((t) => [t.id, t]));
  const crawls = JSON.parse(readFileSync(resolve(pagesFile), 'utf8')) as {
    topic: string;
    task: TaskId;
    strategy: string;
    seed: number;
    pages: string[];
  }[];
  const sum = { crawls: 0, reachable: 0, missed: 0, oneHop: 0, twoHops: 0 };
  const lines: string[] = [];
  /** Recall of the reachable targets per seed, by task and strategy, then by topic. */
  const recalls = new Map<string, Map<string, number[]>>();
  for (const c of crawls) {
    const topic = topics.get(c.topic);
    if (!topic || (strategy && c.strategy !== strategy)) continue;
    const m = missedTargets(corpus, seedsOf(topic, c.task), topic.targets, c.pages, budget);
    sum.crawls++;
    sum.reachable += m.reachable;
    sum.missed += m.missed.length;
    sum.oneHop += m.oneHop;
    sum.twoHops += m.twoHops;
    if (m.reachable > 0) {
      const group = `task${c.task} ${c.strategy}`;
      if (!recalls.has(group)) recalls.set(group, new Map());
      const byTopic = recalls.get(group)!;
      if (!byTopic.has(c.topic)) byTopic.set(c.topic, []);
      byTopic.get(c.topic)!.push(1 - m.missed.length / m.reachable);
    }
    if (m.missed.length)
      lines.push(
        `${c.topic} task${c.task} ${c.strategy} seed${c.seed}: missed ${m.missed.length} of ${m.reachable} ` +
          `(1 link away ${m.oneHop}, 2 links ${m.twoHops}): ${m.missed.join(' ')}`,
      );
  }
  const pct = (x: number) => (sum.missed ? `${Math.round((100 * x) / sum.missed)}%` : '-');
  process.stdout.write(
    lines.map((l) => `${oneLine(l)}\n`).join('') +
      `${sum.crawls} crawls, ${budget} pages: missed ${sum.missed} of ${sum.reachable} reachable targets; ` +
      `1 link from a crawled page ${sum.oneHop} (${pct(sum.oneHop)}), 2 links ${sum.twoHops} (${pct(sum.twoHops)}), ` +
      `farther ${sum.missed - sum.oneHop - sum.twoHops} (${pct(sum.missed - sum.oneHop - sum.twoHops)})\n` +
      [...recalls]
        .map(([group, byTopic]) => {
          const s = spreadOverSeeds([...byTopic.values()]);
          return s.topics === 0
            ? ''
            : `${group}: recall of the reachable targets @${budget} over RNG seeds, per topic: standard deviation ` +
                `${s.meanSd.toFixed(3)} (mean over ${s.topics} topics; median ${s.medianSd.toFixed(3)}); ` +
                `best and worst seed more than .5 apart on ${s.wide}\n`;
        })
        .join(''),
  );
}

async function cmdLosses(args: Args): Promise<void> {
  const topicsFile = str(args, 'topics');
  const label = str(args, 'strategy');
  if (!topicsFile || !label) throw new Error(`losses needs --topics FILE and --strategy LABEL\n${HELP}`);
  const [strategy, ...more] = parseStrategies(label);
  if (more.length) throw new Error('losses takes one --strategy');
  const tasks = intList(args, 'tasks', '2') as TaskId[];
  if (tasks.some((t) => t !== 1 && t !== 2)) throw new Error('--tasks takes 1 and/or 2');
  const { sites, redirectStubs } = resolveSites(args);
  const web = simulatedWeb({ sites, redirectStubs });
  const corpus = await corpusIndexFor(args, web, sites, redirectStubs);
  const topics = loadTopics(resolve(topicsFile), (id) => corpus.position.has(id)).topics;
  await runLosses({
    web,
    corpus,
    topics,
    strategy,
    tasks,
    seed: int(args, 'seed', 1),
    budget: int(args, 'budget', 1000, 1),
    maxBuffer: int(args, 'max-buffer', 256),
    network: {
      model: networkModel(str(args, 'network', 'wan')!).name,
      seed: int(args, 'network-seed', 1, 0),
      politenessMs: int(args, 'politeness', 1000, 0),
    },
    log: (line) => process.stdout.write(`${oneLine(line)}\n`),
  });
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(REPO_ROOT, 'lab', 'cli.ts');
if (isMain) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`lab: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

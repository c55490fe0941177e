/**
 * The relevance cut of the extension's lists (lib/app/rules/relevance.ts: a new page is "relevant" when its score is
 * at least a fraction of the crawl's best score, never under a floor), measured on the lab: crawls of the default
 * strategy on tuning topics, then, for each fraction, how well "score >= cut" tells the topic's target pages from the
 * rest among the crawled pages that are not seeds (what the popup lists). F1 per crawl, averaged over crawls (each
 * crawl is one user's list), and pooled over all pages.
 *
 *   npx tsx lab/relevance-cut.ts --corpus docweb-l --topics lab/tuning/topics-docweb-l-tune-quarter.json \
 *     [--cache DIR] [--budget 200] [--tasks 1,2] [--strategy forager] [--network wan] [--json out.json]
 *
 * Only tuning topics are accepted (lab/topic-generator.ts splitOf): the cut is chosen on them, never on test topics.
 * Targets are a narrow truth (one chapter's or one phrase's pages): a page on the topic outside them counts as a
 * false positive, so the F1 here favours a stricter cut than a reader would.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { relevanceCut } from '../lib/app/node';
import { corpusByName, DEFAULT_CORPUS, loadSitesFile, preparedSitesDir } from './docweb/prepare';
import { simulatedWeb } from './docweb/server';
import { networkModel } from './network';
import { type CrawlJob, type CrawlRecord, parseStrategies, runCrawls } from './run';
import { loadSitesDir } from './sites';
import { splitOf } from './topic-generator';
import { type LabTopic, loadTopics, type TaskId } from './topics';

/** One crawl's listed pages: scores of every page (seeds too: the best is over all), and which new ones are targets. */
export interface ScoredCrawl {
  scores: number[];
  isSeed: boolean[];
  isTarget: boolean[];
}

export interface CutScore {
  fraction: number;
  /** Mean over crawls with at least one target among their new pages. */
  meanF1: number;
  meanPrecision: number;
  meanRecall: number;
  /** Pooled over every new page of every such crawl. */
  pooledF1: number;
  /** Mean share of new pages listed as relevant. */
  shownShare: number;
  crawls: number;
  /** F1 of each crawl counted, in order (for paired comparisons of two cuts). */
  f1s: number[];
}

const f1 = (p: number, r: number) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

/** Scores `fraction` (floor as in relevance.ts) on the crawls: precision, recall and F1 of "score >= cut" for targets. */
export function scoreCut(crawls: ScoredCrawl[], fraction: number, floor = 0.05): CutScore {
  let n = 0;
  let sumF1 = 0;
  let sumP = 0;
  let sumR = 0;
  let sumShown = 0;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const f1s: number[] = [];
  for (const c of crawls) {
    const best = Math.max(0, ...c.scores);
    const cut = Math.max(floor, fraction * best);
    let ctp = 0;
    let cfp = 0;
    let cfn = 0;
    let fresh = 0;
    for (let i = 0; i < c.scores.length; i++) {
      if (c.isSeed[i]) continue;
      fresh++;
      const shown = c.scores[i] >= cut;
      if (shown && c.isTarget[i]) ctp++;
      else if (shown) cfp++;
      else if (c.isTarget[i]) cfn++;
    }
    if (ctp + cfn === 0) continue; // no target among the new pages: nothing to find, F1 undefined
    const p = ctp + cfp > 0 ? ctp / (ctp + cfp) : 0;
    const r = ctp / (ctp + cfn);
    n++;
    sumP += p;
    sumR += r;
    sumF1 += f1(p, r);
    f1s.push(f1(p, r));
    sumShown += fresh > 0 ? (ctp + cfp) / fresh : 0;
    tp += ctp;
    fp += cfp;
    fn += cfn;
  }
  const pooledP = tp + fp > 0 ? tp / (tp + fp) : 0;
  const pooledR = tp + fn > 0 ? tp / (tp + fn) : 0;
  return {
    fraction,
    meanF1: n ? sumF1 / n : Number.NaN,
    meanPrecision: n ? sumP / n : Number.NaN,
    meanRecall: n ? sumR / n : Number.NaN,
    pooledF1: f1(pooledP, pooledR),
    shownShare: n ? sumShown / n : Number.NaN,
    crawls: n,
    f1s,
  };
}

/** A crawl record of the lab with its scores, as the cut sees it. */
export function scoredCrawl(record: CrawlRecord, topic: LabTopic): ScoredCrawl {
  if (!record.scores) throw new Error('the record has no scores (runCrawls keepScores)');
  const targets = new Set(topic.targets);
  return {
    scores: record.scores,
    isSeed: record.pages.map((p) => p.isSeed),
    isTarget: record.pages.map((p) => p.id !== undefined && targets.has(p.id)),
  };
}

function arg(argv: string[], name: string, fallback?: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
}

async function main(argv: string[]): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const corpus = corpusByName(arg(argv, 'corpus', DEFAULT_CORPUS)!);
  const cacheDir = resolve(arg(argv, 'cache', corpus.cacheDir)!);
  const sitesDir = preparedSitesDir(cacheDir);
  if (!sitesDir) throw new Error(`${corpus.name} is not prepared in ${cacheDir}: npm run lab -- prepare --corpus ${corpus.name}`);
  const topicsFile = arg(argv, 'topics');
  if (!topicsFile) throw new Error('--topics FILE (tuning topics) is needed');
  const budget = Number(arg(argv, 'budget', '200'));
  const tasks = arg(argv, 'tasks', '1,2')!.split(',').map(Number) as TaskId[];
  const strategies = parseStrategies(arg(argv, 'strategy', 'forager')!);
  // Topic ids are checked by the lab's own tests against the corpus; here they only need to be tuning topics.
  const topics = loadTopics(topicsFile).topics;
  const notTune = topics.filter((t) => splitOf(t) !== 'tune').map((t) => t.id);
  if (notTune.length) throw new Error(`not tuning topics (lab/topic-generator.ts splitOf): ${notTune.join(', ')}`);

  const sites = loadSitesDir(sitesDir, corpus.sitesFile);
  const redirectStubs = !!loadSitesFile(corpus.sitesFile).redirectStubs;
  const web = simulatedWeb({ sites, redirectStubs });
  const jobs: CrawlJob[] = [];
  for (const topic of topics)
    for (const task of tasks) for (const strategy of strategies) jobs.push({ topic, task, strategy, seed: 1 });
  log(`relevance cut: ${jobs.length} crawls of ${budget} pages (${topics.length} tuning topics x tasks ${tasks.join(',')})`);
  const { records } = await runCrawls({
    web,
    jobs,
    maxPages: budget,
    maxBuffer: 256,
    workers: 0,
    parallel: 1,
    network: { model: networkModel(arg(argv, 'network', 'wan')!).name, seed: 1, politenessMs: 1000 },
    keepScores: true,
    log,
  });
  const crawls = records.map((r, i) => scoredCrawl(r, jobs[i].topic));
  const fractions = Array.from({ length: 19 }, (_, i) => Math.round((i + 1) * 5) / 100);
  const table = fractions.map((f) => scoreCut(crawls, f));
  const best = table.reduce((a, b) => (b.meanF1 > a.meanF1 ? b : a));
  const current = scoreCut(crawls, 0.35);
  const pct = (x: number) => (x * 100).toFixed(1).padStart(5);
  // Paired over crawls: the best fraction's F1 minus 0.35's, mean and standard error.
  const diffs = best.f1s.map((v, i) => v - current.f1s[i]);
  const meanDiff = diffs.reduce((a, b) => a + b, 0) / diffs.length;
  const sd = Math.sqrt(diffs.reduce((a, d) => a + (d - meanDiff) ** 2, 0) / Math.max(1, diffs.length - 1));
  const se = sd / Math.sqrt(diffs.length);
  console.log('fraction  mean F1  mean P  mean R  pooled F1  shown');
  for (const row of table)
    console.log(
      `${row.fraction.toFixed(2).padStart(8)}  ${pct(row.meanF1)}   ${pct(row.meanPrecision)}  ${pct(row.meanRecall)}  ${pct(row.pooledF1)}      ${pct(row.shownShare)}${row === best ? '  <- best mean F1' : ''}`,
    );
  console.log(
    `crawls with a target among their new pages: ${current.crawls} of ${crawls.length}; ` +
      `0.35: mean F1 ${pct(current.meanF1)}; best ${best.fraction}: ${pct(best.meanF1)} ` +
      `(the extension's cut at a best score of 1: ${relevanceCut(1)}); ` +
      `paired F1 difference ${best.fraction} - 0.35: ${pct(meanDiff)} ± ${pct(se)} (SE) points`,
  );
  const out = arg(argv, 'json');
  if (out)
    writeFileSync(
      out,
      `${JSON.stringify({ topicsFile, budget, tasks, table: table.map(({ f1s: _, ...row }) => row), crawls: crawls.length }, null, 2)}\n`,
    );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'relevance-cut.ts')) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}

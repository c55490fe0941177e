/**
 * The evaluator's split (readPage once per page, evaluateReading per topic) against evaluatePage, on real corpus
 * pages as the lab serves them, for many topics: identity and cost.
 *
 * For every `--every`-th page of the corpus (default DocWeb-L, every 20th: ~2,200 pages) and `--topics` topics per
 * page (drawn by a fixed hash from the lab's DocWeb-L topic files, both splits: keywords and language, with the
 * simulated results page as context for every other one, and boilerplate weights 0.2, 0, 0.5 and 1, and
 * allLanguages, spread over them), it checks that
 *   1. evaluateReading(one shared reading, topic), for each topic in turn, equals evaluatePage(fresh input, topic):
 *      every field, scores with Object.is (bit for bit), in the same key order (JSON text compared);
 *   2. with `--baseline DIR` (a checkout of another commit with a node_modules link), that tree's evaluatePage gives
 *      the same, for the same pages and topics;
 * and prints the cost of a reading (decode, parse, tokens, links) and of one topic's scoring of it (medians).
 * Exits 1 on any difference.
 *
 * With `--memory` (run with node --expose-gc) it measures instead what a reading holds in memory once scored for a
 * topic (growth of the heap and of typed arrays' buffers over the sample's readings, kept, bodies cut at the fetcher's
 * 100 KB), by body size: the lab's cache of readings estimates their bytes from it (lab/run.ts
 * READING_BYTES_PER_BODY_BYTE).
 *
 * Run: npx tsx bench/evaluate-split.ts [--corpus docweb-l] [--cache DIR] [--every 20] [--topics 4] [--baseline DIR]
 *      node --expose-gc --import tsx bench/evaluate-split.ts --memory [--every 25]
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { evaluatePage, evaluateReading, prepareTopic, readPage } from '../lib/engine';
import type { EvaluationInput, PageEvaluation, Topic } from '../lib/engine';
import { simulatedWeb } from '../lab/docweb/server';
import { corpusByName, loadSitesFile } from '../lab/docweb/prepare';
import { resultsPageContext } from '../lab/run';
import { listFiles, loadSitesDir, pagePaths } from '../lab/sites';
import { loadTopics } from '../lab/topics';
import { median } from './stats';

type EvaluateFn = (input: EvaluationInput) => PageEvaluation;

function arg(name: string, fallback?: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

/** The evaluation as text, scores written exactly (JSON keeps key order; -0 and NaN are told apart). */
function exact(ev: PageEvaluation): string {
  return JSON.stringify(ev, (_k, v) => (typeof v === 'number' ? `${Object.is(v, -0) ? '-0' : String(v)}` : v));
}

function fieldsDiffering(a: PageEvaluation, b: PageEvaluation): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const out: string[] = [];
  for (const k of keys) {
    const x = (a as unknown as Record<string, unknown>)[k];
    const y = (b as unknown as Record<string, unknown>)[k];
    if (JSON.stringify(x) !== JSON.stringify(y) || (typeof x === 'number' && !Object.is(x, y))) out.push(k);
  }
  if (out.length === 0 && exact(a) !== exact(b)) out.push('(key order)');
  return out;
}

const hash = (s: string) => createHash('sha1').update(s).digest().readUInt32BE(0);

async function main(): Promise<void> {
  const corpus = corpusByName(arg('corpus', 'docweb-l')!);
  const cache = resolve(arg('cache', corpus.cacheDir)!);
  const every = Math.max(1, Number(arg('every', '20')));
  const perPage = Math.max(1, Number(arg('topics', '4')));
  const baselineDir = arg('baseline');
  const sites = loadSitesDir(join(cache, 'sites'), corpus.sitesFile);
  const web = simulatedWeb({ sites, redirectStubs: !!loadSitesFile(corpus.sitesFile).redirectStubs });
  let baseline: EvaluateFn | undefined;
  if (baselineDir) {
    const entry = join(resolve(baselineDir), 'lib', 'engine', 'index.ts');
    if (!existsSync(entry)) throw new Error(`--baseline ${baselineDir}: no lib/engine/index.ts there`);
    baseline = ((await import(entry)) as { evaluatePage: EvaluateFn }).evaluatePage;
  }

  // Topics: the lab's DocWeb-L topics, every other one with its Task 2 results page as context, and settings spread.
  const labTopics = ['lab/topics-docweb-l-test.json', 'lab/topics-docweb-l-tune.json'].flatMap((f) =>
    existsSync(f) ? loadTopics(f).topics : [],
  );
  if (labTopics.length === 0) throw new Error('no DocWeb-L topic files under lab/');
  const boiler = [undefined, 0, 0.5, 1];
  const topics: Topic[] = [];
  for (const [i, t] of labTopics.entries()) {
    const topic: Topic = { keywords: t.keywords };
    if (t.language) topic.language = t.language;
    if (i % 2 === 0) {
      const context = await resultsPageContext(web, t.neighbors ?? []);
      if (context.length) topic.context = context;
    }
    const b = boiler[Math.floor(i / 2) % boiler.length];
    if (b !== undefined) topic.weights = { boilerplate: b };
    if (i % 7 === 3) topic.allLanguages = true;
    topics.push(topic);
  }
  topics.push({ keywords: '' }); // the results page's own evaluation
  const prepared = topics.map((t) => prepareTopic(t));

  const ids: string[] = [];
  for (const s of sites) for (const p of pagePaths(listFiles(s.dir))) ids.push(`${s.name}/${p}`);
  const sample = ids.filter((_, i) => i % every === 0);
  if (process.argv.includes('--memory')) {
    measureMemory(web, sample, prepared[0]);
    return;
  }
  let checked = 0;
  let pages = 0;
  let differ = 0;
  let differBase = 0;
  let secondPasses = 0;
  const readMs: number[] = [];
  const scoreMs: number[] = [];
  const wholeMs: number[] = [];
  const examples: string[] = [];
  for (const id of sample) {
    const slash = id.indexOf('/');
    const served = await web.render(id.slice(0, slash), `/${id.slice(slash + 1)}`);
    if (served.status !== 200 || !/html/.test(served.contentType)) continue;
    pages++;
    const base = { url: web.urlFor(id), body: served.body, contentType: served.contentType };
    const chosen = Array.from({ length: perPage }, (_, k) => hash(`${id}\0${k}`) % topics.length);
    let t0 = performance.now();
    const reading = readPage(base);
    let readTook = performance.now() - t0;
    for (const k of chosen) {
      t0 = performance.now();
      const passes = reading.passCount;
      const split = evaluateReading(reading, prepared[k]);
      const took = performance.now() - t0;
      // The first topic's scoring includes the pass over the text, which belongs to the reading's cost.
      if (reading.passCount > passes) readTook += took;
      else scoreMs.push(took);
      t0 = performance.now();
      const whole = evaluatePage({ ...base, topic: topics[k] });
      wholeMs.push(performance.now() - t0);
      checked++;
      const d = fieldsDiffering(split, whole);
      if (d.length) {
        differ++;
        if (examples.length < 10) examples.push(`split ${id} topic ${JSON.stringify(topics[k].keywords)}: ${d.join(', ')}`);
      }
      if (baseline) {
        const old = baseline({ ...base, topic: topics[k] });
        const db = fieldsDiffering(old, whole);
        if (db.length) {
          differBase++;
          if (examples.length < 10) examples.push(`baseline ${id} topic ${JSON.stringify(topics[k].keywords)}: ${db.join(', ')}`);
        }
      }
    }
    if (reading.passCount > 1) secondPasses++;
    readMs.push(readTook);
  }
  console.log(
    `${pages} pages (every ${every}th of ${ids.length}), ${topics.length} topics, ${checked} evaluations compared` +
      (baseline ? ` (also against ${baselineDir})` : ''),
  );
  console.log(`split vs evaluatePage: ${differ} differ${baseline ? `; baseline vs this tree: ${differBase} differ` : ''}`);
  console.log(`pages read in more than one language (topics in other languages, or detected): ${secondPasses}`);
  console.log(
    `median ms: reading (decode, parse, tokens, links) ${median(readMs).toFixed(3)}, one topic's scoring of a reading ` +
      `${median(scoreMs).toFixed(3)}, evaluatePage ${median(wholeMs).toFixed(3)}`,
  );
  for (const e of examples) console.log(`  ${e}`);
  await web.close();
  if (differ || differBase) process.exit(1);
}

/** Heap held per reading (scored for one topic), by body size; see the module comment. */
function measureMemory(web: ReturnType<typeof simulatedWeb>, sample: string[], topic: ReturnType<typeof prepareTopic>): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('--memory needs node --expose-gc');
  const inputs = sample.flatMap((id) => {
    const slash = id.indexOf('/');
    const served = web.render(id.slice(0, slash), `/${id.slice(slash + 1)}`);
    if (served.status !== 200 || !/html/.test(served.contentType)) return [];
    return [{ url: web.urlFor(id), body: new Uint8Array(served.body.subarray(0, 100 * 1024)), contentType: served.contentType }];
  });
  const bands: [number, number][] = [
    [0, 8_000],
    [8_000, 20_000],
    [20_000, 50_000],
    [50_000, Number.POSITIVE_INFINITY],
  ];
  // The heap and the typed arrays' buffers outside it (a reading keeps its tokens, runs and offsets in typed arrays).
  const held = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  let kept: unknown[] = [];
  for (const [lo, hi] of [[0, Number.POSITIVE_INFINITY] as [number, number], ...bands]) {
    const band = inputs.filter((x) => x.body.length >= lo && x.body.length < hi);
    if (band.length === 0) continue;
    kept = [];
    gc();
    gc();
    const before = held();
    kept = band.map((input) => {
      const reading = readPage(input);
      evaluateReading(reading, topic);
      return reading;
    });
    gc();
    gc();
    const perReading = (held() - before) / kept.length;
    const body = band.reduce((sum, x) => sum + x.body.length, 0) / band.length;
    console.log(
      `bodies ${lo}-${hi === Number.POSITIVE_INFINITY ? '' : hi} bytes: ${kept.length} readings, body ${(body / 1024).toFixed(1)} KB, ` +
        `${(perReading / 1024).toFixed(1)} KB held per reading (${(perReading / body).toFixed(2)} per body byte)`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});

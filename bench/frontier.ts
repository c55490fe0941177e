/**
 * Frontier throughput and memory.
 *
 * At capacities 256, 10,000 and 100,000 it times, on a full PriorityFrontier of realistic URLs (~70 characters):
 * - add with evictions: fresh URLs with rising scores, so nearly every add evicts the minimum;
 * - add, random scores: fresh URLs with uniform scores (a mix of evictions and rejections, the usual crawl case);
 * - draw16: one Best-N-First choice (the best 16 ready entries, one of them removed), all sites ready;
 * - draw16busy: the same with half the sites busy (their entries are walked past);
 * - raise: a later, higher sighting of a queued URL.
 * Each figure is the median of several runs. Memory: heap growth per queued URL for 100,000 URLs, split into the
 * URL strings themselves and the frontier's own structures (two heap slots, a node, a Map and a Set entry).
 *
 * Run: npx tsx bench/frontier.ts   (garbage collection is made callable from inside, no flag needed)
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PriorityFrontier } from '../lib/engine';
import { Rng } from '../lib/engine';
import { median } from './stats';

const CAPACITIES = [256, 10_000, 100_000];
const RUNS = 5;
const MEMORY_URLS = 100_000;

const WORDS = (
  'crawler topic search engine focused best first frontier link anchor score cosine similarity page web ' +
  'research archive news article science history guide review report data open source library'
).split(' ');

/** A URL as found on the web: host, a dated path with a slug, sometimes a query. About 70 characters on average. */
function makeUrl(rng: Rng, i: number): string {
  const host = `www.${WORDS[rng.int(WORDS.length)]}-${rng.int(5000)}.example.org`;
  const slug = Array.from({ length: 2 + rng.int(3) }, () => WORDS[rng.int(WORDS.length)]).join('-');
  const query = rng.next() < 0.2 ? `?page=${rng.int(50)}` : '';
  // new URL() gives a flat string, as the evaluator's canonical URLs are (template strings are ropes).
  return new URL(`https://${host}/${2000 + rng.int(26)}/${slug}-${i}.html${query}`).href;
}

/** A callable gc(): the global one under --expose-gc, otherwise enabled at run time through V8 flags. */
function getGc(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A frontier filled to capacity with urls[0..capacity) at scores below 0.5; `scores[i]` is urls[i]'s score. */
function fullFrontier(capacity: number, urls: string[], rng: Rng, scores?: Float64Array): PriorityFrontier {
  const f = new PriorityFrontier(capacity);
  for (let i = 0; i < capacity; i++) {
    const score = rng.next() * 0.5;
    if (scores) scores[i] = score;
    f.add({ url: urls[i], score, depth: 1 });
  }
  return f;
}

/** Operations per second of `fn(count)` over `count` operations, median of RUNS runs, each on fresh state. */
function measure(setup: () => (count: number) => void, count: number): number {
  const rates: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    const fn = setup();
    const t0 = performance.now();
    fn(count);
    const ms = performance.now() - t0;
    if (run > 0) rates.push((count / ms) * 1000); // the first run warms the JIT up
  }
  return Math.round(median(rates));
}

function benchCapacity(capacity: number, urls: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const adds = Math.min(100_000, Math.max(20_000, capacity));
  const fresh = (offset: number) => urls.slice(capacity + offset, capacity + offset + adds);

  out[`add-evict.${capacity}.opsPerSec`] = measure(() => {
    const rng = new Rng(1);
    const f = fullFrontier(capacity, urls, rng);
    const incoming = fresh(0);
    return (count) => {
      for (let i = 0; i < count; i++) f.add({ url: incoming[i], score: 0.5 + (i / count) * 0.5 + rng.next() * 0.01, depth: 2 });
    };
  }, adds);

  out[`add-random.${capacity}.opsPerSec`] = measure(() => {
    const rng = new Rng(2);
    const f = fullFrontier(capacity, urls, rng);
    const incoming = fresh(0);
    return (count) => {
      for (let i = 0; i < count; i++) f.add({ url: incoming[i], score: rng.next(), depth: 2 });
    };
  }, adds);

  out[`raise.${capacity}.opsPerSec`] = measure(() => {
    const rng = new Rng(4);
    const scores = new Float64Array(capacity);
    const f = fullFrontier(capacity, urls, rng, scores);
    return (count) => {
      for (let i = 0; i < count; i++) {
        const k = rng.int(capacity);
        scores[k] += 0.001 + rng.next() * 0.01;
        if (f.add({ url: urls[k], score: scores[k], depth: 3 }) !== 'raised') throw new Error('raise expected');
      }
    };
  }, adds);
  return out;
}

/**
 * Best-N-First choices per second (best(16, ready) and the removal of one of them); the frontier is refilled (untimed)
 * between stretches so it stays near capacity. `busy`: half the sites may not be contacted now.
 */
function measureDraw(capacity: number, urls: string[], busy: boolean): number {
  const rates: number[] = [];
  const draws = 2000;
  // URLs look like https://www.<word>-<n>.example.org/...: the parity of the host's last character splits the sites.
  const ready = busy ? (url: string) => url.charCodeAt(url.indexOf('.example.org') - 1) % 2 === 0 : () => true;
  for (let run = 0; run < RUNS + 1; run++) {
    const rng = new Rng(3);
    const f = fullFrontier(capacity, urls, rng);
    let next = 0;
    let spent = 0;
    let done = 0;
    while (done < draws) {
      const stretch = Math.min(draws - done, Math.max(1, Math.floor(capacity / 2)));
      const t0 = performance.now();
      for (let r = 0; r < stretch; r++) {
        const best = f.best(16, ready);
        f.remove(best[rng.int(best.length)].url);
      }
      spent += performance.now() - t0;
      done += stretch;
      while (f.size < capacity) f.add({ url: `${urls[next % urls.length]}#r${next++}`, score: rng.next(), depth: 2 });
    }
    if (run > 0) rates.push((draws / spent) * 1000);
  }
  return Math.round(median(rates));
}

/** One memory sample in its own call frame, so nothing of it is still referenced when the next one starts. */
function memorySample(gc: () => void, seed: number): { strings: number; structures: number } {
  gc();
  const base = process.memoryUsage().heapUsed;
  const rng = new Rng(seed);
  const urls: string[] = new Array(MEMORY_URLS);
  for (let i = 0; i < MEMORY_URLS; i++) urls[i] = makeUrl(rng, i);
  // V8 frees objects that no later code reads, even while a variable still names them: keep them reachable.
  const keep: unknown[] = [urls];
  gc();
  const withStrings = process.memoryUsage().heapUsed;
  const f = new PriorityFrontier(MEMORY_URLS);
  for (let i = 0; i < MEMORY_URLS; i++) f.add({ url: urls[i], score: rng.next(), depth: 1 });
  keep.push(f);
  gc();
  const withFrontier = process.memoryUsage().heapUsed;
  if (f.size !== MEMORY_URLS || keep.length !== 2) throw new Error('frontier lost entries');
  return { strings: (withStrings - base) / MEMORY_URLS, structures: (withFrontier - withStrings) / MEMORY_URLS };
}

/** Heap bytes per queued URL at 100,000 URLs: the strings, and the frontier's structures on top (median of 3). */
function measureMemory(gc: () => void): Record<string, number> {
  const samples = [0, 1, 2].map((run) => memorySample(gc, 100 + run));
  const strings = median(samples.map((s) => s.strings));
  const structures = median(samples.map((s) => s.structures));
  const rng = new Rng(100);
  let chars = 0;
  for (let i = 0; i < 1000; i++) chars += makeUrl(rng, i).length;
  return {
    'memory.meanUrlChars': Math.round(chars / 1000),
    'memory.urlStringBytesPerUrl': Math.round(strings),
    'memory.frontierBytesPerEntry': Math.round(structures),
    'memory.totalBytesPerQueuedUrl': Math.round(strings + structures),
  };
}

/** Runs the whole benchmark and returns its figures (ops/s and bytes), keyed `<measure>.<capacity>.<unit>`. */
export async function benchFrontier(): Promise<Record<string, number>> {
  const gc = getGc();
  const rng = new Rng(2026);
  const total = 100_000 + 100_000 + 1000;
  const urls: string[] = new Array(total);
  for (let i = 0; i < total; i++) urls[i] = makeUrl(rng, i);
  const out: Record<string, number> = {};
  for (const capacity of CAPACITIES) {
    Object.assign(out, benchCapacity(capacity, urls));
    out[`draw16.${capacity}.opsPerSec`] = measureDraw(capacity, urls, false);
    out[`draw16busy.${capacity}.opsPerSec`] = measureDraw(capacity, urls, true);
    gc();
  }
  urls.length = 0;
  Object.assign(out, measureMemory(gc));
  return out;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  benchFrontier().then(
    (r) => {
      const rows: string[] = [];
      for (const capacity of CAPACITIES) {
        rows.push(
          `capacity ${String(capacity).padStart(7)}: ` +
            ['add-evict', 'add-random', 'draw16', 'draw16busy', 'raise']
              .map((m) => `${m} ${r[`${m}.${capacity}.opsPerSec`].toLocaleString('en-US')}/s`)
              .join(', '),
        );
      }
      rows.push(
        `memory at ${MEMORY_URLS.toLocaleString('en-US')} URLs (mean ${r['memory.meanUrlChars']} chars): ` +
          `${r['memory.totalBytesPerQueuedUrl']} B per queued URL = ${r['memory.urlStringBytesPerUrl']} B string + ` +
          `${r['memory.frontierBytesPerEntry']} B frontier structures`,
      );
      process.stdout.write(`PriorityFrontier (median of ${RUNS} runs)\n${rows.join('\n')}\n`);
    },
    (error) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}

/**
 * The library's search over 10,000 stored pages (a benchmark, not a test): 20 crawls of 500 pages, each page with a
 * title, a snippet and a main text of ~3,500-4,000 characters of the test web's running text (its topic words and
 * general words), stored through the IndexedDB store (fake-indexeddb under Node) and indexed by the Library.
 *
 * Figures:
 * - indexing: the 10,000 pages added crawl by crawl as runs add them, then every segment written to the store;
 * - reload: a new Library over the same store loading the stored segments (what a new service worker does on its
 *   first search after a stop), and the pages it found in them;
 * - search: median and 90th percentile of `search(word, 50)` for (a) a word only one page's main text holds (the page
 *   must be found: checked for every query), (b) a topic word thousands of pages hold, (c) two words, the last a
 *   prefix (typing in the search box).
 *
 * Run: npx tsx bench/library.ts [--pages N]
 */
import 'fake-indexeddb/auto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { type CrawlRecord, createIdbStore, Library } from '../lib/app/node';
import { MAIN_TEXT_CHARS, type PageResult } from '../lib/engine';
import { paragraph, Mulberry32, sentence } from '../harness/testweb/generate';
import { TOPIC_CATALOG } from '../harness/testweb/vocab';

const PER_CRAWL = 500;

/** A callable garbage collection without a command-line flag (as bench/frontier.ts), for the heap figure. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
const QUERIES = 60;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.9)];
}

function record(id: string, i: number, keywords: string): CrawlRecord {
  return {
    version: 2,
    id,
    name: `Crawl ${i}`,
    topic: { keywords },
    seeds: ['https://site0.example/'],
    source: { kind: 'manual' },
    settings: {
      strategy: 'best-n-first',
      params: {},
      maxPages: PER_CRAWL,
      maxBuffer: 256,
      politenessDelayMs: 0,
      stayOnSeedSites: false,
      seed: i,
    },
    status: 'done',
    createdAt: i,
    updatedAt: i,
    stats: {
      pagesEvaluated: PER_CRAWL,
      maxPages: PER_CRAWL,
      errors: 0,
      frontierSize: 0,
      fetchesInFlight: 0,
      elapsedMs: 0,
      meanScore: 0.3,
    },
  };
}

/** The unique word of page n (letters only, so no tokenizer splits it). */
function uniqueWord(n: number): string {
  let s = '';
  for (let x = n + 1; x > 0; x = Math.floor(x / 26)) s += String.fromCharCode(97 + (x % 26));
  return `qx${s}zz`;
}

export async function benchLibrary(totalPages = 10_000): Promise<Record<string, number>> {
  const rng = new Mulberry32(11);
  const dbName = `forager-bench-library-${process.pid}`;
  const store = createIdbStore(dbName);
  const crawls = Math.ceil(totalPages / PER_CRAWL);
  const batches: { id: string; pages: PageResult[] }[] = [];
  let textChars = 0;
  for (let c = 0; c < crawls; c++) {
    const spec = TOPIC_CATALOG[c % TOPIC_CATALOG.length];
    const topic = { ...spec, vocabulary: [...spec.vocabulary] };
    const id = `crawl-${c}`;
    await store.putCrawl(record(id, c, topic.keywords));
    const pages: PageResult[] = [];
    for (let i = 0; i < PER_CRAWL && c * PER_CRAWL + i < totalPages; i++) {
      const n = c * PER_CRAWL + i;
      let main = '';
      while (main.length < MAIN_TEXT_CHARS - 500) main += `${paragraph(rng, rng.next() < 0.8 ? topic : null, 0.3)} `;
      main = `${main.slice(0, MAIN_TEXT_CHARS - 20)} ${uniqueWord(n)}`;
      textChars += main.length;
      pages.push({
        url: `https://site${n % 40}.example/${topic.id}/${n}.html`,
        title: sentence(rng, topic, 0.5, 6),
        snippet: sentence(rng, topic, 0.5, 30),
        mainText: main,
        score: rng.next(),
        depth: 1 + (n % 5),
        fetchedAt: 1_700_000_000_000 + n,
        isSeed: false,
      });
    }
    await store.addPages(id, pages);
    batches.push({ id, pages });
  }

  // Indexing, as runs store their pages (50 at a time), then the segments written.
  const library = new Library({ store, saveDelayMs: 3_600_000 });
  await library.load();
  let t0 = performance.now();
  const indexCpu = process.cpuUsage();
  for (const { id, pages } of batches) for (let i = 0; i < pages.length; i += 50) await library.add(id, pages.slice(i, i + 50));
  const indexMs = performance.now() - t0;
  const indexCpuUsed = process.cpuUsage(indexCpu);
  t0 = performance.now();
  await library.flush();
  const saveMs = performance.now() - t0;
  let storedChars = 0;
  for (const { id } of batches) storedChars += (await store.getSearchIndex(id))?.data.length ?? 0;

  // A new service worker: a new Library (and a new connection) over the same database.
  store.close();
  const reopened = createIdbStore(dbName);
  const reloaded = new Library({ store: reopened, saveDelayMs: 3_600_000 });
  const gc = collector();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  t0 = performance.now();
  const loadCpu = process.cpuUsage();
  await reloaded.load();
  const loadMs = performance.now() - t0;
  const loadCpuUsed = process.cpuUsage(loadCpu);
  const loadedPages = await reloaded.pageCount();
  gc();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

  // Wall time and this process's CPU time per search: on a shared, loaded machine the wall time mostly measures the
  // wait for a core, the CPU time what a search costs.
  const time = async (q: string, into: { wall: number[]; cpu: number[] }, check?: (urls: string[]) => boolean) => {
    const c = process.cpuUsage();
    const t = performance.now();
    const hits = await reloaded.search(q, 50);
    into.wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    into.cpu.push((used.user + used.system) / 1000);
    if (check && !check(hits.map((h) => h.url))) throw new Error(`the search for ${JSON.stringify(q)} missed its page`);
  };
  const unique = { wall: [] as number[], cpu: [] as number[] };
  const common = { wall: [] as number[], cpu: [] as number[] };
  const typed = { wall: [] as number[], cpu: [] as number[] };
  for (let k = 0; k < QUERIES; k++) {
    const n = rng.int(totalPages);
    const page = batches[Math.floor(n / PER_CRAWL)].pages[n % PER_CRAWL];
    await time(uniqueWord(n), unique, (urls) => urls[0] === page.url);
    const topic = TOPIC_CATALOG[rng.int(Math.min(crawls, TOPIC_CATALOG.length))];
    const word = topic.vocabulary[rng.int(topic.vocabulary.length)];
    await time(word, common);
    const other = topic.vocabulary[rng.int(topic.vocabulary.length)];
    await time(`${word} ${other.slice(0, Math.max(3, other.length - 2))}`, typed);
  }
  reopened.close();

  return {
    'pages stored': totalPages,
    'main text, mean characters per page': Math.round(textChars / totalPages),
    'indexing all pages, ms': Math.round(indexMs),
    'indexing all pages, CPU ms': Math.round((indexCpuUsed.user + indexCpuUsed.system) / 1000),
    'writing every segment to the store, ms': Math.round(saveMs),
    'stored index, MB (serialized)': storedChars / 1e6,
    'reload after a worker stop (load stored segments), ms': Math.round(loadMs),
    'reload after a worker stop, CPU ms': Math.round((loadCpuUsed.user + loadCpuUsed.system) / 1000),
    'pages searchable after the reload': loadedPages,
    'heap of the loaded index, MB': heapMb,
    'search, a word of one page (found), median ms': median(unique.wall),
    'search, a word of one page (found), median CPU ms': median(unique.cpu),
    'search, a word of one page, p90 ms': p90(unique.wall),
    'search, a topic word, median ms': median(common.wall),
    'search, a topic word, median CPU ms': median(common.cpu),
    'search, a topic word, p90 ms': p90(common.wall),
    'search, two words (last a prefix), median ms': median(typed.wall),
    'search, two words (last a prefix), median CPU ms': median(typed.cpu),
    'search, two words (last a prefix), p90 ms': p90(typed.wall),
    'load average (1 min) at the end': loadavg()[0],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--pages');
  const pages = i > 0 ? Number(process.argv[i + 1]) : 10_000;
  const figures = await benchLibrary(pages);
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(56)} ${Number.isInteger(v) ? v : v.toFixed(2)}`);
}

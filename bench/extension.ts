/**
 * The extension against the command line, side by side: the same crawl of the same generated web (same topic,
 * seeds, strategy, budget, frontier size, 6 requests in flight, robots on, politeness off), once inside Chromium with the
 * built extension (service worker + offscreen Worker evaluator + IndexedDB), once in Node with lib/engine/crawl and
 * createFetcher. Runs alternate (extension, CLI, extension, ...) so machine load hits both alike; medians of 3.
 *
 * Also measures the popup while results stream in: its longest main-thread task (PerformanceObserver 'longtask',
 * which reports tasks over 50 ms; 0 means none was that long).
 *
 * And what the requests alone cost, to tell Chrome's share from Forager's: right after each extension crawl, the
 * pages it crawled are fetched again, 6 at a time as the crawl keeps them (bodies read, nothing evaluated or
 * stored), once from the service worker and once from Node. On Linux it also reads the CPU each run spent per page,
 * by process and by thread of the extension's renderer (bench/cpu.ts).
 *
 * And the time from the click on Crawl to the first result row that is not a search result (a "fresh" badge in the
 * popup), with politeness on (1 s per site), as a user starts a crawl (`--first-row`).
 *
 *   npx tsx bench/extension.ts            (builds the extension with FORAGER_E2E=1 into .output/e2e first)
 *   npx tsx bench/extension.ts --no-build --latency 50 --n 8
 *   npx tsx bench/extension.ts --no-build --latency 50 --first-row
 *   npx tsx bench/extension.ts --no-build --latency 50 --first-row --before OTHER/.output/e2e/chrome-mv3 [--runs 7]
 *
 * `--latency MS` makes the test web wait that long before each answer, on both sides alike: over bare loopback the
 * ratio measures per-request overhead (Chrome's fetch from a service worker vs Node's), while on the real web every
 * request also waits tens to hundreds of milliseconds for the network.
 */
import path from 'node:path';
import type { Page, WebWorker } from 'puppeteer';
import { createCrawl } from '../lib/engine';
import { createFetcher } from '../lib/engine';
import { DEFAULT_USER_AGENT, HTML_ACCEPT, requestInit } from '../lib/engine';
import { FORAGER_DEFAULTS } from '../lib/engine';
import type { CrawlRecord } from '../lib/app/node';
import { seedsFor, topicQuery } from '../harness/testweb/generate';
import { startTestWeb, type RunningTestWeb } from '../harness/testweb/server';
import {
  buildExtension,
  launchChromium,
  ROOT,
  startDemoSerp,
  startFromForm,
  tabIdOf,
  tid,
  waitForStatus,
  type ChromiumSession,
} from '../harness/browsers';
import { perPage, snapshot, type CpuTimes } from './cpu';
import { median } from './stats';

export interface ExtensionBenchOptions {
  /** Pages per crawl. Default 300. */
  maxPages?: number;
  /** Runs per side. Default 3. */
  runs?: number;
  /** Build the extension first (into .output/e2e). Default true. */
  build?: boolean;
  /** The test web waits this long before each answer (both sides). Default 0. */
  latencyMs?: number;
  /** Forager's N on both sides. Default the popup's (forager's default). */
  n?: number;
}

/** The web every run crawls (the same as bench/crawl.ts). */
const WEB = { seed: 2, pagesPerTopic: 200 } as const;
/** What the extension uses (entrypoints/background.ts): the CLI side copies it. */
const CONCURRENCY = 6;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_BUFFER = 256;
// The popup's default strategy and N (lib/app/rules/settings.ts, lib/engine/strategies/forager.ts); `--n` sets N on both sides.
const STRATEGY = { name: 'forager', seed: 1 };
const DEFAULT_N = FORAGER_DEFAULTS.n;

interface SideResult {
  pages: number;
  /** Summed over pages (they overlap), divided by pages: where the time goes. */
  evaluateMsPerPage: number;
  fetchMsPerPage: number;
  /** The crawl's own elapsed time (both sides count it the same way: lib/engine/crawl's stats). */
  elapsedMs: number;
  pagesPerSecond: number;
  /** CPU ms per page by process group during the crawl (bench/cpu.ts); null off Linux. */
  cpu: CpuTimes | null;
}

/** The same requests with nothing else: the crawl's pages fetched again, 6 at a time, bodies read, no evaluation. */
interface FetchFloor {
  pagesPerSecond: number;
  cpu: CpuTimes | null;
}

interface ExtensionRun extends SideResult {
  /** Chrome's requests alone, from the service worker, right after the crawl (same web, same URLs). */
  floor: FetchFloor;
  /** The same in Node (fetch, as the command line's fetcher uses). */
  nodeFloor: FetchFloor;
  /** Click on Crawl to "done" shown in the popup. */
  wallMs: number;
  longestTaskMs: number;
  longTasks: number;
}

/** One crawl in Node: lib/engine/crawl + createFetcher, settings as the extension's. */
async function cliRun(maxPages: number, latencyMs: number, n: number, browserPid?: number): Promise<SideResult> {
  const web = await startTestWeb({ ...WEB, delayMs: latencyMs });
  try {
    const topic = web.web.topics[0].id;
    // As in the extension, where the start form's ticks allow the results page's hosts and ports (its 8 results'
    // sites of the test web) and no other private host.
    const ticked = new Set(seedsFor(web.web, topic, 8).map((p) => new URL(web.urlOf(p)).host));
    const policy = { allowPrivate: false, privateHosts: [...ticked] };
    const run = createCrawl({
      topic: topicQuery(web.web, topic),
      seeds: seedsFor(web.web, topic, 3).map((p) => web.urlOf(p)),
      strategy: { ...STRATEGY, params: { n } },
      limits: { maxPages, maxBuffer: MAX_BUFFER },
      fetcher: createFetcher({
        politenessDelayMs: 0,
        maxInFlight: CONCURRENCY,
        timeoutMs: FETCH_TIMEOUT_MS,
        respectRobots: true,
        urlPolicy: policy,
      }),
    });
    let pages = 0;
    const cpu0 = snapshot(browserPid);
    for await (const e of run.events()) if (e.type === 'page') pages++;
    const cpu = perPage(cpu0, snapshot(browserPid), pages);
    const stats = run.stats();
    const elapsedMs = stats.elapsedMs;
    return {
      pages,
      elapsedMs,
      pagesPerSecond: pages / (elapsedMs / 1000),
      evaluateMsPerPage: (stats.timings?.evaluateMs ?? NaN) / pages,
      fetchMsPerPage: (stats.timings?.fetchMs ?? NaN) / pages,
      cpu,
    };
  } finally {
    await web.close();
  }
}

/** The crawler's request options as plain data (no signal), for the floor probes. */
const FLOOR_INIT = (() => {
  const { signal: _signal, ...init } = requestInit(DEFAULT_USER_AGENT, HTML_ACCEPT, new AbortController().signal);
  return init;
})();

/**
 * Fetches `urls` keeping `n` requests in flight (each slot takes the next URL as soon as its body is read), as the
 * crawl keeps its fetches, without evaluation, storage or strategy. Written as a string: it runs in the service worker
 * as it is, and in Node.
 */
const FLOOR_PROBE = `async (urls, n, init) => {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < urls.length) {
      const r = await fetch(urls[next++], { ...init, signal: AbortSignal.timeout(10000) });
      await r.arrayBuffer();
    }
  }));
  return performance.now() - t0;
}`;

async function fetchFloor(urls: string[], n: number, browserPid: number | undefined, inWorker?: WebWorker): Promise<FetchFloor> {
  const call = `(${FLOOR_PROBE})(${JSON.stringify(urls)}, ${n}, ${JSON.stringify(FLOOR_INIT)})`;
  const cpu0 = snapshot(browserPid);
  // The same probe text runs in the service worker (puppeteer) and here, so both sides fetch with identical code.
  // biome-ignore lint/security/noGlobalEval: bench-only, evaluates this file's own FLOOR_PROBE source
  const ms = inWorker ? ((await inWorker.evaluate(call)) as number) : ((await globalThis.eval(call)) as number);
  return { pagesPerSecond: urls.length / (ms / 1000), cpu: perPage(cpu0, snapshot(browserPid), urls.length) };
}

/** Records the popup's long tasks from its first line of script on. */
function observeLongTasks(): void {
  const w = window as unknown as { __longtasks: { start: number; duration: number }[] };
  w.__longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no longtask support: nothing recorded
  }
}

/** A results page whose results are the CLI's seeds, open in a tab, and the popup for that tab, at its start form. */
async function openPopupOnSerp(
  chromium: ChromiumSession,
  latencyMs: number,
  beforeLoad?: () => void,
): Promise<{ web: RunningTestWeb; worker: WebWorker; popup: Page; close(): Promise<void> }> {
  const web = await startTestWeb({ ...WEB, delayMs: latencyMs });
  const serp = await startDemoSerp(web, { topicId: web.web.topics[0].id, results: 3 });
  let popup: Page | undefined;
  const tab = await chromium.browser.newPage();
  const close = async () => {
    await popup?.close().catch(() => {});
    await tab.close().catch(() => {});
    await serp.close();
    await web.close();
  };
  try {
    const worker = await chromium.worker();
    await tab.goto(serp.url, { waitUntil: 'domcontentloaded' });
    const tabId = await tabIdOf(worker, serp.url);
    popup = await chromium.browser.newPage();
    await popup.setViewport({ width: 460, height: 640 });
    if (beforeLoad) await popup.evaluateOnNewDocument(beforeLoad);
    await popup.goto(`chrome-extension://${chromium.extensionId}/popup.html?tab=${tabId}`, { waitUntil: 'domcontentloaded' });
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    return { web, worker, popup, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** One crawl in the extension, started from the popup on a results page whose results are the CLI's seeds. */
async function extensionRun(chromium: ChromiumSession, maxPages: number, latencyMs: number, n: number): Promise<ExtensionRun> {
  const browserPid = chromium.browser.process()?.pid;
  const { worker, popup, close } = await openPopupOnSerp(chromium, latencyMs, observeLongTasks);
  try {
    // The strategy's parameters are the user's defaults (options page, storage.local): N set there, the popup reloaded.
    if (n !== DEFAULT_N) {
      await worker.evaluate(async (value) => {
        const c = (globalThis as unknown as { chrome: { storage: { local: { set(items: object): Promise<void> } } } }).chrome;
        await c.storage.local.set({ 'forager.settings': { params: { n: value } } });
      }, n);
      await popup.reload({ waitUntil: 'domcontentloaded' });
      await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    }
    const startedAt = await popup.evaluate(() => performance.now());
    const t0 = Date.now();
    const cpu0 = snapshot(browserPid);
    const id = await startFromForm(popup, { maxPages, politenessDelayMs: 0 });
    const status = await waitForStatus(popup, ['done', 'stopped', 'error'], 600_000);
    const wallMs = Date.now() - t0;
    const cpu1 = snapshot(browserPid);
    if (status !== 'done') throw new Error(`extension crawl ended ${status}`);
    const record = (await worker.evaluate(async (crawlId) => {
      const f = (globalThis as unknown as { forager: { store: { getCrawl(id: string): Promise<unknown> } } }).forager;
      return f.store.getCrawl(crawlId);
    }, id)) as CrawlRecord;
    const recordN = record.settings.params.n ?? DEFAULT_N;
    if (record.settings.maxBuffer !== MAX_BUFFER || record.settings.strategy !== STRATEGY.name || recordN !== n) {
      throw new Error('the extension crawl did not use the CLI settings');
    }
    const tasks = (
      await popup.evaluate(() => (window as unknown as { __longtasks: { start: number; duration: number }[] }).__longtasks)
    ).filter((t) => t.start >= startedAt);
    const pages = record.stats.pagesEvaluated;
    const urls = (await worker.evaluate(
      async (crawlId, limit) => {
        const f = (
          globalThis as unknown as { forager: { store: { getPages(id: string, o: object): Promise<{ url: string }[]> } } }
        ).forager;
        return (await f.store.getPages(crawlId, { limit })).map((p) => p.url);
      },
      id,
      maxPages,
    )) as string[];
    const floor = await fetchFloor(urls, CONCURRENCY, browserPid, worker);
    const nodeFloor = await fetchFloor(urls, CONCURRENCY, browserPid);
    return {
      floor,
      nodeFloor,
      cpu: perPage(cpu0, cpu1, pages),
      pages,
      elapsedMs: record.stats.elapsedMs,
      pagesPerSecond: pages / (record.stats.elapsedMs / 1000),
      evaluateMsPerPage: (record.stats.timings?.evaluateMs ?? NaN) / pages,
      fetchMsPerPage: (record.stats.timings?.fetchMs ?? NaN) / pages,
      wallMs,
      longestTaskMs: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
      longTasks: tasks.length,
    };
  } finally {
    await close();
  }
}

/**
 * Pages per second of the extension (in Chromium) and of the command line on the same crawl, medians of `runs`,
 * their ratio (target >= 0.5), and the popup's longest main-thread task while results stream (target <= 50 ms).
 */
export async function benchExtension(options: ExtensionBenchOptions = {}): Promise<Record<string, number>> {
  const maxPages = options.maxPages ?? 300;
  const runs = options.runs ?? 3;
  const latencyMs = options.latencyMs ?? 0;
  const n = options.n ?? DEFAULT_N;
  const outDir = path.join(ROOT, '.output/e2e');
  const dir =
    options.build === false ? path.join(outDir, 'chrome-mv3') : await buildExtension({ browser: 'chrome', e2e: true, outDir });
  const chromium = await launchChromium(dir);
  const ext: ExtensionRun[] = [];
  const cli: SideResult[] = [];
  try {
    // One warm-up crawl each (browser caches, JIT, the offscreen document), not counted.
    await extensionRun(chromium, 30, latencyMs, n);
    const browserPid = chromium.browser.process()?.pid;
    await cliRun(30, latencyMs, n, browserPid);
    for (let i = 0; i < runs; i++) {
      ext.push(await extensionRun(chromium, maxPages, latencyMs, n));
      cli.push(await cliRun(maxPages, latencyMs, n, browserPid));
    }
  } finally {
    await chromium.close();
  }
  const extPps = median(ext.map((r) => r.pagesPerSecond));
  const cliPps = median(cli.map((r) => r.pagesPerSecond));
  return {
    'pages per crawl': maxPages,
    'test web latency per answer, ms': latencyMs,
    "forager's N (greediness)": n,
    'extension pages/s (median)': extPps,
    'command line pages/s (median)': cliPps,
    'extension / command line (target >= 0.9 at 50 ms)': extPps / cliPps,
    'extension evaluate ms/page, overlapping (median)': median(ext.map((r) => r.evaluateMsPerPage)),
    'command line evaluate ms/page, overlapping (median)': median(cli.map((r) => r.evaluateMsPerPage)),
    'extension fetch ms/page, overlapping (median)': median(ext.map((r) => r.fetchMsPerPage)),
    'command line fetch ms/page, overlapping (median)': median(cli.map((r) => r.fetchMsPerPage)),
    'extension pages/s, click to done shown (median)': median(ext.map((r) => r.pages / (r.wallMs / 1000))),
    'popup longest task while streaming, ms (max over runs; 0 = none over 50 ms)': Math.max(...ext.map((r) => r.longestTaskMs)),
    'popup long tasks (> 50 ms) while streaming (median)': median(ext.map((r) => r.longTasks)),
    'requests alone, 6 in flight: service worker pages/s (median)': median(ext.map((r) => r.floor.pagesPerSecond)),
    'requests alone, 6 in flight: Node pages/s (median)': median(ext.map((r) => r.nodeFloor.pagesPerSecond)),
    'requests alone: service worker / Node':
      median(ext.map((r) => r.floor.pagesPerSecond)) / median(ext.map((r) => r.nodeFloor.pagesPerSecond)),
    ...cpuFigures(
      'extension crawl',
      ext.map((r) => r.cpu),
    ),
    ...cpuFigures(
      'command line crawl',
      cli.map((r) => r.cpu),
    ),
    ...cpuFigures(
      'service worker requests alone',
      ext.map((r) => r.floor.cpu),
    ),
    ...cpuFigures(
      'Node requests alone',
      ext.map((r) => r.nodeFloor.cpu),
    ),
  };
}

/**
 * One crawl started from the popup with politeness on: ms from the click on Crawl to the first result row with a
 * "fresh" badge (a page that was not among the search results), measured inside the popup; the crawl is then stopped.
 */
async function firstFreshRowRun(chromium: ChromiumSession, latencyMs: number, politenessDelayMs: number): Promise<number> {
  const { popup, close } = await openPopupOnSerp(chromium, latencyMs);
  try {
    await popup.evaluate(() => {
      const w = window as unknown as { __clickAt?: number; __freshAt?: number };
      document.addEventListener(
        'click',
        (e) => {
          if ((e.target as Element | null)?.closest?.('[data-testid="crawl-button"]')) w.__clickAt ??= performance.now();
        },
        true,
      );
      new MutationObserver(() => {
        if (w.__freshAt === undefined && document.querySelector('[data-testid="results"] [data-testid="fresh-badge"]')) {
          w.__freshAt = performance.now();
        }
      }).observe(document.body, { subtree: true, childList: true });
    });
    await startFromForm(popup, { maxPages: 50, politenessDelayMs });
    await popup.waitForSelector(`${tid('results')} ${tid('fresh-badge')}`, { timeout: 60_000 });
    const ms = await popup.evaluate(() => {
      const w = window as unknown as { __clickAt?: number; __freshAt?: number };
      return (w.__freshAt ?? Number.NaN) - (w.__clickAt ?? Number.NaN);
    });
    await popup.click(tid('stop')).catch(() => {});
    await waitForStatus(popup, ['done', 'stopped', 'error'], 60_000).catch(() => {});
    return ms;
  } finally {
    await close();
  }
}

/**
 * Median ms from the click on Crawl to the first fresh result row (politeness on, 1 s per site), over `runs`. With
 * `before` (another build of the extension, e.g. one made from an older commit) both run in one go, each in its own
 * Chromium, alternating run by run so machine load hits both alike: "before" and "after" side by side.
 */
export async function benchFirstFreshRow(
  options: { latencyMs?: number; runs?: number; build?: boolean; before?: string } = {},
): Promise<Record<string, number>> {
  const latencyMs = options.latencyMs ?? 50;
  const outDir = path.join(ROOT, '.output/e2e');
  const dir =
    options.build === false ? path.join(outDir, 'chrome-mv3') : await buildExtension({ browser: 'chrome', e2e: true, outDir });
  const sides: { label: string; chromium: ChromiumSession; times: number[] }[] = [];
  try {
    sides.push({ label: options.before ? 'after (this build)' : 'this build', chromium: await launchChromium(dir), times: [] });
    if (options.before) sides.push({ label: 'before', chromium: await launchChromium(options.before), times: [] });
    for (const side of sides) await firstFreshRowRun(side.chromium, latencyMs, 1000); // warm-up, not counted
    for (let i = 0; i < (options.runs ?? 5); i++)
      for (const side of sides) side.times.push(await firstFreshRowRun(side.chromium, latencyMs, 1000));
  } finally {
    for (const side of sides) await side.chromium.close();
  }
  const out: Record<string, number> = {
    'test web latency per answer, ms': latencyMs,
    'politeness, ms between requests to a site': 1000,
  };
  for (const side of sides) {
    out[`${side.label}: click on Crawl to the first fresh row, ms (median; aim < 1000)`] = median(side.times);
    out[`${side.label}: click on Crawl to the first fresh row, ms (max)`] = Math.max(...side.times);
  }
  return out;
}

/** Median CPU ms per page of each process group over runs, and their total; nothing when not measured. */
function cpuFigures(label: string, runs: (CpuTimes | null)[]): Record<string, number> {
  const measured = runs.filter((r): r is CpuTimes => r !== null);
  if (measured.length === 0) return {};
  const keys = [...new Set(measured.flatMap((r) => Object.keys(r)))].sort();
  const out: Record<string, number> = {};
  out[`${label}: CPU ms/page, all processes`] = median(measured.map((r) => Object.values(r).reduce((a, b) => a + b, 0)));
  for (const k of keys) {
    const v = median(measured.map((r) => r[k] ?? 0));
    if (v >= 0.05) out[`${label}: CPU ms/page, ${k}`] = v;
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--latency');
  const latencyMs = at > 0 ? Number(process.argv[at + 1]) : 0;
  if (!(latencyMs >= 0)) throw new Error('--latency takes a number of milliseconds');
  const atN = process.argv.indexOf('--n');
  const n = atN > 0 ? Number(process.argv[atN + 1]) : undefined;
  if (n !== undefined && !(Number.isInteger(n) && n > 0)) throw new Error('--n takes a positive whole number');
  const build = !process.argv.includes('--no-build');
  const atBefore = process.argv.indexOf('--before');
  const before = atBefore > 0 ? path.resolve(process.argv[atBefore + 1]) : undefined;
  const atRuns = process.argv.indexOf('--runs');
  const runs = atRuns > 0 ? Number(process.argv[atRuns + 1]) : undefined;
  const figures = process.argv.includes('--first-row')
    ? await benchFirstFreshRow({ build, latencyMs, before, runs })
    : await benchExtension({ build, latencyMs, n });
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(90)} ${Number.isInteger(v) ? v : v.toFixed(3)}`);
  process.exit(0);
}

/**
 * Forager against a peer: Crawlee's CheerioCrawler (@crawlee/cheerio 3), side by side on the test web, alternated
 * run by run (Forager, Crawlee, Forager, ...) so machine load hits both alike; medians.
 *
 * Both: the same seeds (topic 0 of the test web, seed 2, 200 pages per topic), 8 requests in flight, politeness off,
 * 600 pages, no retries, a 5 s timeout per request. Forager runs its default strategy and reads robots.txt (one
 * request per site); Crawlee enqueues every link of the local web (CheerioCrawler with strategy 'all' and a filter
 * that keeps it on 127.0.0.1). The test web runs in a child process (harness/testweb/serve.ts --control), so the CPU
 * this process spends per page is the crawler's own: Forager parses, scores and queues links; Crawlee parses.
 *
 * Latencies (harness/testweb/latency.ts): 0 ms (bare loopback), 50 ms on every answer, and heavy-tailed (most sites
 * fast, one site 1-5 s per page, one site where a fifth of the pages never answer).
 *
 * The limit the sites allow: with 8 requests in flight, a crawler cannot get pages faster than 8 x pages / (the time
 * its requests spend waiting for answers), each request counted for the latency it was given (a never-answered one
 * for the 5 s timeout). "Share of limit" is pages/s over that: how busy the crawler keeps its 8 slots. Over bare
 * loopback there is no such limit (the CPU is), so it is not given.
 *
 * `--slow-site-off` adds a third crawler to the rotation: Forager with the fetcher's slow-site rule off (any site may
 * take every slot), to measure that rule side by side.
 *
 *   npx tsx bench/peer.ts [--runs N] [--latency 0,50,heavy-tail] [--pages N] [--slow-site-off]
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createCrawl, createFetcher } from '../lib/engine';
import { median } from './stats';

let PAGES = 600;
const IN_FLIGHT = 8;
const TIMEOUT_MS = 5000;
const WEB_SEED = 2;
const PAGES_PER_TOPIC = 200;

export interface WebInfo {
  origins: Record<string, string>;
  topics: Record<string, { keywords: string; language: string; seeds: string[] }>;
  control: string;
}

export interface ServedRequest {
  url: string;
  site: string;
  time: number;
  delayMs: number | null;
}

/** A test web in a child process, with the given latency model. */
export async function startWeb(latency: string): Promise<{ info: WebInfo; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'harness/testweb/serve.ts',
      '--control',
      '--seed',
      String(WEB_SEED),
      '--pages-per-topic',
      String(PAGES_PER_TOPIC),
      '--latency',
      latency,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`test web exited (${code})`)));
    child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
  });
  return { info: JSON.parse(line) as WebInfo, child };
}

export async function served(info: WebInfo): Promise<ServedRequest[]> {
  return (await (await fetch(`${info.control}/requests`)).json()) as ServedRequest[];
}

export interface RunResult {
  pages: number;
  requests: number;
  wallMs: number;
  cpuMsPerPage: number;
  /** Time the page requests spent waiting for answers (never-answered ones count the timeout), ms. */
  waitMs: number;
}

/** Forager's default crawl, engine and fetcher as the command line runs them (`slowSite: false`: the rule off). */
async function foragerRun(info: WebInfo, pages = PAGES, slowSite?: false): Promise<RunResult> {
  const topic = Object.values(info.topics)[0];
  const fetcher = createFetcher({
    slowSite,
    politenessDelayMs: 0,
    maxInFlight: IN_FLIGHT,
    timeoutMs: TIMEOUT_MS,
    maxRedirects: 5,
    urlPolicy: { allowPrivate: 'loopback' },
  });
  const crawl = createCrawl({
    topic: { keywords: topic.keywords, language: topic.language },
    seeds: topic.seeds,
    strategy: { name: 'forager', seed: 1 },
    // No retries, as Crawlee's maxRequestRetries: 0 below: both crawlers give each URL one attempt.
    limits: { maxPages: pages, maxBuffer: 256, retries: 0 },
    fetcher,
  });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let got = 0;
  for await (const e of crawl.events()) if (e.type === 'page') got++;
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  fetcher.close();
  return {
    pages: got,
    requests: fetcher.stats().requests,
    wallMs,
    cpuMsPerPage: (cpu.user + cpu.system) / 1000 / got,
    waitMs: 0,
  };
}

/** Crawlee's CheerioCrawler, configured as GUIDE.md says for a fair comparison. */
async function crawleeRun(info: WebInfo, maxPages = PAGES): Promise<RunResult> {
  const { CheerioCrawler, Configuration, log } = await import('@crawlee/cheerio');
  log.setLevel(log.LEVELS.OFF);
  const topic = Object.values(info.topics)[0];
  const local = new Set(Object.values(info.origins));
  let pages = 0;
  let requests = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: IN_FLIGHT,
      maxConcurrency: IN_FLIGHT,
      maxRequestRetries: 0,
      maxRequestsPerCrawl: maxPages,
      navigationTimeoutSecs: TIMEOUT_MS / 1000,
      requestHandlerTimeoutSecs: 30,
      async requestHandler({ enqueueLinks }) {
        pages++;
        await enqueueLinks({
          strategy: 'all',
          transformRequestFunction: (request) => (local.has(new URL(request.url).origin) ? request : false),
        });
      },
      failedRequestHandler() {
        // counted as a request, not a page
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const stats = await crawler.run(topic.seeds);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  requests = stats.requestsFinished + stats.requestsFailed;
  await crawler.teardown();
  return { pages, requests, wallMs, cpuMsPerPage: (cpu.user + cpu.system) / 1000 / pages, waitMs: 0 };
}

/** Waiting time of a run's page requests (robots.txt left out: Crawlee does not ask, Forager asks once a site). */
function waitMs(requests: ServedRequest[]): number {
  let total = 0;
  for (const r of requests) {
    if (r.url.endsWith('/robots.txt')) continue;
    total += r.delayMs === null ? TIMEOUT_MS : Math.min(r.delayMs, TIMEOUT_MS);
  }
  return total;
}

export interface PeerFigures {
  latency: string;
  forager: RunResult[];
  crawlee: RunResult[];
  /** Forager with the fetcher's slow-site rule off (every site may take all 8 slots), when asked for. */
  foragerAllSlots?: RunResult[];
}

/** Runs both crawlers `runs` times each, alternated, at each latency (and Forager without the slow-site rule). */
export async function benchPeer(
  latencies = ['0', 'fixed:50', 'heavy-tail'],
  runs = 3,
  withAllSlots = false,
): Promise<PeerFigures[]> {
  const out: PeerFigures[] = [];
  for (const latency of latencies) {
    const { info, child } = await startWeb(latency);
    const figures: PeerFigures = { latency, forager: [], crawlee: [], ...(withAllSlots ? { foragerAllSlots: [] } : {}) };
    try {
      // Warm-up runs, not counted: module loading, JIT, and Crawlee's first request (its header generator loads its
      // model then), which otherwise outlasts the 5 s timeout on a loaded machine.
      await foragerRun(info, 20);
      await crawleeRun(info, 20);
      await served(info); // forget the warm-up requests
      for (let i = 0; i < runs; i++) {
        const crawlers: [keyof Omit<PeerFigures, 'latency'>, () => Promise<RunResult>][] = [
          ['forager', () => foragerRun(info)],
          ['crawlee', () => crawleeRun(info)],
        ];
        if (withAllSlots) crawlers.push(['foragerAllSlots', () => foragerRun(info, PAGES, false)]);
        for (const [name, run] of crawlers) {
          const result = await run();
          result.waitMs = waitMs(await served(info));
          figures[name]?.push(result);
        }
      }
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
    out.push(figures);
  }
  return out;
}

/** The table: medians per crawler and latency. */
export function peerTable(figures: PeerFigures[]): string {
  const rows = [
    ['latency', 'crawler', 'pages', 'requests', 'pages/s', 'limit pages/s', 'share of limit', 'CPU ms/page', 'runs (pages/s)'],
  ];
  for (const f of figures) {
    for (const name of ['forager', 'foragerAllSlots', 'crawlee'] as const) {
      const rs = f[name];
      if (!rs) continue;
      const pps = rs.map((r) => r.pages / (r.wallMs / 1000));
      const limits = rs.map((r) => (IN_FLIGHT * r.pages) / (r.waitMs / 1000));
      const shares = rs.map((r) => r.waitMs / (IN_FLIGHT * r.wallMs));
      const noLimit = f.latency === '0';
      rows.push([
        f.latency === '0' ? '0 ms' : f.latency.replace('fixed:', '') + (f.latency.startsWith('fixed') ? ' ms' : ''),
        { forager: 'Forager (forager)', foragerAllSlots: 'Forager, slow-site rule off', crawlee: 'Crawlee CheerioCrawler' }[name],
        String(median(rs.map((r) => r.pages))),
        String(median(rs.map((r) => r.requests))),
        median(pps).toFixed(1),
        noLimit ? '-' : median(limits).toFixed(1),
        noLimit ? '-' : `${(median(shares) * 100).toFixed(0)}%`,
        median(rs.map((r) => r.cpuMsPerPage)).toFixed(2),
        pps.map((x) => x.toFixed(0)).join(' '),
      ]);
    }
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join('  ')).join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      latency: { type: 'string' },
      pages: { type: 'string' },
      'slow-site-off': { type: 'boolean', default: false },
    },
  });
  if (values.pages) PAGES = Number(values.pages);
  const latencies = values.latency?.split(',').map((l) => (l === 'heavy-tail' || l.startsWith('fixed:') ? l : `fixed:${l}`));
  const figures = await benchPeer(
    latencies?.map((l) => (l === 'fixed:0' ? '0' : l)),
    Number(values.runs),
    values['slow-site-off'],
  );
  console.log(peerTable(figures));
}

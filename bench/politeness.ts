/**
 * Politeness against speed: a crawl with politeness on (at most one request per site at a time, 1 s from the end of
 * one to the start of the next) over the 8 sites of the test web, each answering after 50 ms, with seeds on every
 * site so that every site has URLs waiting from the start. The most politeness allows is one request per site every
 * 1 s + 50 ms; the figure is how close each site's requests come to that between its first and last request
 * (summed over sites), and the crawl's pages/s against 8 / 1.05 s.
 *
 *   npx tsx bench/politeness.ts [--pages N]
 */
import { parseArgs } from 'node:util';
import { createCrawl, createFetcher } from '../lib/engine';
import { served, startWeb } from './peer';

const DELAY_MS = 1000;
const LATENCY_MS = 50;

export async function benchPoliteness(pages = 160): Promise<Record<string, number>> {
  const { info, child } = await startWeb(`fixed:${LATENCY_MS}`);
  try {
    await served(info);
    const topic = Object.values(info.topics)[0];
    const fetcher = createFetcher({ politenessDelayMs: DELAY_MS, maxInFlight: 8, urlPolicy: { allowPrivate: 'loopback' } });
    const sites = Object.values(info.origins);
    const crawl = createCrawl({
      topic: { keywords: topic.keywords, language: topic.language },
      // The topic's seeds and every site's front page: every site has URLs waiting from the start.
      seeds: [...topic.seeds, ...sites.map((o) => `${o}/`)],
      strategy: { name: 'forager', seed: 1 },
      limits: { maxPages: pages, maxBuffer: 256 },
      fetcher,
    });
    const t0 = performance.now();
    let n = 0;
    for await (const e of crawl.events()) if (e.type === 'page') n++;
    const wallMs = performance.now() - t0;
    fetcher.close();
    const requests = (await served(info)).filter((r) => !r.url.endsWith('/robots.txt'));
    let used = 0;
    let span = 0;
    let worstGap = 0;
    for (const origin of sites) {
      const times = requests
        .filter((r) => r.url.startsWith(`${origin}/`))
        .map((r) => r.time)
        .sort((a, b) => a - b);
      if (times.length < 2) continue;
      used += (times.length - 1) * (DELAY_MS + LATENCY_MS);
      span += times[times.length - 1] - times[0];
      for (let i = 1; i < times.length; i++) worstGap = Math.max(worstGap, times[i] - times[i - 1]);
    }
    const allowed = sites.length / ((DELAY_MS + LATENCY_MS) / 1000);
    return {
      pages: n,
      sites: sites.length,
      'pages/s': n / (wallMs / 1000),
      'pages/s politeness allows (8 sites / 1.05 s)': allowed,
      'pages/s over what politeness allows': n / (wallMs / 1000) / allowed,
      "each site's requests over what politeness allows (target >= 0.9)": used / span,
      'longest gap between two requests to one site, ms': worstGap,
    };
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { pages: { type: 'string', default: '160' } } });
  const figures = await benchPoliteness(Number(values.pages));
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(70)} ${Number.isInteger(v) ? v : v.toFixed(3)}`);
}

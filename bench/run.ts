/**
 * The benchmark (`npm run bench`): figures, not pass/fail. Each part also runs alone (`npx tsx bench/<part>.ts`).
 *   evaluate   - per-page evaluation cost vs htmlparser2 parsing the same bytes alone (side by side, medians)
 *   frontier   - frontier operations per second at capacities 256 / 10,000 / 100,000, memory per queued URL
 *   crawl      - a whole crawl of the test web over loopback, politeness off: pages/s and where the time goes
 *   peer       - Forager against Crawlee's CheerioCrawler, alternated, at 0 ms, 50 ms and heavy-tailed latency:
 *                pages/s, the limit the sites allow, CPU per page
 *   politeness - politeness on (1 s per site), 8 sites: how close the crawl comes to the rate politeness allows
 *   extension  - the crawl inside Chromium with the built extension vs the command line at 50 ms latency, and the
 *                time from the Crawl click to the first fresh row (needs `npm run build`)
 *   library    - the library's full-text search over 10,000 stored pages: indexing, reload after a worker stop,
 *                query medians
 *   robots     - robots.txt matching on 500 KiB of `Disallow: /*a<i>*z$` and on a usual file: ms per URL, this tree
 *                against the matcher before it (bench/robots.ts, ROBOTS_BASELINE), side by side, and a 40-page crawl
 *   watch      - a topic watch's check against the crawl it checks: requests, 304s, evaluations, bytes
 *   sw-start   - the service worker stopped, then a message: time to the answer, medians; before (another tree's build,
 *                FORAGER_BENCH_BEFORE=DIR/.output/chrome-mv3) and after (.output/chrome-mv3) side by side
 * Run it on a quiet machine: these 2-core machines are shared, so compare figures from one run only
 * (bench/RESULTS.md keeps what was measured, with the load at the time).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { benchCrawl } from './crawl';
import { benchEvaluate } from './evaluate';
import { benchFrontier } from './frontier';
import { benchLibrary } from './library';
import { benchPeer, peerTable } from './peer';
import { benchPoliteness } from './politeness';
import { benchRobots, ROBOTS_BASELINE } from './robots';
import { benchWatch } from './watch';

const only = new Set(process.argv.slice(2));
const want = (part: string) => only.size === 0 || only.has(part);

function print(title: string, figures: Record<string, number>): void {
  console.log(`\n== ${title}`);
  for (const [k, v] of Object.entries(figures)) {
    console.log(`${k.padEnd(72)} ${Number.isInteger(v) ? v : v.toFixed(3)}`);
  }
}

console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
if (want('evaluate')) print('page evaluation', await benchEvaluate());
if (want('frontier')) print('frontier', await benchFrontier());
if (want('crawl')) print('whole crawl (Node, loopback, politeness off)', await benchCrawl());
if (want('peer')) {
  console.log('\n== Forager vs Crawlee CheerioCrawler (test web seed 2, 600 pages, 8 in flight, politeness off; medians of 3)');
  console.log(peerTable(await benchPeer()));
}
if (want('politeness')) print('politeness on: 1 s per site, 8 sites, 50 ms answers', await benchPoliteness());
if (want('library')) print('library search (10,000 stored pages)', await benchLibrary());
if (want('robots')) {
  print(
    `robots.txt matching: this tree against ${ROBOTS_BASELINE} (before the bounded matcher)`,
    await benchRobots({ baseline: ROBOTS_BASELINE }),
  );
}
if (want('watch')) print('topic watch: a check after 5% of the pages changed, 5% touched (300-page budget)', await benchWatch());
if (want('extension')) {
  if (!existsSync('.output/chrome-mv3/manifest.json')) {
    console.log('\n== extension: skipped, run `npm run build` first');
  } else {
    const { benchExtension, benchFirstFreshRow } = await import('./extension');
    print('extension in Chromium vs command line (same web, same crawl, 50 ms answers)', await benchExtension({ latencyMs: 50 }));
    print('extension: Crawl click to first fresh row (politeness on, 50 ms answers)', await benchFirstFreshRow({ build: false }));
  }
}
if (want('sw-start')) {
  if (!existsSync('.output/chrome-mv3/manifest.json')) {
    console.log('\n== sw-start: skipped, run `npm run build` first');
  } else {
    const { benchSwStart } = await import('./sw-start');
    const before = process.env.FORAGER_BENCH_BEFORE;
    print('service worker: stopped, then forager/ping answered', await benchSwStart({ before }));
  }
}
console.log(
  `\nload average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

/**
 * The benchmark (`npm run bench`): figures, not pass/fail. Each part also runs alone (`npx tsx bench/<part>.ts`).
 *   evaluate  - per-page evaluation cost vs htmlparser2 parsing the same bytes alone (side by side, medians)
 *   frontier  - frontier operations per second at capacities 256 / 10,000 / 100,000, memory per queued URL
 *   crawl     - a whole crawl of the test web over loopback, politeness off: pages/s and where the time goes
 *   extension - the same crawl inside Chromium with the built extension vs the command line (needs `npm run build`)
 *   library   - the library's full-text search over 10,000 stored pages: indexing, reload after a worker stop, queries
 * Run it on a quiet machine: these 2-core machines are shared, so compare figures from one run only.
 */
import { existsSync } from 'node:fs';
import { benchCrawl } from './crawl';
import { benchEvaluate } from './evaluate';
import { benchFrontier } from './frontier';
import { benchLibrary } from './library';

const only = new Set(process.argv.slice(2));
const want = (part: string) => only.size === 0 || only.has(part);

function print(title: string, figures: Record<string, number>): void {
  console.log(`\n== ${title}`);
  for (const [k, v] of Object.entries(figures)) {
    console.log(`${k.padEnd(52)} ${Number.isInteger(v) ? v : v.toFixed(3)}`);
  }
}

if (want('evaluate')) print('page evaluation', await benchEvaluate());
if (want('frontier')) print('frontier', await benchFrontier());
if (want('crawl')) print('whole crawl (Node, loopback, politeness off)', await benchCrawl());
if (want('library')) print('library search (10,000 stored pages)', await benchLibrary());
if (want('extension')) {
  if (!existsSync('.output/chrome-mv3/manifest.json')) {
    console.log('\n== extension: skipped, run `npm run build` first');
  } else {
    const { benchExtension } = await import('./extension');
    print('extension in Chromium vs command line (same web, same crawl)', await benchExtension());
  }
}

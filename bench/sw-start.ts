/**
 * The service worker's cold start, as a user meets it: the extension's service worker is stopped (as Chrome stops
 * an idle one), then an extension page sends it a message (`forager/ping`, the cheapest request) and times the
 * answer. That time is Chrome starting the worker, reading and running its script (background.js), the background
 * getting ready, and the answer. Two builds side by side, each in its own Chromium, runs alternating so machine load
 * hits both alike; medians of `--runs` (default 21). Also prints each build's script sizes.
 *
 *   npx tsx bench/sw-start.ts --before OTHER/.output/chrome-mv3 [--after .output/chrome-mv3] [--runs 21]
 *   npm run bench -- sw-start        (before: $FORAGER_BENCH_BEFORE, when set; after: .output/chrome-mv3)
 *
 * Builds are unpacked Chrome builds (`npx wxt build` in each tree). Without `--before`, the after build alone.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer';
import { type ChromiumSession, launchChromium, ROOT, stopServiceWorker, waitFor } from '../harness/browsers';
import { bundleSizes } from '../harness/bundle-sizes';
import { median } from './stats';

interface Side {
  label: string;
  dir: string;
  session: ChromiumSession;
  page: Page;
  times: number[];
}

async function open(label: string, dir: string): Promise<Side> {
  const session = await launchChromium(dir);
  await session.worker(); // installed and ready once before the first stop
  const page = await session.browser.newPage();
  // An extension page that runs none of Forager's own scripts: only the measured message reaches the worker.
  await page.goto(`chrome-extension://${session.extensionId}/manifest.json`, { waitUntil: 'domcontentloaded' });
  return { label, dir, session, page, times: [] };
}

/** Stops the worker, waits until it is gone, then times one message from the page to its answer. */
async function coldPing(side: Side): Promise<number> {
  const { browser, extensionId } = side.session;
  const prefix = `chrome-extension://${extensionId}/`;
  await stopServiceWorker(browser, side.page, extensionId);
  await waitFor(
    async () => !browser.targets().some((t) => t.type() === 'service_worker' && t.url().startsWith(prefix)) || null,
    'the service worker to stop',
    30_000,
  );
  return side.page.evaluate(async () => {
    const runtime = (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome
      .runtime;
    const t0 = performance.now();
    const reply = (await runtime.sendMessage({ type: 'forager/ping' })) as { ok?: boolean } | undefined;
    const ms = performance.now() - t0;
    if (reply?.ok !== true) throw new Error(`forager/ping answered ${JSON.stringify(reply)}`);
    return ms;
  });
}

export interface SwStartFigures {
  [key: string]: number;
}

/** Medians of `runs` cold starts of each build, alternating. */
export async function benchSwStart(opts: { before?: string; after?: string; runs?: number } = {}): Promise<SwStartFigures> {
  const runs = opts.runs ?? 21;
  const builds: [string, string][] = [];
  if (opts.before) builds.push(['before', path.resolve(opts.before)]);
  builds.push(['after', path.resolve(opts.after ?? path.join(ROOT, '.output/chrome-mv3'))]);
  const sides: Side[] = [];
  try {
    for (const [label, dir] of builds) sides.push(await open(label, dir));
    await Promise.all(sides.map((s) => coldPing(s))); // one cold start each, not counted (disk cache)
    for (let i = 0; i < runs; i++) for (const side of sides) side.times.push(await coldPing(side));
  } finally {
    for (const side of sides) await side.session.close();
  }
  const figures: SwStartFigures = {};
  for (const side of sides) {
    const sizes = bundleSizes(side.dir);
    const background = path.join(side.dir, 'background.js');
    figures[`${side.label}: background.js bytes`] = statSync(background).size;
    figures[`${side.label}: evaluator Worker bytes before language data`] = sizes.worker.bytes;
    figures[`${side.label}: service worker stopped -> forager/ping answered, median ms (n=${runs})`] = median(side.times);
    figures[`${side.label}: same, fastest ms`] = Math.min(...side.times);
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const figures = await benchSwStart({ before: arg('--before'), after: arg('--after'), runs: Number(arg('--runs') ?? 21) });
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(90)} ${Number.isInteger(v) ? v : v.toFixed(1)}`);
}

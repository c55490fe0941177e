/**
 * `npx tsx cli/screenshots.ts [--out DIR] [--no-build]`: screenshots of every view of the extension, light and dark,
 * made from the demo (the generated test web and the local results page, headless Chromium, site access granted at
 * install as for the e2e tests). Views: the popup before a crawl, mid-crawl, after it, with a long crawl name; the
 * results page of the crawl; all crawls; the start view (`#/new`); the options page when the build has one.
 * Prints the time from the Crawl click to the first new page shown in the popup.
 *
 * Files: DIR/<view>-<light|dark>.png (default DIR docs/screenshots).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer';
import {
  buildExtension,
  launchChromium,
  openExtensionPage,
  ROOT,
  startDemoSerp,
  startFromForm,
  tabIdOf,
  tid,
  waitFor,
  waitForStatus,
} from '../harness/browsers';
import { startTestWeb } from '../harness/testweb/server';
import { errorMessage } from '../lib/engine';

const argv = process.argv.slice(2);
const outArg = argv.indexOf('--out');
const outDir = path.resolve(outArg >= 0 ? argv[outArg + 1] : path.join(ROOT, 'docs/screenshots'));
const build = !argv.includes('--no-build');
const LONG_NAME =
  'How do closures, promises and the event loop interact in modern JavaScript runtimes, and when should I use async iterators';

const POPUP = { width: 460, height: 600 };
const PAGE = { width: 1280, height: 800 };

async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    // Let a frame render in the new scheme.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const file = path.join(outDir, `${name}-${scheme}.png`);
    await page.screenshot({ path: file as `${string}.png` });
    console.error(`  ${path.relative(ROOT, file)}`);
  }
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const ext = path.join(ROOT, '.output/e2e');
  let dir = path.join(ext, 'chrome-mv3');
  if (build || !existsSync(path.join(dir, 'manifest.json'))) {
    console.error('Building the extension (site access granted up front)…');
    dir = await buildExtension({ browser: 'chrome', e2e: true, outDir: ext });
  }
  const web = await startTestWeb({ seed: 1 });
  const serp = await startDemoSerp(web);
  const chromium = await launchChromium(dir, { headless: true });
  try {
    const worker = await chromium.worker();
    const [first] = await chromium.browser.pages();
    const tab = first ?? (await chromium.browser.newPage());
    await tab.goto(serp.url, { waitUntil: 'domcontentloaded' });
    const tabId = await tabIdOf(worker, serp.url);
    const open = (file: string, viewport = PAGE) => openExtensionPage(chromium.browser, chromium.extensionId, file, viewport);

    const popup = await open(`popup.html?tab=${tabId}`, POPUP);
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    await shoot(popup, 'popup-start');

    // A polite crawl (1 s between requests to one site), slow enough to be seen mid-way.
    const t0 = Date.now();
    const id = await startFromForm(popup, { maxPages: 150, politenessDelayMs: 1000 }).catch(async (error: unknown) => {
      await popup.screenshot({ path: path.join(outDir, 'failed-start.png') as `${string}.png` });
      throw error;
    });
    const firstNew = await waitFor(
      () => popup.$(`${tid('result-row')}[data-fresh="true"]`).then((el) => (el ? Date.now() - t0 : null)),
      'a new page in the popup',
      120_000,
      20,
    );
    console.log(`Click to first new row in the popup: ${firstNew} ms`);
    await waitFor(() => popup.$$(tid('result-row')).then((rows) => rows.length >= 12), 'a dozen rows in the popup', 120_000);
    await shoot(popup, 'popup-running');
    await waitForStatus(popup, ['done', 'stopped', 'error'], 600_000);
    await popup.evaluate(() => window.scrollTo(0, 0));
    await shoot(popup, 'popup-done');

    // The popup reopened (as a returning user sees it).
    const again = await open(`popup.html?tab=${tabId}`, POPUP);
    await again.waitForSelector(tid('crawl-panel'), { timeout: 60_000 });
    await waitFor(() => again.$(tid('result-row')), 'rows in the reopened popup');
    await shoot(again, 'popup-reopened');

    await worker.evaluate(
      async (crawlId, name) => {
        const f = (globalThis as unknown as { forager: { handle(m: unknown): Promise<unknown> } }).forager;
        await f.handle({ type: 'forager/rename', id: crawlId, name });
      },
      id,
      LONG_NAME,
    );
    await again.reload({ waitUntil: 'domcontentloaded' });
    await waitFor(() => again.$(tid('result-row')), 'rows in the popup');
    await shoot(again, 'popup-long-name');

    const results = await open(`results.html#/crawl/${encodeURIComponent(id)}`);
    await waitFor(() => results.$(tid('result-row')), 'rows on the results page');
    await shoot(results, 'results-crawl');

    const list = await open('results.html#/');
    await list.waitForSelector(tid('crawl-item'), { timeout: 30_000 });
    await shoot(list, 'results-all-crawls');

    const start = await open(
      `results.html#/new?topic=${encodeURIComponent(serp.query)}&seed=${encodeURIComponent(serp.seeds[0])}`,
    );
    await start.waitForSelector(tid('start-form'), { timeout: 30_000 });
    await shoot(start, 'results-new');

    if (existsSync(path.join(dir, 'options.html'))) {
      const options = await open('options.html', { width: 900, height: 800 });
      await options.waitForSelector(tid('options'), { timeout: 30_000 });
      await shoot(options, 'options');
    }
  } finally {
    await chromium.close();
    await serp.close();
    await web.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('screenshots failed:', errorMessage(error));
    process.exit(1);
  },
);

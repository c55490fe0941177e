/**
 * `npx tsx cli/screenshots.ts [--out DIR] [--browsers chromium,firefox]`: screenshots of every view of the extension
 * in Chromium and Firefox, light and dark, the popup at its real size (460 × 600), made from the demo (the generated
 * test web and the local results page) with the e2e packages (`npm run zip:e2e` first: site access granted at
 * install, as a headless browser cannot click the prompt). The views are docs/screenshots/manifest.json's; a unit test
 * (test/unit/screenshots-manifest.test.ts) checks the files against it, so a view added there and not shot here fails.
 * Files: DIR/<browser>/<view>-<light|dark>.png (default DIR docs/screenshots). Dark is forced through the root's
 * `color-scheme` (the pages' colours are light-dark() pairs), which both browsers honour alike.
 * Part of the release routine (docs/building.md).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer';
import { newCrawlPath, ROOT, startDemoSerp, startFromForm, tid, waitFor, waitForStatus } from '../harness/browsers';
import { startTestWeb } from '../harness/testweb/server';
import { errorMessage, type PageResult } from '../lib/engine';
// The e2e driver is the one way this project drives both browsers alike (background, tabs, extension pages).
import { BROWSERS, type BrowserName, type ExtensionDriver, launchDriver } from '../harness/driver';

const argv = process.argv.slice(2);
const optionOf = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
const outDir = path.resolve(optionOf('--out') ?? path.join(ROOT, 'docs/screenshots'));
const browsers = (optionOf('--browsers')?.split(',') ?? BROWSERS) as BrowserName[];
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'docs/screenshots/manifest.json'), 'utf8')) as {
  views: { name: string }[];
  schemes: ('light' | 'dark')[];
};

const POPUP = { width: 460, height: 600 };
const PAGE = { width: 1280, height: 800 };

/** One view, in every scheme of the manifest. */
async function shoot(page: Page, browser: BrowserName, view: string, shot: Set<string>): Promise<void> {
  if (!manifest.views.some((v) => v.name === view)) throw new Error(`view ${view} is not in the manifest`);
  for (const scheme of manifest.schemes) {
    await page.evaluate((s) => {
      document.documentElement.style.colorScheme = s;
    }, scheme);
    // Let a frame render in the new scheme.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const file = path.join(outDir, browser, `${view}-${scheme}.png`);
    await page.screenshot({ path: file as `${string}.png` });
    console.error(`  ${path.relative(ROOT, file)}`);
  }
  await page.evaluate(() => document.documentElement.style.removeProperty('color-scheme'));
  shot.add(view);
}

async function shootBrowser(name: BrowserName): Promise<void> {
  mkdirSync(path.join(outDir, name), { recursive: true });
  const web = await startTestWeb({ seed: 1 });
  const serp = await startDemoSerp(web);
  let driver: ExtensionDriver | undefined;
  const shot = new Set<string>();
  try {
    driver = await launchDriver(name);
    const d = driver;
    const tab = await d.browser.newPage();
    await tab.goto(serp.url, { waitUntil: 'domcontentloaded' });
    const tabId = await d.tabId(serp.url);

    const popup = await d.open(`popup.html?tab=${tabId}`, POPUP);
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    await shoot(popup, name, 'popup-start', shot);

    // A polite crawl (1 s between requests to one site), slow enough to be caught mid-way.
    const id = await startFromForm(popup, { maxPages: 40, politenessDelayMs: 1000 });
    await waitFor(() => popup.$$(tid('result-row')).then((rows) => rows.length >= 8 || null), 'rows in the popup', 180_000);
    await popup.evaluate(() => document.querySelector('.list-box')?.scrollTo(0, 0));
    await shoot(popup, name, 'popup-crawling', shot);
    await waitForStatus(popup, ['done', 'stopped', 'error'], 900_000);
    await popup.close();

    const again = await d.open(`popup.html?tab=${tabId}`, POPUP);
    await again.waitForSelector(tid('result-row'), { timeout: 60_000 });
    await shoot(again, name, 'popup-idle', shot);
    await again.click(`${tid('new-crawl')} > summary`);
    await again.waitForSelector(`${tid('new-crawl')}[open] ${tid('crawl-button')}`, { timeout: 30_000 });
    await shoot(again, name, 'popup-new-crawl', shot);
    await again.close();

    const results = await d.open(`results.html#/crawl/${encodeURIComponent(id)}`, PAGE);
    await results.waitForSelector(tid('result-row'), { timeout: 60_000 });
    await shoot(results, name, 'results', shot);
    await results.close();

    // A watch and one check, after the web changed: two pages with new text, one page added.
    const pages = (await d.background((f, crawlId) => f.store.getPages(crawlId), id)) as PageResult[];
    const keyOf = (url: string) => [...web.web.pages.values()].find((p) => web.urlOf(p) === url)?.key;
    const articles = pages.filter((p) => !p.isSeed && keyOf(p.url)).sort((a, b) => b.score - a.score);
    for (const p of articles.slice(0, 2)) web.changePage(keyOf(p.url) as string);
    if (articles[2]) web.addPage(keyOf(articles[2].url) as string, 'watch-screenshot');
    const watch = await d.open(`results.html#/crawl/${encodeURIComponent(id)}`, PAGE);
    await watch.waitForSelector(tid('watch-panel'), { timeout: 60_000 });
    await watch.click(tid('watch-button'));
    await watch.waitForSelector(`${tid('watch-panel')}[data-watched="true"]`, { timeout: 60_000 });
    await watch.click(tid('check-now'));
    await watch.waitForSelector(`${tid('watch-panel')}[data-check-ended]:not([data-check-ended=""])`, { timeout: 600_000 });
    await watch.evaluate(() => window.scrollTo(0, 0));
    await shoot(watch, name, 'watch', shot);
    await watch.close();

    const crawls = await d.open('results.html#/', PAGE);
    await crawls.waitForSelector(tid('crawl-item'), { timeout: 60_000 });
    await shoot(crawls, name, 'all-crawls', shot);
    await crawls.close();

    // What "Crawl from here" on a result page opens: the page as the seed, its title as the topic.
    const from = articles[0] ?? pages[0];
    const start = await d.open(newCrawlPath(from.title ?? serp.query, [from.url]), PAGE);
    await start.waitForSelector(tid('start-form'), { timeout: 60_000 });
    await shoot(start, name, 'start-view', shot);
    await start.close();

    const library = await d.open('library.html', PAGE);
    await library.waitForSelector(tid('library-search'), { timeout: 60_000 });
    await library.type(tid('library-search'), serp.query.split(' ').slice(0, 2).join(' '));
    await waitFor(() => library.$(`${tid('library-hits')} li`), 'library hits', 60_000);
    await shoot(library, name, 'library', shot);
    await library.close();

    const options = await d.open('options.html', { width: 900, height: 800 });
    await options.waitForSelector(tid('options'), { timeout: 30_000 });
    await shoot(options, name, 'options', shot);
    await options.close();
    await tab.close();

    const missing = manifest.views.map((v) => v.name).filter((v) => !shot.has(v));
    if (missing.length > 0) throw new Error(`not shot in ${name}: ${missing.join(', ')}`);
  } finally {
    await driver?.close();
    await serp.close();
    await web.close();
  }
}

async function main(): Promise<void> {
  for (const name of browsers) {
    console.error(`${name}:`);
    await shootBrowser(name);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('screenshots failed:', errorMessage(error));
    process.exit(1);
  },
);

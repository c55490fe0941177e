/**
 * `npm start`: Forager on a results page, with nothing but this machine.
 *
 * Builds the extension, serves the generated test web (127.0.0.1) and a results page made from a real Bing page whose
 * results point into it (http://localhost:P/search?q=...), and opens Chromium with Forager loaded on that page.
 *
 * - With a display ($DISPLAY or $WAYLAND_DISPLAY): a normal build, a visible browser; you click the Forager icon,
 *   then Crawl (and allow site access when asked). Ctrl+C (or closing the browser) ends the demo.
 * - Without one (or with --headless): a build that holds site access from the start (FORAGER_E2E=1: a headless browser
 *   cannot answer the permission prompt), the popup opened as a page for the results tab, a crawl of --pages pages
 *   (default 100) with no politeness delay (the web is local), the ranked results printed, a screenshot of the popup
 *   saved (default ./forager-demo.png, relative to where npm start runs: the project's root), exit 0.
 *
 * The build is reused when it is newer than every file it is made from (cli/build-freshness.ts); --rebuild forces one,
 * --no-build never builds. Usage: cli/args.ts, DEMO_USAGE (`npm start -- --help`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer';
import { startTestWeb } from '../harness/testweb/server';
import {
  buildExtension,
  launchChromium,
  openExtensionPage,
  ROOT,
  startDemoSerp,
  startFromForm,
  tabIdOf,
  tid,
  waitForStatus,
  type ChromiumSession,
} from '../harness/browsers';
import { oneLine, type Reply } from '../lib/app/node';
import { errorMessage, type PageResult } from '../lib/engine';
import { DEMO_USAGE, type DemoOptions, parseDemoArgs, UsageError } from './args';
import { staleBuildReason } from './build-freshness';

let args: DemoOptions;
try {
  args = parseDemoArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`npm start: ${error.message}\n${DEMO_USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(DEMO_USAGE);
  process.exit(0);
}

const budget = args.pages;
const headless = args.headless || !(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const log = (...parts: unknown[]) => console.error(...parts);
// `npm start | head` closes stdout early: that must not crash the demo before it cleans up its browser and servers.
process.stdout.on('error', () => {});

async function main(): Promise<void> {
  // Headless needs site access granted at install (no one can click the permission prompt); a person gets the real prompt.
  const outDir = headless ? path.join(ROOT, '.output/e2e') : path.join(ROOT, '.output');
  let dir = path.join(outDir, 'chrome-mv3');
  const stale = args.build === 'always' ? 'asked to rebuild' : staleBuildReason(ROOT, dir);
  if (args.build === 'never' && !existsSync(path.join(dir, 'manifest.json'))) {
    throw new Error(`--no-build: there is no build in ${path.relative(ROOT, dir)}; run npm start without it once`);
  }
  if (args.build !== 'never' && stale) {
    log(`Building the extension (${stale})${headless ? ', site access granted up front, for headless use' : ''}…`);
    dir = await buildExtension({ browser: 'chrome', e2e: headless, outDir });
  } else {
    log(`Using the build in ${path.relative(ROOT, dir)} (newer than every source file; --rebuild to make it again)`);
  }

  const web = await startTestWeb({ seed: 1 });
  const serp = await startDemoSerp(web);
  let chromium: ChromiumSession | undefined;
  const cleanup = async () => {
    await chromium?.close();
    await serp.close();
    await web.close();
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

  try {
    log(`Test web: ${Object.keys(web.origins).length} sites on 127.0.0.1; results page: ${serp.url}`);
    chromium = await launchChromium(dir, {
      headless,
      args: headless ? [] : ['--window-size=1280,900'],
      storeBuild: !headless,
    });
    const worker = await chromium.worker();
    const [first] = await chromium.browser.pages();
    const tab = first ?? (await chromium.browser.newPage());
    await tab.goto(serp.url, { waitUntil: 'domcontentloaded' });

    if (!headless) {
      console.log(
        [
          '',
          'Forager is loaded in the Chromium window, on a search results page for',
          `  "${serp.query}"`,
          'whose results point into a generated web served from this machine.',
          '',
          '  1. Click the puzzle-piece icon in the toolbar, then Forager (pin it for next time).',
          '  2. The popup shows the query as the topic and the results as start pages. They are on this computer',
          '     (127.0.0.1): tick them under "Not on the public web", or Forager will not fetch them.',
          '     Open "More settings" and set the wait between requests to 0 (the web is local), then click',
          '     "Find more pages like these".',
          '  3. Allow access to all sites when Chromium asks: Forager fetches the pages it crawls.',
          '  4. Watch new relevant pages arrive, best first; "All results" opens the results page with the exports.',
          '',
          'Close the browser or press Ctrl+C to end the demo.',
        ].join('\n'),
      );
      await new Promise<void>((resolve) => chromium!.browser.once('disconnected', () => resolve()));
      return;
    }

    const tabId = await tabIdOf(worker, serp.url);
    const popup: Page = await openExtensionPage(chromium.browser, chromium.extensionId, `popup.html?tab=${tabId}`, {
      width: 460,
      height: 640,
    });
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    log(
      `Popup: topic "${await popup.$eval(tid('topic'), (e) => (e as HTMLInputElement).value)}", ${await popup.$eval(tid('seed-count'), (e) => e.textContent)}`,
    );
    log(`Crawling ${budget} pages…`);
    const t0 = Date.now();
    const id = await startFromForm(popup, { maxPages: budget, politenessDelayMs: 0 });
    const status = await waitForStatus(popup, ['done', 'stopped', 'error'], 600_000);
    const seconds = (Date.now() - t0) / 1000;
    // Asked as any extension page asks (the protocol's forager/pages), not through a test handle.
    const reply = (await popup.evaluate(async (crawlId) => {
      const g = globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } };
      return g.chrome.runtime.sendMessage({ type: 'forager/pages', id: crawlId });
    }, id)) as Reply<PageResult[]>;
    if (!reply.ok) throw new Error(`reading the crawl's pages: ${reply.error}`);
    const pages = reply.value;
    const ranked = pages.filter((p) => !p.noindex).sort((a, b) => b.score - a.score);

    console.log(
      `\nForager: "${serp.query}": crawl ${status} in ${seconds.toFixed(1)} s, ${pages.length} pages evaluated, ` +
        `${ranked.length} listed (${ranked.filter((p) => !p.isSeed).length} fresh; ${pages.length - ranked.length} noindex left out)\n`,
    );
    console.log(`${'#'.padStart(3)}  ${'score'.padEnd(5)}  ${'fresh'.padEnd(5)}  title  <url>`);
    ranked.forEach((p, i) => {
      console.log(
        `${String(i + 1).padStart(3)}  ${p.score.toFixed(3)}  ${(p.isSeed ? '' : 'fresh').padEnd(5)}  ${oneLine(p.title) || '(untitled)'}  <${oneLine(p.url)}>`,
      );
    });

    // The popup as a user sees it: scroll the list back to the top first.
    await popup.evaluate(() => document.querySelector('.list-box')?.scrollTo(0, 0));
    const shot = path.resolve(args.screenshot);
    await popup.screenshot({ path: shot as `${string}.png` });
    console.log(`\nScreenshot of the popup: ${shot}`);
    if (status !== 'done') throw new Error(`the crawl ended ${status}`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('demo failed:', errorMessage(error));
    process.exit(1);
  },
);

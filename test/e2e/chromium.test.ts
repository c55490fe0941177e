/**
 * Forager in Chromium, end to end: the built extension (FORAGER_E2E=1, see helpers) on a local results page made
 * from a real Bing page, the popup, a live crawl of the test web, pause / resume / stop, every export format as a
 * downloaded file, a hostile page title, the context menu, service-worker kills mid-crawl, a redirect to a private
 * host never followed, and no cookies sent.
 *
 * Run with `npm run test:e2e` (builds first). Waits have deadlines; no assertion depends on speed.
 */
import type { CDPSession, WebWorker } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CrawlExport } from '../../lib/app/export/json';
import type { PageResult } from '../../lib/engine/types';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';
import { seedsFor, topicQuery } from '../../harness/testweb/generate';
import {
  assertE2EBuild,
  backgroundWorker,
  CHROME_DIR,
  clickTestId,
  HOSTILE_TITLE_MARKUP,
  launchChromium,
  openExtensionPage,
  panelPages,
  panelStatus,
  parseCsv,
  saveExport,
  resultRows,
  startDemoSerp,
  startFromForm,
  startPrivateRedirect,
  newCrawlPath,
  stopServiceWorker,
  tabIdOf,
  tempDir,
  tid,
  waitFor,
  waitForStatus,
  type ChromiumSession,
  type DemoSerp,
} from '../../harness/browsers';

/** Runs in the service worker: the stored pages of a crawl. */
async function storedPages(worker: WebWorker, id: string): Promise<PageResult[]> {
  return worker.evaluate(async (crawlId) => {
    const f = (globalThis as unknown as { forager: { store: { getPages(id: string): Promise<unknown[]> } } }).forager;
    return f.store.getPages(crawlId);
  }, id) as Promise<PageResult[]>;
}

describe('Forager in Chromium', () => {
  let web: RunningTestWeb;
  let serp: DemoSerp;
  let chromium: ChromiumSession;
  let worker: WebWorker;
  let downloads: { dir: string; remove(): void };
  /** Requests to the test web before the first crawl (the "user" browsing it, not the crawler). */
  let userRequests = 0;
  let firstCrawlId = '';

  beforeAll(async () => {
    assertE2EBuild(CHROME_DIR);
    downloads = tempDir('forager-downloads-');
    web = await startTestWeb({ seed: 11 });
    serp = await startDemoSerp(web, { hostile: true });
    chromium = await launchChromium(CHROME_DIR);
    worker = await chromium.worker();
  });

  afterAll(async () => {
    await chromium?.close();
    await serp?.close();
    await web?.close();
    downloads?.remove();
  });

  test('a user visit leaves a 127.0.0.1 cookie in the browser (so the no-cookie check below can fail)', async () => {
    const page = await chromium.browser.newPage();
    const url = web.urlOf(seedsFor(web.web, web.web.topics[1].id, 1)[0]);
    await page.goto(url);
    await page.goto(`${url}?again`); // another URL: the first answer may be served from the cache
    await page.close();
    const visits = web.requests.filter((r) => r.url.startsWith(url) && r.headers['sec-fetch-mode'] === 'navigate');
    expect(visits.length).toBe(2);
    expect(String(visits[1].headers.cookie ?? '')).toContain('forager_test=');
    userRequests = web.requests.length;
  });

  test('popup on the results page: topic and results read, crawl streams ranked fresh results, pause, resume, stop', async () => {
    const tab = await chromium.browser.newPage();
    await tab.goto(serp.url, { waitUntil: 'domcontentloaded' });
    const tabId = await tabIdOf(worker, serp.url);
    const popup = await openExtensionPage(chromium.browser, chromium.extensionId, `popup.html?tab=${tabId}`);
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });

    // The query becomes the topic; the organic results (8 test-web pages + the hostile page) the seeds.
    expect(await popup.$eval(tid('topic'), (e) => (e as HTMLInputElement).value)).toBe(serp.query);
    expect(await popup.$eval(tid('seed-count'), (e) => e.textContent)).toMatch(
      new RegExp(`^${serp.seeds.length} result links among \\d+ links`),
    );
    expect(await popup.$$eval(`${tid('seed-list')} li`, (lis) => lis.map((li) => li.textContent))).toEqual(serp.seeds);

    firstCrawlId = await startFromForm(popup, { maxPages: 150, politenessDelayMs: 0 });
    await waitForStatus(popup, ['running', 'done']);

    // Ranked fresh results appear: rows with score bars, the fresh badge on pages that were not search results.
    const rows = await waitFor(async () => {
      const r = await resultRows(popup);
      return r.filter((x) => x.fresh).length >= 3 ? r : null;
    }, 'fresh result rows in the popup');
    for (const r of rows) {
      expect(r.scoreBar).toBe(true);
      expect(r.badge).toBe(r.fresh);
      expect(r.fresh).toBe(!serp.seeds.includes(r.url));
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    const scores = rows.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // Pause: the crawl stops fetching; the count holds.
    await clickTestId(popup, 'pause');
    await waitForStatus(popup, ['paused']);
    // A request already on its way when the pause landed may still arrive: let it, then nothing more may come.
    await new Promise((r) => setTimeout(r, 500));
    const pausedAt = await panelPages(popup);
    const requestsAtPause = web.requests.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(await panelPages(popup)).toBe(pausedAt);
    expect(web.requests.length).toBe(requestsAtPause);
    expect(pausedAt).toBeLessThan(150);

    // Resume: it goes on from where it was.
    await clickTestId(popup, 'resume');
    await waitFor(async () => (await panelPages(popup)) > pausedAt, 'more pages after resuming');

    // Stop: final, nothing more is fetched.
    await clickTestId(popup, 'stop');
    const final = await waitForStatus(popup, ['stopped', 'done']);
    const stoppedAt = await panelPages(popup);
    expect(stoppedAt).toBeGreaterThan(pausedAt);
    if (final === 'stopped') {
      expect(await popup.$eval(tid('pause'), (e) => (e as HTMLButtonElement).disabled)).toBe(true);
      expect(await popup.$eval(tid('stop'), (e) => (e as HTMLButtonElement).disabled)).toBe(true);
    }
    const stored = await storedPages(worker, firstCrawlId);
    expect(stored.length).toBe(stoppedAt);
    await popup.close();
    await tab.close();
  });

  test('the hostile title is shown as text and runs nothing (popup and results page)', async () => {
    const stored = await storedPages(worker, firstCrawlId);
    const hostile = stored.find((p) => p.url === serp.hostileUrl);
    expect(hostile, 'the hostile page was crawled (it is a seed)').toBeTruthy();
    expect(hostile!.title).toContain(HOSTILE_TITLE_MARKUP);

    // The popup follows the newest crawl and shows its best 50 rows; the hostile page is among them (it is on topic).
    const popup = await openExtensionPage(chromium.browser, chromium.extensionId, 'popup.html');
    const inPopup = await waitFor(
      async () => (await resultRows(popup)).find((r) => r.url === serp.hostileUrl),
      'the hostile row in the popup',
    );
    expect(inPopup.title).toContain(HOSTILE_TITLE_MARKUP);
    expect(await popup.$$eval(`${tid('result-row')} script, ${tid('result-row')} img`, (els) => els.length)).toBe(0);
    expect(await popup.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await popup.close();

    const results = await openExtensionPage(
      chromium.browser,
      chromium.extensionId,
      `results.html#/crawl/${encodeURIComponent(firstCrawlId)}`,
      {
        width: 1200,
        height: 900,
      },
    );
    await results.waitForSelector(tid('result-row'), { timeout: 60_000 });
    // The list is virtualized: scroll until the hostile row is rendered.
    const row = await waitFor(async () => {
      const found = await results.$(`${tid('result-row')}[data-url="${serp.hostileUrl}"]`);
      if (!found) await results.$eval(tid('results-scroller'), (el) => el.scrollBy(0, el.clientHeight));
      return found;
    }, 'the hostile page row');
    const shown = await row.$eval(tid('result-link'), (a) => ({
      text: a.textContent,
      elements: a.querySelectorAll('*:not(mark)').length,
    }));
    expect(shown.text).toContain('<script>window.__pwned=1</script>');
    expect(shown.text).toContain('<img src=x onerror=');
    expect(shown.elements).toBe(0);
    expect(await results.$$eval('script:not([src]), img[src="x"]', (els) => els.length)).toBe(0);
    expect(await results.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await results.close();
  });

  test('exports: JSON, CSV, bookmarks and Markdown files land on disk with the crawl in them', async () => {
    const results = await openExtensionPage(
      chromium.browser,
      chromium.extensionId,
      `results.html#/crawl/${encodeURIComponent(firstCrawlId)}`,
      {
        width: 1200,
        height: 900,
      },
    );
    const cdp: CDPSession = await chromium.browser.target().createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads.dir, eventsEnabled: true });
    await results.waitForSelector(tid('exports'), { timeout: 60_000 });
    const stored = await storedPages(worker, firstCrawlId);
    const listed = stored.filter((p) => !p.noindex);

    const save = (format: string) => saveExport(results, downloads.dir, format);

    const json = JSON.parse(await save('json')) as CrawlExport;
    expect(json.format).toBe('forager-crawl');
    expect(json.crawl.id).toBe(firstCrawlId);
    expect(json.crawl.topic.keywords).toBe(serp.query);
    expect(json.pages.map((p) => p.url).sort()).toEqual(stored.map((p) => p.url).sort());

    const csv = parseCsv(await save('csv'));
    expect(csv[0].slice(0, 3)).toEqual(['url', 'title', 'score']);
    expect(csv.length - 1).toBe(listed.length);
    expect(
      csv
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(listed.map((p) => p.url).sort());
    for (const r of csv.slice(1)) expect(r.length).toBe(csv[0].length);

    // The bookmarks file as a browser reads it (importing it is parsing it as HTML): links, and nothing that runs.
    const bookmarksFile = await save('bookmarks');
    const viewer = await chromium.browser.newPage();
    await viewer.setContent(bookmarksFile, { waitUntil: 'load' });
    const links = await viewer.$$eval('a[href]', (as) =>
      as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent ?? '', add: a.getAttribute('add_date') })),
    );
    expect(links.map((a) => a.href).sort()).toEqual(listed.map((p) => p.url).sort());
    expect(links.every((a) => a.add !== null)).toBe(true);
    expect(await viewer.$$eval('script, img', (els) => els.length)).toBe(0);
    expect(await viewer.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(links.find((a) => a.href === serp.hostileUrl)?.text).toContain('<script>');
    await viewer.close();
    await results.bringToFront();

    const markdown = await save('markdown');
    expect(markdown).toContain(serp.query);
    for (const p of listed) expect(markdown).toContain(`](${p.url})`);

    await cdp.detach();
    await results.close();
  });

  test('context menu "Crawl from here" (page, link, selection) opens the start view with the right seed and topic', async () => {
    const tab = await chromium.browser.newPage();
    const pageUrl = web.urlOf(seedsFor(web.web, web.web.topics[2].id, 1)[0]);
    await tab.goto(pageUrl, { waitUntil: 'domcontentloaded' });
    const tabTitle = await tab.title();
    const tabId = await tabIdOf(worker, pageUrl);
    const linkUrl = web.urlOf(seedsFor(web.web, web.web.topics[2].id, 2)[1]);
    const cases = [
      { info: { pageUrl }, seed: pageUrl, topic: (t: string) => t.startsWith(tabTitle), kind: 'page' },
      // Chrome gives no link text: the topic comes from the page's title and headings.
      { info: { pageUrl, linkUrl }, seed: linkUrl, topic: (t: string) => t.startsWith(tabTitle), kind: 'link' },
      {
        info: { pageUrl, selectionText: '  telescopes   and stars ' },
        seed: pageUrl,
        topic: (t: string) => t === 'telescopes and stars',
        kind: 'selection',
      },
    ];
    for (const c of cases) {
      const before = new Set((await chromium.browser.pages()).map((p) => p.target()));
      await worker.evaluate(
        (info, id) => {
          const chrome = (
            globalThis as unknown as {
              chrome: {
                contextMenus: { onClicked: { dispatch(i: unknown, t: unknown): void } };
                tabs: { get(id: number): Promise<unknown> };
              };
            }
          ).chrome;
          return chrome.tabs
            .get(id)
            .then((t) =>
              chrome.contextMenus.onClicked.dispatch({ menuItemId: 'forager-crawl-from-here', editable: false, ...info }, t),
            );
        },
        c.info,
        tabId,
      );
      const target = await chromium.browser.waitForTarget((t) => !before.has(t) && t.url().includes('/results.html#/new?'), {
        timeout: 30_000,
      });
      const view = (await target.page())!;
      await view.waitForSelector(tid('start-form'), { timeout: 30_000 });
      const hash = new URLSearchParams(new URL(view.url()).hash.slice('#/new?'.length));
      expect(hash.get('kind')).toBe(c.kind);
      expect(await view.$eval(tid('seeds'), (e) => (e as HTMLTextAreaElement).value.trim())).toBe(c.seed);
      const topic = await view.$eval(tid('topic'), (e) => (e as HTMLInputElement).value);
      expect(c.topic(topic), `topic "${topic}" for a ${c.kind} click`).toBe(true);
      await view.close();
    }
    await tab.close();
  });

  test('the service worker is stopped three times mid-crawl: the crawl carries on and stores every page exactly once', async () => {
    // A slower web (each answer waits 100 ms, 300 ms between requests to one site) so the kills land mid-crawl.
    const slow = await startTestWeb({ seed: 13, delayMs: 100 });
    try {
      const topic = slow.web.topics[0].id;
      const seeds = seedsFor(slow.web, topic, 3).map((p) => slow.urlOf(p));
      const startPage = newCrawlPath(topicQuery(slow.web, topic).keywords, seeds);
      const view = await openExtensionPage(chromium.browser, chromium.extensionId, startPage, { width: 1200, height: 900 });
      const budget = 60;
      const id = await startFromForm(view, { maxPages: budget, politenessDelayMs: 300 });
      await view.waitForSelector(`${tid('crawl-view')}[data-crawl-id="${id}"]`, { timeout: 60_000 });

      let kills = 0;
      for (const threshold of [6, 20, 34]) {
        await waitFor(async () => (await panelPages(view)) >= threshold, `${threshold} pages before kill ${kills + 1}`, 120_000);
        expect(await panelStatus(view), 'the crawl must still be running when the worker is killed').toBe('running');
        await worker.evaluate(() => ((globalThis as unknown as { __beforeKill: boolean }).__beforeKill = true));
        await stopServiceWorker(chromium.browser, view, chromium.extensionId);
        // The results page's live port reconnects and wakes a new worker, which resumes the crawl from IndexedDB.
        worker = await backgroundWorker(chromium.browser, chromium.extensionId, 90_000);
        expect(await worker.evaluate(() => (globalThis as unknown as { __beforeKill?: boolean }).__beforeKill)).toBeUndefined();
        kills++;
      }
      expect(kills).toBe(3);

      await waitForStatus(view, ['done'], 180_000);
      const pages = await storedPages(worker, id);
      const urls = pages.map((p) => p.url);
      expect(pages.length).toBe(budget);
      expect(new Set(urls).size).toBe(budget);
      expect(await panelPages(view)).toBe(budget);
      // Report how many fetches a kill cost (fetched again after a restart): bounded by the pages in flight per kill.
      const repeats =
        slow.requests.filter((r) => !r.url.endsWith('/robots.txt')).length -
        new Set(slow.requests.filter((r) => !r.url.endsWith('/robots.txt')).map((r) => r.url)).size;
      console.log(`[e2e] 3 service-worker kills: ${repeats} repeated requests for ${budget} pages`);
      expect(repeats).toBeLessThan(budget);
      await view.close();
    } finally {
      await slow.close();
    }
  });

  test('a redirect to a private host is not followed: the browser blocks the hop before it is sent, the crawl records a skip', async () => {
    const { canary, web: bouncing, redirect, startPage, close } = await startPrivateRedirect();
    try {
      // The browser itself can reach the canary (a tab's navigation is not the extension's request): so no hit
      // from the crawl below means its request was blocked, not that the address is unreachable.
      const tab = await chromium.browser.newPage();
      await tab.goto(canary.url);
      await tab.close();
      expect(canary.hits()).toBe(1);

      const view = await openExtensionPage(chromium.browser, chromium.extensionId, startPage, { width: 1200, height: 900 });
      const id = await startFromForm(view, { maxPages: 12, politenessDelayMs: 0 });
      await waitForStatus(view, ['done'], 120_000);
      await view.close();

      expect(bouncing.requestCount(redirect)).toBeGreaterThan(0);
      expect(canary.hits()).toBe(1);
      const skips = (await worker.evaluate(async (crawlId) => {
        const f = (globalThis as unknown as { forager: { store: { getSkips(id: string): Promise<unknown[]> } } }).forager;
        return f.store.getSkips(crawlId);
      }, id)) as { url: string; reason: string; detail: string }[];
      const skip = skips.find((s) => s.url === redirect);

      expect(skip, 'the redirecting seed is recorded as skipped').toBeDefined();
      expect(skip!.reason).toBe('redirect');
      expect(skip!.detail).toContain('private host');
      expect((await storedPages(worker, id)).length).toBe(12);
    } finally {
      await close();
    }
  });

  test('no crawl request carried a Cookie, though the browser holds cookies for 127.0.0.1', async () => {
    // The crawler's requests: not navigations (the tabs this test opened) and not the favicon a tab asks for.
    const crawl = web.requests
      .slice(userRequests)
      .filter((r) => r.headers['sec-fetch-mode'] !== 'navigate' && !r.url.endsWith('/favicon.ico'));
    expect(crawl.length).toBeGreaterThan(20);
    const withCookie = crawl.filter((r) => r.headers.cookie !== undefined);
    expect(withCookie.map((r) => r.url)).toEqual([]);
    const hostile = serp.requests.filter((r) => r.url.includes('/articles/hostile-title.html'));
    expect(hostile.length).toBeGreaterThan(0);
    expect(hostile.filter((r) => r.headers.cookie !== undefined)).toEqual([]);
    const cdp = await chromium.browser.target().createCDPSession();
    const { cookies } = (await cdp.send('Storage.getCookies')) as { cookies: { name: string; domain: string }[] };
    await cdp.detach();
    expect(cookies.some((c) => c.name === 'forager_test' && c.domain === '127.0.0.1')).toBe(true);
  });
});

/**
 * Forager in Firefox (firefox-esr, the MV3 build made with FORAGER_E2E=1): the smoke run. The popup on the local
 * results page reads the topic and the results, a crawl runs to its budget (event page + Worker evaluator), ranked
 * fresh results show in the popup and in the results page, and no crawl request carries a cookie. Then the four
 * exports, saved by Firefox's own download path into a temporary folder and read back. A seed that redirects to a
 * private host (a canary on 127.0.0.2) is skipped and the canary never contacted. Then, in a browser that
 * suspends idle event pages after 1 s, a crawl left alone is suspended mid-way and finishes once woken.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';
import {
  assertE2EBuild,
  FIREFOX_DIR,
  launchFirefox,
  firefoxTabId,
  openFirefoxPage,
  panelPages,
  parseCsv,
  saveExport,
  resultRows,
  startDemoSerp,
  startFromForm,
  startPrivateRedirect,
  tempDir,
  tid,
  waitFor,
  waitForStatus,
  type DemoSerp,
  type FirefoxSession,
} from '../../harness/browsers';

describe('Forager in Firefox', () => {
  let web: RunningTestWeb;
  let serp: DemoSerp;
  let firefox: FirefoxSession;
  let downloads: { dir: string; remove(): void };
  let crawlId = '';

  beforeAll(async () => {
    assertE2EBuild(FIREFOX_DIR);
    web = await startTestWeb({ seed: 21 });
    serp = await startDemoSerp(web);
    downloads = tempDir('forager-ff-downloads-');
    firefox = await launchFirefox(FIREFOX_DIR, { downloadDir: downloads.dir });
  });

  afterAll(async () => {
    await firefox?.close();
    downloads?.remove();
    await serp?.close();
    await web?.close();
  });

  test('popup on a results page: topic and seeds read, the crawl runs to its budget, ranked fresh results shown', async () => {
    const tab = await firefox.browser.newPage();
    // A user visit first: the browser then holds a 127.0.0.1 cookie a careless crawler would send.
    const visit = serp.seeds[0];
    await tab.goto(visit, { waitUntil: 'domcontentloaded' });
    await tab.goto(`${visit}?again`, { waitUntil: 'domcontentloaded' });
    expect(String(web.requests.find((r) => r.url === `${visit}?again`)?.headers.cookie ?? '')).toContain('forager_test=');
    await tab.goto(serp.url, { waitUntil: 'domcontentloaded' });
    const tabId = await firefoxTabId(firefox, serp.url);

    const popup: Page = await openFirefoxPage(firefox.browser, `${firefox.base}popup.html?tab=${tabId}`);
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    expect(await popup.$eval(tid('topic'), (e) => (e as HTMLInputElement).value)).toBe(serp.query);
    expect(await popup.$eval(tid('seed-count'), (e) => e.textContent)).toMatch(
      new RegExp(`^${serp.seeds.length} result links among \\d+ links`),
    );

    const budget = 40;
    const id = await startFromForm(popup, { maxPages: budget, politenessDelayMs: 0 });
    crawlId = id;
    expect(await waitForStatus(popup, ['done', 'error'], 150_000)).toBe('done');
    expect(await panelPages(popup)).toBe(budget);

    const rows = await waitFor(async () => {
      const r = await resultRows(popup);
      return r.length >= budget ? r : null;
    }, 'all result rows in the popup');
    expect(new Set(rows.map((r) => r.url)).size).toBe(rows.length);
    expect(rows.filter((r) => r.fresh).length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.scoreBar).toBe(true);
      expect(r.badge).toBe(r.fresh);
      expect(r.fresh).toBe(!serp.seeds.includes(r.url));
    }
    const scores = rows.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The best pages are on the topic: the results page's own links were the seeds, and the crawl stayed near them.
    expect(rows[0].score).toBeGreaterThan(0.3);

    // The results page lists the same crawl.
    const results = await openFirefoxPage(firefox.browser, `${firefox.base}results.html#/crawl/${encodeURIComponent(id)}`);
    await results.waitForSelector(tid('page-count'), { timeout: 60_000 });
    await waitFor(
      async () => (await results.$eval(tid('page-count'), (e) => e.textContent ?? '')).startsWith(`${budget} pages`),
      'the page count',
    );

    // Crawl requests (not the tab's navigation) carry no cookie.
    const crawl = web.requests.filter((r) => r.headers['sec-fetch-mode'] !== 'navigate' && !r.url.endsWith('/favicon.ico'));
    expect(crawl.length).toBeGreaterThanOrEqual(budget);
    expect(crawl.filter((r) => r.headers.cookie !== undefined).map((r) => r.url)).toEqual([]);
    await results.close();
    await popup.close();
    await tab.close();
  });

  test('exports: JSON, CSV, bookmarks and Markdown files land on disk with the crawl in them', async () => {
    expect(crawlId).not.toBe('');
    const results = await openFirefoxPage(firefox.browser, `${firefox.base}results.html#/crawl/${encodeURIComponent(crawlId)}`);
    await results.waitForSelector(tid('exports'), { timeout: 60_000 });
    const save = (format: string) => saveExport(results, downloads.dir, format);
    const json = JSON.parse(await save('json')) as {
      format: string;
      crawl: { id: string; topic: { keywords: string } };
      pages: { url: string }[];
    };
    expect(json.format).toBe('forager-crawl');
    expect(json.crawl.id).toBe(crawlId);
    expect(json.crawl.topic.keywords).toBe(serp.query);
    expect(json.pages.length).toBe(40);
    const urls = json.pages.map((p) => p.url).sort();
    const csv = parseCsv(await save('csv'));
    expect(csv[0].slice(0, 3)).toEqual(['url', 'title', 'score']);
    // Every page but those that asked not to be listed (noindex) is a CSV row, a bookmark and a Markdown link.
    const listed = csv
      .slice(1)
      .map((r) => r[0])
      .sort();
    expect(listed.length).toBeGreaterThan(0);
    for (const u of listed) expect(urls).toContain(u);
    const bookmarks = await save('bookmarks');
    expect(bookmarks.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>')).toBe(true);
    for (const u of listed) expect(bookmarks).toContain(`HREF="${u.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`);
    const markdown = await save('markdown');
    expect(markdown).toContain(serp.query);
    for (const u of listed) expect(markdown).toContain(`](${u})`);
    await results.close();
  });

  test('a redirect to a private host is not followed: no request reaches it, the crawl records a skip', async () => {
    const { canary, web: bouncing, redirect, startPage, close } = await startPrivateRedirect();
    try {
      const tab = await firefox.browser.newPage();
      await tab.goto(canary.url, { waitUntil: 'domcontentloaded' });
      await tab.close();
      expect(canary.hits()).toBe(1);

      const view = await openFirefoxPage(firefox.browser, firefox.base + startPage);
      const id = await startFromForm(view, { maxPages: 12, politenessDelayMs: 0 });
      expect(await waitForStatus(view, ['done', 'error'], 120_000)).toBe('done');
      expect(bouncing.requestCount(redirect)).toBeGreaterThan(0);
      expect(canary.hits()).toBe(1);

      await view.waitForSelector(tid('exports'), { timeout: 60_000 });
      // An earlier export of a crawl with the same topic would have the same file name (Firefox would save this one
      // as "name(1).json"): start from an empty folder.
      for (const f of readdirSync(downloads.dir)) rmSync(path.join(downloads.dir, f), { force: true });
      const json = JSON.parse(await saveExport(view, downloads.dir, 'json')) as {
        crawl: { id: string };
        skips: { url: string; reason: string }[];
      };
      expect(json.crawl.id).toBe(id);
      expect(json.skips.find((s) => s.url === redirect)?.reason).toBe('redirect');
      await view.close();
    } finally {
      await close();
    }
  });

  test('the event page is suspended mid-crawl (idle timeout 1 s, popup closed): woken, the crawl ends with every page once', async () => {
    // A second browser, whose event pages are suspended after 1 s without events (Firefox's default is 30 s, which a
    // crawl's own activity outlasts); the answers are slowed so the crawl is still running when that happens.
    const slowWeb = await startTestWeb({ seed: 22, delayMs: 40 });
    const slowSerp = await startDemoSerp(slowWeb);
    const idle = await launchFirefox(FIREFOX_DIR, { prefs: { 'extensions.background.idle.timeout': 1000 } });
    try {
      const tab = await idle.browser.newPage();
      await tab.goto(slowSerp.url, { waitUntil: 'domcontentloaded' });
      const tabId = await firefoxTabId(idle, slowSerp.url);
      const popup = await openFirefoxPage(idle.browser, `${idle.base}popup.html?tab=${tabId}`);
      const budget = 24;
      // Every webRequest event of the crawl's own requests (the address guard listens to them) resets the event
      // page's idle timer: leave gaps between requests longer than the 1 s idle timeout.
      const id = await startFromForm(popup, { maxPages: budget, politenessDelayMs: 2500 });
      await popup.close(); // no extension page left open: nothing keeps the event page alive

      // Suspended: the request log stops growing for 3 s before the budget is reached.
      const stalledAt = await waitFor(
        async () => {
          const before = slowWeb.requests.length;
          await new Promise((r) => setTimeout(r, 3000));
          return slowWeb.requests.length === before ? before : null;
        },
        'the crawl to stall with the event page suspended',
        60_000,
        0,
      );
      expect(stalledAt).toBeLessThan(budget);

      // Opening an extension page wakes the event page; it picks the crawl up from its checkpoint.
      const results = await openFirefoxPage(idle.browser, `${idle.base}results.html#/crawl/${encodeURIComponent(id)}`);
      await waitFor(
        async () =>
          (await results.$eval(tid('page-count'), (e) => e.textContent ?? '').catch(() => '')).startsWith(`${budget} pages`)
            ? true
            : null,
        'the crawl to reach its budget after the wake-up',
        90_000,
      );
      // The list holds every stored page (one per URL: the store is keyed by it) and no more than the budget.
      const listed = await waitFor(
        async () =>
          Number((await results.$eval(tid('results'), (e) => e.getAttribute('data-count')).catch(() => null)) ?? NaN) || null,
        'the results list',
      );
      expect(listed).toBe(budget);
      const repeats = new Map<string, number>();
      for (const r of slowWeb.requests) if (!r.url.endsWith('/robots.txt')) repeats.set(r.url, (repeats.get(r.url) ?? 0) + 1);
      console.log(
        `[e2e] Firefox event page suspended after ${stalledAt} requests; ${[...repeats.values()].filter((n) => n > 1).length} pages requested again after the wake-up`,
      );
      await results.close();
      await tab.close();
    } finally {
      await idle.close();
      await slowSerp.close();
      await slowWeb.close();
    }
  });
});

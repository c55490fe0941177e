/**
 * Forager in Firefox (firefox-esr, the MV3 build made with FORAGER_E2E=1): the smoke run. The popup on the local
 * results page reads the topic and the results, a crawl runs to its budget (event page + Worker evaluator), ranked
 * fresh results show in the popup and in the results page, and no crawl request carries a cookie.
 */
import type { Page } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestWeb, type RunningTestWeb } from '../web/server';
import {
  assertE2EBuild,
  FIREFOX_DIR,
  launchFirefox,
  openFirefoxPage,
  panelPages,
  resultRows,
  startDemoSerp,
  startFromForm,
  tid,
  waitFor,
  waitForStatus,
  type DemoSerp,
  type FirefoxSession,
} from './helpers';

describe('Forager in Firefox', () => {
  let web: RunningTestWeb;
  let serp: DemoSerp;
  let firefox: FirefoxSession;

  beforeAll(async () => {
    assertE2EBuild(FIREFOX_DIR);
    web = await startTestWeb({ seed: 21 });
    serp = await startDemoSerp(web);
    firefox = await launchFirefox(FIREFOX_DIR);
  });

  afterAll(async () => {
    await firefox?.close();
    await serp?.close();
    await web?.close();
  });

  test('popup on a results page: topic and seeds read, the crawl runs to its budget, ranked fresh results shown', async () => {
    const tab = await firefox.browser.newPage();
    // A user visit first: the browser then holds a 127.0.0.1 cookie a careless crawler would send.
    const visit = serp.seeds[0];
    await tab.goto(visit, { waitUntil: 'domcontentloaded' });
    await tab.goto(visit + '?again', { waitUntil: 'domcontentloaded' });
    expect(String(web.requests.find((r) => r.url === visit + '?again')?.headers.cookie ?? '')).toContain('forager_test=');
    await tab.goto(serp.url, { waitUntil: 'domcontentloaded' });
    // The tab id, asked from an extension page (Firefox's tabs API; there is no service worker to evaluate in).
    const probe = await openFirefoxPage(firefox.browser, firefox.base + 'popup.html');
    const tabId = await waitFor(
      () =>
        probe.evaluate(async (u) => {
          const api = (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).browser;
          return (await api.tabs.query({})).find((t) => t.url === u)?.id ?? null;
        }, serp.url),
      'the results tab id',
    );
    await probe.close();

    const popup: Page = await openFirefoxPage(firefox.browser, `${firefox.base}popup.html?tab=${tabId}`);
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    expect(await popup.$eval(tid('topic'), (e) => (e as HTMLInputElement).value)).toBe(serp.query);
    expect(await popup.$eval(tid('seed-count'), (e) => e.textContent)).toMatch(new RegExp(`^${serp.seeds.length} result links among \\d+ links`));

    const budget = 40;
    const id = await startFromForm(popup, { maxPages: budget, politenessDelayMs: 0 });
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
    await waitFor(async () => (await results.$eval(tid('page-count'), (e) => e.textContent ?? '')).startsWith(`${budget} pages`), 'the page count');

    // Crawl requests (not the tab's navigation) carry no cookie.
    const crawl = web.requests.filter((r) => r.headers['sec-fetch-mode'] !== 'navigate' && !r.url.endsWith('/favicon.ico'));
    expect(crawl.length).toBeGreaterThanOrEqual(budget);
    expect(crawl.filter((r) => r.headers.cookie !== undefined).map((r) => r.url)).toEqual([]);
    await results.close();
    await popup.close();
    await tab.close();
  });
});

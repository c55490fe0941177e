/**
 * Issue 16, results first, in Chromium and Firefox: a crawl from the local results page; after it the first row in
 * view is a new relevant page, the search's own results are hidden until asked for, the toolbar badge shows the count
 * of new relevant pages the popup shows; a 120-character topic overflows no view; a crawl whose start pages cannot be
 * reached says so, with a reason per start page; axe-core finds no serious or critical violation in any view, light
 * and dark.
 */
import { createServer } from 'node:net';
import { AxePuppeteer } from '@axe-core/puppeteer';
import type { Page } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  assertE2EBuild,
  CHROME_DIR,
  type ChromiumSession,
  clickTestId,
  type DemoSerp,
  FIREFOX_DIR,
  type FirefoxSession,
  firefoxTabId,
  launchChromium,
  launchFirefox,
  openExtensionPage,
  openFirefoxPage,
  setField,
  startDemoSerp,
  startFromForm,
  tabIdOf,
  tid,
  waitFor,
  waitForStatus,
} from '../../harness/browsers';
import { type RunningTestWeb, startTestWeb } from '../../harness/testweb/server';

const LONG_TOPIC =
  'how closures promises and the event loop interact in modern javascript runtimes and when to use async iterators';

interface Session {
  name: 'chromium' | 'firefox';
  open(file: string, viewport?: { width: number; height: number }): Promise<Page>;
  tabId(url: string): Promise<number>;
  newTab(url: string): Promise<Page>;
  /** The toolbar badge's text, read in an extension page. */
  badge(page: Page): Promise<string>;
  close(): Promise<void>;
}

async function chromiumSession(): Promise<Session> {
  assertE2EBuild(CHROME_DIR);
  const c: ChromiumSession = await launchChromium(CHROME_DIR);
  const worker = await c.worker();
  return {
    name: 'chromium',
    open: (file, viewport = { width: 460, height: 600 }) => openExtensionPage(c.browser, c.extensionId, file, viewport),
    tabId: (url) => tabIdOf(worker, url),
    newTab: async (url) => {
      const tab = await c.browser.newPage();
      await tab.goto(url, { waitUntil: 'domcontentloaded' });
      return tab;
    },
    badge: (page) => page.evaluate(() => (globalThis as unknown as { chrome: ChromeAction }).chrome.action.getBadgeText({})),
    close: () => c.close(),
  };
}

interface ChromeAction {
  action: { getBadgeText(d: object): Promise<string> };
}

async function firefoxSession(): Promise<Session> {
  assertE2EBuild(FIREFOX_DIR);
  const f: FirefoxSession = await launchFirefox(FIREFOX_DIR);
  return {
    name: 'firefox',
    open: async (file, viewport = { width: 460, height: 600 }) => {
      const page = await openFirefoxPage(f.browser, `${f.base}${file}`);
      await page.setViewport(viewport);
      return page;
    },
    tabId: (url) => firefoxTabId(f, url),
    newTab: async (url) => {
      const tab = await f.browser.newPage();
      await tab.goto(url, { waitUntil: 'domcontentloaded' });
      return tab;
    },
    badge: (page) => page.evaluate(() => (globalThis as unknown as { browser: ChromeAction }).browser.action.getBadgeText({})),
    close: () => f.close(),
  };
}

/** Horizontal overflow of the document and of every element that scrolls or clips (scrollWidth > clientWidth). */
function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth) out.push(`document ${root.scrollWidth} > ${root.clientWidth}`);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('main, section, form, div, ol, ul, details'))) {
      const style = getComputedStyle(el);
      if (style.overflowX === 'visible') continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        out.push(
          `${el.tagName.toLowerCase()}.${el.className} ${el.getAttribute('data-testid') ?? ''} ${el.scrollWidth} > ${el.clientWidth}`,
        );
      }
    }
    return out;
  });
}

/** axe-core's serious and critical violations in the page, in both colour schemes. */
async function axeProblems(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    const result = await new AxePuppeteer(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations) {
      if (v.impact === 'serious' || v.impact === 'critical') {
        out.push(`${scheme}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
    }
  }
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  return out;
}

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each([['chromium'], ['firefox']] as const)('results first (%s)', (browserName) => {
  let web: RunningTestWeb;
  let serp: DemoSerp;
  let session: Session;
  let crawlId = '';

  beforeAll(async () => {
    web = await startTestWeb({ seed: 5 });
    serp = await startDemoSerp(web);
    session = browserName === 'chromium' ? await chromiumSession() : await firefoxSession();
  });

  afterAll(async () => {
    await session?.close();
    await serp?.close();
    await web?.close();
  });

  test('after a crawl: a new relevant page first, search results hidden until asked, badge = the new relevant count', async () => {
    const tab = await session.newTab(serp.url);
    const tabId = await session.tabId(serp.url);
    const popup = await session.open(`popup.html?tab=${tabId}`);
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    // The start form comes first (no crawl yet), the main button has the focus.
    expect(await popup.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('crawl-button');
    crawlId = await startFromForm(popup, { maxPages: 60, politenessDelayMs: 0 });
    await waitForStatus(popup, ['done'], 170_000);

    // Reopened: results first.
    await popup.close();
    const again = await session.open(`popup.html?tab=${tabId}`);
    await again.waitForSelector(tid('result-row'), { timeout: 60_000 });
    expect(await again.$eval(tid('popup'), (e) => e.getAttribute('data-first'))).toBe('results');
    expect(await again.$(`${tid('new-crawl')}:not([open])`)).not.toBeNull();
    const rows = await again.$$eval(tid('result-row'), (rs) =>
      rs.map((r) => ({ url: r.getAttribute('data-url') ?? '', fresh: r.getAttribute('data-fresh') === 'true' })),
    );
    expect(rows.length).toBeGreaterThan(0);
    // The first row in view is a new page, and no search result is listed by default.
    const firstInView = await again.evaluate(() => {
      const box = document.querySelector('.list-box')!.getBoundingClientRect();
      const row = Array.from(document.querySelectorAll('[data-testid="result-row"]')).find(
        (r) => r.getBoundingClientRect().bottom > box.top,
      );
      return row?.getAttribute('data-url');
    });
    expect(firstInView).toBe(rows[0].url);
    expect(rows.every((r) => r.fresh)).toBe(true);
    expect(rows.some((r) => serp.seeds.includes(r.url))).toBe(false);
    // All rows shown are relevant: at or above the cut, which the same page's counts say.
    const headline = Number((await again.$eval(tid('new-count'), (e) => e.textContent ?? '')).match(/\d+/)?.[0]);
    expect(headline).toBeGreaterThan(0);
    expect(rows.length).toBe(Math.min(headline, rows.length));

    // "N from your search" shows them.
    const toggle = await again.$eval(tid('toggle-search'), (e) => e.textContent ?? '');
    expect(toggle).toMatch(/^\d+ from your search$/);
    await clickTestId(again, 'toggle-search');
    await waitFor(
      async () =>
        (await again.$$eval(tid('result-row'), (rs) => rs.filter((r) => r.getAttribute('data-fresh') === 'false').length)) > 0,
      'search results listed after the toggle',
    );

    // The badge says what the headline says.
    const badge = await waitFor(async () => {
      const text = await session.badge(again);
      return text === String(headline) ? text : null;
    }, `badge text ${headline}`);
    expect(badge).toBe(String(headline));

    // Results page: the page scrolls, not a box inside it; search results hidden there too.
    const results = await session.open(`results.html#/crawl/${encodeURIComponent(crawlId)}`, { width: 1280, height: 800 });
    await results.waitForSelector(tid('result-row'), { timeout: 60_000 });
    expect(await results.$$eval(`${tid('result-row')}[data-fresh="false"]`, (rs) => rs.length)).toBe(0);
    expect(await results.$(tid('results-scroller'))).toBeNull();
    // Search within the results narrows the list.
    const title = await results.$eval(tid('result-link'), (a) => a.textContent ?? '');
    await setField(results, 'search-within', title);
    await waitFor(
      async () => (await results.$$eval(tid('result-row'), (rs) => rs.length)) >= 1,
      'rows matching the search within results',
    );
    expect(await results.$eval(tid('result-link'), (a) => a.textContent)).toBe(title);
    await results.close();
    await again.close();
    await tab.close();
  });

  test('a 120-character topic overflows no view (popup, results page, all crawls, start view)', async () => {
    expect(LONG_TOPIC.length).toBeGreaterThanOrEqual(110);
    const topic = `${LONG_TOPIC} ${'x'.repeat(120 - LONG_TOPIC.length - 1)}`.slice(0, 120);
    expect(topic.length).toBe(120);
    const start = await session.open(
      `results.html#/new?topic=${encodeURIComponent(topic)}&seed=${encodeURIComponent(serp.seeds[0])}`,
      { width: 1280, height: 800 },
    );
    await start.waitForSelector(tid('start-form'), { timeout: 60_000 });
    expect(await overflows(start)).toEqual([]);
    const id = await startFromForm(start, { maxPages: 10, politenessDelayMs: 0 });
    await waitForStatus(start, ['done'], 120_000);
    expect(await overflows(start)).toEqual([]);

    const popup = await session.open('popup.html');
    await popup.waitForSelector(`${tid('crawl-panel')}[data-crawl-id="${id}"]`, { timeout: 60_000 });
    expect(await popup.$eval(tid('crawl-name'), (e) => e.textContent)).toBe(topic);
    expect(await overflows(popup)).toEqual([]);
    // The status chip, the count and All crawls stay in view.
    for (const t of ['crawl-status', 'new-count', 'open-results']) {
      const box = await popup.$eval(tid(t), (e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, width: document.documentElement.clientWidth };
      });
      expect(box.right, t).toBeLessThanOrEqual(box.width);
    }
    await popup.close();

    const list = await session.open('results.html#/', { width: 1280, height: 800 });
    await list.waitForSelector(tid('crawl-item'), { timeout: 60_000 });
    expect(await overflows(list)).toEqual([]);
    const narrow = await session.open('results.html#/', { width: 420, height: 700 });
    await narrow.waitForSelector(tid('crawl-item'), { timeout: 60_000 });
    expect(await overflows(narrow)).toEqual([]);
    await narrow.close();
    await list.close();
    await start.close();
  });

  test('a crawl whose start pages cannot be reached says so, with a reason per start page', async () => {
    const seeds = [`http://127.0.0.1:${await closedPort()}/a.html`, `http://127.0.0.1:${await closedPort()}/b.html`];
    const start = await session.open(
      `results.html#/new?topic=${encodeURIComponent('unreachable test')}&${seeds.map((s) => `seed=${encodeURIComponent(s)}`).join('&')}`,
      { width: 1280, height: 800 },
    );
    await startFromForm(start, { maxPages: 10, politenessDelayMs: 0 });
    await start.waitForSelector(tid('crawl-failure'), { timeout: 120_000 });
    expect(await start.$eval(tid('crawl-status'), (e) => e.textContent)).toBe('Nothing fetched');
    const reasons = await start.$$eval(tid('failure-reason'), (els) =>
      els.map((e) => ({ reason: e.getAttribute('data-reason'), text: e.textContent ?? '' })),
    );
    expect(reasons).toHaveLength(2);
    for (const r of reasons) {
      expect(r.reason).toBe('network');
      expect(r.text).toContain('could not be reached');
    }
    expect(await start.$(tid('retry'))).not.toBeNull();
    expect(await start.$(tid('edit'))).not.toBeNull();
    // Errors opens the list of skips.
    await clickTestId(start, 'stat-errors');
    await start.waitForSelector(tid('skip-list'), { timeout: 30_000 });
    expect(await start.$$eval(tid('skip-item'), (els) => els.length)).toBeGreaterThanOrEqual(2);
    // The badge shows the failure.
    expect(await waitFor(async () => ((await session.badge(start)) === '!' ? '!' : null), 'badge "!"')).toBe('!');
    await start.close();
  });

  test('accessibility: no serious or critical axe violations in the popup, results page, start view, light and dark', async () => {
    const tab = await session.newTab(serp.url);
    const tabId = await session.tabId(serp.url);
    const views: [string, string, string][] = [
      ['popup (results)', `popup.html?tab=${tabId}`, 'crawl-panel'],
      ['results page', `results.html#/crawl/${encodeURIComponent(crawlId)}`, 'result-row'],
      ['all crawls', 'results.html#/', 'crawl-item'],
      ['start view', `results.html#/new?topic=test&seed=${encodeURIComponent(serp.seeds[0])}`, 'start-form'],
    ];
    const problems: string[] = [];
    for (const [name, file, ready] of views) {
      const page = await session.open(file, file.startsWith('popup') ? undefined : { width: 1280, height: 800 });
      await page.waitForSelector(tid(ready), { timeout: 60_000 });
      problems.push(...(await axeProblems(page)).map((p) => `${name}: ${p}`));
      await page.close();
    }
    // The popup's start view: opened on the results page with "New crawl" unfolded.
    const popup = await session.open(`popup.html?tab=${tabId}`);
    await popup.waitForSelector(tid('new-crawl'), { timeout: 60_000 });
    await popup.$eval(tid('new-crawl'), (d) => (d as HTMLDetailsElement).setAttribute('open', ''));
    await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
    problems.push(...(await axeProblems(popup)).map((p) => `popup start: ${p}`));
    await popup.close();
    await tab.close();
    expect(problems).toEqual([]);
  });
});

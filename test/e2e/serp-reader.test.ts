/**
 * The results-page reader in real Chromium and Firefox (the e2e packages, through test/e2e/driver.ts): a page that
 * hides result links from its reader in each way layout allows (stylesheet display/visibility/opacity, no size, clipped, off the page, tiny
 * font) gets only its visible results read as seeds; and a page listening for whatever the reader might send it
 * (window messages, the DOM event WXT's content-script wrapper dispatches, DOM mutations) sees nothing when the
 * popup reads it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tid, waitFor } from '../../harness/browsers';
import { BROWSERS, launchDriver, type ExtensionDriver } from './driver';

const VISIBLE = ['https://visible-one.example/', 'https://visible-two.example/', 'https://visible-three.example/'];

/** One result: a heading link, in a block that may be hidden by the classes or attributes given. */
const result = (href: string, title: string, blockClass = '', blockAttrs = '', linkClass = '') =>
  `<div class="r ${blockClass}" ${blockAttrs}><h3><a href="${href}" class="${linkClass}">${title}</a></h3>` +
  `<p>A description of ${title}, long enough to read.</p></div>`;

/** The results page: an unknown engine's, so the structural reader (and its visibility check) does the work. */
function hidingPage(extensionId: string): string {
  return `<!DOCTYPE html><html><head><title>router admin - Find</title><style>
  body { margin: 0; font: 16px sans-serif; }
  .gone { display: none; }
  .invisible { visibility: hidden; }
  .transparent { opacity: 0; }
  .nosize { width: 0; height: 0; overflow: hidden; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .offleft { position: absolute; left: -10000px; }
  .offtop { position: absolute; top: -5000px; }
  .offright { position: absolute; left: 30000px; top: 0; }
  .tiny { font-size: 0; }
  </style></head><body>
  <form action="/find"><input name="q" value="router admin"></form>
  <main>
  ${result(VISIBLE[0], 'Visible one')}
  ${result('https://hidden-display.example/', 'Hidden by display', 'gone')}
  ${result('https://hidden-visibility.example/', 'Hidden by visibility', 'invisible')}
  ${result('https://hidden-opacity.example/', 'Hidden by opacity', 'transparent')}
  ${result(VISIBLE[1], 'Visible two')}
  ${result('https://hidden-nosize.example/', 'Hidden without size', 'nosize')}
  ${result('https://hidden-clip.example/', 'Hidden by clipping', 'sr-only')}
  ${result('https://hidden-left.example/', 'Hidden off the left edge', 'offleft')}
  ${result('https://hidden-top.example/', 'Hidden above the page', 'offtop')}
  ${result('https://hidden-right.example/', 'Hidden far right', 'offright')}
  ${result('https://hidden-tiny.example/', 'Hidden in a zero font', '', '', 'tiny')}
  ${result('https://hidden-aria.example/', 'Hidden from assistive technology', '', 'aria-hidden="true"')}
  ${result(VISIBLE[2], 'Visible three')}
  </main>
  <script>
  // Everything the page could learn of a reader: window messages, the DOM event WXT's content-script wrapper
  // dispatches (its name carries the extension id), and any change to the DOM.
  window.__seen = [];
  addEventListener('message', (e) => window.__seen.push('message ' + JSON.stringify(e.data)));
  for (const name of ['serp', 'serp-reader']) {
    const type = ${JSON.stringify(extensionId)} + ':' + name + ':wxt:content-script-started';
    document.addEventListener(type, () => window.__seen.push('event ' + type));
    addEventListener(type, () => window.__seen.push('event ' + type));
  }
  new MutationObserver((records) => window.__seen.push('mutation ' + records.length)).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
  window.__ready = true;
  </script></body></html>`;
}

async function startPageServer(extensionId: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').startsWith('/find')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(hidingPage(extensionId));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}/find?q=router+admin`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the popup read from the tab, once it shows its start form. */
async function readByPopup(popup: Page): Promise<{ topic: string; seeds: string[] }> {
  await popup.waitForSelector(tid('start-form'), { timeout: 60_000 });
  const topic = await popup.$eval(tid('topic'), (e) => (e as HTMLInputElement).value);
  const seeds = await popup.$$eval(`${tid('seed-list')} li`, (lis) => lis.map((li) => li.getAttribute('data-url') ?? ''));
  return { topic, seeds };
}

async function pageSaw(tab: Page): Promise<string[]> {
  return tab.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
}

describe.each(BROWSERS)('the results-page reader in %s', (browserName) => {
  let driver: ExtensionDriver;
  let server: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    driver = await launchDriver(browserName);
    server = await startPageServer(driver.extensionId);
  });

  afterAll(async () => {
    await driver?.close();
    await server?.close();
  });

  test('only the visible results become seeds, and the page sees no message, event or DOM change', async () => {
    const tab = await driver.browser.newPage();
    await tab.setViewport({ width: 1280, height: 800 });
    await tab.goto(server.url, { waitUntil: 'load' });
    await waitFor(() => tab.evaluate(() => (window as unknown as { __ready?: boolean }).__ready === true), 'the page script');
    const tabId = await driver.tabId(server.url);
    const popup = await driver.open(`popup.html?tab=${tabId}`, { width: 420, height: 600 });
    const read = await readByPopup(popup);
    expect(read.topic).toBe('router admin');
    // Both at once, so that a failure shows both what was read and what the page saw.
    expect({ seeds: read.seeds, pageSaw: await pageSaw(tab) }).toEqual({ seeds: VISIBLE, pageSaw: [] });
  });
});

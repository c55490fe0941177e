/**
 * The visibility check keeps every real result: the 42 saved results pages (test/fixtures/serp) rendered in real
 * Chromium and Firefox (offline: the engines' scripts and remote resources refused, as a saved page shows them), read
 * by the results-page reader with the rendered check (lib/app/serp/rendered.ts) and with the markup alone, which
 * the unit tests hold to the hand-read lists (precision and recall 1.00). Both readings must agree, page by page,
 * except where the page offline shows no results at all (listed below, each checked to be empty, not partial).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import puppeteer, { type Browser } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM, FIREFOX, SERP_DIR } from '../../harness/browsers';
import { readerBundle } from '../hostile/reader-bundle';
import { BROWSERS } from './driver';

const PAGES = JSON.parse(readFileSync(path.join(SERP_DIR, 'pages.json'), 'utf8')) as { name: string; url: string }[];

/** Pages that, rendered offline, show a person none of their results (checked on screenshots in Chromium; main's check reads none either). */
const BLANK_OFFLINE: Record<string, string> = {
  'brave-javascript-tutorial-2026-04': 'the whole page is blank offline',
  'google-mobile-matrix-2021': 'the results area is empty offline (header and tabs only)',
};

function pageHtml(name: string): Buffer {
  try {
    return gunzipSync(readFileSync(path.join(SERP_DIR, `${name}.html.gz`)));
  } catch {
    return readFileSync(path.join(SERP_DIR, `${name}.html`));
  }
}

describe.each(BROWSERS)('real results pages read in %s', (browserName) => {
  let browser: Browser;
  let server: http.Server;
  let origin = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const name = (req.url ?? '/').slice(1);
      if (!PAGES.some((p) => p.name === name)) return void res.writeHead(404).end();
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': "default-src 'self' data:; style-src 'self' 'unsafe-inline' data:; script-src 'none'",
      });
      res.end(pageHtml(name));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser =
      browserName === 'firefox'
        ? await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true })
        : await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  test('the rendered check keeps every result the markup gives, on every page a person sees results on', async () => {
    const bundle = await readerBundle();
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1280, height: 800 });
    const differ: Record<string, { lost: string[]; gained: string[] }> = {};
    const blank: Record<string, number> = {};
    for (const p of PAGES) {
      await tab.goto(`${origin}/${p.name}`, { waitUntil: 'load' });
      await tab.evaluate(bundle);
      const [rendered, markup] = (await tab.evaluate((url) => {
        const read = (globalThis as unknown as { __foragerRead(u: string, m?: boolean): { urls: string[] } }).__foragerRead;
        return [read(url).urls, read(url, true).urls];
      }, p.url)) as [string[], string[]];
      if (p.name in BLANK_OFFLINE) blank[p.name] = rendered.length;
      else if (rendered.join('\n') !== markup.join('\n')) {
        differ[p.name] = {
          lost: markup.filter((u) => !rendered.includes(u)),
          gained: rendered.filter((u) => !markup.includes(u)),
        };
      }
    }
    expect(differ).toEqual({});
    expect(blank).toEqual(Object.fromEntries(Object.keys(BLANK_OFFLINE).map((n) => [n, 0])));
  });
});

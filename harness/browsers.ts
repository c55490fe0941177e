/**
 * Shared by the real-browser tests (test/e2e), the `npm start` demo (cli/demo.ts) and the extension benchmark
 * (bench/extension.ts): building the extension, reading its packages, the local results page made from a real
 * fixture, launching Chromium / Firefox with Forager loaded, and driving its pages. Recipes follow GUIDE.md "Driving
 * real browsers in tests"; what differs between the two browsers in a test is in test/e2e/driver.ts.
 *
 * Node only (not part of lib/).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import JSZip from 'jszip';
import { parseHTML } from 'linkedom';
import puppeteer, { type Browser, type CDPSession, type Page, type Target, type WebWorker } from 'puppeteer';
import { ENGINES } from '../lib/app/serp/engines/index';
import { domainMatches } from '../lib/app/serp/hosts';
import { unwrapRedirect } from '../lib/app/serp/redirect';
import { canonicalizeUrl } from '../lib/engine';
import { escapeHtml } from '../lib/app/rules/text-safety';
import { seedsFor, topicQuery, type TestPage } from './testweb/generate';
import { startTestWeb, type RequestLog, type RunningTestWeb } from './testweb/server';

/** Repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Real results pages, gzipped, with their expected organic results (test/fixtures/serp; sources in its README). */
export const SERP_DIR = path.join(ROOT, 'test/fixtures/serp');
/**
 * Where `npm run zip:e2e` builds and packs the e2e extension (FORAGER_E2E=1: wxt.config.ts sends such builds to
 * .output/e2e, away from the .output/chrome-mv3 and .output/firefox-mv3 a person loads). FORAGER_E2E_OUT: elsewhere.
 */
export const E2E_OUT = process.env.FORAGER_E2E_OUT ? path.resolve(process.env.FORAGER_E2E_OUT) : path.join(ROOT, '.output/e2e');
/** Gecko id of the Firefox build (wxt.config.ts). */
export const GECKO_ID = 'forager@forager.invalid';
/** The internal UUID launchFirefox gives the extension: its pages are moz-extension://<this>/... */
export const FIREFOX_UUID = '6b1c9d52-3f0e-4a57-9a3d-5f3c2b7e9a10';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Waits until `check` returns a truthy value (polling), or throws `what` after `timeoutMs`. Not a timed assertion: a deadline. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** `promise`, or an error naming `what` after `ms` (for puppeteer calls that can wait forever, e.g. a click). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------------------------
// Building

/** The manifest fields the tests look at. */
export interface Manifest {
  name: string;
  version: string;
  description?: string;
  icons?: Record<string, string>;
  permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  optional_permissions?: string[];
  minimum_chrome_version?: string;
  options_ui?: { page: string; open_in_tab?: boolean };
  browser_specific_settings?: { gecko?: { id?: string; strict_min_version?: string; data_collection_permissions?: unknown } };
}

// ---------------------------------------------------------------------------------------------------------------
// Packages (`npm run zip`: the store packages; `npm run zip:e2e`: the same with site access granted at install)

/** package.json's version, which the packages' names and manifests carry. */
export const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Where a package is: `.output/forager-<version>-<browser>.zip`, or for `e2e` the one in .output/e2e. */
export function packagePath(browser: 'chrome' | 'firefox', opts: { e2e: boolean }): string {
  return path.join(opts.e2e ? E2E_OUT : path.join(ROOT, '.output'), `forager-${VERSION}-${browser}.zip`);
}

async function openPackage(zip: string): Promise<JSZip> {
  if (!existsSync(zip)) throw new Error(`No package at ${zip}: run \`npm run zip\` (store) or \`npm run zip:e2e\` (tests).`);
  return JSZip.loadAsync(readFileSync(zip));
}

/** The manifest inside a package. */
export async function packageManifest(zip: string): Promise<Manifest> {
  const file = (await openPackage(zip)).file('manifest.json');
  if (!file) throw new Error(`${zip} holds no manifest.json`);
  return JSON.parse(await file.async('string')) as Manifest;
}

/** The file names inside a package. */
export async function packageFiles(zip: string): Promise<string[]> {
  return Object.values((await openPackage(zip)).files)
    .filter((f) => !f.dir)
    .map((f) => f.name);
}

/** One file of a package, as text. */
export async function packageText(zip: string, name: string): Promise<string> {
  const file = (await openPackage(zip)).file(name);
  if (!file) throw new Error(`${zip} holds no ${name}`);
  return file.async('string');
}

/** Unpacks a package into `dir` (Chromium loads extensions from a folder). */
export async function unpackPackage(zip: string, dir: string): Promise<void> {
  const archive = await openPackage(zip);
  for (const entry of Object.values(archive.files)) {
    const target = path.resolve(dir, entry.name);
    if (!target.startsWith(path.resolve(dir) + path.sep)) throw new Error(`${zip}: ${entry.name} points outside the package`);
    if (entry.dir) mkdirSync(target, { recursive: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, await entry.async('nodebuffer'));
    }
  }
}

/**
 * Throws a clear error unless `zip` is an e2e package: made with FORAGER_E2E=1, host permission granted up front (a
 * headless browser never answers the permission prompt, so a store package cannot crawl there).
 */
export async function assertE2EPackage(zip: string): Promise<void> {
  if (!(await packageManifest(zip)).host_permissions?.includes('<all_urls>'))
    throw new Error(`${zip} is a store package; the e2e tests need one made by \`npm run zip:e2e\` (FORAGER_E2E=1).`);
}

/**
 * Builds the extension with WXT's API into `outDir/<browser>-mv3` and returns that directory.
 * `e2e: true` builds with FORAGER_E2E=1 (host permission granted at install). Must run outside vitest (it starts Vite).
 */
export async function buildExtension(opts: { browser: 'chrome' | 'firefox'; e2e: boolean; outDir: string }): Promise<string> {
  const { build } = await import('wxt');
  const previous = process.env.FORAGER_E2E;
  // wxt.config.ts reads the variable when WXT loads it, i.e. during build().
  if (opts.e2e) process.env.FORAGER_E2E = '1';
  else delete process.env.FORAGER_E2E;
  try {
    await build({ root: ROOT, browser: opts.browser, manifestVersion: 3, outDir: opts.outDir, logLevel: 1 } as Parameters<
      typeof build
    >[0]);
  } finally {
    if (previous === undefined) delete process.env.FORAGER_E2E;
    else process.env.FORAGER_E2E = previous;
  }
  const dir = path.join(opts.outDir, `${opts.browser}-mv3`);
  if (!existsSync(path.join(dir, 'manifest.json'))) throw new Error(`WXT build left no manifest in ${dir}`);
  return dir;
}

// ---------------------------------------------------------------------------------------------------------------
// The local results page

/** The fixture the demo results page is made from (Bing, server-rendered: its organic links are in the HTML). */
export const DEFAULT_FIXTURE = 'bing-javascript-tutorial-2026-04';

export interface DemoResult {
  url: string;
  title: string;
}

/**
 * Turns a real results page into one for the test web: every link whose target (redirect wrapper removed) is one of
 * the fixture's expected organic results is pointed at `results[i]` (and shows its title); other links that leave
 * the engine are pointed at the engine's own host (they would lead off this machine); the query becomes `query`;
 * scripts are removed (they would call the engine's servers and rewrite the page).
 *
 * @param fixture file name without `.html.gz` in {@link SERP_DIR}; its expected list is <fixture>.expected.json there
 * @returns the page's HTML
 */
export function makeDemoSerpHtml(opts: { fixture?: string; query: string; results: DemoResult[] }): string {
  const fixture = opts.fixture ?? DEFAULT_FIXTURE;
  const html = gunzipSync(readFileSync(path.join(SERP_DIR, `${fixture}.html.gz`))).toString('utf8');
  const expected = JSON.parse(readFileSync(path.join(SERP_DIR, `${fixture}.expected.json`), 'utf8')) as {
    query: string;
    results: { url: string; title: string }[];
  };
  const engine = ENGINES.find((e) => e.id === (expected as { engine?: string }).engine);
  const engineHost = engine?.hosts[0] ?? 'www.bing.com';
  const pageUrl = `https://${engineHost}/search?q=${encodeURIComponent(expected.query)}`;
  const { document } = parseHTML(html);

  const slot = new Map<string, number>();
  expected.results.forEach((r, i) => {
    const c = canonicalizeUrl(r.url);
    if (c && !slot.has(c)) slot.set(c, i);
  });
  let rewritten = 0;
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const target = unwrapRedirect(a.getAttribute('href') ?? '', pageUrl, ENGINES);
    if (!target) continue;
    const c = canonicalizeUrl(target);
    const i = c === null ? undefined : slot.get(c);
    const host = new URL(target).hostname;
    if (i !== undefined && i < opts.results.length) {
      const r = opts.results[i];
      a.setAttribute('href', r.url);
      // Only the result's heading link carries the title; other links to it (breadcrumbs, thumbnails) keep their text.
      if (a.querySelector('h2, h3') || a.closest('h2, h3')) a.textContent = r.title;
      rewritten++;
    } else if (!(engine ? [...engine.hosts, ...(engine.serviceDomains ?? [])] : []).some((d) => domainMatches(host, d))) {
      // A result beyond the ones we have, or a sitelink: keep it on the engine (never a seed).
      a.setAttribute('href', `/search?q=${encodeURIComponent(opts.query)}`);
    }
  }
  if (rewritten === 0) throw new Error(`no organic result links of ${fixture} found to rewrite`);
  for (const s of Array.from(document.querySelectorAll('script, noscript'))) s.remove();
  for (const el of Array.from(document.querySelectorAll('input[name="q"], textarea[name="q"]'))) {
    if (el.tagName === 'TEXTAREA') el.textContent = opts.query;
    else el.setAttribute('value', opts.query);
  }
  const title = document.querySelector('title');
  if (title) title.textContent = `${opts.query} - Search`;
  // The fixture's own query, wherever else the page repeats it (headings, related searches).
  const out = document.toString().split(expected.query).join(escapeHtml(opts.query));
  return out.startsWith('<!DOCTYPE') || out.startsWith('<!doctype') ? out : `<!DOCTYPE html>${out}`;
}

/** Words of the hostile page's title: HTML that must be shown as text, never run. */
export const HOSTILE_TITLE_MARKUP = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';

export interface DemoSerp {
  /** The results page, e.g. http://localhost:P/search?q=... (host name differs from the test web's 127.0.0.1). */
  url: string;
  query: string;
  /** The result links, in order (test web URLs; the hostile page last when asked for). */
  seeds: string[];
  /** The hostile-title page (http://127.0.0.1:P/articles/hostile-title.html), when `hostile` was set. */
  hostileUrl?: string;
  /** Requests to this server. */
  requests: RequestLog[];
  close(): Promise<void>;
}

/**
 * Serves the local results page for `topicId` of the running test web: the real fixture with its organic links
 * pointed at the topic's best seed pages and its query set to the topic's keywords. With `hostile`, one more result
 * leads to a page of this server (reached as 127.0.0.1, another host than the results page) whose <title> holds HTML.
 */
export async function startDemoSerp(
  web: RunningTestWeb,
  opts: { topicId?: string; fixture?: string; results?: number; hostile?: boolean } = {},
): Promise<DemoSerp> {
  const topicId = opts.topicId ?? web.web.topics[0].id;
  const query = topicQuery(web.web, topicId).keywords;
  const pages: TestPage[] = seedsFor(web.web, topicId, opts.results ?? 8);
  const results: DemoResult[] = pages.map((p) => ({ url: web.urlOf(p), title: p.title }));
  const requests: RequestLog[] = [];
  const server = http.createServer((req, res) => {
    const host = req.headers.host ?? '';
    requests.push({
      url: `http://${host}${req.url ?? ''}`,
      site: 'serp',
      method: req.method ?? 'GET',
      time: Date.now(),
      headers: { ...req.headers },
    });
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/search') {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        // The engine's scripts are gone; images and styles from its servers would only be refused: keep them off.
        'Content-Security-Policy': "default-src 'self' data:; style-src 'self' 'unsafe-inline' data:; script-src 'none'",
        'Set-Cookie': 'serp_session=1; Path=/',
      });
      res.end(html);
    } else if (u.pathname === '/articles/hostile-title.html' && opts.hostile) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': 'hostile=1; Path=/' });
      // <title> is raw text to the HTML parser: the markup in it is the page's title, characters and all.
      const words = `${query} ${query} guide to ${query}`;
      res.end(
        `<!DOCTYPE html><html><head><title>${query} ${HOSTILE_TITLE_MARKUP}</title></head><body><h1>${escapeHtml(query)}</h1>` +
          `<p>${escapeHtml(words)}. ${escapeHtml(query)} explained, with ${escapeHtml(words)}.</p>` +
          `<p><a href="${results[0].url}">${escapeHtml(query)}</a></p></body></html>`,
      );
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const hostileUrl = opts.hostile ? `http://127.0.0.1:${port}/articles/hostile-title.html` : undefined;
  if (hostileUrl) results.push({ url: hostileUrl, title: `${query} ${HOSTILE_TITLE_MARKUP}` });
  const html = makeDemoSerpHtml({ fixture: opts.fixture, query, results });
  return {
    url: `http://localhost:${port}/search?q=${encodeURIComponent(query).replace(/%20/g, '+')}`,
    query,
    seeds: results.map((r) => r.url),
    hostileUrl,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Chromium

export interface ChromiumSession {
  browser: Browser;
  extensionId: string;
  /** The profile directory: a fresh one, removed by close(), unless the caller gave its own (then kept). */
  userDataDir: string;
  /** The current service worker (waits for one, and for the background to be ready). */
  worker(): Promise<WebWorker>;
  close(): Promise<void>;
}

/**
 * Launches Debian's Chromium with the extension in `dir` loaded, in a fresh profile, or in `userDataDir` (kept when
 * the browser closes: launching again on it is a browser restart, the extension's id and storage the same).
 */
export async function launchChromium(
  dir: string,
  /** `storeBuild`: the extension is a store build, without the e2e build's test handle (globalThis.forager). */
  opts: { headless?: boolean; args?: string[]; userDataDir?: string; storeBuild?: boolean } = {},
): Promise<ChromiumSession> {
  const own = opts.userDataDir === undefined;
  const userDataDir = opts.userDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'forager-chromium-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: opts.headless ?? true,
      userDataDir,
      ignoreDefaultArgs: ['--disable-extensions'],
      defaultViewport: null,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--disable-extensions-except=${dir}`,
        `--load-extension=${dir}`,
        ...(opts.args ?? []),
      ],
    });
  } catch (e) {
    if (own) rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
  const swTarget = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
    { timeout: 60_000 },
  );
  const extensionId = new URL(swTarget.url()).host;
  const session: ChromiumSession = {
    browser,
    extensionId,
    userDataDir,
    worker: () => backgroundWorker(browser, extensionId, 60_000, !opts.storeBuild),
    close: async () => {
      await browser.close().catch(() => {});
      if (own) rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  return session;
}

/** The extension's current service worker, once its background has run and recovered. */
export async function backgroundWorker(
  browser: Browser,
  extensionId: string,
  timeoutMs = 60_000,
  /** The build has the test handle (the e2e build): wait for it and its start-up recovery. */
  handle = true,
): Promise<WebWorker> {
  const prefix = `chrome-extension://${extensionId}/`;
  return waitFor(
    async () => {
      const target = browser.targets().find((t) => t.type() === 'service_worker' && t.url().startsWith(prefix));
      if (!target) return null;
      const worker = await target.worker();
      if (!worker) return null;
      // The e2e build's test handle says when start-up recovery is done; the store build has none (its worker is
      // ready enough for tabs.query once it runs).
      const ok = await worker.evaluate(async (hasHandle) => {
        const f = (globalThis as { forager?: { ready: Promise<unknown> } }).forager;
        if (!f) return !hasHandle;
        await f.ready;
        return true;
      }, handle);
      return ok ? worker : null;
    },
    'the extension service worker',
    timeoutMs,
    200,
  );
}

/** The tab id of the (single) tab showing `url`, asked from the service worker. */
export async function tabIdOf(worker: WebWorker, url: string): Promise<number> {
  return waitFor(
    () =>
      worker.evaluate(async (u) => {
        const tabs: { id?: number; url?: string }[] = await (
          globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }
        ).chrome.tabs.query({});
        return tabs.find((t) => t.url === u)?.id ?? null;
      }, url),
    `a tab showing ${url}`,
    30_000,
  );
}

/** Opens `chrome-extension://ID/<file>` in a new tab (the popup as a page: `popup.html?tab=<id>`). */
export async function openExtensionPage(
  browser: Browser,
  extensionId: string,
  file: string,
  viewport = { width: 420, height: 600 },
): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  await page.goto(`chrome-extension://${extensionId}/${file}`, { waitUntil: 'domcontentloaded' });
  return page;
}

/**
 * Stops the extension's service worker the way Chrome does when it idles out: puppeteer's session to it is
 * detached first (a restarted worker hangs otherwise, GUIDE.md), then CDP ServiceWorker.stopAllWorkers on a page session.
 */
export async function stopServiceWorker(browser: Browser, page: Page, extensionId: string): Promise<void> {
  const target: Target | undefined = browser
    .targets()
    .find((t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${extensionId}/`));
  if (target) {
    const worker = await target.worker().catch(() => null);
    await worker?.client.detach().catch(() => {});
  }
  const cdp: CDPSession = await page.createCDPSession();
  try {
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
  } finally {
    await cdp.detach().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Firefox

export interface FirefoxSession {
  browser: Browser;
  /** moz-extension://<uuid>/ */
  base: string;
  close(): Promise<void>;
}

/**
 * Launches firefox-esr, installs the extension (`extension`: a build folder or a package, .zip) as a temporary add-on
 * and fixes its internal UUID (so its pages have a known URL). `downloadDir`: where downloads land, without asking.
 * `prefs`: more Firefox preferences.
 */
/**
 * Launches Firefox ESR with the extension installed as a temporary add-on. With `profileDir`, in that profile, kept
 * when the browser closes, and the add-on's UUID and storage kept when it is uninstalled (a temporary add-on is, at
 * shutdown): launching again on the profile, which installs it again, is a browser restart that loses no data.
 */
export async function launchFirefox(
  extension: string,
  options: { downloadDir?: string; prefs?: Record<string, unknown>; profileDir?: string } = {},
): Promise<FirefoxSession> {
  const uuid = FIREFOX_UUID;
  const downloads = options.downloadDir
    ? {
        'browser.download.folderList': 2,
        'browser.download.dir': options.downloadDir,
        'browser.download.useDownloadDir': true,
        'browser.download.always_ask_before_handling_new_types': false,
        'browser.download.start_downloads_in_tmp_dir': false,
        'browser.download.alwaysOpenPanel': false,
        'browser.helperApps.neverAsk.saveToDisk': 'application/json,text/csv,text/html,text/markdown,text/plain',
      }
    : {};
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    args: ['--remote-allow-system-access'],
    ...(options.profileDir ? { userDataDir: options.profileDir } : {}),
    extraPrefsFirefox: {
      ...(options.profileDir
        ? { 'extensions.webextensions.keepStorageOnUninstall': true, 'extensions.webextensions.keepUuidOnUninstall': true }
        : {}),
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      // Stay off the network: no update checks, telemetry or captive-portal probes.
      'app.update.enabled': false,
      'extensions.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
      'browser.safebrowsing.downloads.remote.enabled': false,
      ...downloads,
      ...options.prefs,
    },
  });
  try {
    await browser.installExtension(extension);
  } catch (e) {
    await browser.close().catch(() => {});
    throw e;
  }
  return { browser, base: `moz-extension://${uuid}/`, close: () => browser.close().catch(() => {}) };
}

/**
 * Opens a moz-extension:// page in a new tab. Its `goto` never resolves (and `page.url()` stays about:blank), so
 * this waits until the document itself says it is at `url` and loaded.
 */
export async function openFirefoxPage(
  browser: Browser,
  url: string,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const page = await browser.newPage();
  if (viewport) await page.setViewport(viewport);
  page.goto(url, { timeout: 0 }).catch(() => {});
  await waitFor(
    () => page.evaluate((u) => location.href === u && document.readyState === 'complete', url).catch(() => false),
    `${url} loaded`,
    60_000,
    200,
  );
  return page;
}

// ---------------------------------------------------------------------------------------------------------------
// Files

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF or LF line ends); a leading BOM is dropped. */
export function parseCsv(text: string): string[][] {
  const s = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"') {
        if (s[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"') {
      if (cell !== '') throw new Error(`CSV: quote inside an unquoted cell at ${i}`);
      quoted = true;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (quoted) throw new Error('CSV: unterminated quoted cell');
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A temp dir, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------------------------------------------
// Driving the UI (works in Chromium and Firefox)

/** CSS selector of a data-testid. */
export const tid = (id: string) => `[data-testid="${id}"]`;

/** Sets an input, textarea or select the way typing does (native setter + input/change events, so Preact sees it). */
export async function setField(page: Page, testid: string, value: string): Promise<void> {
  await page.waitForSelector(tid(testid));
  await page.$eval(
    tid(testid),
    (el, v) => {
      const proto =
        el instanceof HTMLTextAreaElement
          ? HTMLTextAreaElement.prototype
          : el instanceof HTMLSelectElement
            ? HTMLSelectElement.prototype
            : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    },
    value,
  );
}

/**
 * Clicks the element with this data-testid once it exists and is enabled, with real input events: Firefox lets
 * `permissions.request` run only in a handler of trusted user input, which a scripted `el.click()` is not.
 */
export async function clickTestId(page: Page, testid: string, timeoutMs = 60_000): Promise<void> {
  const selector = `${tid(testid)}:not([disabled])`;
  // A tab in the background does not render, and puppeteer's click waits for a rendered frame.
  await page.bringToFront();
  await page.waitForSelector(selector, { visible: true, timeout: timeoutMs });
  await within(page.click(selector), 30_000, `click on ${testid}`);
}

/**
 * Waits for the start form; fails at once, with the page's own words, when the page shows an error instead (e.g. the
 * background did not answer), rather than when the deadline passes.
 */
export async function waitForStartForm(page: Page, timeoutMs = 60_000): Promise<void> {
  const shown = await waitFor(
    async () => {
      if (await page.$(tid('start-form'))) return { ok: true as const };
      const error = await page
        .$eval(`${tid('popup-error')}, ${tid('start-message')}, ${tid('crawl-view-error')}`, (el) => el.textContent)
        .catch(() => null);
      if (error) return { error };
      const note = await page.$eval(`${tid('not-serp')}`, (el) => el.textContent).catch(() => null);
      return note ? { error: `no results found in the tab: ${note}` } : null;
    },
    'the start form',
    timeoutMs,
    100,
  );
  if ('error' in shown) throw new Error(`the start form is not shown: ${shown.error}`);
}

/**
 * In a start form: budget and politeness set, the start pages on this computer ticked (the test webs are on
 * 127.0.0.1, and a private seed host is crawled only when ticked; `tickPrivateHosts: false` leaves them), then Crawl
 * clicked. Resolves to the new crawl's id once its panel shows (a popup may show an earlier crawl's panel until then).
 */
export async function startFromForm(
  page: Page,
  settings: { maxPages: number; politenessDelayMs: number; n?: number; tickPrivateHosts?: boolean },
): Promise<string> {
  await waitForStartForm(page);
  if (settings.tickPrivateHosts ?? true) {
    await page.bringToFront();
    for (const box of await page.$$(`${tid('private-host')}:not([disabled]):not(:checked)`)) await box.click();
  }
  const before = await page.$eval(tid('crawl-panel'), (el) => el.getAttribute('data-crawl-id')).catch(() => null);
  await setField(page, 'max-pages', String(settings.maxPages));
  if (settings.n !== undefined) await setField(page, 'param-n', String(settings.n));
  await page.bringToFront();
  await within(page.click(`${tid('advanced')} summary`), 30_000, 'click on More settings');
  await setField(page, 'politeness', String(settings.politenessDelayMs));
  await clickTestId(page, 'crawl-button');
  const outcome = await waitFor(
    async () => {
      const message = await page
        .$eval(`${tid('start-message')}, ${tid('popup-error')}`, (el) => el.textContent)
        .catch(() => null);
      if (message) return { error: message };
      const id = await page.$eval(tid('crawl-panel'), (el) => el.getAttribute('data-crawl-id')).catch(() => null);
      return id && id !== before ? { id } : null;
    },
    'the new crawl panel',
    60_000,
  );
  if ('error' in outcome) throw new Error(`the crawl did not start: ${outcome.error}`);
  return outcome.id;
}

/** The crawl panel's status (data-status), or null when there is none. */
export function panelStatus(page: Page): Promise<string | null> {
  return page.$eval(tid('crawl-panel'), (el) => el.getAttribute('data-status')).catch(() => null);
}

/** Waits until the crawl panel shows one of `statuses`; returns it. */
export function waitForStatus(page: Page, statuses: string[], timeoutMs = 120_000): Promise<string> {
  return waitFor(
    async () => {
      const s = await panelStatus(page);
      return s && statuses.includes(s) ? s : null;
    },
    `crawl status ${statuses.join('/')}`,
    timeoutMs,
    200,
  );
}

/** Pages evaluated as the panel's progress bar says. */
export async function panelPages(page: Page): Promise<number> {
  return Number(await page.$eval(tid('progress'), (el) => el.getAttribute('aria-valuenow')).catch(() => '0'));
}

/** The result rows shown: URL, score, fresh flag, the title as text, whether it has the "new" badge. */
export function resultRows(page: Page): Promise<{ url: string; score: number; fresh: boolean; title: string; badge: boolean }[]> {
  return page.$$eval(tid('result-row'), (rows) =>
    rows.map((r) => ({
      url: r.getAttribute('data-url') ?? '',
      score: Number(r.getAttribute('data-score')),
      fresh: r.getAttribute('data-fresh') === 'true',
      title: r.querySelector('[data-testid="result-link"]')?.textContent ?? '',
      badge: !!r.querySelector('[data-testid="fresh-badge"]'),
    })),
  );
}

/**
 * Clicks the results page's `export-<format>` button and returns the file the browser saved into `dir`, once no
 * download is still partial there (Chromium writes `.crdownload`, Firefox `.part`). `dir` is emptied first: a browser
 * saves a second file of the same name as "name (1).json".
 */
export async function saveExport(results: Page, dir: string, format: string): Promise<string> {
  for (const f of readdirSync(dir)) rmSync(path.join(dir, f), { force: true, recursive: true });
  await results.evaluate(() => delete (window as unknown as { foragerLastExport?: unknown }).foragerLastExport);
  await clickTestId(results, `export-${format}`);
  const filename = await waitFor(
    () => results.evaluate(() => (window as unknown as { foragerLastExport?: { filename: string } }).foragerLastExport?.filename),
    `the ${format} export`,
  );
  const file = path.join(dir, filename);
  await waitFor(
    () => existsSync(file) && !readdirSync(dir).some((f) => f.endsWith('.crdownload') || f.endsWith('.part')),
    `${file} on disk`,
  );
  return readFileSync(file, 'utf8');
}

// ---------------------------------------------------------------------------------------------------------------
// A private host the crawler must never contact

export interface PrivateCanary {
  /** http://127.0.0.2:PORT/router-admin */
  url: string;
  /** Requests for `url` so far (not the favicon a tab asks for). */
  hits(): number;
  close(): Promise<void>;
}

/** A page on 127.0.0.2: loopback like the test web, but not a seed's host, so a crawl must not reach it. */
export async function startPrivateCanary(): Promise<PrivateCanary> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/router-admin') hits++;
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<title>router admin</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}/router-admin`,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections(); // a tab's keep-alive connection would hold close() open
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A test web whose /hostile/to-private answers 302 to a private canary, and the start form of a crawl seeded with
 * that redirect plus two ordinary pages (seeds on 127.0.0.1: the canary on 127.0.0.2 is not theirs).
 */
export async function startPrivateRedirect(): Promise<{
  canary: PrivateCanary;
  web: RunningTestWeb;
  redirect: string;
  startPage: string;
  close(): Promise<void>;
}> {
  const canary = await startPrivateCanary();
  const web = await startTestWeb({ seed: 17, privateRedirect: canary.url });
  const topic = web.web.topics[0].id;
  const redirect = `${web.origins.site0}/hostile/to-private`;
  const seeds = [redirect, ...seedsFor(web.web, topic, 2).map((p) => web.urlOf(p))];
  return {
    canary,
    web,
    redirect,
    startPage: newCrawlPath(topicQuery(web.web, topic).keywords, seeds),
    close: async () => {
      await web.close();
      await canary.close();
    },
  };
}

/** The extension page that opens the start form with this topic and these seeds (as "Crawl from here" does). */
export function newCrawlPath(keywords: string, seeds: string[]): string {
  const q = new URLSearchParams({ topic: keywords, kind: 'manual' });
  for (const seed of seeds) q.append('seed', seed);
  return `results.html#/new?${q}`;
}

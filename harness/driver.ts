/**
 * One driver per browser, so the end-to-end spec (extension.test.ts) is written once and held to the same
 * assertions in Chromium and Firefox. What differs between the two lives here, each difference said once:
 *
 * | what                     | Chromium                                             | Firefox                                                                   |
 * | ------------------------ | ---------------------------------------------------- | ------------------------------------------------------------------------- |
 * | the background           | a service worker: evaluated in directly (CDP)        | an event page, which no automation protocol lists: reached from an        |
 * |                          |                                                      | extension page (the manifest.json view) with runtime.getBackgroundPage()  |
 * | extension pages          | `page.goto` resolves                                 | `goto` never resolves and `page.url()` stays about:blank: poll the page   |
 * | "Crawl from here"        | the menu's own onClicked event is dispatched         | no dispatch() on Firefox events: the background's listener is called      |
 * | killing the background   | CDP ServiceWorker.stopAllWorkers (what an idle       | about:debugging's "Terminate background script" (what an idle timeout     |
 * |                          | timeout does), puppeteer detached from it first      | does to an event page)                                                    |
 * | downloads                | CDP Browser.setDownloadBehavior                      | download preferences at launch                                            |
 * | installing the package   | unpacked into a temporary folder (--load-extension)  | the .zip itself, as a temporary add-on (WebDriver BiDi)                   |
 * | a name resolving to a    | --host-resolver-rules: `*.<domain>` only             | network.dns.forceResolve: every host name (literal addresses are not      |
 * | private address (resolve)|                                                      | resolved, so the test webs on 127.0.0.1 are unaffected)                   |
 * | a browser restart        | the same profile folder and unpacked extension       | the same profile folder; the temporary add-on installed again, its UUID   |
 * |                          | (its id comes from the folder's path)                | and storage kept on uninstall (prefs keepUuid/keepStorageOnUninstall)     |
 */
import type { Browser, CDPSession, Page, WebWorker } from 'puppeteer';
import {
  assertE2EPackage,
  backgroundWorker,
  type ChromiumSession,
  FIREFOX_UUID,
  type FirefoxSession,
  GECKO_ID,
  launchChromium,
  launchFirefox,
  openExtensionPage,
  openFirefoxPage,
  packagePath,
  stopServiceWorker,
  tempDir,
  unpackPackage,
  waitFor,
  within,
} from './browsers';
import type { CrawlRunner } from '../lib/app/runner';
import type { CrawlStore } from '../lib/app/model/records';
import type { DeviceConditions, Watcher } from '../lib/app/watch';
import type { MenuClick } from '../lib/app/view/start-draft';

export type BrowserName = 'chromium' | 'firefox';
export const BROWSERS: BrowserName[] = ['chromium', 'firefox'];

/** What the background exposes to tests as `globalThis.forager` (entrypoints/background.ts). */
export interface ForagerGlobal {
  runner: CrawlRunner;
  store: CrawlStore;
  ready: Promise<unknown>;
  onMenuClick(info: MenuClick & { menuItemId?: string }, tab?: unknown): Promise<void>;
  /** The end-of-crawl notices decided on, with whether each was shown (entrypoints/background.ts). */
  notices: { crawlId: string; title: string; message: string; shown: boolean; created?: string }[];
  /** Topic watches (lib/app/watch). */
  watcher: Watcher;
  /** What the browser tells the background about the device (entrypoints/background.ts deviceConditions). */
  conditions(): Promise<DeviceConditions>;
  /** Set by tests to tell one background instance from the next. */
  e2eMark?: string;
}

type Json = string | number | boolean | null | undefined | Json[] | { [key: string]: Json };

export interface ExtensionDriver {
  readonly name: BrowserName;
  /** The browser running now (a new one after {@link restart}). */
  readonly browser: Browser;
  /** The extension's runtime.id: Chromium's extension id, Firefox's gecko id. */
  readonly extensionId: string;
  /** Where the browser saves downloads, without asking. */
  readonly downloads: string;
  /** Opens an extension page (`popup.html?tab=3`, `results.html#/crawl/…`) in a new tab, once its document has loaded. */
  open(file: string, viewport?: { width: number; height: number }): Promise<Page>;
  /**
   * Runs `fn` with the background's `forager` object, once it is ready; arguments and result travel as JSON. `fn` is
   * sent as source: it may use only its parameters and globals. In Firefox it runs in an extension page beside the
   * background, on the background's objects: `globalThis` there is not the background's.
   */
  background<R, A extends Json[]>(fn: (forager: ForagerGlobal, ...args: A) => R | Promise<R>, ...args: A): Promise<R>;
  /** The id of the tab showing `url`. */
  tabId(url: string): Promise<number>;
  /** "Crawl from here" clicked in the tab `tabId` with this click info (pageUrl, linkUrl, selectionText). */
  menuClick(info: MenuClick, tabId: number): Promise<void>;
  /** Waits for a tab (not among `before`) whose document is at a URL containing `part`. */
  waitForPage(part: string, before: Page[]): Promise<Page>;
  /** Kills the background the way the browser does when it idles out; resolves once it is gone. */
  stopBackground(): Promise<void>;
  /** Resolves once a background is running again and ready (something else must have woken it). */
  waitForBackground(): Promise<void>;
  /**
   * Closes the browser and starts it again on the same profile, Forager installed as before: a browser restart
   * (storage.session is gone, IndexedDB and storage.local are not). Resolves once the new background is ready; pages
   * opened before are gone.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Launches `name` with a fresh profile and download folder, and Forager installed from its package: by default the
 * e2e package (`npm run zip:e2e`: site access granted at install; any other is refused), with `store: true` the one
 * people install (`npm run zip`).
 */
export async function launchDriver(name: BrowserName, opts: LaunchOptions = {}): Promise<ExtensionDriver> {
  const zip = packagePath(name === 'chromium' ? 'chrome' : 'firefox', { e2e: !opts.store });
  if (!opts.store) await assertE2EPackage(zip);
  return name === 'chromium' ? ChromiumDriver.launch(zip, opts) : FirefoxDriver.launch(zip, opts);
}

export interface LaunchOptions {
  /** The package people install (`npm run zip`) instead of the e2e one. */
  store?: boolean;
  /**
   * Names under `domain` resolve to `address`, as public wildcard DNS can make any name do (Firefox can only force one
   * answer for every name: see the table above). Plain http is then not upgraded to https in Firefox either.
   */
  resolve?: { domain: string; address: string };
}

/** The source of an expression that runs `fn(forager, ...args)` given an expression for the forager object. */
function call(fn: (...a: never[]) => unknown, args: Json[], forager: string): string {
  // JSON in and out: values from the background's realm (Firefox) or a worker (Chromium) come back as plain data.
  return `(async () => {
    const forager = ${forager};
    await forager.ready;
    const result = await (${fn.toString()})(forager, ...${JSON.stringify(args)});
    return result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  })()`;
}

/** The id of the tab showing `url`, asked of the background (Chrome's `chrome`, Firefox's `browser`: both promise). */
function tabShowing(driver: Pick<ExtensionDriver, 'background'>, url: string): Promise<number> {
  return waitFor(
    () =>
      driver.background(async (_f, u) => {
        type Tabs = { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } };
        const scope = globalThis as unknown as { browser?: Tabs; chrome: Tabs };
        const api = scope.browser ?? scope.chrome;
        return (await api.tabs.query({})).find((t) => t.url === u)?.id ?? null;
      }, url),
    `a tab showing ${url}`,
    30_000,
  );
}

class ChromiumDriver implements ExtensionDriver {
  readonly name = 'chromium' as const;
  private worker: WebWorker | null = null;
  private closeBrowser: () => Promise<void>;

  private constructor(
    public browser: Browser,
    readonly extensionId: string,
    readonly downloads: string,
    private session: CDPSession,
    private readonly relaunch: () => Promise<ChromiumSession>,
    closeBrowser: () => Promise<void>,
    private readonly cleanup: () => void,
    /** The build has the e2e test handle (globalThis.forager); a store build has none. */
    private readonly handle: boolean,
  ) {
    this.closeBrowser = closeBrowser;
  }

  static async launch(zip: string, opts: LaunchOptions): Promise<ChromiumDriver> {
    const downloads = tempDir('forager-e2e-downloads-');
    // Chromium loads an extension from a folder: the package, unpacked. The profile is ours, kept over restarts.
    const unpacked = tempDir('forager-e2e-extension-');
    const profile = tempDir('forager-e2e-profile-');
    const start = () =>
      launchChromium(unpacked.dir, {
        userDataDir: profile.dir,
        args: opts.resolve ? [`--host-resolver-rules=MAP *.${opts.resolve.domain} ${opts.resolve.address}`] : [],
      });
    const removeAll = () => {
      downloads.remove();
      unpacked.remove();
      profile.remove();
    };
    const chromium = await unpackPackage(zip, unpacked.dir)
      .then(start)
      .catch((e: unknown) => {
        removeAll();
        throw e;
      });
    const session = await ChromiumDriver.downloadSession(chromium.browser, downloads.dir);
    const driver = new ChromiumDriver(
      chromium.browser,
      chromium.extensionId,
      downloads.dir,
      session,
      start,
      chromium.close,
      removeAll,
      !opts.store,
    );
    await driver.waitForBackground();
    return driver;
  }

  private static async downloadSession(browser: Browser, dir: string): Promise<CDPSession> {
    const session = await browser.target().createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir, eventsEnabled: true });
    return session;
  }

  async restart(): Promise<void> {
    await this.session.detach().catch(() => {});
    this.worker = null;
    await this.closeBrowser();
    const chromium = await this.relaunch();
    if (chromium.extensionId !== this.extensionId) throw new Error('the extension came back under another id');
    this.browser = chromium.browser;
    this.closeBrowser = chromium.close;
    this.session = await ChromiumDriver.downloadSession(chromium.browser, this.downloads);
    await this.waitForBackground();
  }

  open(file: string, viewport = { width: 1200, height: 900 }): Promise<Page> {
    return openExtensionPage(this.browser, this.extensionId, file, viewport);
  }

  async background<R, A extends Json[]>(fn: (forager: ForagerGlobal, ...args: A) => R | Promise<R>, ...args: A): Promise<R> {
    if (!this.worker) await this.waitForBackground();
    return (await this.worker!.evaluate(call(fn, args, 'globalThis.forager'))) as R;
  }

  tabId(url: string): Promise<number> {
    return tabShowing(this, url);
  }

  async menuClick(info: MenuClick, tabId: number): Promise<void> {
    await this.background(
      async (_f, click, id) => {
        const chrome = (
          globalThis as unknown as {
            chrome: {
              contextMenus: { onClicked: { dispatch(i: unknown, t: unknown): void } };
              tabs: { get(id: number): Promise<unknown> };
            };
          }
        ).chrome;
        const tab = await chrome.tabs.get(id);
        chrome.contextMenus.onClicked.dispatch(
          { menuItemId: 'forager-crawl-from-here', editable: false, ...(click as object) },
          tab,
        );
      },
      info as Json,
      tabId,
    );
  }

  async waitForPage(part: string, before: Page[]): Promise<Page> {
    const known = new Set(before);
    return waitFor(
      async () => (await this.browser.pages()).find((p) => !known.has(p) && p.url().includes(part)) ?? null,
      `a tab at ${part}`,
      30_000,
    );
  }

  async stopBackground(): Promise<void> {
    const page = (await this.browser.pages())[0] ?? (await this.browser.newPage());
    this.worker = null;
    await stopServiceWorker(this.browser, page, this.extensionId);
  }

  async waitForBackground(): Promise<void> {
    this.worker = await backgroundWorker(this.browser, this.extensionId, 90_000, this.handle);
  }

  async close(): Promise<void> {
    await this.session.detach().catch(() => {});
    await this.closeBrowser();
    this.cleanup();
  }
}

class FirefoxDriver implements ExtensionDriver {
  readonly name = 'firefox' as const;
  readonly extensionId = GECKO_ID;
  /** An extension page kept open to reach the background from (the manifest's JSON view: no app runs in it). */
  private probe: Page | null = null;
  private debugPage: Page | null = null;

  private constructor(
    public browser: Browser,
    private readonly base: string,
    readonly downloads: string,
    private readonly relaunch: () => Promise<FirefoxSession>,
    private closeBrowser: () => Promise<void>,
    private readonly cleanup: () => void,
    /** The build has the e2e test handle (globalThis.forager); a store build has none. */
    private readonly handle: boolean,
  ) {}

  static async launch(zip: string, opts: LaunchOptions): Promise<FirefoxDriver> {
    const downloads = tempDir('forager-e2e-downloads-');
    const profile = tempDir('forager-e2e-profile-');
    const prefs = opts.resolve
      ? { 'network.dns.forceResolve': opts.resolve.address, 'dom.security.https_first': false }
      : undefined;
    const removeAll = () => {
      downloads.remove();
      profile.remove();
    };
    // Installed from the package itself, as addons.mozilla.org hands it out.
    const start = () => launchFirefox(zip, { downloadDir: downloads.dir, prefs, profileDir: profile.dir });
    const firefox = await start().catch((e: unknown) => {
      removeAll();
      throw e;
    });
    const driver = new FirefoxDriver(firefox.browser, firefox.base, downloads.dir, start, firefox.close, removeAll, !opts.store);
    // Pages opened before the background has registered its listeners would find nobody to answer them. A store
    // build has no test handle to wait for: its script running is what there is.
    if (opts.store) await driver.waitForBackground();
    else await driver.background(() => true);
    return driver;
  }

  async restart(): Promise<void> {
    this.probe = null;
    this.debugPage = null;
    await this.closeBrowser();
    const firefox = await this.relaunch();
    this.browser = firefox.browser;
    this.closeBrowser = firefox.close;
    await this.background(() => true);
  }

  async open(file: string, viewport = { width: 1200, height: 900 }): Promise<Page> {
    return openFirefoxPage(this.browser, this.base + file, viewport);
  }

  async background<R, A extends Json[]>(fn: (forager: ForagerGlobal, ...args: A) => R | Promise<R>, ...args: A): Promise<R> {
    if (!this.probe || this.probe.isClosed()) this.probe = await openFirefoxPage(this.browser, `${this.base}manifest.json`);
    const probe = this.probe;
    // The event page's window, once its script has run (after a restart there is a moment without `forager`).
    const lookup = `(await globalThis.browser.runtime.getBackgroundPage().catch(() => null))?.forager`;
    await waitFor(() => probe.evaluate(`(async () => !!${lookup})()`), 'the background page and its forager object', 30_000);
    const forager = `await (async () => {
      const forager = ${lookup};
      if (!forager) throw new Error('the background page has no forager object');
      return forager;
    })()`;
    return (await within(probe.evaluate(call(fn, args, forager)), 120_000, 'a call into the background')) as R;
  }

  tabId(url: string): Promise<number> {
    return tabShowing(this, url);
  }

  async menuClick(info: MenuClick, tabId: number): Promise<void> {
    await this.background(
      async (f, click, id) => {
        const api = (globalThis as unknown as { browser: { tabs: { get(id: number): Promise<unknown> } } }).browser;
        await f.onMenuClick({ menuItemId: 'forager-crawl-from-here', ...(click as object) }, await api.tabs.get(id));
      },
      info as Json,
      tabId,
    );
  }

  async waitForPage(part: string, before: Page[]): Promise<Page> {
    const known = new Set(before);
    return waitFor(
      async () => {
        for (const p of await this.browser.pages()) {
          if (known.has(p)) continue;
          const href = await p.evaluate(() => location.href).catch(() => '');
          if (href.includes(part)) return p;
        }
        return null;
      },
      `a tab at ${part}`,
      30_000,
    );
  }

  /**
   * about:debugging, this Firefox: the extension's card says whether its background runs, and can terminate it.
   * Opened once (it takes seconds to load) and kept; it only watches, so it keeps nothing alive.
   */
  private async debugging<T>(use: (page: Page) => Promise<T>): Promise<T> {
    if (!this.debugPage || this.debugPage.isClosed()) {
      const page = await this.browser.newPage();
      this.debugPage = page;
      page.goto('about:debugging#/runtime/this-firefox', { timeout: 0 }).catch(() => {});
      await waitFor(() => page.$(`${CARD} ${STATUS}`).catch(() => null), "Forager's card in about:debugging", 60_000, 200);
    }
    return use(this.debugPage);
  }

  async stopBackground(): Promise<void> {
    await this.debugging(async (page) => {
      await page.bringToFront();
      await within(page.click(`${CARD} .qa-temporary-extension-terminate-bgscript-button`), 30_000, 'click on Terminate');
      await waitFor(
        () => page.$eval(`${CARD} ${STATUS}`, (el) => el.classList.contains('extension-backgroundscript__status--stopped')),
        'the background script to be stopped',
        60_000,
        100,
      );
    });
  }

  async waitForBackground(): Promise<void> {
    // Asked of about:debugging, which only watches: getBackgroundPage() would start a stopped background itself.
    await this.debugging((page) =>
      waitFor(
        () => page.$eval(`${CARD} ${STATUS}`, (el) => el.classList.contains('extension-backgroundscript__status--running')),
        'the background script to run',
        90_000,
        100,
      ),
    );
    if (this.handle) await this.background(() => true);
  }

  async close(): Promise<void> {
    await this.closeBrowser();
    this.cleanup();
  }
}

/** Forager's card in about:debugging (by the UUID launchFirefox gives it) and its background status. */
const CARD = `.qa-debug-target-item:has(.qa-manifest-url[href^="moz-extension://${FIREFOX_UUID}/"])`;
const STATUS = '.qa-extension-backgroundscript-status';

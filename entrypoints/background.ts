/**
 * The background: wiring only. lib/app/background-app.ts is the background without the browser (runner, live
 * updates, requests, recovery, keep-alive; tested under Node); this file builds its browser parts (IndexedDB, the
 * evaluator, storage areas, alarms, the network guard, tab reading) and connects the extension's listeners to it.
 */
import { createBackgroundApp, storedFailureNotes } from '../lib/app/background-app';
import { type EndNotice, ToolbarBadge } from '../lib/app/badge';
import { storedRetention } from '../lib/app/library';
import { createGuardedEvaluator } from '../lib/app/evaluator/guarded-evaluator';
import {
  AddressGuard,
  isOwnRequest,
  toReport,
  WATCH_FILTER,
  type WebRequestDetails,
  type WebRequestEventName,
  watchedEvents,
} from '../lib/app/address-guard';
import { createPortEvaluator, type EvaluatorPorts, offscreenEnsurer } from '../lib/app/evaluator/port-evaluator';
import { describeStrategies } from '../lib/app/handlers';
import { networkGuardRules } from '../lib/app/network-guard';
import { BATTERY_QUERY, type BatteryAnswer, type EvaluatorPortHandoff, type TabContext } from '../lib/app/protocol';
import type { DeviceConditions } from '../lib/app/watch';
import { createIdbStore } from '../lib/app/store/idb-store';
import { draftFromMenu, type MenuClick, type PageText, startHash, toSerpInfo } from '../lib/app/view/start-draft';
import { createFetcher, type Evaluator, errorMessage, listStrategies } from '../lib/engine';
import { t } from './ui/i18n';
import { spawnEvaluatorWorker } from './worker/spawn';

const MENU_ID = 'forager-crawl-from-here';
const KEEPALIVE_ALARM = 'forager-keepalive';
/** One ticking alarm for every topic watch: each tick looks at which is due (lib/app/watch). */
const WATCH_ALARM = 'forager-watch';
const WATCH_TICK_MINUTES = 15;
const SESSION_MARK = 'forager.session';
/** storage.local key of the options page's "tell me when a crawl ends" (entrypoints/ui/settings.ts NOTIFY_KEY). */
const NOTIFY_KEY = 'forager.notifyOnEnd';

/** The part of declarativeNetRequest the network guard uses (Chrome 84+, Firefox 113+ in MV3). */
interface DeclarativeNetRequest {
  getSessionRules(): Promise<{ id: number }[]>;
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: ReturnType<typeof networkGuardRules> }): Promise<void>;
}

/** A webRequest event, as far as the address guard uses it. */
interface WebRequestEvent {
  addListener(listener: (d: WebRequestDetails) => unknown, filter: typeof WATCH_FILTER, extraInfoSpec?: string[]): void;
  removeListener(listener: (d: WebRequestDetails) => unknown): void;
}
type WebRequestApi = Record<WebRequestEventName, WebRequestEvent>;
/** Firefox's dns API (the polyfill's types do not cover it). */
interface DnsApi {
  resolve(hostname: string): Promise<{ addresses: string[] }>;
}

/**
 * The browser APIs the network guards need, or an error saying which is missing: no crawl runs without them.
 * declarativeNetRequest blocks private hosts by name; webRequest reports the address of every answer; Firefox's
 * dns resolves each host name before its request is sent.
 */
function guardApis(): { dnr: DeclarativeNetRequest; webRequest: WebRequestApi; dns?: DnsApi } {
  const api = browser as unknown as { declarativeNetRequest?: DeclarativeNetRequest; webRequest?: WebRequestApi; dns?: DnsApi };
  if (!api.declarativeNetRequest?.updateSessionRules) throw new Error('the declarativeNetRequest API is not available');
  if (!api.webRequest?.onResponseStarted) throw new Error('the webRequest API is not available');
  if (import.meta.env.FIREFOX && !api.dns?.resolve) throw new Error('the dns API is not available');
  return { dnr: api.declarativeNetRequest, webRequest: api.webRequest, dns: api.dns };
}

/** Chrome-only APIs the polyfill's types do not cover. */
interface ChromeExtras {
  runtime: { getContexts(filter: { contextTypes: string[]; documentUrls?: string[] }): Promise<unknown[]> };
  offscreen: { createDocument(p: { url: string; reasons: string[]; justification: string }): Promise<void> };
}

/** The service worker's `clients` (the DOM typings this project compiles with do not declare it). */
interface ServiceWorkerClients {
  matchAll(options: {
    includeUncontrolled: boolean;
    type: 'window';
  }): Promise<{ url: string; postMessage(message: unknown, transfer: Transferable[]): void }[]>;
}

/** Chrome's offscreen document, made once when first needed (the evaluator's Worker; the battery's state). */
const ensureOffscreen = import.meta.env.FIREFOX
  ? async () => {}
  : (() => {
      const chromeApi = (globalThis as unknown as { chrome: ChromeExtras }).chrome;
      const url = browser.runtime.getURL('/offscreen.html');
      return offscreenEnsurer({
        exists: async () =>
          (await chromeApi.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })).length > 0,
        create: () =>
          chromeApi.offscreen.createDocument({
            url,
            reasons: ['WORKERS', 'BATTERY_STATUS'],
            justification:
              'Parses and scores fetched pages in a Web Worker, off the service worker; reads the battery before a scheduled re-crawl.',
          }),
      });
    })();

function makeEvaluator(): Evaluator {
  if (import.meta.env.FIREFOX) {
    // Firefox's background is an event page: it has Worker itself.
    return createGuardedEvaluator({ spawn: spawnEvaluatorWorker, timeoutMs: 15_000 });
  }
  const clients = (globalThis as unknown as { clients: ServiceWorkerClients }).clients;
  const url = browser.runtime.getURL('/offscreen.html');
  const ensureReady = ensureOffscreen;
  // Only when a new port is needed (first page, service-worker restart, Worker replaced): not per page.
  const deliver = async (ports: EvaluatorPorts, replace: boolean) => {
    for (let attempt = 0; ; attempt++) {
      const offscreen = (await clients.matchAll({ includeUncontrolled: true, type: 'window' })).find((c) => c.url === url);
      if (offscreen) {
        const handoff: EvaluatorPortHandoff = { type: 'forager/evaluator-port', replace };
        offscreen.postMessage(handoff, [ports.evaluator, ports.control]);
        return;
      }
      // createDocument has resolved, so it is normally listed at once; allow it a moment on a loaded machine.
      if (attempt >= 20) throw new Error('the offscreen document is not among the clients');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return createPortEvaluator({ ensureReady, deliver, timeoutMs: 15_000 });
}

/**
 * Runs in the tab (serialized by scripting.executeScript, so self-contained): the page's title, first headings and
 * lang, for a topic; the text of the block holding the clicked link; the first paragraph of the main text.
 */
function readPageText(linkUrl: string | null): PageText {
  const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, 600);
  const headings = Array.from(document.querySelectorAll('h1, h2'))
    .slice(0, 6)
    .map((h) => clean(h.textContent));
  const out: PageText = { title: document.title, headings };
  if (document.documentElement.lang) out.lang = document.documentElement.lang;
  if (linkUrl) {
    const link = Array.from(document.querySelectorAll('a[href]')).find((a) => (a as HTMLAnchorElement).href === linkUrl);
    const block = link?.closest('p, li, dd, td, blockquote, figcaption, h1, h2, h3, h4, h5, h6');
    const text = clean(block?.textContent);
    if (text) out.linkContext = text;
  }
  const main = document.querySelector('main, article, [role="main"]') ?? document.body;
  const intro = Array.from(main?.querySelectorAll('p') ?? [])
    .map((p) => clean(p.textContent))
    .find((t) => t.split(' ').length >= 8);
  if (intro) out.intro = intro;
  return out;
}

/** Reads the tab the popup was opened on with the results-page content script (activeTab + scripting). */
async function inspectTab(tabId: number): Promise<TabContext> {
  const tab = await browser.tabs.get(tabId);
  const context: TabContext = { tabId, url: tab.url ?? '', title: tab.title ?? '', serp: null };
  try {
    const [first] = await browser.scripting.executeScript({ target: { tabId }, files: ['/serp-reader.js'] });
    const raw = first?.result as { error?: unknown } | undefined;
    if (raw && typeof raw.error === 'string') context.error = raw.error;
    context.serp = toSerpInfo(raw);
  } catch (error) {
    context.error = `Forager cannot read this tab (${errorMessage(error)}).`;
  }
  return context;
}

/**
 * "Delete all Forager data", after the crawls: extension storage too. storage.session keeps only the session mark (a
 * time stamp the browser drops when it closes, telling a worker restart from a browser start), which is no data.
 */
/** The battery as Chrome's offscreen document reads it (the service worker has no getBattery); null: unknown. */
async function offscreenBattery(): Promise<BatteryAnswer> {
  if (import.meta.env.FIREFOX) return null;
  try {
    await ensureOffscreen();
    const answer = await Promise.race([
      browser.runtime.sendMessage(BATTERY_QUERY) as Promise<BatteryAnswer>,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
    ]);
    return answer && typeof answer.charging === 'boolean' && typeof answer.level === 'number' ? answer : null;
  } catch {
    return null;
  }
}

/**
 * What this browser tells about the device, here: Chrome's service worker has `navigator.connection` (saveData, and a
 * type on ChromeOS and Android) and its offscreen document `navigator.getBattery()`; Firefox's event page has neither
 * (desktop Firefox hides both from extensions). Whatever is missing counts as "nothing known".
 */
async function deviceConditions(): Promise<DeviceConditions> {
  const nav = globalThis.navigator as Navigator & {
    connection?: { saveData?: boolean; type?: string };
    getBattery?: () => Promise<{ charging: boolean; level: number }>;
  };
  const out: DeviceConditions = {};
  if (nav.connection?.saveData) out.saveData = true;
  if (nav.connection?.type === 'cellular') out.metered = true;
  if (typeof nav.getBattery === 'function') {
    try {
      const battery = await nav.getBattery();
      out.battery = { charging: battery.charging, level: battery.level };
    } catch {
      // not allowed here: nothing known
    }
  } else {
    const battery = await offscreenBattery();
    if (battery) out.battery = battery;
  }
  return out;
}

async function clearStorage(): Promise<void> {
  await browser.storage.local.clear();
  const session = Object.keys(await browser.storage.session.get(null)).filter((key) => key !== SESSION_MARK);
  if (session.length > 0) await browser.storage.session.remove(session);
}

export default defineBackground(() => {
  const store = createIdbStore();
  // ---- the address guard: what the browser reports about the crawl's own requests (lib/app/address-guard.ts) ----
  const ownOrigin = browser.runtime.getURL('/').replace(/\/$/, '');
  let addressGuard: AddressGuard | null = null;
  /** Fetchers open (one per run; a run winding down may overlap the next one's start). */
  let openFetchers = 0;
  const watchers = new Map<string, (d: WebRequestDetails) => unknown>();
  const watchRequests = (on: boolean) => {
    const { webRequest, dns } = guardApis();
    const events = webRequest as unknown as Record<string, WebRequestEvent>;
    if (on && watchers.size === 0) {
      for (const [event, phase] of Object.entries(watchedEvents(import.meta.env.FIREFOX))) {
        const listener = (d: WebRequestDetails) => {
          if (addressGuard && isOwnRequest(d, ownOrigin)) addressGuard.report(toReport(phase, d));
        };
        // Firefox refuses an extraInfoSpec argument (even undefined) on events that take none.
        if (event === 'onHeadersReceived') events[event].addListener(listener, WATCH_FILTER, ['responseHeaders']);
        else events[event].addListener(listener, WATCH_FILTER);
        watchers.set(event, listener);
      }
      if (dns) {
        // Firefox can hold a request until its host name is resolved: screen every one before it is sent.
        const screen = async (d: WebRequestDetails) => {
          const guard = addressGuard;
          if (!guard || !isOwnRequest(d, ownOrigin)) return {};
          const verdict = await guard.screen(d.requestId, d.url, async (host) => (await dns.resolve(host)).addresses);
          return verdict.ok ? {} : { cancel: true };
        };
        events.onBeforeRequest.addListener(screen, WATCH_FILTER, ['blocking']);
        watchers.set('screen', screen);
      }
    } else if (!on) {
      for (const [event, listener] of watchers) events[event === 'screen' ? 'onBeforeRequest' : event].removeListener(listener);
      watchers.clear();
    }
  };

  const app = createBackgroundApp({
    store,
    evaluator: makeEvaluator(),
    strategies: () => describeStrategies(listStrategies()),
    inspectTab,
    // Session rules block this extension's own requests to private hosts by name, except the crawl's ticked private
    // seed hosts (lib/app/network-guard.ts); the runner starts no crawl unless they are in place.
    // The address guard's listeners are on before the run's first request (and off once no fetcher is open).
    guardNetwork: async (policy) => {
      const { dnr } = guardApis();
      const ownDomain = new URL(browser.runtime.getURL('/')).host;
      const addRules = networkGuardRules(ownDomain, policy.privateHosts);
      const removeRuleIds = (await dnr.getSessionRules()).map((r) => r.id);
      await dnr.updateSessionRules({ removeRuleIds, addRules });
      watchRequests(true);
    },
    makeFetcher: (settings, urlPolicy) => {
      // Every request of the run goes through the address guard, which the browser's reports feed while it is open.
      const guard = new AddressGuard({
        policy: urlPolicy,
        fetch: (input, init) => globalThis.fetch(input, init),
        onBan: (ban) => console.warn('[forager] refused', ban.detail),
      });
      addressGuard = guard;
      openFetchers++;
      watchRequests(true); // already on (guardNetwork), unless an earlier run's fetcher closed since
      const fetcher = createFetcher({
        politenessDelayMs: settings.politenessDelayMs,
        maxInFlight: 6,
        // Well below the 30 s after which Chrome kills a service worker waiting on one fetch.
        timeoutMs: 10_000,
        respectRobots: true,
        urlPolicy,
        fetch: guard.fetch,
      });
      let closed = false;
      return {
        ...fetcher,
        close() {
          fetcher.close();
          if (closed) return;
          closed = true;
          if (--openFetchers === 0) {
            watchRequests(false);
            if (addressGuard === guard) addressGuard = null;
          }
        },
      };
    },
    retention: storedRetention({
      get: (key) => browser.storage.local.get(key),
      set: (items) => browser.storage.local.set(items),
    }),
    failures: storedFailureNotes({
      get: (key) => browser.storage.local.get(key),
      set: (items) => browser.storage.local.set(items),
    }),
    session: {
      present: async () => !!(await browser.storage.session.get(SESSION_MARK))[SESSION_MARK],
      set: () => browser.storage.session.set({ [SESSION_MARK]: Date.now() }),
    },
    keepAlive: {
      ping: () => void browser.runtime.getPlatformInfo(),
      startAlarm: () => void browser.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 }),
      stopAlarm: () => void browser.alarms.clear(KEEPALIVE_ALARM),
      intervalMs: 20_000,
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
    },
    extensionId: browser.runtime.id,
    ownPagePrefix: browser.runtime.getURL('/'),
    clearStorage,
    watchSay: t,
    conditions: deviceConditions,
    onWatchCount: (n) => badge.setWatchCount(n),
    onWatchNotice: (notice) => void notifyEnd(notice),
  });

  // Toolbar badge: new relevant pages of the latest crawl, coloured by its state (lib/app/badge.ts).
  const action = (browser as unknown as { action?: typeof browser.browserAction }).action ?? browser.browserAction;
  const badge = new ToolbarBadge({
    surface: {
      set: (text, color) => {
        Promise.resolve(action.setBadgeText({ text })).catch(() => undefined);
        Promise.resolve(action.setBadgeBackgroundColor({ color })).catch(() => undefined);
        const setTextColor = (action as { setBadgeTextColor?: (d: { color: string }) => Promise<void> }).setBadgeTextColor;
        void setTextColor?.({ color: '#ffffff' })?.catch(() => undefined);
      },
    },
    load: (id) => app.runner.snapshot(id || undefined, 0).catch(() => null),
    onEnded: (notice) => void notifyEnd(notice),
    say: t,
  });
  app.hub.subscribe({ post: (m) => badge.receive(m) }).ready();
  void app.ready.then(() => badge.init()).catch(() => undefined);

  /**
   * The end-of-crawl notices decided on, newest last (tests read them; 20 kept): whether each was to be shown, and
   * the id the browser answered `notifications.create` with.
   */
  const notices: (EndNotice & { shown: boolean; created?: string })[] = [];
  /** The notice at a crawl's end, when the user turned it on (options page; `notifications` is optional). */
  async function notifyEnd(notice: EndNotice): Promise<void> {
    const on =
      !!(await browser.storage.local.get(NOTIFY_KEY))[NOTIFY_KEY] &&
      (await browser.permissions.contains({ permissions: ['notifications'] }));
    const decided: (typeof notices)[number] = { ...notice, shown: on };
    notices.push(decided);
    if (notices.length > 20) notices.shift();
    if (!on) return;
    listenToNoticeClicks();
    decided.created = await browser.notifications.create(`forager-end-${notice.crawlId}`, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('/icon/128.png'),
      title: notice.title,
      message: notice.message,
    });
  }
  // A click on a notice opens its crawl. `notifications` exists only once granted: listened to at start-up when it
  // is, else once the options page gets it.
  let listeningToNotices = false;
  function listenToNoticeClicks(): void {
    if (listeningToNotices || !browser.notifications?.onClicked) return;
    listeningToNotices = true;
    browser.notifications.onClicked.addListener((id) => {
      if (!id.startsWith('forager-end-')) return;
      const crawlId = id.slice('forager-end-'.length);
      void browser.tabs.create({ url: `${browser.runtime.getURL('/results.html')}#/crawl/${encodeURIComponent(crawlId)}` });
    });
  }
  listenToNoticeClicks();
  browser.permissions.onAdded?.addListener(() => listenToNoticeClicks());

  browser.runtime.onStartup.addListener(() => app.browserStarted());
  // The keep-alive alarm's whole job is waking the worker (start-up recovery resumes the crawl); the watch alarm's is
  // a tick. Alarms may not outlive a browser restart (Firefox drops them), so the watch alarm is made at every start
  // when missing (never remade when present: that would push its next tick back each time the worker wakes).
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === WATCH_ALARM) void app.ready.then(() => app.watcher.tick());
  });
  void browser.alarms.get(WATCH_ALARM).then((alarm) => {
    if (!alarm) void browser.alarms.create(WATCH_ALARM, { periodInMinutes: WATCH_TICK_MINUTES });
  });
  browser.runtime.onMessage.addListener((message: unknown, sender) => app.onMessage(message, sender));
  browser.runtime.onConnect.addListener((port) => app.onConnect(port));

  // Context menu "Crawl from here": opens the start view of the results page in a tab (a popup cannot be opened from
  // a menu click in every browser; a tab works in both).
  void browser.contextMenus.removeAll().then(() =>
    browser.contextMenus.create({
      id: MENU_ID,
      title: t('menuCrawlFromHere'),
      contexts: ['page', 'link', 'selection'],
    }),
  );
  async function onMenuClick(
    info: MenuClick & { menuItemId?: string | number },
    tab?: { id?: number; url?: string; title?: string; index?: number },
  ) {
    if (info.menuItemId !== undefined && info.menuItemId !== MENU_ID) return;
    let page: PageText | undefined;
    if (tab?.id !== undefined && tab.id >= 0 && !info.selectionText) {
      try {
        // The menu click grants activeTab, enough to read the title and headings.
        const [first] = await browser.scripting.executeScript({
          target: { tabId: tab.id },
          func: readPageText,
          args: [info.linkUrl ?? null],
        });
        page = first?.result as PageText | undefined;
      } catch {
        // chrome:// pages, PDF viewer...: the tab title will do
      }
    }
    const draft = draftFromMenu(info, tab, page);
    await browser.tabs.create({
      url: browser.runtime.getURL('/results.html') + startHash(draft),
      ...(tab?.index !== undefined ? { index: tab.index + 1 } : {}),
    });
  }
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info as MenuClick & { menuItemId: string }, tab));

  // For end-to-end tests and debugging from the worker's console.
  const { runner, hub, handle, ready, watcher } = app;
  Object.assign(globalThis, {
    forager: {
      runner,
      store,
      hub,
      handle,
      onMenuClick,
      ready,
      addressGuard: () => addressGuard,
      badge,
      notices,
      watcher,
      conditions: deviceConditions,
    },
  });
});

/**
 * The background: wiring only. Crawls run in lib/app/runner (tested under Node); this file connects it to
 * the browser: storage (IndexedDB), the evaluator (offscreen document in Chrome, a Worker of this page in Firefox),
 * messages and live ports from the UI, the context menu, keep-alive, and recovery after a restart.
 */
import { createFetcher } from '../lib/engine';
import { createGuardedEvaluator } from '../lib/app/evaluator/guarded-evaluator';
import { LiveHub, type Subscription } from '../lib/app/live';
import { createPortEvaluator, offscreenEnsurer, type EvaluatorPorts } from '../lib/app/evaluator/port-evaluator';
import { createRequestHandler, plainStrategies } from '../lib/app/handlers';
import { CrawlRunner, type StartKind } from '../lib/app/runner';
import { draftFromMenu, startHash, toSerpInfo, type MenuClick, type PageText } from '../lib/app/view/start-draft';
import {
  isForagerRequest,
  LIVE_PORT,
  type EvaluatorPortHandoff,
  type LiveClientMessage,
  type TabContext,
} from '../lib/app/protocol';
import { createIdbStore } from '../lib/app/store/idb-store';
import { networkGuardRules } from '../lib/app/network-guard';
import {
  AddressGuard,
  isOwnRequest,
  toReport,
  WATCH_FILTER,
  watchedEvents,
  type WebRequestDetails,
  type WebRequestEventName,
} from '../lib/app/address-guard';
import { listStrategies } from '../lib/engine';
import type { Evaluator } from '../lib/engine';
import { spawnEvaluatorWorker } from './worker/spawn';

const MENU_ID = 'forager-crawl-from-here';
const KEEPALIVE_ALARM = 'forager-keepalive';
/** Lives in storage.session, which the browser clears when it restarts: its absence means "browser (re)started". */
const SESSION_MARK = 'forager.session';
const KEEPALIVE_MS = 20_000;

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

function makeEvaluator(): Evaluator {
  if (import.meta.env.FIREFOX) {
    // Firefox's background is an event page: it has Worker itself.
    return createGuardedEvaluator({ spawn: spawnEvaluatorWorker, timeoutMs: 15_000 });
  }
  const chromeApi = (globalThis as unknown as { chrome: ChromeExtras }).chrome;
  const clients = (globalThis as unknown as { clients: ServiceWorkerClients }).clients;
  const url = browser.runtime.getURL('/offscreen.html');
  const ensureReady = offscreenEnsurer({
    exists: async () =>
      (await chromeApi.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })).length > 0,
    create: () =>
      chromeApi.offscreen.createDocument({
        url,
        reasons: ['WORKERS'],
        justification: 'Parses and scores fetched pages in a Web Worker, off the service worker.',
      }),
  });
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

/** Runs in the tab (serialized by scripting.executeScript): the page's title and first headings, for a topic. */
function readPageText(): PageText {
  const headings = Array.from(document.querySelectorAll('h1, h2'))
    .slice(0, 6)
    .map((h) => (h.textContent ?? '').replace(/\s+/g, ' ').trim());
  return { title: document.title, headings };
}

export default defineBackground(() => {
  const store = createIdbStore();
  const hub = new LiveHub(250);
  const evaluator = makeEvaluator();
  const strategies = () => plainStrategies(listStrategies());

  // ---- keep-alive: fetches do not reset Chrome's 30 s idle timer, extension API calls do ----
  let keepTimer: ReturnType<typeof setInterval> | undefined;
  const setBusy = (busy: boolean) => {
    if (busy && keepTimer === undefined) {
      keepTimer = setInterval(() => void browser.runtime.getPlatformInfo(), KEEPALIVE_MS);
      // If the worker dies anyway (a kill, a crash), the alarm starts a new one, which resumes the crawl.
      void browser.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 });
    } else if (!busy && keepTimer !== undefined) {
      clearInterval(keepTimer);
      keepTimer = undefined;
      void browser.alarms.clear(KEEPALIVE_ALARM);
    }
  };

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

  const runner = new CrawlRunner({
    store,
    evaluator,
    strategies,
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
        concurrency: 6,
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
    onUpdate: (id, record, pages) => hub.update(id, record, pages),
    onCrawlsChanged: () => hub.crawlsChanged(),
    onBusy: setBusy,
    onError: (error) => console.error('[forager]', error),
  });

  // ---- recovery: a crawl left 'running' is resumed after a worker restart, paused after a browser restart ----
  let browserStarted = false;
  browser.runtime.onStartup.addListener(() => {
    browserStarted = true;
  });
  browser.alarms.onAlarm.addListener(() => {
    // Nothing to do: waking the worker is the point; start-up below resumes the crawl.
  });
  const ready = (async () => {
    let freshSession = true;
    try {
      const got = await browser.storage.session.get(SESSION_MARK);
      freshSession = !got[SESSION_MARK];
      await browser.storage.session.set({ [SESSION_MARK]: Date.now() });
    } catch {
      freshSession = browserStarted;
    }
    const kind: StartKind = freshSession || browserStarted ? 'browser-start' : 'worker-restart';
    await runner.recover(kind);
  })().catch((error: unknown) => console.error('[forager] recovery failed', error));

  // ---- tab inspection (popup on a results page) ----
  async function inspectTab(tabId: number): Promise<TabContext> {
    const tab = await browser.tabs.get(tabId);
    const context: TabContext = { tabId, url: tab.url ?? '', title: tab.title ?? '', serp: null };
    try {
      const [first] = await browser.scripting.executeScript({ target: { tabId }, files: ['/content-scripts/serp.js'] });
      const raw = first?.result as { error?: unknown } | undefined;
      if (raw && typeof raw.error === 'string') context.error = raw.error;
      context.serp = toSerpInfo(raw);
    } catch (error) {
      context.error = `Forager cannot read this tab (${error instanceof Error ? error.message : String(error)}).`;
    }
    return context;
  }

  const handle = createRequestHandler({ runner, store, strategies, inspectTab, ready });

  /** Requests and ports are accepted from the extension's own pages only (not from content scripts or other extensions). */
  const ownPagePrefix = browser.runtime.getURL('/');
  const fromOwnPage = (sender: { id?: string; url?: string } | undefined) =>
    !!sender && sender.id === browser.runtime.id && (sender.url ?? '').startsWith(ownPagePrefix);

  browser.runtime.onMessage.addListener((message: unknown, sender) => {
    if (!isForagerRequest(message)) return undefined; // not ours
    if (!fromOwnPage(sender)) return Promise.resolve({ ok: false, error: 'Not allowed.' });
    return handle(message);
  });

  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== LIVE_PORT || !fromOwnPage(port.sender)) return;
    let sub: Subscription | null = null;
    port.onMessage.addListener((message: unknown) => {
      const m = message as LiveClientMessage;
      if (m?.type !== 'subscribe') return;
      sub?.close();
      const id = typeof m.id === 'string' && m.id ? m.id : undefined;
      const current = hub.subscribe({ post: (x) => port.postMessage(x) }, id);
      sub = current;
      void (async () => {
        await ready;
        const snapshot = await runner.snapshot(id, Number(m.limit ?? 50)).catch(() => null);
        current.ready({ type: 'snapshot', snapshot });
      })();
    });
    port.onDisconnect.addListener(() => sub?.close());
  });

  // ---- context menu: "Crawl from here" opens the start view of the results page in a tab ----
  // (A popup cannot be opened from a menu click in every browser; a tab works in both.)
  void browser.contextMenus
    .removeAll()
    .then(() => browser.contextMenus.create({ id: MENU_ID, title: 'Crawl from here', contexts: ['page', 'link', 'selection'] }));
  async function onMenuClick(
    info: MenuClick & { menuItemId?: string | number },
    tab?: { id?: number; url?: string; title?: string; index?: number },
  ) {
    if (info.menuItemId !== undefined && info.menuItemId !== MENU_ID) return;
    let page: PageText | undefined;
    if (tab?.id !== undefined && tab.id >= 0 && !info.selectionText) {
      try {
        // The menu click grants activeTab, enough to read the title and headings.
        const [first] = await browser.scripting.executeScript({ target: { tabId: tab.id }, func: readPageText });
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
  Object.assign(globalThis, {
    forager: { runner, store, hub, handle, onMenuClick, ready, addressGuard: () => addressGuard },
  });
});

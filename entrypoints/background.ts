/**
 * The background: wiring only. lib/app/background/background-app.ts is the background without the browser (runner,
 * live updates, requests, recovery, keep-alive; tested under Node); this file builds its browser parts from the
 * platform (entrypoints/platform: what differs between Chrome and Firefox) and background-parts/ (tab reading,
 * network guards, device conditions, notices, the context menu), and connects the extension's listeners to it.
 */
import {
  createBackgroundApp,
  createIdbStore,
  describeStrategies,
  storedFailureNotes,
  storedRetention,
  ToolbarBadge,
} from '../lib/app';
import { listStrategies } from '../lib/engine';
import { installContextMenu, onMenuClick } from './background-parts/context-menu';
import { deviceConditions } from './background-parts/device';
import { createEndNotices } from './background-parts/end-notices';
import { createRequestGuards } from './background-parts/request-guards';
import { inspectTab } from './background-parts/tab-reading';
import { currentPlatform } from './platform/current';
import { t } from './ui/i18n';

const KEEPALIVE_ALARM = 'forager-keepalive';
/** One ticking alarm for every topic watch: each tick looks at which is due (lib/app/watch). */
const WATCH_ALARM = 'forager-watch';
const WATCH_TICK_MINUTES = 15;
const SESSION_MARK = 'forager.session';

/**
 * "Delete all Forager data", after the crawls: extension storage too. storage.session keeps only the session mark (a
 * time stamp the browser drops when it closes, telling a worker restart from a browser start), which is no data.
 */
async function clearExtensionStorage(): Promise<void> {
  await browser.storage.local.clear();
  const session = Object.keys(await browser.storage.session.get(null)).filter((key) => key !== SESSION_MARK);
  if (session.length > 0) await browser.storage.session.remove(session);
}

export default defineBackground(() => {
  const platform = currentPlatform();
  const store = createIdbStore();
  const guards = createRequestGuards(platform);
  const notices = createEndNotices();
  const conditions = () => deviceConditions(platform);
  const localArea = {
    get: (key: string) => browser.storage.local.get(key),
    set: (items: Record<string, unknown>) => browser.storage.local.set(items),
  };

  const app = createBackgroundApp({
    store,
    evaluator: platform.makeEvaluator(),
    strategies: () => describeStrategies(listStrategies()),
    inspectTab,
    guardNetwork: (policy) => guards.guardNetwork(policy),
    makeFetcher: (settings, urlPolicy, seeds) => guards.makeFetcher(settings, urlPolicy, seeds),
    retention: storedRetention(localArea),
    failures: storedFailureNotes(localArea),
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
    // The crawls are gone and none runs: the network guard's session rules go too (the watch alarm goes with the
    // last watch, through watchAlarm).
    clearStorage: async () => {
      await clearExtensionStorage();
      await guards.release();
    },
    watchAlarm: async (on) => {
      // Never made again when present: that would push its next tick back each time the worker wakes.
      if (!on) await browser.alarms.clear(WATCH_ALARM);
      else if (!(await browser.alarms.get(WATCH_ALARM)))
        await browser.alarms.create(WATCH_ALARM, { periodInMinutes: WATCH_TICK_MINUTES });
    },
    watchSay: t,
    conditions,
    onWatchCount: (n) => badge.setWatchCount(n),
    onWatchNotice: (notice) => void notices.notify(notice),
  });

  // Toolbar badge: new relevant pages of the latest crawl, coloured by its state (lib/app/background/badge.ts).
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
    onEnded: (notice) => void notices.notify(notice),
    say: t,
  });
  app.hub.subscribe({ post: (m) => badge.receive(m) }).ready();
  void app.ready.then(() => badge.init()).catch(() => undefined);

  browser.runtime.onStartup.addListener(() => app.browserStarted());
  // The keep-alive alarm's whole job is waking the worker (start-up recovery resumes the crawl); the watch alarm's is
  // a tick. Alarms may not outlive a browser restart (Firefox drops them): the app sets the watch alarm at every start
  // while some crawl is watched (watchAlarm above).
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === WATCH_ALARM) void app.ready.then(() => app.watcher.tick());
  });
  browser.runtime.onMessage.addListener((message: unknown, sender) => app.onMessage(message, sender));
  browser.runtime.onConnect.addListener((port) => app.onConnect(port));
  installContextMenu();

  // For end-to-end tests (test/e2e/driver.ts): only in the e2e build (FORAGER_E2E=1), which grants site access up
  // front and is never what a user loads; the store build leaves this out whole (wxt.config.ts defines the constant).
  if (!__FORAGER_TEST_HANDLE__) return;
  const { runner, hub, handle, ready, watcher } = app;
  Object.assign(globalThis, {
    forager: {
      runner,
      store,
      hub,
      handle,
      onMenuClick,
      ready,
      addressGuard: guards.current,
      badge,
      notices: notices.decided,
      watcher,
      conditions,
    },
  });
});

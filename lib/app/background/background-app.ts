/**
 * The extension's background without the browser: the runner, the live hub, the request handler, live-port
 * subscriptions, keep-alive decisions and start-up recovery, put together from injected browser parts. The
 * entrypoint (entrypoints/background.ts) builds those parts from the extension APIs and connects the listeners;
 * everything that decides something is here and tested under Node (test/unit/background-app.test.ts).
 */
import { errorMessage, type Evaluator, type UrlPolicy } from '../../engine';
import { createRequestHandler, isForagerRequest, type RequestHandler } from './handlers';
import { applyRetention, Library, memoryRetention, type RetentionSettings } from '../library';
import { LiveHub, type Subscription } from './live';
import {
  LIVE_PORT,
  type LiveClientMessage,
  type Reply,
  type SerpInfo,
  type StrategyDescription,
  type TabContext,
} from '../model/protocol';
import { CrawlRunner, type FailureNotes, type StartKind } from '../runner';
import type { CrawlSettings, CrawlStore, RunFetcher } from '../model/records';
import { type DeviceConditions, type WatchNotice, type WatchSay, Watcher } from '../watch';

/** Results shown to the evaluator when it is warmed up: enough for the topic's language, as a start request has. */
const WARM_CONTEXT = 10;

/**
 * The popup read a results page: a crawl from it is likely. The evaluator starts now (the offscreen document, its
 * Worker, the language detector and the topic's language data, ~250 ms cold) while the user reads the start form,
 * instead of between the click on Crawl and the first request (the runner asks it for the topic's analysis first).
 */
function warmEvaluator(evaluator: Evaluator, serp: SerpInfo, onError: (error: unknown) => void): void {
  const context = serp.results.slice(0, WARM_CONTEXT).map((r) => `${r.title} ${r.snippet}`);
  evaluator
    .analyseTopic?.({ keywords: serp.query, context }, serp.lang ? { pageLang: serp.lang } : {})
    .catch((error: unknown) => {
      onError(new Error(`the evaluator could not start: ${errorMessage(error)}`, { cause: error }));
    });
}

/** Who sent a message or opened a port (runtime.MessageSender, the parts used). */
export interface Sender {
  id?: string;
  url?: string;
}

/** A runtime port, the parts used. */
export interface LivePort {
  name: string;
  sender?: Sender;
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

/** The mark in storage.session, which the browser clears when it restarts: absent means "the browser (re)started". */
export interface SessionMark {
  present(): Promise<boolean>;
  set(): Promise<void>;
}

/** What keeps a service worker alive while a crawl runs (fetches do not reset its 30 s idle timer; API calls do). */
export interface KeepAliveParts {
  /** Any cheap extension API call (runtime.getPlatformInfo). */
  ping(): void;
  /** A periodic alarm: if the worker dies anyway (a kill, a crash), the alarm starts a new one, which resumes the crawl. */
  startAlarm(): void;
  stopAlarm(): void;
  intervalMs: number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Pings while busy, with the alarm as the fallback; nothing while idle. */
export class KeepAlive {
  private timer: unknown;
  private on = false;

  constructor(private readonly parts: KeepAliveParts) {}

  get busy(): boolean {
    return this.on;
  }

  set(busy: boolean): void {
    if (busy === this.on) return;
    this.on = busy;
    if (busy) {
      this.timer = this.parts.setInterval(() => this.parts.ping(), this.parts.intervalMs);
      this.parts.startAlarm();
    } else {
      this.parts.clearInterval(this.timer);
      this.timer = undefined;
      this.parts.stopAlarm();
    }
  }
}

/**
 * Why this background started. A service-worker restart finds the session mark (set by an earlier worker of the same
 * browser session); a browser start finds none, or fired runtime.onStartup. When storage.session cannot be read,
 * only onStartup tells, and without it a restart is assumed (the crawl goes on rather than silently pausing).
 */
export async function startKind(mark: SessionMark, browserStarted: () => boolean): Promise<StartKind> {
  let freshSession: boolean;
  try {
    freshSession = !(await mark.present());
    await mark.set();
  } catch {
    freshSession = browserStarted();
  }
  return freshSession || browserStarted() ? 'browser-start' : 'worker-restart';
}

export interface BackgroundParts {
  store: CrawlStore;
  evaluator: Evaluator;
  makeFetcher(settings: CrawlSettings, policy: UrlPolicy, seeds: string[]): RunFetcher;
  guardNetwork?(policy: UrlPolicy): Promise<void>;
  strategies(): StrategyDescription[];
  inspectTab(tabId: number): Promise<TabContext>;
  /** Empties the extension storage beyond the crawl store, after the crawls ("Delete all Forager data"). */
  clearStorage?(): Promise<void>;
  failures?: FailureNotes;
  /** Where the library's retention policy is kept (default: in memory, no limits). */
  retention?: RetentionSettings;
  session: SessionMark;
  keepAlive: KeepAliveParts;
  /** This extension's id and the URL prefix of its own pages: requests and ports are accepted from them only. */
  extensionId: string;
  ownPagePrefix: string;
  /** Least time between two live updates to a UI, ms (default 250). */
  liveIntervalMs?: number;
  /** Topic watches: the words of their notice, what the browser tells about the device, the badge count, the notice. */
  watchSay?: WatchSay;
  conditions?: () => Promise<DeviceConditions>;
  onWatchCount?(count: number): void;
  onWatchNotice?(notice: WatchNotice): void;
  /**
   * Sets the watches' ticking alarm on or off: on while some crawl is watched, off when none is (after "Delete all
   * data", the last unwatch or delete), so no alarm outlives the watches.
   */
  watchAlarm?(on: boolean): Promise<void>;
  now?: () => number;
  onError?(error: unknown): void;
}

export interface BackgroundApp {
  runner: CrawlRunner;
  watcher: Watcher;
  library: Library;
  hub: LiveHub;
  keepAlive: KeepAlive;
  handle: RequestHandler;
  /** Settles when start-up recovery is done (requests and snapshots wait for it). */
  ready: Promise<void>;
  /** runtime.onStartup fired: the browser started. */
  browserStarted(): void;
  /** runtime.onMessage: our requests get a Reply (a promise); anything else undefined (not ours: left to others). */
  onMessage(message: unknown, sender: Sender | undefined): Promise<Reply<unknown>> | undefined;
  /** runtime.onConnect: serves live ports from our own pages; ignores anything else. */
  onConnect(port: LivePort): void;
}

/** The parts of a storage area (storage.local) failure notes need. */
export interface KeyValueArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/**
 * Failure notes in a storage area other than the crawl store (the extension: storage.local, its own quota), all
 * under one key: a crawl whose store refused even its 'error' status is never relaunched and is shown failed.
 */
export function storedFailureNotes(area: KeyValueArea, key = 'forager.failures'): FailureNotes {
  const read = async (): Promise<Record<string, string>> => {
    const value = (await area.get(key))[key];
    return typeof value === 'object' && value !== null ? { ...(value as Record<string, string>) } : {};
  };
  return {
    async note(id, reason) {
      await area.set({ [key]: { ...(await read()), [id]: reason } });
    },
    all: read,
    async clear(id) {
      const notes = await read();
      if (!(id in notes)) return;
      delete notes[id];
      await area.set({ [key]: notes });
    },
  };
}

/**
 * `task` run now, or once more after the run in progress when called meanwhile (however many calls came): the last
 * call is always followed by a whole run. Errors go to `onError`.
 */
function coalesced(task: () => Promise<void>, onError: (error: unknown) => void): () => void {
  let running = false;
  let again = false;
  const go = (): void => {
    running = true;
    again = false;
    task()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) go();
      });
  };
  return () => {
    if (running) again = true;
    else go();
  };
}

/** Puts the background together and starts recovery. */
export function createBackgroundApp(parts: BackgroundParts): BackgroundApp {
  const onError = parts.onError ?? ((error: unknown) => console.error('[forager]', error));
  const hub = new LiveHub(parts.liveIntervalMs ?? 250);
  const keepAlive = new KeepAlive(parts.keepAlive);
  const library = new Library({ store: parts.store, onError });
  const retention = parts.retention ?? memoryRetention();
  const syncWatchAlarm = coalesced(async () => {
    if (!parts.watchAlarm) return;
    const watched = (await parts.store.listCrawls()).some((c) => c.watch !== undefined);
    await parts.watchAlarm(watched);
  }, onError);
  const runner: CrawlRunner = new CrawlRunner({
    store: parts.store,
    planRun: (record) => watcher.planRun(record),
    onRunEnded: (record) => watcher.onRunEnded(record),
    ...(parts.now ? { now: parts.now } : {}),
    evaluator: parts.evaluator,
    strategies: parts.strategies,
    guardNetwork: parts.guardNetwork,
    makeFetcher: parts.makeFetcher,
    failures: parts.failures,
    onUpdate: (id, record, pages) => hub.update(id, record, pages),
    onCrawlsChanged: () => {
      hub.crawlsChanged();
      syncWatchAlarm();
    },
    onPagesStored: (id, pages) => void library.add(id, pages).catch(onError),
    onCrawlRemoved: (id) => library.remove(id),
    onBusy: (busy) => {
      keepAlive.set(busy);
      // A run ended: its index is saved now (not seconds later, when the worker may be gone) and retention applied.
      if (!busy) {
        void (async () => {
          await library.flush();
          await applyRetention(runner, library, await retention.get());
        })().catch(onError);
      }
    },
    onError,
  });

  const watcher: Watcher = new Watcher({
    runner,
    store: parts.store,
    now: parts.now,
    conditions: parts.conditions,
    onCount: parts.onWatchCount,
    onNotice: parts.onWatchNotice,
    say: parts.watchSay ?? ((key, ...subs) => [key, ...subs].join(' ')),
    onPagesDropped: (id, pages) => library.removePages(id, pages),
    onError,
  });

  let started = false;
  // A crawl left 'running' is resumed after a worker restart, paused after a browser restart; then the watches are
  // looked at (a check due while the browser was closed runs once; one a browser restart interrupted goes on).
  const ready = (async () => {
    const kind = await startKind(parts.session, () => started);
    await runner.recover(kind);
    syncWatchAlarm();
    void watcher
      .tick(kind === 'browser-start')
      .then(() => watcher.count())
      .then((n) => parts.onWatchCount?.(n))
      .catch(onError);
  })().catch((error: unknown) => onError(new Error(`recovery failed: ${errorMessage(error)}`, { cause: error })));

  const handle = createRequestHandler({
    runner,
    store: parts.store,
    strategies: parts.strategies,
    inspectTab: async (tabId) => {
      const context = await parts.inspectTab(tabId);
      if (context.serp) warmEvaluator(parts.evaluator, context.serp, onError);
      return context;
    },
    library,
    retention,
    watcher,
    clearStorage: parts.clearStorage,
    ready,
  });

  const fromOwnPage = (sender: Sender | undefined) =>
    !!sender && sender.id === parts.extensionId && (sender.url ?? '').startsWith(parts.ownPagePrefix);

  return {
    runner,
    watcher,
    library,
    hub,
    keepAlive,
    handle,
    ready,
    browserStarted() {
      started = true;
    },
    onMessage(message, sender) {
      if (!isForagerRequest(message)) return undefined;
      if (!fromOwnPage(sender)) return Promise.resolve({ ok: false, error: 'Not allowed.' });
      return handle(message);
    },
    onConnect(port) {
      if (port.name !== LIVE_PORT || !fromOwnPage(port.sender)) return;
      let subscription: Subscription | null = null;
      port.onMessage.addListener((message: unknown) => {
        const m = message as LiveClientMessage | null;
        if (m?.type !== 'subscribe') return;
        // A new subscribe replaces the last one (the UI switched crawls): deltas of the old one stop at once.
        subscription?.close();
        const id = typeof m.id === 'string' && m.id ? m.id : undefined;
        const current = hub.subscribe({ post: (x) => port.postMessage(x) }, id);
        subscription = current;
        void (async () => {
          await ready;
          const snapshot = await runner.snapshot(id, Number(m.limit ?? 50)).catch(() => null);
          current.ready({ type: 'snapshot', snapshot });
        })();
      });
      port.onDisconnect.addListener(() => subscription?.close());
    },
  };
}

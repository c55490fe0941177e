import { describe, expect, it } from 'vitest';
import {
  type BackgroundParts,
  createBackgroundApp,
  KeepAlive,
  type KeepAliveParts,
  type LivePort,
  type SessionMark,
  startKind,
  storedFailureNotes,
} from '../../lib/app/background/background-app';
import { describeStrategies } from '../../lib/app/background/handlers';
import { LIVE_PORT, type LiveServerMessage } from '../../lib/app/model/protocol';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import type { CrawlRecord, CrawlStore } from '../../lib/app/model/records';
import { localEvaluator } from '../../lib/engine/html/evaluate';
import { listStrategies } from '../../lib/engine/strategies/index';
import type { FetchOutcome, PageFetcher, Topic, TopicHints } from '../../lib/engine/types';
import { HostAdmission } from '../../lib/app/adapters/host-admission';
import { plainRecord } from './record-fixture';

const EXT = 'ext-id';
const OWN = 'chrome-extension://ext-id/';
const own = { id: EXT, url: `${OWN}popup.html` };

function session(present: boolean | 'broken'): SessionMark & { sets: number } {
  const mark = {
    sets: 0,
    present: async () => {
      if (present === 'broken') throw new Error('storage.session is not available');
      return present;
    },
    set: async () => {
      mark.sets++;
    },
  };
  return mark;
}

function keepAliveParts(): KeepAliveParts & { log: string[]; tick(): void } {
  let fn: (() => void) | null = null;
  const parts = {
    log: [] as string[],
    ping: () => parts.log.push('ping'),
    startAlarm: () => parts.log.push('alarm on'),
    stopAlarm: () => parts.log.push('alarm off'),
    intervalMs: 20_000,
    setInterval: (f: () => void, ms: number) => {
      parts.log.push(`interval ${ms}`);
      fn = f;
      return 7;
    },
    clearInterval: (h: unknown) => {
      parts.log.push(`clear ${String(h)}`);
      fn = null;
    },
    tick: () => fn?.(),
  };
  return parts;
}

/** Twelve linked pages about coffee; fetches wait for `gate` when given (a crawl that stays running). */
function fetcher(made: number[], gate?: Promise<void>): PageFetcher {
  made.push(1);
  return {
    async fetch(url): Promise<FetchOutcome> {
      if (gate) await gate;
      const n = Number(new URL(url).pathname.slice(2)) || 0;
      const html = `<title>Coffee ${n}</title><p>coffee brewing espresso</p><a href="/p${(n + 1) % 12}">next</a><a href="/p${(n + 5) % 12}">jump</a>`;
      const body = new TextEncoder().encode(html);
      return { ok: true, url, finalUrl: url, status: 200, contentType: 'text/html', body, truncated: false, elapsedMs: 1 };
    },
  };
}

function parts(store: CrawlStore, extra: Partial<BackgroundParts> = {}, made: number[] = [], gate?: Promise<void>) {
  return {
    store,
    evaluator: localEvaluator,
    makeFetcher: () => fetcher(made, gate),
    strategies: () => describeStrategies(listStrategies()),
    inspectTab: async (tabId: number) => ({ tabId, url: 'https://x.example/', title: 'x', serp: null }),
    session: session(true),
    keepAlive: keepAliveParts(),
    extensionId: EXT,
    ownPagePrefix: OWN,
    liveIntervalMs: 1,
    onError: () => {},
    ...extra,
  } satisfies BackgroundParts;
}

function fakePort(name = LIVE_PORT, sender = own) {
  const messageListeners: ((m: unknown) => void)[] = [];
  const disconnectListeners: (() => void)[] = [];
  const port = {
    name,
    sender,
    received: [] as LiveServerMessage[],
    postMessage: (m: unknown) => port.received.push(m as LiveServerMessage),
    onMessage: { addListener: (l: (m: unknown) => void) => messageListeners.push(l) },
    onDisconnect: { addListener: (l: () => void) => disconnectListeners.push(l) },
    send: (m: unknown) => {
      for (const l of messageListeners) l(m);
    },
    disconnect: () => {
      for (const l of disconnectListeners) l();
    },
  } satisfies LivePort & Record<string, unknown>;
  return port;
}

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`gave up waiting for ${what}`);
}

function runningRecord(id: string, updatedAt: number): CrawlRecord {
  return {
    version: 2,
    id,
    name: id,
    topic: { keywords: 'coffee brewing' },
    seeds: ['https://a.example/p0'],
    source: { kind: 'manual' },
    settings: {
      strategy: 'best-n-first',
      params: {},
      maxPages: 5,
      maxBuffer: 50,
      politenessDelayMs: 0,
      stayOnSeedSites: false,
      seed: 1,
    },
    status: 'running',
    createdAt: updatedAt,
    updatedAt,
    stats: { pagesEvaluated: 0, maxPages: 5, errors: 0, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 0, meanScore: 0 },
  };
}

describe('start kind (why the background started)', () => {
  it('tells a worker restart from a browser start by the session mark, and sets the mark', async () => {
    const restart = session(true);
    expect(await startKind(restart, () => false)).toBe('worker-restart');
    expect(restart.sets).toBe(1);
    expect(await startKind(session(false), () => false)).toBe('browser-start');
    // runtime.onStartup fired: a browser start whatever the mark says.
    expect(await startKind(session(true), () => true)).toBe('browser-start');
    // No storage.session: only onStartup tells.
    expect(await startKind(session('broken'), () => false)).toBe('worker-restart');
    expect(await startKind(session('broken'), () => true)).toBe('browser-start');
  });
});

describe('keep-alive', () => {
  it('pings on an interval and sets the alarm while busy, clears both when idle, once each', () => {
    const p = keepAliveParts();
    const keep = new KeepAlive(p);
    keep.set(false);
    expect(p.log).toEqual([]);
    keep.set(true);
    keep.set(true);
    p.tick();
    keep.set(false);
    keep.set(false);
    expect(p.log).toEqual(['interval 20000', 'alarm on', 'ping', 'clear 7', 'alarm off']);
  });
});

describe('background app', () => {
  it('resumes a crawl left running after a worker restart, pauses it after a browser start', async () => {
    const store = createMemoryStore();
    await store.putCrawl(runningRecord('older', 1));
    await store.putCrawl(runningRecord('newer', 2));
    const made: number[] = [];
    const restart = createBackgroundApp(parts(store, { session: session(true) }, made));
    await restart.ready;
    expect(made).toHaveLength(1);
    await restart.runner.whenIdle();
    expect((await store.getCrawl('newer'))?.status).toBe('done');
    expect((await store.getCrawl('older'))?.status).toBe('paused');

    const store2 = createMemoryStore();
    await store2.putCrawl(runningRecord('left', 1));
    const made2: number[] = [];
    const browserStart = createBackgroundApp(parts(store2, { session: session(false) }, made2));
    await browserStart.ready;
    expect(made2).toHaveLength(0);
    expect((await store2.getCrawl('left'))?.status).toBe('paused');
  });

  it('keeps the worker alive exactly while a crawl fetches', async () => {
    const store = createMemoryStore();
    const keep = keepAliveParts();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const app = createBackgroundApp(parts(store, { keepAlive: keep }, [], gate));
    await app.ready;
    const started = await app.handle({
      type: 'forager/start',
      start: { topic: 'coffee', seeds: ['https://a.example/p0'], source: { kind: 'manual' }, settings: { maxPages: 4 } },
    });
    expect(started).toMatchObject({ ok: true });
    expect(app.keepAlive.busy).toBe(true);
    const id = started.ok ? started.value.id : '';
    await app.handle({ type: 'forager/pause', id });
    expect(app.keepAlive.busy).toBe(false);
    open();
    await app.runner.whenIdle();
    await app.handle({ type: 'forager/resume', id });
    await app.runner.whenIdle();
    expect(app.keepAlive.busy).toBe(false);
    expect(keep.log.filter((l) => l === 'alarm on')).toHaveLength(2);
    expect(keep.log.filter((l) => l === 'alarm off')).toHaveLength(2);
  });

  it('starts the evaluator when the popup reads a results page, before any click on Crawl', async () => {
    const asked: { keywords: string; context?: string[]; pageLang?: string }[] = [];
    const evaluator = {
      evaluate: localEvaluator.evaluate,
      analyseTopic: async (topic: Topic, hints?: TopicHints) => {
        asked.push({ keywords: topic.keywords, context: topic.context, pageLang: hints?.pageLang });
        return localEvaluator.analyseTopic!(topic, hints);
      },
    };
    const serp = {
      engine: 'google',
      engineName: 'Google',
      query: 'Katzenfutter',
      lang: 'en',
      results: [{ url: 'https://a.example/', title: 'Katzenfutter im Test', snippet: 'Nassfutter für Katzen', rank: 1 }],
      linkCount: 1,
    };
    const app = createBackgroundApp(
      parts(createMemoryStore(), {
        evaluator,
        inspectTab: async (tabId: number) =>
          tabId === 1
            ? { tabId, url: 'https://s.example/', title: 's', serp }
            : { tabId, url: 'https://x.example/', title: 'x', serp: null },
      }),
    );
    await app.ready;
    expect(await app.handle({ type: 'forager/inspectTab', tabId: 2 })).toMatchObject({ ok: true, value: { serp: null } });
    expect(asked).toEqual([]); // not a results page: nothing to warm up for
    expect(await app.handle({ type: 'forager/inspectTab', tabId: 1 })).toMatchObject({ ok: true, value: { serp } });
    await until(() => asked.length > 0, 'the warm-up');
    expect(asked).toEqual([
      { keywords: 'Katzenfutter', context: ['Katzenfutter im Test Nassfutter für Katzen'], pageLang: 'en' },
    ]);
  });

  it('answers requests from its own pages only, and leaves other messages to their listeners', async () => {
    const app = createBackgroundApp(parts(createMemoryStore()));
    expect(app.onMessage({ type: 'forager/evaluator-port', replace: false }, own)).toBeUndefined();
    expect(app.onMessage({ hello: 1 }, own)).toBeUndefined();
    expect(await app.onMessage({ type: 'forager/ping' }, { id: EXT, url: 'https://evil.example/' })).toEqual({
      ok: false,
      error: 'Not allowed.',
    });
    expect(await app.onMessage({ type: 'forager/ping' }, { id: 'other-extension', url: `${OWN}popup.html` })).toEqual({
      ok: false,
      error: 'Not allowed.',
    });
    expect(await app.onMessage({ type: 'forager/ping' }, own)).toEqual({ ok: true, value: { activeCrawl: null } });
  });

  it('serves live ports: a snapshot first, then deltas; a new subscribe switches crawls; a closed port is dropped', async () => {
    const store = createMemoryStore();
    const app = createBackgroundApp(parts(store));
    await app.ready;
    const foreign = fakePort(LIVE_PORT, { id: EXT, url: 'https://evil.example/' });
    app.onConnect(foreign);
    foreign.send({ type: 'subscribe' });
    const other = fakePort('something-else');
    app.onConnect(other);
    other.send({ type: 'subscribe' });

    const port = fakePort();
    app.onConnect(port);
    port.send({ type: 'subscribe', limit: 5 });
    await until(() => port.received.length > 0, 'the first snapshot');
    expect(port.received[0]).toEqual({ type: 'snapshot', snapshot: null });

    const first = await app.handle({
      type: 'forager/start',
      start: { topic: 'coffee', seeds: ['https://a.example/p0'], source: { kind: 'manual' }, settings: { maxPages: 4 } },
    });
    await app.runner.whenIdle();
    await until(() => port.received.some((m) => m.type === 'update' && m.record.status === 'done'), 'the last update');
    const firstId = first.ok ? first.value.id : '';
    expect(port.received.filter((m) => m.type === 'update').every((m) => m.type === 'update' && m.id === firstId)).toBe(true);
    const pages = port.received.flatMap((m) => (m.type === 'update' ? m.pages : []));
    expect(new Set(pages.map((p) => p.url)).size).toBe(4);

    // Following one crawl by id: a new snapshot, then only that crawl's deltas.
    port.received.length = 0;
    port.send({ type: 'subscribe', id: firstId, limit: 2 });
    await until(() => port.received.length > 0, 'the second snapshot');
    const snap = port.received[0];
    expect(snap.type === 'snapshot' && snap.snapshot?.record.id).toBe(firstId);
    expect(snap.type === 'snapshot' && snap.snapshot?.top).toHaveLength(2);
    expect(app.hub.size).toBe(1); // the first subscription was replaced, not added to

    port.disconnect();
    expect(app.hub.size).toBe(0);
    expect(foreign.received).toEqual([]);
    expect(other.received).toEqual([]);
  });

  it('keeps the watch alarm exactly while some crawl is watched: made at start-up, gone after "Delete all data"', async () => {
    const store = createMemoryStore();
    await store.putCrawl(plainRecord({ id: 'plain' }));
    await store.putCrawl(plainRecord({ id: 'watched', watch: { schedule: 'daily', createdAt: 1, nextDueAt: 1e15 } }));
    let alarm = false;
    const log: string[] = [];
    const app = createBackgroundApp(
      parts(store, {
        watchAlarm: async (on) => {
          alarm = on;
          log.push(on ? 'on' : 'off');
        },
        clearStorage: async () => void log.push('storage cleared'),
      }),
    );
    await app.ready;
    await until(() => alarm, 'the alarm at start-up');
    await app.onMessage({ type: 'forager/unwatch', id: 'watched' }, own);
    await until(() => !alarm, 'the alarm gone with the last watch');
    await app.onMessage({ type: 'forager/watch', id: 'plain', schedule: 'weekly' }, own);
    await until(() => alarm, 'the alarm back with a watch');
    expect(await app.onMessage({ type: 'forager/deleteAll' }, own)).toEqual({ ok: true, value: true });
    await until(() => !alarm, 'the alarm gone after deleting all');
    expect(log.slice(-2).sort()).toEqual(['off', 'storage cleared']);
  });

  it('keeps the hosts a run refused in the crawl record, summed over runs, as the UI shows them', async () => {
    const store = createMemoryStore();
    await store.putCrawl({ ...runningRecord('c', 1), status: 'paused' });
    let run = 0;
    const app = createBackgroundApp(
      parts(store, {
        makeFetcher: (_settings, _policy, seeds) => {
          const admission = new HostAdmission(seeds);
          const base = fetcher([]);
          const n = ++run;
          return admission.guardFetcher({
            ...base,
            fetch: async (url, signal) => {
              // A page of this run led to a name that resolved privately (what the address guards report).
              admission.privateAnswer(`router${n}.evil.example`, 'resolves to 192.168.1.1');
              return base.fetch(url, signal);
            },
          });
        },
      }),
    );
    await app.ready;
    await app.onMessage({ type: 'forager/resume', id: 'c' }, own);
    await app.runner.whenIdle();
    const first = (await store.getCrawl('c'))!;
    expect(first.refusedHosts).toEqual({
      privateAddress: 1,
      notContacted: 0,
      examples: [{ host: 'router1.evil.example', detail: 'resolves to 192.168.1.1' }],
    });
    // Another run of the same crawl adds its own.
    await store.updateCrawl('c', { status: 'paused', settings: { ...first.settings, maxPages: 8 } });
    await app.onMessage({ type: 'forager/resume', id: 'c' }, own);
    await app.runner.whenIdle();
    expect((await store.getCrawl('c'))!.refusedHosts).toMatchObject({
      privateAddress: 2,
      examples: [{ host: 'router1.evil.example' }, { host: 'router2.evil.example' }],
    });
  });

  it('keeps failure notes in another storage area, under one key', async () => {
    const data: Record<string, unknown> = {};
    const notes = storedFailureNotes({
      get: async (key) => ({ [key]: data[key] }),
      set: async (items) => void Object.assign(data, items),
    });
    expect(await notes.all()).toEqual({});
    await notes.note('a', 'disk full');
    await notes.note('b', 'closed');
    expect(await notes.all()).toEqual({ a: 'disk full', b: 'closed' });
    await notes.clear('a');
    await notes.clear('missing');
    expect(data).toEqual({ 'forager.failures': { b: 'closed' } });
  });
});

import { describe, expect, it } from 'vitest';
import { createCrawl, type CrawlOptions } from '../../lib/engine/crawl';
import { localEvaluator } from '../../lib/engine/html/evaluate';
import { CrawlRunner, type RunnerDeps } from '../../lib/app/runner';
import { LiveHub } from '../../lib/app/background/live';
import type { LiveServerMessage, StartRequest } from '../../lib/app/model/protocol';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import type { CrawlStore, FetchSettings } from '../../lib/app/model/records';
import type { CrawlCheckpoint, FetchOutcome, PageFetcher } from '../../lib/engine/types';
import { memoryFailureNotes } from '../../lib/app/runner';

/** A small deterministic web: 60 pages, half about coffee brewing, each linking to four others. */
function makeWeb(size = 60, refusedLinks = 0): Map<string, string> {
  const web = new Map<string, string>();
  for (let i = 0; i < size; i++) {
    const onTopic = i % 2 === 0;
    const words = onTopic
      ? 'coffee brewing espresso grinder beans roast brewing coffee pour over filter'
      : 'gardening tomato soil compost seeds watering sunlight harvest';
    const links = [1, 2, 3, 7].map(
      (d) => `<a href="/p${(i + d) % size}">${onTopic ? 'coffee brewing guide' : 'garden page'} ${(i + d) % size}</a>`,
    );
    // Links into a private network: refused by the URL rules, counted per rule (not skip records).
    for (let k = 0; k < refusedLinks; k++) links.push(`<a href="http://10.0.${i}.${k}/">router ${k}</a>`);
    web.set(
      `https://site${i % 5}.example.com/p${i}`,
      `<!doctype html><html><head><title>Page ${i} ${onTopic ? 'Coffee brewing' : 'Garden'}</title></head>` +
        `<body><h1>${words}</h1><p>${words} ${words}</p>${links.join(' ')}</body></html>`,
    );
  }
  // Links are relative to each page's own host; map every host to the same path space.
  const all = new Map<string, string>();
  for (const [url, html] of web) {
    const path = new URL(url).pathname;
    for (let h = 0; h < 5; h++) all.set(`https://site${h}.example.com${path}`, html);
  }
  return all;
}

interface FakeFetcher extends PageFetcher {
  /** Completed fetches per URL. */
  completed: Map<string, number>;
  started: number;
  /** When set, fetches after this many starts never resolve (a worker that died mid-fetch). */
  hangAfter?: number;
  hung: number;
  closed: boolean;
  close(): void;
}

function fakeFetcher(web: Map<string, string>, completed: Map<string, number>, hangAfter?: number): FakeFetcher {
  const f: FakeFetcher = {
    completed,
    started: 0,
    hangAfter,
    hung: 0,
    closed: false,
    close() {
      f.closed = true;
    },
    async fetch(url, signal): Promise<FetchOutcome> {
      f.started++;
      if (f.hangAfter !== undefined && f.started > f.hangAfter) {
        f.hung++;
        return new Promise<FetchOutcome>(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 1));
      if (signal?.aborted) return { ok: false, url, reason: 'aborted', detail: 'aborted', elapsedMs: 1 };
      completed.set(url, (completed.get(url) ?? 0) + 1);
      const html = web.get(url);
      if (!html) return { ok: false, url, reason: 'http-error', detail: 'HTTP 404', status: 404, elapsedMs: 1 };
      return {
        ok: true,
        url,
        finalUrl: url,
        status: 200,
        contentType: 'text/html; charset=utf-8',
        lastModified: 'Tue, 01 Apr 2025 10:00:00 GMT',
        body: new TextEncoder().encode(html),
        truncated: false,
        elapsedMs: 1,
      };
    },
  };
  return f;
}

const START: StartRequest = {
  topic: 'coffee brewing',
  seeds: ['https://site0.example.com/p0', 'https://site1.example.com/p1'],
  source: { kind: 'serp', engine: 'google', query: 'coffee brewing' },
  settings: { maxPages: 30, maxBuffer: 64, politenessDelayMs: 0, params: { n: 4 }, seed: 7 },
};

function makeRunner(store: CrawlStore, fetchers: FakeFetcher[], make: () => FakeFetcher, extra: Partial<RunnerDeps> = {}) {
  return new CrawlRunner({
    store,
    evaluator: localEvaluator,
    makeFetcher: () => {
      const f = make();
      fetchers.push(f);
      return f;
    },
    createCrawl,
    flushEveryMs: 0,
    ...extra,
  });
}

/** Waits (by polling, no time assertion) until cond() holds. */
async function until(cond: () => boolean | Promise<boolean>, what: string, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A store whose writes can be made to fail, recording every progress write. */
function flakyStore(base: CrawlStore) {
  const state = {
    failProgress: false,
    failAll: false,
    writes: [] as { pages: number; skips: number; checkpointSkips: number; checkpointResults: number; checkpoint: boolean }[],
  };
  const refuse = () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
  const store: CrawlStore = {
    ...base,
    putCrawl: (r) => (state.failAll ? refuse() : base.putCrawl(r)),
    updateCrawl: (id, patch) => (state.failAll ? refuse() : base.updateCrawl(id, patch)),
    saveProgress: (id, progress) => {
      if (state.failAll || state.failProgress) return refuse();
      const cp = progress.checkpoint as (CrawlCheckpoint & { results?: unknown[]; skips?: unknown[] }) | null;
      state.writes.push({
        pages: progress.pages.length,
        skips: progress.skips.length,
        checkpointSkips: cp?.skips?.length ?? 0,
        checkpointResults: cp?.results?.length ?? 0,
        checkpoint: cp !== null,
      });
      return base.saveProgress(id, progress);
    },
  };
  return { store, state };
}

describe('CrawlRunner', () => {
  it("installs the browser's network guard with the run's URL policy before the first request, and crawls nothing if it fails", async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const fetchers: FakeFetcher[] = [];
    const events: string[] = [];
    const errors: unknown[] = [];
    let fail = false;
    const runner = makeRunner(
      store,
      fetchers,
      () => {
        const f = fakeFetcher(web, new Map());
        const fetch = f.fetch.bind(f);
        f.fetch = (url, signal) => {
          events.push('fetch');
          return fetch(url, signal);
        };
        return f;
      },
      {
        guardNetwork: async (policy) => {
          events.push(`guard ${policy.allowPrivate} ${(policy.privateHosts ?? []).join(',')}`);
          await new Promise((r) => setTimeout(r, 5));
          if (fail) throw new Error('no declarativeNetRequest');
          events.push('guard installed');
        },
        onError: (e) => errors.push(e),
      },
    );
    const lan = {
      ...START,
      seeds: ['http://192.168.1.20/wiki/', ...START.seeds],
      settings: { ...START.settings, privateHosts: ['192.168.1.20'] },
    };
    const first = await runner.start(lan);
    await runner.whenIdle();
    // Installed (not merely asked for) before the first request.
    expect(events.slice(0, 2)).toEqual(['guard false 192.168.1.20', 'guard installed']);
    expect(events.filter((e) => e.startsWith('guard false')).length).toBe(1);
    expect(events.includes('fetch')).toBe(true);
    fail = true;
    events.length = 0;
    await expect(runner.start(START)).rejects.toThrow(/could not install its network guard \(no declarativeNetRequest\)/);
    await runner.whenIdle();
    expect(events.includes('fetch')).toBe(false);
    const second = (await store.listCrawls()).find((c) => c.id !== first.id);
    expect(second?.status).toBe('error');
    expect(second?.error).toMatch(/does not crawl without it/);
    // Resuming it fails the same way while the guard cannot be installed.
    await expect(runner.resume(second!.id)).rejects.toThrow(/network guard/);
    expect(events.includes('fetch')).toBe(false);
    expect(errors).toEqual([]);
    expect((await store.getCrawl(first.id))?.status).toBe('done');
  });

  it('runs a crawl to its budget, persisting pages, checkpoint and final status', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const completed = new Map<string, number>();
    const fetchers: FakeFetcher[] = [];
    const updates: { id: string; pages: number }[] = [];
    const runner = makeRunner(store, fetchers, () => fakeFetcher(web, completed), {
      onUpdate: (id, _r, pages) => updates.push({ id, pages: pages.length }),
    });
    const record = await runner.start(START);
    expect(record.status).toBe('running');
    expect(runner.activeId).toBe(record.id);
    await runner.whenIdle();
    const done = await store.getCrawl(record.id);
    expect(done?.status).toBe('done');
    expect(done?.stats.pagesEvaluated).toBe(30);
    const pages = await store.getPages(record.id);
    expect(pages).toHaveLength(30);
    expect(
      pages
        .filter((p) => p.isSeed)
        .map((p) => p.url)
        .sort(),
    ).toEqual(START.seeds);
    expect([...completed.values()].every((n) => n === 1)).toBe(true);
    // A finished crawl is never resumed: it keeps no checkpoint.
    expect(await store.getCheckpoint(record.id)).toBeUndefined();
    expect(updates.reduce((n, u) => n + u.pages, 0)).toBe(30);
    expect(fetchers[0].closed).toBe(true);
    expect(runner.activeId).toBeNull();
  });

  it("passes the command line's --retries to the crawl: with 0 a 503 is a skip at the first answer", async () => {
    const web = makeWeb();
    const failing = START.seeds[1];
    const limits: CrawlOptions['limits'][] = [];
    const spy = (options: CrawlOptions) => {
      limits.push(options.limits);
      return createCrawl(options);
    };
    const unavailable = (completed: Map<string, number>): FakeFetcher => {
      const f = fakeFetcher(web, completed);
      const serve = f.fetch.bind(f);
      f.fetch = async (url, signal) => {
        if (url !== failing) return serve(url, signal);
        completed.set(url, (completed.get(url) ?? 0) + 1);
        return { ok: false, url, reason: 'http-error', detail: 'HTTP 503', status: 503, transient: true, elapsedMs: 1 };
      };
      return f;
    };
    const fetchSettings: FetchSettings = {
      concurrency: 4,
      timeoutMs: 10_000,
      maxBytes: 100_000,
      respectRobots: false,
      allowPrivate: false,
    };

    const store = createMemoryStore();
    const completed = new Map<string, number>();
    const runner = makeRunner(store, [], () => unavailable(completed), { createCrawl: spy });
    const record = await runner.start(START, { fetch: { ...fetchSettings, retries: 0 } });
    await runner.whenIdle();
    expect(limits[0]?.retries).toBe(0);
    expect((await store.getCrawl(record.id))?.status).toBe('done');
    expect(completed.get(failing)).toBe(1);
    expect((await store.getSkips(record.id)).find((s) => s.url === failing)?.detail).toBe('HTTP 503');
    expect(await store.getPages(record.id)).toHaveLength(30);

    // No --retries (the extension, or a crawl kept before the option): the engine's default.
    const other = makeRunner(createMemoryStore(), [], () => fakeFetcher(web, new Map()), { createCrawl: spy });
    await other.start(START, { fetch: fetchSettings });
    await other.whenIdle();
    expect(limits[1]).not.toHaveProperty('retries');
  });

  it('refuses bad input and a second crawl while one runs', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const fetchers: FakeFetcher[] = [];
    const runner = makeRunner(store, fetchers, () => fakeFetcher(web, new Map(), 3));
    await expect(runner.start({ ...START, topic: '   ' })).rejects.toThrow(/topic/i);
    await expect(runner.start({ ...START, seeds: ['javascript:alert(1)', 'file:///etc/passwd'] })).rejects.toThrow(
      /no web page/i,
    );
    const first = await runner.start(START);
    await expect(runner.start(START)).rejects.toThrow(/already running/);
    expect((await store.listCrawls()).map((c) => c.id)).toEqual([first.id]);
  });

  it('pauses, persists, and resumes from the checkpoint without fetching anything twice', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const completed = new Map<string, number>();
    const fetchers: FakeFetcher[] = [];
    const runner = makeRunner(store, fetchers, () => fakeFetcher(web, completed));
    const record = await runner.start(START);
    await until(async () => (await store.countPages(record.id)) >= 6, 'six pages');
    const paused = await runner.pause(record.id);
    expect(paused.status).toBe('paused');
    await runner.whenIdle();
    expect(runner.activeId).toBeNull();
    const atPause = await store.getCrawl(record.id);
    expect(atPause?.status).toBe('paused');
    const evaluated = atPause!.stats.pagesEvaluated;
    expect(evaluated).toBeGreaterThanOrEqual(6);
    expect(evaluated).toBeLessThan(30);
    // Nothing more happens while paused.
    const startedWhilePaused = fetchers[0].started;
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchers[0].started).toBe(startedWhilePaused);

    const resumed = await runner.resume(record.id);
    expect(resumed.status).toBe('running');
    await runner.whenIdle();
    const done = await store.getCrawl(record.id);
    expect(done?.status).toBe('done');
    expect(done?.stats.pagesEvaluated).toBe(30);
    expect([...completed.entries()].filter(([, n]) => n > 1)).toEqual([]);
    // The order of pages depends on when answers come (a continuous loop), so not the pages themselves: their number,
    // each stored once, each one actually fetched.
    const stored = (await store.getPages(record.id)).map((p) => p.url);
    expect(new Set(stored).size).toBe(30);
    for (const url of stored) expect(completed.get(url), url).toBe(1);
  });

  it('picks up a crawl after the worker died mid-fetch: the budget reached, no page lost or fetched twice', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const completed = new Map<string, number>();
    // Worker A: its fetches hang from the 11th on, as if the service worker had been killed there.
    const fetchersA: FakeFetcher[] = [];
    const a = makeRunner(store, fetchersA, () => fakeFetcher(web, completed, 10));
    const record = await a.start(START);
    // The kill: every fetch of A that does not hang has ended (a killed worker completes nothing afterwards).
    const endedA = () => [...completed.values()].reduce((n, c) => n + c, 0);
    await until(() => fetchersA[0]?.hung > 0 && endedA() === fetchersA[0].started - fetchersA[0].hung, 'worker A to hang');
    // Let A's last writes land (they are behind the crawl), as they would before a real kill.
    await until(async () => {
      const cp = await store.getCheckpoint(record.id);
      const done = [...completed.values()].reduce((n, c) => n + c, 0);
      return (cp ? cp.fetched.length : 0) >= done;
    }, 'A to persist');
    expect((await store.getCrawl(record.id))?.status).toBe('running');

    // Worker B starts on the same storage.
    const fetchersB: FakeFetcher[] = [];
    const b = makeRunner(store, fetchersB, () => fakeFetcher(web, completed));
    const resumedId = await b.recover('worker-restart');
    expect(resumedId).toBe(record.id);
    await b.whenIdle();
    const done = await store.getCrawl(record.id);
    expect(done?.status).toBe('done');
    expect(done?.stats.pagesEvaluated).toBe(30);
    expect([...completed.entries()].filter(([, n]) => n > 1)).toEqual([]);
    // The order of pages depends on when answers come (a continuous loop), so not the pages themselves: their number,
    // each stored once, each one actually fetched.
    const stored = (await store.getPages(record.id)).map((p) => p.url);
    expect(new Set(stored).size).toBe(30);
    for (const url of stored) expect(completed.get(url), url).toBe(1);
  });

  it.each([9, 13, 17, 21, 25])(
    'loses no page when the worker dies while its writes are under way (kill at fetch %i)',
    async (killAt) => {
      const base = createMemoryStore();
      const web = makeWeb();
      const completed = new Map<string, number>();
      // Worker A's store: slow writes, and none lands after the kill (they die with the worker).
      let killed = false;
      const later = () => new Promise<void>((r) => setTimeout(r, 3));
      const never = new Promise<never>(() => undefined);
      const guard = async <T>(write: () => Promise<T>): Promise<T> => {
        await later();
        return killed ? never : write();
      };
      const storeA: CrawlStore = {
        ...base,
        addPages: (id, pages) => guard(() => base.addPages(id, pages)),
        addSkips: (id, skips) => guard(() => base.addSkips(id, skips)),
        saveCheckpoint: (id, cp) => guard(() => base.saveCheckpoint(id, cp)),
        updateCrawl: (id, patch) => guard(() => base.updateCrawl(id, patch)),
        saveProgress: (id, progress) => guard(() => base.saveProgress(id, progress)),
      };
      const fetchersA: FakeFetcher[] = [];
      const a = makeRunner(storeA, fetchersA, () => {
        const f = fakeFetcher(web, completed, killAt);
        const inner = f.fetch;
        f.fetch = (url, signal) => {
          if (f.started >= killAt) killed = true; // the kill: from now on nothing of A reaches the disk
          return inner(url, signal);
        };
        return f;
      });
      // Big rounds (N = 16), so pages keep arriving while the write-behind is busy.
      const record = await a.start({ ...START, settings: { ...START.settings, params: { n: 16 } } });
      await until(() => killed && fetchersA[0].hung > 0, 'worker A to die');
      await new Promise((r) => setTimeout(r, 20));

      const b = makeRunner(base, [], () => fakeFetcher(web, completed));
      expect(await b.recover('worker-restart')).toBe(record.id);
      await b.whenIdle();
      const done = await base.getCrawl(record.id);
      expect(done?.status).toBe('done');
      expect(done?.stats.pagesEvaluated).toBe(30);
      expect(await base.countPages(record.id)).toBe(30);
      const stored = (await base.getPages(record.id)).map((p) => p.url);
      expect(new Set(stored).size).toBe(30);
      for (const url of stored) expect(completed.get(url), url).toBeGreaterThanOrEqual(1);
    },
  );

  it('after a browser restart marks a running crawl paused and does not fetch', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const fetchersA: FakeFetcher[] = [];
    const a = makeRunner(store, fetchersA, () => fakeFetcher(web, new Map(), 5));
    const record = await a.start(START);
    await until(() => fetchersA[0]?.hung > 0, 'worker A to hang');
    const fetchersB: FakeFetcher[] = [];
    const b = makeRunner(store, fetchersB, () => fakeFetcher(web, new Map()));
    expect(await b.recover('browser-start')).toBeNull();
    expect(fetchersB).toHaveLength(0);
    expect((await store.getCrawl(record.id))?.status).toBe('paused');
    // ... and resumes on request.
    await b.resume(record.id);
    await b.whenIdle();
    expect((await store.getCrawl(record.id))?.status).toBe('done');
  });

  it('stops a crawl (status stopped), renames and deletes', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const fetchers: FakeFetcher[] = [];
    const runner = makeRunner(store, fetchers, () => fakeFetcher(web, new Map()));
    const record = await runner.start(START);
    await until(async () => (await store.countPages(record.id)) >= 3, 'three pages');
    const stopped = await runner.stop(record.id);
    expect(stopped.status).toBe('stopped');
    expect(stopped.stats.pagesEvaluated).toBeLessThan(30);
    expect(runner.activeId).toBeNull();
    const renamed = await runner.rename(record.id, '  My   coffee crawl ');
    expect(renamed.name).toBe('My coffee crawl');
    await expect(runner.rename(record.id, '   ')).rejects.toThrow(/empty/);
    // A stopped crawl can be resumed.
    await runner.resume(record.id);
    await runner.whenIdle();
    expect((await store.getCrawl(record.id))?.status).toBe('done');
    await expect(runner.resume(record.id)).rejects.toThrow(/finished/);
    await runner.remove(record.id);
    expect(await store.getCrawl(record.id)).toBeUndefined();
    expect(await store.countPages(record.id)).toBe(0);
  });

  it('removeAll stops the running crawl, lets its last write land, then deletes every crawl', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const fetchers: FakeFetcher[] = [];
    // The second crawl's fetches after the 8th wait until aborted: it is running, fetches in flight, when everything
    // is deleted.
    const runner = makeRunner(store, fetchers, () => {
      const f = fakeFetcher(web, new Map());
      if (fetchers.length === 0) return f;
      const answer = f.fetch.bind(f);
      f.fetch = (url, signal) => {
        if (f.started < 8) return answer(url, signal);
        f.hung++;
        return new Promise<FetchOutcome>((resolve) =>
          signal?.addEventListener('abort', () =>
            resolve({ ok: false, url, reason: 'aborted', detail: 'aborted', elapsedMs: 1 }),
          ),
        );
      };
      return f;
    });
    const finished = await runner.start(START);
    await runner.whenIdle();
    const running = await runner.start(START);
    await until(() => fetchers[1].hung > 0, 'the second crawl to be mid-fetch');
    expect(runner.activeId).toBe(running.id);
    await runner.removeAll();
    expect(runner.activeId).toBeNull();
    expect(await store.listCrawls()).toEqual([]);
    for (const id of [finished.id, running.id]) {
      expect(await store.countPages(id)).toBe(0);
      expect(await store.getSkips(id)).toEqual([]);
      expect(await store.getCheckpoint(id)).toBeUndefined();
    }
    expect(fetchers[1].closed).toBe(true);
  });

  it('records a failing evaluator as skips and still finishes', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    let calls = 0;
    const runner = new CrawlRunner({
      store,
      evaluator: {
        evaluate: async (input) => {
          calls++;
          if (calls % 3 === 0) throw new Error('evaluation timed out after 15000 ms');
          return localEvaluator.evaluate(input);
        },
      },
      makeFetcher: () => fakeFetcher(web, new Map()),
      flushEveryMs: 0,
    });
    const record = await runner.start({ ...START, settings: { ...START.settings, maxPages: 12 } });
    await runner.whenIdle();
    const done = await store.getCrawl(record.id);
    expect(done?.status).toBe('done');
    const skips = await store.getSkips(record.id);
    expect(skips.filter((s) => s.reason === 'evaluation').length).toBeGreaterThan(0);
    expect(skips.find((s) => s.reason === 'evaluation')?.detail).toMatch(/timed out/);
  });

  it('gives a snapshot of the running crawl that fits the live deltas', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const hub = new LiveHub(5);
    const messages: LiveServerMessage[] = [];
    const runner = makeRunner(store, [], () => fakeFetcher(web, new Map()), {
      onUpdate: (id, r, pages) => hub.update(id, r, pages),
    });
    const record = await runner.start(START);
    const sub = hub.subscribe({ post: (m) => messages.push(m) });
    await until(async () => (await store.countPages(record.id)) >= 4, 'four pages');
    const snap = await runner.snapshot(undefined, 10);
    sub.ready({ type: 'snapshot', snapshot: snap });
    expect(snap?.record.id).toBe(record.id);
    expect(snap?.active).toBe(true);
    expect(snap!.top.length).toBeGreaterThan(0);
    expect(snap!.top.map((p) => p.score)).toEqual([...snap!.top.map((p) => p.score)].sort((x, y) => y - x));
    await runner.whenIdle();
    hub.flush();
    expect(messages[0].type).toBe('snapshot');
    const urls = new Set(snap!.top.map((p) => p.url));
    for (const m of messages) if (m.type === 'update') for (const p of m.pages) urls.add(p.url);
    // Snapshot + deltas cover every page (the snapshot was capped at 10, deltas carry the rest).
    expect(urls.size).toBeGreaterThanOrEqual(
      Math.min(30, (await store.countPages(record.id)) - (snap!.pageCount - snap!.top.length)),
    );
    const last = messages[messages.length - 1];
    expect(last.type === 'update' && last.record.status).toBe('done');
    hub.dispose();
  });

  it('writes each page and skip once, as they come; stored checkpoints hold resume state only', async () => {
    const { store, state } = flakyStore(createMemoryStore());
    const web = makeWeb(60, 12);
    const runner = makeRunner(store, [], () => fakeFetcher(web, new Map()), { flushEveryMs: 5 });
    const record = await runner.start(START);
    await runner.whenIdle();
    const final = await store.getCrawl(record.id);
    expect(final?.status).toBe('done');
    const skips = await store.getSkips(record.id);
    // Refused outlinks are counted in the stats, never stored one by one.
    expect(final?.stats.linksRefused).toBeGreaterThan(100);
    expect(skips.filter((s) => s.reason === 'url-refused')).toEqual([]);
    // Every page and skip travels in exactly one write: what is new, never everything so far.
    expect(state.writes.reduce((n, w) => n + w.pages, 0)).toBe(30);
    expect(state.writes.reduce((n, w) => n + w.skips, 0)).toBe(skips.length);
    expect(state.writes.length).toBeGreaterThan(2);
    // No stored checkpoint carries outputs.
    expect(state.writes.every((w) => w.checkpointSkips === 0 && w.checkpointResults === 0)).toBe(true);
    // The last write finished the crawl and dropped its checkpoint.
    expect(state.writes.at(-1)?.checkpoint).toBe(false);
  });

  it('a store that fails every write: the crawl ends failed, with the reason, and no restart relaunches it', async () => {
    const base = createMemoryStore();
    const { store, state } = flakyStore(base);
    const notes = memoryFailureNotes();
    const web = makeWeb();
    const errors: unknown[] = [];
    const a = makeRunner(store, [], () => fakeFetcher(web, new Map()), { failures: notes, onError: (e) => errors.push(e) });
    const record = await a.start({ ...START, settings: { ...START.settings, maxPages: 200 } });
    await until(async () => (await base.countPages(record.id)) >= 3, 'three pages');
    state.failAll = true;
    await a.whenIdle();
    // The store still says running (it took nothing more); the note says why, and the UI is told.
    expect((await base.getCrawl(record.id))?.status).toBe('running');
    expect((await notes.all())[record.id]).toMatch(/Storage is failing.*quota/i);
    expect((await a.list()).find((c) => c.id === record.id)).toMatchObject({ status: 'error' });
    expect(errors.length).toBeGreaterThan(0);

    // A restarted worker on the same (still failing) store: not relaunched.
    const fetchersB: FakeFetcher[] = [];
    const b = makeRunner(store, fetchersB, () => fakeFetcher(web, new Map()), { failures: notes, onError: () => {} });
    expect(await b.recover('worker-restart')).toBeNull();
    expect(fetchersB).toHaveLength(0);
    expect((await b.snapshot(record.id))?.record).toMatchObject({ status: 'error', error: expect.stringMatching(/quota/i) });

    // Storage works again: the next start writes the failure into the store and forgets the note; still no relaunch.
    state.failAll = false;
    const c = makeRunner(store, fetchersB, () => fakeFetcher(web, new Map()), { failures: notes });
    expect(await c.recover('worker-restart')).toBeNull();
    expect(fetchersB).toHaveLength(0);
    expect(await base.getCrawl(record.id)).toMatchObject({ status: 'error', error: expect.stringMatching(/quota/i) });
    expect(await notes.all()).toEqual({});
    // The user can resume it from its last stored checkpoint.
    await c.resume(record.id);
    await c.whenIdle();
    expect((await base.getCrawl(record.id))?.status).toBe('done');
  });

  it('a store that refuses progress writes only: the crawl stops in state error with the reason, never relaunched', async () => {
    const base = createMemoryStore();
    const { store, state } = flakyStore(base);
    const web = makeWeb();
    const a = makeRunner(store, [], () => fakeFetcher(web, new Map()), { onError: () => {} });
    const record = await a.start({ ...START, settings: { ...START.settings, maxPages: 200 } });
    await until(async () => (await base.countPages(record.id)) >= 3, 'three pages');
    state.failProgress = true;
    await a.whenIdle();
    const failed = await base.getCrawl(record.id);
    expect(failed?.status).toBe('error');
    expect(failed?.error).toMatch(/quota/i);
    const fetchersB: FakeFetcher[] = [];
    const b = makeRunner(store, fetchersB, () => fakeFetcher(web, new Map()));
    expect(await b.recover('worker-restart')).toBeNull();
    expect(fetchersB).toHaveLength(0);
  });

  it('a damaged stored record becomes a failed crawl saying what is missing, not a TypeError', async () => {
    const store = createMemoryStore();
    const web = makeWeb();
    const a = makeRunner(store, [], () => fakeFetcher(web, new Map(), 3));
    const record = await a.start(START);
    // Damage it as a bug or a hand-edited file might: no settings, no seeds.
    const { settings: _s, seeds: _seeds, ...rest } = (await store.getCrawl(record.id))!;
    await store.putCrawl(rest as typeof record);
    const fetchersB: FakeFetcher[] = [];
    const b = makeRunner(store, fetchersB, () => fakeFetcher(web, new Map()));
    expect(await b.recover('worker-restart')).toBeNull();
    expect(fetchersB).toHaveLength(0);
    const failed = await store.getCrawl(record.id);
    expect(failed?.status).toBe('error');
    expect(failed?.error).toMatch(/damaged \(no seed list, no settings\)/);
    await expect(b.resume(record.id)).rejects.toThrow(/damaged/);
    // Lists and snapshots still show it (with neutral values where fields are missing).
    const [shown] = await b.list();
    expect(shown).toMatchObject({ id: record.id, status: 'error', seeds: [], settings: { strategy: 'forager' } });
    expect((await b.snapshot(record.id))?.record.status).toBe('error');
  });
});

/**
 * Topic watches (lib/app/watch) under Node: the schedule on an injected clock, and whole checks through the
 * background app, the real runner, fetcher and evaluator against the test web, which adds and changes pages between
 * checks and answers conditional requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackgroundApp, type BackgroundParts, createBackgroundApp } from '../../lib/app/background/background-app';
import type { CrawlRecord, CrawlStore, WatchState } from '../../lib/app/model/records';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import {
  annotatePage,
  conditionsVerdict,
  diffPages,
  isDue,
  nextDueAfter,
  pagesOverCap,
  PERIOD_MS,
  type DeviceConditions,
  type WatchNotice,
  type WatchView,
  watchPageCap,
} from '../../lib/app/watch';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import type { PageResult } from '../../lib/engine/types';
import { nodeBackgroundParts } from '../../harness/background-parts';
import { startGrowingSite } from '../../harness/growing-site';
import { seedsFor } from '../../harness/testweb/generate';
import { ResponseGate } from '../../harness/testweb/gate';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';

const DAY = PERIOD_MS.daily;
const T0 = Date.UTC(2030, 0, 7, 9);

describe('watch schedule', () => {
  const watch = (over: Partial<WatchState> = {}): WatchState => ({
    schedule: 'daily',
    createdAt: T0,
    nextDueAt: T0 + DAY,
    ...over,
  });

  it('is due a period after the last check started, and catches up once however many periods were missed', () => {
    expect(nextDueAfter(T0, 'daily')).toBe(T0 + DAY);
    expect(nextDueAfter(T0, 'weekly')).toBe(T0 + 7 * DAY);
    expect(isDue(watch(), T0 + DAY - 1)).toBe(false);
    expect(isDue(watch(), T0 + DAY)).toBe(true);
    // Closed for three weeks: due now, once; the check that catches up sets the next a day after itself.
    const late = T0 + 21 * DAY;
    expect(isDue(watch(), late)).toBe(true);
    const after = watch({
      check: { startedAt: late, since: T0, trigger: 'schedule', endedAt: late + 5 },
      nextDueAt: nextDueAfter(late, 'daily'),
    });
    expect(isDue(after, late + 10)).toBe(false);
    // A check running now is never due again.
    expect(isDue(watch({ check: { startedAt: T0, since: T0, trigger: 'schedule' } }), T0 + 30 * DAY)).toBe(false);
  });

  it('waits on a metered connection or a low battery, where the browser tells', () => {
    const cases: [DeviceConditions, string | null][] = [
      [{}, null],
      [{ saveData: true }, 'metered'],
      [{ metered: true }, 'metered'],
      [{ battery: { charging: false, level: 0.1 } }, 'battery'],
      [{ battery: { charging: true, level: 0.1 } }, null],
      [{ battery: { charging: false, level: 0.8 } }, null],
    ];
    for (const [conditions, verdict] of cases) expect(conditionsVerdict(conditions)).toBe(verdict);
  });
});

describe('watch diff', () => {
  const page = (url: string, over: Partial<PageResult> = {}): PageResult => ({
    url,
    title: url,
    snippet: '',
    score: 0.5,
    depth: 2,
    fetchedAt: T0,
    isSeed: false,
    contentHash: 'a',
    ...over,
  });

  it('marks never-seen pages new and pages whose content hash differs changed, and keeps that when read twice', () => {
    const check = { startedAt: T0 + DAY };
    const fresh = annotatePage(page('https://x/new'), undefined, check);
    expect(fresh.firstSeenAt).toBe(T0 + DAY);
    const changed = annotatePage(page('https://x/c', { contentHash: 'b', depth: 0 }), page('https://x/c'), check);
    expect(changed).toMatchObject({ changedAt: T0 + DAY, depth: 2 });
    expect(changed.firstSeenAt).toBeUndefined();
    const same = annotatePage(page('https://x/s'), page('https://x/s', { firstSeenAt: T0 }), check);
    expect(same.changedAt).toBeUndefined();
    expect(same.firstSeenAt).toBe(T0);
    // Read again within the same check (a resumed run): still new, still changed.
    expect(annotatePage(page('https://x/new'), fresh, check).firstSeenAt).toBe(T0 + DAY);
    expect(annotatePage(page('https://x/c', { contentHash: 'b' }), changed, check).changedAt).toBe(T0 + DAY);
    // A page stored before hashes existed is not called changed.
    expect(annotatePage(page('https://x/o'), page('https://x/o', { contentHash: undefined }), check).changedAt).toBeUndefined();
    const watch: WatchState = {
      schedule: 'daily',
      createdAt: T0,
      nextDueAt: 0,
      check: { ...check, since: T0, trigger: 'manual' },
    };
    const low = annotatePage(page('https://x/low', { score: 0.01 }), undefined, check);
    const diff = diffPages([fresh, changed, same, low], watch);
    expect(diff.added.map((p) => p.url)).toEqual(['https://x/new', 'https://x/low']);
    expect(diff.changed.map((p) => p.url)).toEqual(['https://x/c']);
    expect(diff.rest.map((p) => p.url)).toEqual(['https://x/s']);
    expect(diff.newRelevant).toBe(1);
  });
});

describe('watch cap', () => {
  const page = (url: string, score: number, over: Partial<PageResult> = {}): PageResult => ({
    url,
    title: url,
    snippet: '',
    score,
    depth: 1,
    fetchedAt: T0,
    isSeed: false,
    ...over,
  });

  it('drops what the last check did not find or change, least relevant first, oldest among equals; seeds never', () => {
    const check = { startedAt: T0 + DAY };
    const pages = [
      page('https://x/seed', 0.01, { isSeed: true }),
      page('https://x/new-low', 0.02, { firstSeenAt: check.startedAt }),
      page('https://x/changed', 0.03, { changedAt: check.startedAt }),
      page('https://x/old-good', 0.9, { firstSeenAt: T0 }),
      page('https://x/old-low', 0.1, { firstSeenAt: T0 - DAY }),
      page('https://x/older-low', 0.1, { firstSeenAt: T0 - 2 * DAY }),
    ];
    const drop = (cap: number) => pagesOverCap(pages, check, cap).map((p) => p.url);
    expect(drop(6)).toEqual([]);
    expect(drop(4)).toEqual(['https://x/older-low', 'https://x/old-low']);
    expect(drop(2)).toEqual(['https://x/older-low', 'https://x/old-low', 'https://x/old-good', 'https://x/new-low']);
    expect(drop(0)).not.toContain('https://x/seed');
    expect(watchPageCap({ maxPages: 200 })).toBe(400);
  });
});

describe('watch checks against the test web', () => {
  let tw: RunningTestWeb;
  let clock = T0;
  let conditions: DeviceConditions = {};
  const notices: WatchNotice[] = [];
  let badge = -1;
  const gate = new ResponseGate();

  const EXT = 'ext-id';
  const OWN = 'chrome-extension://ext-id/';
  const parts = (store: CrawlStore, browserStart: boolean): BackgroundParts => ({
    ...nodeBackgroundParts(store, { extensionId: EXT, ownPagePrefix: OWN }),
    makeFetcher: () => createFetcher({ politenessDelayMs: 0, maxInFlight: 4, urlPolicy: { allowPrivate: 'loopback' } }),
    session: { present: async () => !browserStart, set: async () => {} },
    liveIntervalMs: 1,
    now: () => clock,
    conditions: async () => conditions,
    onWatchCount: (n) => (badge = n),
    onWatchNotice: (n) => notices.push(n),
    watchSay: (key, ...subs) => `${key}:${subs.join('|')}`,
    onError: (e) => {
      throw e;
    },
  });

  async function ask<T>(app: BackgroundApp, message: Record<string, unknown>): Promise<T> {
    const reply = await app.onMessage(message, { id: EXT, url: `${OWN}results.html` });
    if (!reply?.ok) throw new Error(`request failed: ${JSON.stringify(reply)}`);
    return reply.value as T;
  }

  async function until(cond: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 5000; i++) {
      if (await cond()) return;
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error(`gave up waiting for ${what}`);
  }

  /** Until the watch's check that started at `startedAt` has been counted. */
  const checked = (store: CrawlStore, id: string, startedAt: number) =>
    until(async () => {
      const check = (await store.getCrawl(id))?.watch?.check;
      return check?.startedAt === startedAt && check.endedAt !== undefined;
    }, 'the check to be counted');

  beforeAll(async () => {
    // Small enough for a crawl to read all of it: then the only pages a check has not seen are the ones added.
    tw = await startTestWeb({ seed: 9, topics: 1, pagesPerTopic: 8, sites: 2, newsPerSite: 2, hold: gate.hold });
  });
  afterAll(() => tw?.close());

  const hosts = () => Object.values(tw.origins).map((o) => new URL(o).host);
  const keyOf = (url: string) => [...tw.web.pages.values()].find((p) => tw.urlOf(p) === url)!.key;

  it('Check now lists exactly the added pages as new and the changed ones as changed; 304s for the rest', async () => {
    const store = createMemoryStore();
    const app = createBackgroundApp(parts(store, false));
    await app.ready;
    const topic = tw.web.topics[0];
    const seeds = seedsFor(tw.web, topic.id, 2).map((p) => tw.urlOf(p));
    const record = await ask<CrawlRecord>(app, {
      type: 'forager/start',
      start: {
        topic: topic.keywords,
        seeds,
        source: { kind: 'manual' },
        settings: { maxPages: 200, politenessDelayMs: 0, privateHosts: hosts() },
      },
    });
    await app.runner.whenIdle();
    const first = await store.getPages(record.id);
    expect((await store.getCrawl(record.id))!.stats.pagesEvaluated).toBe(first.length); // exhausted, not cut
    expect(first.length).toBeLessThan(200);

    const watched = await ask<CrawlRecord>(app, { type: 'forager/watch', id: record.id, schedule: 'daily' });
    expect(watched.watch).toMatchObject({ schedule: 'daily', nextDueAt: T0 + DAY });

    const known = first.filter((p) => !p.isSeed);
    const changed = tw.changePage(keyOf(known[0].url));
    const touched = tw.touchPage(keyOf(known[1].url));
    const added = [tw.addPage(keyOf(seeds[0]), 'watch-unit-a'), tw.addPage(keyOf(seeds[1]), 'watch-unit-b')];
    clock = T0 + 3_600_000;
    const from = tw.requests.length;
    await ask(app, { type: 'forager/checkNow', id: record.id });
    await checked(store, record.id, clock);

    const view = await ask<WatchView>(app, { type: 'forager/watchView', id: record.id });
    expect(view.since).toBe(record.createdAt);
    expect(view.added.map((p) => p.url).sort()).toEqual([...added].sort());
    expect(view.changed.map((p) => p.url)).toEqual([changed]);
    expect(view.rest.map((p) => p.url)).toContain(touched);
    const unchanged = first.map((p) => p.url).filter((u) => ![changed, touched, ...seeds].includes(u));
    const log = tw.requests.slice(from);
    for (const url of unchanged) {
      const i = log.findIndex((r) => r.url === url);
      expect(i, url).toBeGreaterThanOrEqual(0);
      expect(log[i].headers['if-none-match']).toBeTruthy();
      expect(tw.statuses[from + i]).toBe(304);
    }
    const after = (await store.getCrawl(record.id))!;
    expect(after.watch!.check).toMatchObject({
      trigger: 'manual',
      newPages: 2,
      changedPages: 1,
      notModified: unchanged.length,
      outcome: 'done',
    });
    expect(after.watch!.nextDueAt).toBe(clock + DAY);
    const newRelevant = after.watch!.check!.newRelevant!;
    expect(newRelevant).toBeGreaterThan(0);
    expect(badge).toBe(newRelevant);
    expect(notices.filter((n) => n.crawlId === record.id)).toHaveLength(1); // one check, one notice
    expect(notices.at(-1)).toMatchObject({ crawlId: record.id });
    expect(notices.at(-1)!.message).toContain(topic.keywords);
    await ask(app, { type: 'forager/watchSeen', id: record.id });
    expect(badge).toBe(0);

    // A second check right away: nothing new, nothing changed; every page known is answered 304 or read unchanged.
    clock += 60_000;
    await ask(app, { type: 'forager/checkNow', id: record.id });
    await checked(store, record.id, clock);
    const again = await ask<WatchView>(app, { type: 'forager/watchView', id: record.id });
    expect(again.since).toBe(T0 + 3_600_000);
    expect(again.added).toEqual([]);
    expect(again.changed).toEqual([]);

    // Scheduled: not due yet; a metered connection skips it and says so; then, three days late, one check catches up.
    clock += DAY / 2;
    await app.watcher.tick();
    expect((await store.getCrawl(record.id))!.watch!.check!.startedAt).toBe(T0 + 3_600_000 + 60_000);
    clock += 3 * DAY;
    conditions = { saveData: true };
    await app.watcher.tick();
    expect((await store.getCrawl(record.id))!.watch).toMatchObject({ skipped: { at: clock, reason: 'metered' } });
    expect(app.runner.activeId).toBeNull();
    conditions = {};
    // Another crawl running (its pages held): the due check waits, one crawl at a time, and is not called skipped.
    const lastStart = (await store.getCrawl(record.id))!.watch!.check!.startedAt;
    gate.allow(0);
    const other = await ask<CrawlRecord>(app, {
      type: 'forager/start',
      start: { topic: 'other', seeds: [seeds[1]], source: { kind: 'manual' }, settings: { maxPages: 5, privateHosts: hosts() } },
    });
    await until(async () => gate.held().length > 0, 'the other crawl to wait for its page');
    await app.watcher.tick();
    expect(app.runner.activeId).toBe(other.id);
    expect((await store.getCrawl(record.id))!.watch!.check!.startedAt).toBe(lastStart);
    await ask(app, { type: 'forager/stop', id: other.id });
    gate.open();
    // Its end is a tick too: the check that catches up starts then (or at the tick below, whichever comes first).
    await app.watcher.tick();
    const startedAt = clock;
    await checked(store, record.id, startedAt);
    const caughtUp = (await store.getCrawl(record.id))!.watch!;
    expect(caughtUp.check).toMatchObject({ trigger: 'schedule', startedAt });
    expect(caughtUp.skipped).toBeUndefined();
    expect(caughtUp.nextDueAt).toBe(startedAt + DAY);
    await app.watcher.tick();
    expect((await store.getCrawl(record.id))!.watch!.check!.startedAt).toBe(startedAt);
    await app.runner.whenIdle();
  });

  it('a check interrupted by a browser restart goes on at start-up and loses nothing', async () => {
    const store = createMemoryStore();
    const app = createBackgroundApp(parts(store, false));
    await app.ready;
    const topic = tw.web.topics[0];
    const seeds = seedsFor(tw.web, topic.id, 2).map((p) => tw.urlOf(p));
    const record = await ask<CrawlRecord>(app, {
      type: 'forager/start',
      start: {
        topic: topic.keywords,
        seeds,
        source: { kind: 'manual' },
        settings: { maxPages: 200, politenessDelayMs: 0, privateHosts: hosts() },
      },
    });
    await app.runner.whenIdle();
    await ask(app, { type: 'forager/watch', id: record.id, schedule: 'weekly' });
    const first = await store.getPages(record.id);
    const changed = tw.changePage(keyOf(first.find((p) => !p.isSeed)!.url));
    const added = tw.addPage(keyOf(seeds[0]), 'watch-unit-restart');
    clock += DAY;
    const startedAt = clock;
    // Four pages answered, the rest held: the check is stuck mid-way whatever the machine's speed.
    gate.allow(4);
    await ask(app, { type: 'forager/checkNow', id: record.id });
    await until(async () => gate.held().length > 0, 'requests held');
    await ask(app, { type: 'forager/pause', id: record.id });
    gate.open();
    await app.runner.whenIdle();
    // The browser closes mid-check: what it leaves in the store is a run still 'running', its check not counted.
    const left = (await store.getCrawl(record.id))!;
    expect(left.status).toBe('paused');
    expect(left.watch!.check).toMatchObject({ startedAt });
    expect(left.watch!.check!.endedAt).toBeUndefined();
    expect(left.stats.pagesEvaluated + (left.stats.notModified ?? 0)).toBeLessThan(first.length);
    await store.updateCrawl(record.id, { status: 'running' });

    const restarted = createBackgroundApp(parts(store, true));
    await restarted.ready;
    await checked(store, record.id, startedAt);
    const view = await ask<WatchView>(restarted, { type: 'forager/watchView', id: record.id });
    expect(view.added.map((p) => p.url)).toEqual([added]);
    expect(view.changed.map((p) => p.url)).toEqual([changed]);
    expect((await store.getCrawl(record.id))!.status).toBe('done');
    await restarted.runner.whenIdle();
  });

  it('a site answering 304 to revisits and offering new pages at every check never grows a watch past its cap', async () => {
    const site = await startGrowingSite(20);
    try {
      const store = createMemoryStore();
      const app = createBackgroundApp(parts(store, false));
      await app.ready;
      const maxPages = 8;
      const record = await ask<CrawlRecord>(app, {
        type: 'forager/start',
        start: {
          topic: 'solar panels',
          seeds: [site.seed],
          source: { kind: 'manual' },
          settings: { maxPages, politenessDelayMs: 0, privateHosts: [site.host] },
        },
      });
      await app.runner.whenIdle();
      expect(await store.countPages(record.id)).toBe(maxPages);
      await ask(app, { type: 'forager/watch', id: record.id, schedule: 'daily' });
      const cap = watchPageCap({ maxPages });
      expect(cap).toBe(2 * maxPages);
      const seen = new Set((await store.getPages(record.id)).map((p) => p.url));
      for (let i = 1; i <= 4; i++) {
        clock += DAY;
        const notModified = site.counts.notModified;
        await ask(app, { type: 'forager/checkNow', id: record.id });
        await checked(store, record.id, clock);
        const check = (await store.getCrawl(record.id))!.watch!.check!;
        // Each check found new pages and was answered 304 for known ones: the growth the cap must stop.
        expect(check.newPages, `check ${i}`).toBeGreaterThan(0);
        expect(site.counts.notModified).toBeGreaterThan(notModified);
        const pages = await store.getPages(record.id);
        for (const p of pages) seen.add(p.url);
        expect(pages.length, `check ${i}`).toBeLessThanOrEqual(cap);
        // What the last check found stays; the seed stays.
        const found = pages.filter((p) => p.firstSeenAt === check.startedAt).length;
        expect(found, `check ${i}`).toBe(check.newPages);
        expect(pages.some((p) => p.url === site.seed)).toBe(true);
      }
      expect(seen.size).toBeGreaterThan(cap); // pages were dropped, not merely never found
      // Dropped pages leave the library too: it finds exactly the pages the store holds.
      const hits = await ask<{ url: string; crawlId: string }[]>(app, { type: 'forager/search', query: 'solar' });
      const held = new Set((await store.getPages(record.id)).map((p) => p.url));
      expect(hits.filter((h) => h.crawlId === record.id).every((h) => held.has(h.url))).toBe(true);
      expect(await ask(app, { type: 'forager/library' })).toMatchObject({ pages: held.size });
      await app.runner.whenIdle();
    } finally {
      await site.close();
    }
  });
});

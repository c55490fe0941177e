import { describe, expect, it } from 'vitest';
import { createRequestHandler, describeStrategies, isForagerRequest } from '../../lib/app/background/handlers';
import { MAX_WINDOW, type RequestHandlers } from '../../lib/app/model/protocol';
import { Library, memoryRetention } from '../../lib/app/library';
import { CrawlRunner } from '../../lib/app/runner';
import { Watcher } from '../../lib/app/watch';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import type { CrawlRecord } from '../../lib/app/model/records';
import { localEvaluator } from '../../lib/engine/html/evaluate';
import { listStrategies } from '../../lib/engine/strategies/index';

type Handlers = RequestHandlers<object>;

// These fail `npm run typecheck` (an unused @ts-expect-error is an error) if the protocol table stops checking answers.
// @ts-expect-error 'forager/ping' answers { activeCrawl }, not a number
const wrongAnswer: Handlers['forager/ping'] = async () => 42;
// @ts-expect-error 'forager/pages' answers pages, not skips
const wrongList: Handlers['forager/pages'] = async () => [{ url: 'x', reason: 'robots', detail: '', at: 0 }];
// @ts-expect-error a handler table must answer every request type
const incomplete = { 'forager/ping': async () => ({ activeCrawl: null }) } satisfies Handlers;
const extra = {
  'forager/ping': async () => ({ activeCrawl: null }),
  // @ts-expect-error and nothing else
  'forager/bogus': async () => true,
} satisfies Partial<Handlers>;

describe('protocol', () => {
  it('keeps the compile-time checks above in the build', () => {
    expect([wrongAnswer, wrongList, incomplete, extra].every((x) => x !== undefined)).toBe(true);
  });

  it('recognizes exactly its own requests', () => {
    expect(isForagerRequest({ type: 'forager/ping' })).toBe(true);
    expect(isForagerRequest({ type: 'forager/evaluator-port', replace: false })).toBe(false);
    expect(isForagerRequest({ type: 'forager/ping', target: 'offscreen' })).toBe(false);
    expect(isForagerRequest({ type: 'toString' })).toBe(false);
    expect(isForagerRequest({ type: '__proto__' })).toBe(false);
    expect(isForagerRequest(null)).toBe(false);
  });

  it('answers the protocol and turns failures into messages', async () => {
    const store = createMemoryStore();
    const runner = new CrawlRunner({
      store,
      evaluator: localEvaluator,
      makeFetcher: () => ({ fetch: async (url) => ({ ok: false, url, reason: 'network', detail: 'offline', elapsedMs: 0 }) }),
    });
    const handle = createRequestHandler({
      runner,
      store,
      strategies: () => describeStrategies(listStrategies()),
      inspectTab: async (tabId) => ({ tabId, url: 'https://x.example.com/', title: 'x', serp: null }),
      library: new Library({ store }),
      retention: memoryRetention(),
      watcher: new Watcher({ runner, store, say: (key) => key }),
    });
    expect(await handle({ type: 'forager/ping' })).toEqual({ ok: true, value: { activeCrawl: null } });
    expect(await handle({ type: 'nope' })).toEqual({ ok: false, error: 'Unknown request.' });
    expect(await handle({ target: 'offscreen', type: 'forager/ping' })).toMatchObject({ ok: false });
    const strategiesReply = await handle({ type: 'forager/strategies' });
    expect(strategiesReply.ok && JSON.parse(JSON.stringify(strategiesReply.value))).toEqual(
      strategiesReply.ok && strategiesReply.value,
    );
    const started = await handle({
      type: 'forager/start',
      start: { topic: 'coffee', seeds: ['https://a.example.com/'], source: { kind: 'manual' } },
    });
    expect(started.ok).toBe(true);
    await runner.whenIdle();
    const id = (started as { value: CrawlRecord }).value.id;
    const list = await handle({ type: 'forager/list' });
    expect(list.ok && (list.value as CrawlRecord[]).map((c) => c.status)).toEqual(['done']);
    expect(await handle({ type: 'forager/skips', id })).toMatchObject({ ok: true, value: [{ reason: 'network' }] });
    expect(await handle({ type: 'forager/pause', id: 'missing' })).toEqual({ ok: false, error: 'That crawl no longer exists.' });
    expect(await handle({ type: 'forager/rename', id, name: 'Beans' })).toMatchObject({ ok: true, value: { name: 'Beans' } });
    expect(await handle({ type: 'forager/snapshot' })).toMatchObject({
      ok: true,
      value: { record: { id }, pageCount: 0, active: false },
    });
    expect(await handle({ type: 'forager/delete', id })).toEqual({ ok: true, value: true });
    expect(await handle({ type: 'forager/snapshot' })).toEqual({ ok: true, value: null });
  });

  it('deleteAll removes every crawl and clears the extension storage it is given', async () => {
    const store = createMemoryStore();
    const runner = new CrawlRunner({
      store,
      evaluator: localEvaluator,
      makeFetcher: () => ({ fetch: async (url) => ({ ok: false, url, reason: 'network', detail: 'offline', elapsedMs: 0 }) }),
    });
    let cleared = 0;
    const handle = createRequestHandler({
      runner,
      store,
      strategies: () => [],
      inspectTab: async (tabId) => ({ tabId, url: '', title: '', serp: null }),
      library: new Library({ store }),
      retention: memoryRetention(),
      watcher: new Watcher({ runner, store, say: (key) => key }),
      clearStorage: async () => {
        cleared++;
      },
    });
    for (const topic of ['coffee', 'tea']) {
      await handle({ type: 'forager/start', start: { topic, seeds: ['https://a.example.com/'], source: { kind: 'manual' } } });
      await runner.whenIdle();
    }
    expect(await store.listCrawls()).toHaveLength(2);
    expect(await handle({ type: 'forager/deleteAll' })).toEqual({ ok: true, value: true });
    expect(await store.listCrawls()).toEqual([]);
    expect(cleared).toBe(1);
  });

  it('answers pages and skips in windows of at most MAX_WINDOW, however many are asked for', async () => {
    const store = createMemoryStore();
    const runner = new CrawlRunner({
      store,
      evaluator: localEvaluator,
      makeFetcher: () => ({ fetch: async () => ({}) as never }),
    });
    const handle = createRequestHandler({
      runner,
      store,
      strategies: () => [],
      inspectTab: async () => ({}) as never,
      library: new Library({ store }),
      retention: memoryRetention(),
      watcher: new Watcher({ runner, store, say: (key) => key }),
    });
    const count = MAX_WINDOW * 2 + 17;
    await store.addSkips(
      'big',
      Array.from({ length: count }, (_, i) => ({
        url: `http://10.0.${i >> 8}.${i & 255}/`,
        reason: 'url-refused',
        detail: 'private',
        at: i,
      })),
    );
    const all = await handle({ type: 'forager/skips', id: 'big', limit: 10 * count });
    expect(all.ok && all.value.length).toBe(MAX_WINDOW);
    let seen = 0;
    for (let offset = 0; ; offset += MAX_WINDOW) {
      const reply = await handle({ type: 'forager/skips', id: 'big', offset, limit: MAX_WINDOW });
      if (!reply.ok) throw new Error(reply.error);
      expect(reply.value.length).toBeLessThanOrEqual(MAX_WINDOW);
      // Each answer stays far below Chrome's 64 MiB message cap.
      expect(JSON.stringify(reply.value).length).toBeLessThan(2 * 1024 * 1024);
      seen += reply.value.length;
      if (reply.value.length < MAX_WINDOW) break;
    }
    expect(seen).toBe(count);
  });
});

import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { CrawlRunner } from '../../lib/app/runner';
import { createIdbStore } from '../../lib/app/adapters/idb-store';
import { migrateRecord, recordProblems } from '../../lib/app/store/migrate';
import { Watcher } from '../../lib/app/watch';
import { migrateCheckpoint } from '../../lib/engine/checkpoint';
import { createCrawl } from '../../lib/engine/crawl';
import { localEvaluator } from '../../lib/engine/html/evaluate';
import type { CrawlCheckpoint, CrawlCheckpointV1, FetchOutcome, PageFetcher } from '../../lib/engine/types';

/** IndexedDB contents written by the runner before record versions (test/fixtures/store/v1-database.json says how). */
const fixture = JSON.parse(readFileSync(new URL('../fixtures/store/v1-database.json', import.meta.url), 'utf8')) as {
  stores: Record<'crawls' | 'pages' | 'skips' | 'checkpoints', Record<string, unknown>[]>;
};

/** Builds a version-1 database exactly as the version-1 store created it, holding the fixture's rows. */
async function v1Database(name: string): Promise<void> {
  const db = await openDB(name, 1, {
    upgrade(database) {
      database.createObjectStore('crawls', { keyPath: 'id' }).createIndex('byUpdatedAt', 'updatedAt');
      database.createObjectStore('pages', { keyPath: ['crawlId', 'page.url'] }).createIndex('byScore', ['crawlId', 'page.score']);
      database.createObjectStore('skips', { keyPath: ['crawlId', 'skip.url'] }).createIndex('byTime', ['crawlId', 'skip.at']);
      database.createObjectStore('checkpoints', { keyPath: 'crawlId' });
    },
  });
  for (const [store, rows] of Object.entries(fixture.stores)) for (const row of rows) await db.put(store as 'crawls', row);
  db.close();
}

/** The web the fixture's crawls ran on (same pages, same links). */
function fixtureFetcher(fetched: string[]): PageFetcher {
  const web = new Map<string, string>();
  for (let i = 0; i < 20; i++) {
    const on = i % 2 === 0;
    const words = on ? 'coffee brewing espresso grinder beans roast' : 'gardening tomato soil compost';
    const links = [1, 2, 3, 7].map((d) => `<a href="/p${(i + d) % 20}">link ${(i + d) % 20}</a>`).join(' ');
    web.set(
      `https://site.example.com/p${i}`,
      `<!doctype html><title>Page ${i}</title><h1>${words}</h1><p>${words}</p>${links} <a href="http://10.0.0.1/x">lan</a>`,
    );
  }
  return {
    async fetch(url): Promise<FetchOutcome> {
      fetched.push(url);
      const html = web.get(url);
      if (!html) return { ok: false, url, reason: 'http-error', detail: 'HTTP 404', status: 404, elapsedMs: 1 };
      const body = new TextEncoder().encode(html);
      return { ok: true, url, finalUrl: url, status: 200, contentType: 'text/html', body, truncated: false, elapsedMs: 1 };
    },
  };
}

describe('store migration from database version 1 (records of the previous layout)', () => {
  it('versions the records, moves checkpoint outputs into the lists, drops finished checkpoints, and resumes', async () => {
    const name = `forager-migration-${process.pid}`;
    await v1Database(name);
    const oldCheckpoint = (id: string) =>
      (fixture.stores.checkpoints.find((c) => c.crawlId === id) as { checkpoint: CrawlCheckpointV1 }).checkpoint;
    const store = createIdbStore(name);

    const crawls = await store.listCrawls();
    expect(crawls.map((c) => [c.id, c.version, c.status])).toEqual([
      ['crawl-3', 2, 'paused'],
      ['crawl-2', 2, 'running'],
      ['crawl-1', 2, 'done'],
    ]);
    for (const c of crawls) expect(recordProblems(c)).toEqual([]);
    // The finished crawl is never resumed: its checkpoint is gone, its pages and skips stay.
    expect(await store.getCheckpoint('crawl-1')).toBeUndefined();
    expect(await store.countPages('crawl-1')).toBe(6);
    expect(await store.countSkips('crawl-1')).toBeGreaterThan(0);
    // Checkpoints keep resume state only: the engine's version-2 checkpoint (migrateCheckpoint's).
    for (const id of ['crawl-2', 'crawl-3']) {
      const cp = (await store.getCheckpoint(id)) as CrawlCheckpoint;
      expect(cp.version).toBe(2);
      expect('results' in cp || 'skips' in cp).toBe(false);
      expect(cp).toEqual(migrateCheckpoint(oldCheckpoint(id)).checkpoint);
    }
    // crawl-3's pages lived only in its checkpoint: now they are in the page list.
    expect((await store.getPages('crawl-3')).map((p) => p.url).sort()).toEqual(
      oldCheckpoint('crawl-3')
        .results.map((p) => p.url)
        .sort(),
    );
    // Its skips too, but for refused outlinks, which the version-2 checkpoint counts per rule instead.
    expect((await store.getSkips('crawl-3')).map((s) => s.url).sort()).toEqual(
      migrateCheckpoint(oldCheckpoint('crawl-3'))
        .skips.map((s) => s.url)
        .sort(),
    );

    // The crawl left running by a dead worker resumes from its migrated checkpoint and fetches nothing twice.
    const fetched: string[] = [];
    const runner = new CrawlRunner({ store, evaluator: localEvaluator, createCrawl, makeFetcher: () => fixtureFetcher(fetched) });
    expect(await runner.recover('worker-restart')).toBe('crawl-2');
    await runner.whenIdle();
    const done = await store.getCrawl('crawl-2');
    expect(done?.status).toBe('done');
    expect(done?.stats.pagesEvaluated).toBe(6);
    expect(await store.countPages('crawl-2')).toBe(6);
    expect(fetched.filter((u) => oldCheckpoint('crawl-2').fetched.includes(u))).toEqual([]);
    expect(await store.getCheckpoint('crawl-2')).toBeUndefined();
    store.close();
  });

  it('a crawl stored before watches (pages without ETag or content hash) can be watched: its first check calls no page changed', async () => {
    // Watches add only optional fields (CrawlRecord.watch; PageResult.etag, contentHash, firstSeenAt, changedAt):
    // the stored layout is the same, so the record version stays 2 and older records are read as they are.
    const name = `forager-migration-watch-${process.pid}`;
    await v1Database(name);
    const store = createIdbStore(name);
    const before = await store.getPages('crawl-1');
    expect(before.some((p) => p.contentHash !== undefined || p.etag !== undefined)).toBe(false);
    const fetched: string[] = [];
    const runner: CrawlRunner = new CrawlRunner({
      store,
      evaluator: localEvaluator,
      createCrawl,
      makeFetcher: () => fixtureFetcher(fetched),
      planRun: (record) => watcher.planRun(record),
      onRunEnded: (record) => watcher.onRunEnded(record),
    });
    const watcher: Watcher = new Watcher({ runner, store, say: (key) => key });
    await watcher.watch('crawl-1', 'weekly');
    await watcher.checkNow('crawl-1');
    await runner.whenIdle();
    await watcher.tick();
    const watch = (await store.getCrawl('crawl-1'))!.watch!;
    expect(watch.check).toMatchObject({ outcome: 'done', changedPages: 0 });
    // The pages it read again now carry their hash: the next check can tell.
    const after = await store.getPages('crawl-1');
    for (const p of before) expect(after.find((q) => q.url === p.url)?.contentHash, p.url).toBeDefined();
    store.close();
  });

  it('database version 2 -> 3 adds the search index store and keeps every crawl, page, skip and checkpoint', async () => {
    const name = `forager-migration-v2-${process.pid}`;
    const db = await openDB(name, 2, {
      upgrade(database) {
        database.createObjectStore('crawls', { keyPath: 'id' }).createIndex('byUpdatedAt', 'updatedAt');
        database
          .createObjectStore('pages', { keyPath: ['crawlId', 'page.url'] })
          .createIndex('byScore', ['crawlId', 'page.score']);
        database.createObjectStore('skips', { keyPath: ['crawlId', 'skip.url'] }).createIndex('byTime', ['crawlId', 'skip.at']);
        database.createObjectStore('checkpoints', { keyPath: 'crawlId' });
      },
    });
    const record = { ...(fixture.stores.crawls[0] as object), version: 2 } as unknown as { id: string };
    const pageRow = {
      crawlId: record.id,
      page: { url: 'https://site.example.com/p0', title: 'P0', snippet: '', score: 0.5, depth: 0, fetchedAt: 1, isSeed: true },
    };
    const skipRow = {
      crawlId: record.id,
      skip: { url: 'https://site.example.com/x', reason: 'http-error', detail: 'HTTP 404', at: 2 },
    };
    await db.put('crawls', record);
    await db.put('pages', pageRow);
    await db.put('skips', skipRow);
    await db.put('checkpoints', { crawlId: record.id, checkpoint: { version: 1, fetched: ['a'] } });
    db.close();

    const store = createIdbStore(name);
    expect(await store.getCrawl(record.id)).toEqual(record);
    expect(await store.getPages(record.id)).toEqual([pageRow.page]);
    expect(await store.getSkips(record.id)).toEqual([skipRow.skip]);
    expect(await store.getCheckpoint(record.id)).toEqual({ version: 1, fetched: ['a'] });
    expect(await store.getSearchIndex(record.id)).toBeUndefined();
    const index = { crawlId: record.id, version: 1, pages: 1, bytes: 10, data: '{}' };
    await store.putSearchIndex(index);
    expect(await store.getSearchIndex(record.id)).toEqual(index);
    store.close();
    const raw = await openDB(name);
    expect(raw.version).toBe(3);
    expect([...raw.objectStoreNames].sort()).toEqual(['checkpoints', 'crawls', 'pages', 'searchIndex', 'skips']);
    raw.close();
  });

  it('refuses a record written by a newer layout, and names what a damaged record lacks', () => {
    const [first] = fixture.stores.crawls as unknown as Parameters<typeof migrateRecord>[0][];
    expect(migrateRecord(first).version).toBe(2);
    expect(() => migrateRecord({ ...first, version: 3 })).toThrow(/newer version of Forager/);
    const { settings: _settings, ...noSettings } = first;
    expect(recordProblems(noSettings)).toEqual(['no settings']);
    expect(recordProblems({ ...first, seeds: undefined, topic: { keywords: ' ' } })).toEqual(['no topic', 'no seed list']);
  });
});

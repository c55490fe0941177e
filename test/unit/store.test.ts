import 'fake-indexeddb/auto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deleteDB, openDB } from 'idb';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore, type CrawlRecord, type CrawlStore } from '../../lib/app/store';
import { createIdbStore, DB_VERSION } from '../../lib/app/adapters/idb-store';
import { openFileStore } from '../../lib/app/adapters/file-store';
import type { CrawlCheckpoint, PageResult, SkipRecord } from '../../lib/engine/types';

let dbCounter = 0;
const freshName = (): string => `forager-test-${process.pid}-${++dbCounter}`;

function record(id: string, updatedAt: number, extra: Partial<CrawlRecord> = {}): CrawlRecord {
  return {
    version: 2,
    id,
    name: `Crawl ${id}`,
    topic: { keywords: 'solar panels', language: 'en' },
    seeds: ['https://example.com/a', 'https://example.org/b'],
    source: { kind: 'serp', engine: 'duckduckgo', query: 'solar panels' },
    settings: {
      strategy: 'best-n-first',
      params: { n: 16, greedy: false, label: 'x' },
      maxPages: 500,
      maxBuffer: 256,
      politenessDelayMs: 1000,
      stayOnSeedSites: false,
      seed: 42,
    },
    status: 'running',
    createdAt: 1_700_000_000_000,
    updatedAt,
    stats: {
      pagesEvaluated: 3,
      maxPages: 500,
      errors: 1,
      frontierSize: 20,
      fetchesInFlight: 2,
      elapsedMs: 1234,
      meanScore: 0.25,
    },
    ...extra,
  };
}

function page(url: string, score: number, extra: Partial<PageResult> = {}): PageResult {
  return {
    url,
    title: `Title of ${url}`,
    snippet: 'a snippet ünïcödé 🌞',
    score,
    depth: 1,
    from: 'https://example.com/a',
    fetchedAt: 1_700_000_100_000,
    isSeed: false,
    ...extra,
  };
}

function skip(url: string, at: number, extra: Partial<SkipRecord> = {}): SkipRecord {
  return { url, reason: 'http-error', detail: 'HTTP 404', at, ...extra };
}

function checkpoint(n: number): CrawlCheckpoint {
  return {
    version: 2,
    topic: { keywords: 'solar panels' },
    seeds: ['https://example.com/a'],
    strategy: {
      name: 'best-n-first',
      params: { n: 16 },
      seed: 7,
      state: { frontier: [['u', 0.3, null]], n, nested: { ok: true } },
    },
    limits: { maxPages: 500, maxBuffer: 256 },
    fetched: ['https://example.com/a', 'https://example.com/x'],
    inFlight: [{ url: 'https://example.com/y', score: 0.4, depth: 1, from: 'https://example.com/a' }],
    pagesEvaluated: n,
    errors: 1,
    scoreSum: 0.5 * n,
    elapsedMs: 999,
    linksRefused: { total: 2, byRule: { scheme: { count: 2, examples: [{ url: 'mailto:a@b.c', detail: 'scheme mailto:' }] } } },
  };
}

/** Deterministic PRNG (mulberry32) so the big paging test is reproducible. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Many pages with random scores, some tied (coarse rounding), unordered. */
function manyPages(count: number, seed = 1): PageResult[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => page(`https://site${i % 37}.example/page/${i}`, Math.round(r() * 200) / 200));
}

const opened: { close(): void }[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

const tmpRoot = mkdtempSync(path.join(tmpdir(), 'forager-store-test-'));
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));
let dirCounter = 0;
const freshDir = (): string => path.join(tmpRoot, `store-${++dirCounter}`);

/** Every CrawlStore backend, each run through the same contract below. */
const implementations: [string, () => Promise<CrawlStore>][] = [
  ['memory', async () => createMemoryStore()],
  [
    'idb',
    async () => {
      const s = createIdbStore(freshName());
      opened.push(s);
      return s;
    },
  ],
  [
    'file',
    async () => {
      const s = await openFileStore(freshDir());
      opened.push(s);
      return s;
    },
  ],
];

describe.each(implementations)('CrawlStore contract: %s', (_name, make) => {
  it('puts and gets a crawl, as a copy both ways', async () => {
    const store = await make();
    const r = record('c1', 10);
    await store.putCrawl(r);
    r.name = 'changed after put';
    r.stats.errors = 99;
    const got = await store.getCrawl('c1');
    expect(got).toEqual(record('c1', 10));
    got!.topic.keywords = 'mutated';
    expect((await store.getCrawl('c1'))!.topic.keywords).toBe('solar panels');
    expect(await store.getCrawl('nope')).toBeUndefined();
  });

  it('lists crawls newest first and replaces a crawl put twice', async () => {
    const store = await make();
    await store.putCrawl(record('old', 100));
    await store.putCrawl(record('new', 300));
    await store.putCrawl(record('mid', 200));
    await store.putCrawl(record('old', 50, { name: 'replaced' }));
    const list = await store.listCrawls();
    expect(list.map((c) => c.id)).toEqual(['new', 'mid', 'old']);
    expect(list[2].name).toBe('replaced');
    expect(list).toHaveLength(3);
  });

  it('updates a crawl by merging, keeps the id, and reorders the list', async () => {
    const store = await make();
    await store.putCrawl(record('a', 1));
    await store.putCrawl(record('b', 2));
    const patch = { status: 'error' as const, error: 'boom', updatedAt: 5, id: 'hijack' } as Partial<CrawlRecord>;
    const updated = await store.updateCrawl('a', patch);
    expect(updated).toEqual({ ...record('a', 5), status: 'error', error: 'boom' });
    expect(await store.getCrawl('a')).toEqual(updated);
    expect(await store.getCrawl('hijack')).toBeUndefined();
    expect((await store.listCrawls()).map((c) => c.id)).toEqual(['a', 'b']);
    expect(await store.updateCrawl('missing', { status: 'done' })).toBeUndefined();
    expect(await store.getCrawl('missing')).toBeUndefined();
    // A patch that would make the record unindexable is refused and leaves it as it was.
    await expect(store.updateCrawl('a', { updatedAt: NaN })).rejects.toThrow(/updatedAt/);
    expect((await store.getCrawl('a'))!.updatedAt).toBe(5);
  });

  it('deletes pages by URL, of one crawl only, ignoring URLs it does not hold', async () => {
    const store = await make();
    await store.putCrawl(record('a', 1));
    await store.putCrawl(record('b', 2));
    await store.addPages('a', [page('https://x/1', 0.9), page('https://x/2', 0.5), page('https://x/3', 0.1)]);
    await store.addPages('b', [page('https://x/2', 0.5)]);
    await store.deletePages('a', ['https://x/2', 'https://x/none']);
    expect((await store.getPages('a')).map((p) => p.url)).toEqual(['https://x/1', 'https://x/3']);
    expect(await store.countPages('a')).toBe(2);
    expect((await store.getPages('b')).map((p) => p.url)).toEqual(['https://x/2']);
    await store.deletePages('none', ['https://x/1']);
    await expect(store.deletePages('a', [''])).rejects.toThrow(/URL #0/);
    // Added again after its deletion, a page is stored again.
    await store.addPages('a', [page('https://x/2', 0.4)]);
    expect(await store.countPages('a')).toBe(3);
  });

  it('deletes a crawl with its pages, skips and checkpoint, and nothing of other crawls', async () => {
    const store = await make();
    // 'c1' is a prefix of 'c10': key ranges must not leak between them.
    for (const id of ['c1', 'c10']) {
      await store.putCrawl(record(id, 1));
      await store.addPages(id, [page('https://e.com/1', 0.1), page('https://e.com/2', 0.2)]);
      await store.addSkips(id, [skip('https://e.com/s', 1)]);
      await store.saveCheckpoint(id, checkpoint(1));
    }
    await store.deleteCrawl('c1');
    expect(await store.getCrawl('c1')).toBeUndefined();
    expect(await store.getPages('c1')).toEqual([]);
    expect(await store.countPages('c1')).toBe(0);
    expect(await store.getSkips('c1')).toEqual([]);
    expect(await store.getCheckpoint('c1')).toBeUndefined();
    expect(await store.getCrawl('c10')).toBeDefined();
    expect(await store.countPages('c10')).toBe(2);
    expect(await store.getSkips('c10')).toHaveLength(1);
    expect(await store.getCheckpoint('c10')).toEqual(checkpoint(1));
    await store.deleteCrawl('never-existed'); // no error
  });

  it('deletes everything at once: no crawl, page, skip or checkpoint is left, and the store works on', async () => {
    const store = await make();
    for (const id of ['a', 'b']) {
      await store.putCrawl(record(id, 1));
      await store.addPages(id, [page(`https://e.com/${id}`, 0.5)]);
      await store.addSkips(id, [skip(`https://e.com/s${id}`, 1)]);
      await store.saveCheckpoint(id, checkpoint(1));
      await store.putSearchIndex({ crawlId: id, version: 1, pages: 1, bytes: 1, data: '{}' });
    }
    await store.deleteAll();
    expect(await store.listCrawls()).toEqual([]);
    for (const id of ['a', 'b']) {
      expect(await store.getSearchIndex(id)).toBeUndefined();
      expect(await store.countPages(id)).toBe(0);
      expect(await store.getSkips(id)).toEqual([]);
      expect(await store.getCheckpoint(id)).toBeUndefined();
    }
    await store.deleteAll(); // nothing to delete: no error
    await store.putCrawl(record('c', 2));
    expect((await store.listCrawls()).map((c) => c.id)).toEqual(['c']);
  });

  it('keys pages by URL: the same page twice keeps one copy, the later one', async () => {
    const store = await make();
    await store.addPages('c', [page('https://e.com/x', 0.1, { title: 'first' })]);
    await store.addPages('c', [page('https://e.com/x', 0.9, { title: 'second' }), page('https://e.com/y', 0.5)]);
    // Within one call too.
    await store.addPages('c', [page('https://e.com/z', 0.3, { title: 'z1' }), page('https://e.com/z', 0.2, { title: 'z2' })]);
    expect(await store.countPages('c')).toBe(3);
    const pages = await store.getPages('c');
    expect(pages.map((p) => [p.url, p.title])).toEqual([
      ['https://e.com/x', 'second'],
      ['https://e.com/y', 'Title of https://e.com/y'],
      ['https://e.com/z', 'z2'],
    ]);
    expect(pages[0]).toEqual(page('https://e.com/x', 0.9, { title: 'second' }));
  });

  it('pages thousands of pages best first with offset and limit', async () => {
    const store = await make();
    const all = manyPages(2000);
    await store.addPages('big', all);
    await store.addPages('other', manyPages(50, 2));
    expect(await store.countPages('big')).toBe(2000);

    const whole = await store.getPages('big');
    expect(whole).toHaveLength(2000);
    for (let i = 1; i < whole.length; i++) expect(whole[i - 1].score).toBeGreaterThanOrEqual(whole[i].score);
    const byUrl = (a: PageResult, b: PageResult): number => (a.url < b.url ? -1 : 1);
    expect([...whole].sort(byUrl)).toEqual([...all].sort(byUrl));

    // Cursor-paged windows (fake-indexeddb walks a ranged cursor in O(n) per step, so a handful, not a full walk).
    const first = await store.getPages('big', { offset: 0, limit: 100 });
    const second = await store.getPages('big', { offset: 100, limit: 100 });
    expect([...first, ...second]).toEqual(whole.slice(0, 200));
    expect(await store.getPages('big', { offset: 950, limit: 100 })).toEqual(whole.slice(950, 1050));
    expect(await store.getPages('big', { offset: 1900, limit: 250 })).toEqual(whole.slice(1900));
    expect(await store.getPages('big', { offset: 2000, limit: 10 })).toEqual([]);
    expect(await store.getPages('big', { offset: 2000 })).toEqual([]);
    expect(await store.getPages('big', { offset: 10, limit: 0 })).toEqual([]);
    expect(await store.getPages('big', { offset: -5, limit: 3 })).toEqual(whole.slice(0, 3));
    expect(await store.getPages('big', { offset: 1993 })).toEqual(whole.slice(1993));
    expect(await store.getPages('nothing-here', { limit: 10 })).toEqual([]);
  }, 120_000); // fake-indexeddb is slow here and machines are shared

  it('stores skips per URL, oldest first', async () => {
    const store = await make();
    await store.addSkips('c', [
      skip('https://e.com/b', 20),
      skip('https://e.com/a', 10, { reason: 'robots', detail: 'disallowed' }),
    ]);
    await store.addSkips('c', [skip('https://e.com/b', 30, { reason: 'timeout', detail: 'timeout after 10000 ms' })]);
    await store.addSkips('d', [skip('https://e.com/a', 1)]);
    expect(await store.getSkips('c')).toEqual([
      skip('https://e.com/a', 10, { reason: 'robots', detail: 'disallowed' }),
      skip('https://e.com/b', 30, { reason: 'timeout', detail: 'timeout after 10000 ms' }),
    ]);
    expect(await store.getSkips('d')).toEqual([skip('https://e.com/a', 1)]);
    expect(await store.getSkips('none')).toEqual([]);
  });

  it('round-trips checkpoints and keeps only the latest per crawl', async () => {
    const store = await make();
    expect(await store.getCheckpoint('c')).toBeUndefined();
    await store.saveCheckpoint('c', checkpoint(1));
    expect(await store.getCheckpoint('c')).toEqual(checkpoint(1));
    await store.saveCheckpoint('c', checkpoint(2));
    await store.saveCheckpoint('other', checkpoint(3));
    expect(await store.getCheckpoint('c')).toEqual(checkpoint(2));
    expect(await store.getCheckpoint('other')).toEqual(checkpoint(3));
  });

  it('saves progress (pages, skips, checkpoint, record patch) in one write', async () => {
    const store = await make();
    await store.putCrawl(record('c', 10));
    const cp = checkpoint(4);
    await store.saveProgress('c', {
      pages: [page('https://e.com/1', 0.1), page('https://e.com/2', 0.2)],
      skips: [skip('https://e.com/s', 1)],
      checkpoint: cp,
      patch: { updatedAt: 20, name: 'renamed' },
    });
    expect((await store.getPages('c')).map((p) => p.url)).toEqual(['https://e.com/2', 'https://e.com/1']);
    expect((await store.getSkips('c')).map((x) => x.url)).toEqual(['https://e.com/s']);
    expect(await store.getCheckpoint('c')).toEqual(checkpoint(4));
    expect(await store.getCrawl('c')).toEqual({ ...record('c', 20), name: 'renamed' });
    // Copies: changing the inputs afterwards changes nothing stored.
    cp.pagesEvaluated = 99;
    expect((await store.getCheckpoint('c'))?.pagesEvaluated).toBe(4);
    // Pages keyed by URL (the newer wins), checkpoint replaced, no patch: the record stays.
    await store.saveProgress('c', {
      pages: [page('https://e.com/1', 0.9, { title: 'again' })],
      skips: [],
      checkpoint: checkpoint(5),
    });
    expect(await store.countPages('c')).toBe(2);
    expect((await store.getPages('c'))[0].title).toBe('again');
    expect((await store.getCheckpoint('c'))?.pagesEvaluated).toBe(5);
    expect((await store.getCrawl('c'))?.updatedAt).toBe(20);
    // An unknown crawl: its pages and checkpoint are kept, no record appears.
    await store.saveProgress('ghost', {
      pages: [page('https://e.com/g', 0.5)],
      skips: [],
      checkpoint: checkpoint(1),
      patch: { updatedAt: 5 },
    });
    expect(await store.countPages('ghost')).toBe(1);
    expect(await store.getCrawl('ghost')).toBeUndefined();
  });

  it('writes nothing of a progress save that has a bad part', async () => {
    const store = await make();
    await store.putCrawl(record('c', 10));
    const good = { pages: [page('https://e.com/ok', 0.5)], skips: [skip('https://e.com/s', 1)], checkpoint: checkpoint(1) };
    await expect(
      store.saveProgress('c', { ...good, pages: [page('https://e.com/ok', 0.5), page('https://e.com/bad', NaN)] }),
    ).rejects.toThrow(/non-finite score/);
    await expect(store.saveProgress('c', { ...good, skips: [skip('https://e.com/s', NaN)] })).rejects.toThrow(/non-finite time/);
    await expect(store.saveProgress('c', { ...good, checkpoint: 'junk' as unknown as CrawlCheckpoint })).rejects.toThrow(
      /checkpoint/,
    );
    await expect(store.saveProgress('c', { ...good, patch: { updatedAt: NaN } })).rejects.toThrow(/updatedAt/);
    const uncloneable = { ...checkpoint(2), extra: () => 1 } as unknown as CrawlCheckpoint;
    await expect(store.saveProgress('c', { ...good, checkpoint: uncloneable })).rejects.toThrow();
    expect(await store.countPages('c')).toBe(0);
    expect(await store.getSkips('c')).toEqual([]);
    expect(await store.getCheckpoint('c')).toBeUndefined();
    expect(await store.getCrawl('c')).toEqual(record('c', 10));
  });

  it('keeps crawls isolated from each other', async () => {
    const store = await make();
    await store.addPages('a', [page('https://e.com/same', 0.9, { title: 'in a' })]);
    await store.addPages('b', [page('https://e.com/same', 0.1, { title: 'in b' })]);
    expect((await store.getPages('a'))[0].title).toBe('in a');
    expect((await store.getPages('b'))[0].title).toBe('in b');
    await store.deleteCrawl('a');
    expect(await store.getPages('b')).toHaveLength(1);
  });

  it('applies concurrent addPages calls completely, in call order', async () => {
    const store = await make();
    const calls = Array.from({ length: 20 }, (_, c) =>
      store.addPages('c', [
        ...Array.from({ length: 50 }, (_, i) => page(`https://e.com/${c}/${i}`, (i % 10) / 10)),
        page('https://e.com/shared', 0.5, { title: `call ${c}` }),
      ]),
    );
    await Promise.all(calls);
    expect(await store.countPages('c')).toBe(20 * 50 + 1);
    const shared = (await store.getPages('c')).find((p) => p.url === 'https://e.com/shared');
    expect(shared?.title).toBe('call 19');
  });

  it('refuses hostile input with a clear error and writes nothing of the batch', async () => {
    const store = await make();
    await expect(store.addPages('c', [page('https://e.com/ok', 0.5), page('https://e.com/bad', NaN)])).rejects.toThrow(
      /non-finite score/,
    );
    await expect(store.addPages('c', [page('', 0.5)])).rejects.toThrow(/no URL/);
    await expect(store.addPages('', [page('https://e.com/ok', 0.5)])).rejects.toThrow(/crawl id/);
    await expect(store.addSkips('c', [skip('https://e.com/s', Number.POSITIVE_INFINITY)])).rejects.toThrow(/non-finite time/);
    await expect(store.putCrawl(record('', 1))).rejects.toThrow(/crawl id/);
    await expect(store.putCrawl(record('x', NaN))).rejects.toThrow(/updatedAt/);
    // Uncloneable values (a function) fail like structured clone does, and the earlier pages of the batch are not kept.
    const uncloneable = { ...page('https://e.com/fn', 0.2), extra: () => 1 } as unknown as PageResult;
    await expect(store.addPages('c', [page('https://e.com/first', 0.1), uncloneable])).rejects.toThrow();
    expect(await store.countPages('c')).toBe(0);
    expect(await store.listCrawls()).toEqual([]);
  });

  it('reads skips window by window, oldest first, and counts them', async () => {
    const store = await make();
    const many = Array.from({ length: 300 }, (_, i) => skip(`https://e.com/s${i}`, 1000 - (i % 100), { detail: `d${i}` }));
    await store.addSkips('c', many);
    await store.addSkips('other', [skip('https://e.com/o', 1)]);
    expect(await store.countSkips('c')).toBe(300);
    const whole = await store.getSkips('c');
    expect(whole).toHaveLength(300);
    const windows: SkipRecord[] = [];
    for (let offset = 0; ; offset += 128) {
      const w = await store.getSkips('c', { offset, limit: 128 });
      windows.push(...w);
      if (w.length < 128) break;
    }
    expect(windows).toEqual(whole);
    expect(await store.getSkips('c', { offset: 299, limit: 5 })).toEqual(whole.slice(299));
    expect(await store.getSkips('c', { limit: 0 })).toEqual([]);
    expect(await store.countSkips('none')).toBe(0);
  });

  it('deletes the checkpoint when a progress save says null (a finished crawl keeps none)', async () => {
    const store = await make();
    await store.putCrawl(record('c', 10));
    await store.saveProgress('c', { pages: [page('https://e.com/1', 0.1)], skips: [], checkpoint: checkpoint(1) });
    expect(await store.getCheckpoint('c')).toEqual(checkpoint(1));
    await store.saveProgress('c', {
      pages: [page('https://e.com/2', 0.2)],
      skips: [],
      checkpoint: null,
      patch: { status: 'done', updatedAt: 11 },
    });
    expect(await store.getCheckpoint('c')).toBeUndefined();
    expect(await store.countPages('c')).toBe(2);
    expect((await store.getCrawl('c'))?.status).toBe('done');
  });

  it('keeps one search index per crawl, replaced on put, deleted with its crawl, never for an unknown crawl', async () => {
    const store = await make();
    await store.putCrawl(record('c1', 1));
    await store.putCrawl(record('c10', 2));
    const index = (crawlId: string, pages: number) => ({
      crawlId,
      version: 1,
      pages,
      bytes: pages * 100,
      data: `{"n":${pages}}`,
    });
    expect(await store.getSearchIndex('c1')).toBeUndefined();
    await store.putSearchIndex(index('c1', 1));
    await store.putSearchIndex(index('c1', 2));
    await store.putSearchIndex(index('c10', 5));
    expect(await store.getSearchIndex('c1')).toEqual(index('c1', 2));
    await store.putSearchIndex(index('gone', 3)); // a crawl deleted before its index was written: nothing kept
    expect(await store.getSearchIndex('gone')).toBeUndefined();
    await expect(store.putSearchIndex({ ...index('c1', 1), data: 5 as unknown as string })).rejects.toThrow(/data/);
    await expect(store.putSearchIndex({ ...index('c1', 1), pages: Number.NaN })).rejects.toThrow(/pages/);
    expect(await store.getSearchIndex('c1')).toEqual(index('c1', 2));
    await store.deleteCrawl('c1');
    expect(await store.getSearchIndex('c1')).toBeUndefined();
    expect(await store.getSearchIndex('c10')).toEqual(index('c10', 5));
  });

  it('keeps a crawl’s pin through updates', async () => {
    const store = await make();
    await store.putCrawl(record('p', 1));
    expect((await store.updateCrawl('p', { pinned: true }))?.pinned).toBe(true);
    expect((await store.getCrawl('p'))?.pinned).toBe(true);
    await store.updateCrawl('p', { updatedAt: 2 });
    expect((await store.getCrawl('p'))?.pinned).toBe(true);
  });

  it("keeps judgements, hidden sites, page profiles and a checkpoint's judgements through updates and progress saves", async () => {
    const store = await make();
    await store.putCrawl(record('j', 1));
    const judgements = [{ url: 'https://e.com/1', value: 1 as const, terms: { solar: 3, panel: 1 }, at: 5 }];
    await store.updateCrawl('j', { judgements, hiddenSites: ['https://spam.example'] });
    const profiled = { ...page('https://e.com/1', 0.4), profile: { terms: { solar: 3, panel: 1 }, cosine: 0.5 } };
    const cp = { ...checkpoint(2), judgements };
    await store.saveProgress('j', { pages: [profiled], skips: [], checkpoint: cp, patch: { updatedAt: 9 } });
    const got = await store.getCrawl('j');
    expect(got?.judgements).toEqual(judgements);
    expect(got?.hiddenSites).toEqual(['https://spam.example']);
    expect((await store.getPages('j'))[0].profile).toEqual(profiled.profile);
    expect((await store.getCheckpoint('j'))?.judgements).toEqual(judgements);
    expect((await store.updateCrawl('j', { judgements: [] }))?.judgements).toEqual([]);
  });

  it('returns copies of pages, not live objects', async () => {
    const store = await make();
    const p = page('https://e.com/x', 0.5);
    await store.addPages('c', [p]);
    p.title = 'mutated input';
    const [got] = await store.getPages('c');
    got.title = 'mutated output';
    expect((await store.getPages('c'))[0].title).toBe('Title of https://e.com/x');
  });
});

describe('the implementations agree exactly', () => {
  it('gives identical answers to the same operations (including tie order)', async () => {
    const mem = createMemoryStore();
    const idb = createIdbStore(freshName());
    opened.push(idb);
    const file = await openFileStore(freshDir());
    opened.push(file);
    const tied = Array.from({ length: 40 }, (_, i) => page(`https://e.com/t${i % 7}-${i}`, i % 3 === 0 ? 0.5 : 0.25));
    for (const s of [mem, idb, file]) {
      await s.putCrawl(record('b', 5));
      await s.putCrawl(record('a', 5));
      await s.putCrawl(record('c', 9));
      await s.addPages('a', tied);
      await s.addPages('a', manyPages(300, 9));
      await s.addSkips('a', [skip('https://z.com', 1), skip('https://y.com', 1), skip('https://x.com', 0)]);
      await s.updateCrawl('b', { updatedAt: 9 });
    }
    expect(await idb.listCrawls()).toEqual(await mem.listCrawls());
    expect(await idb.getPages('a')).toEqual(await mem.getPages('a'));
    expect(await idb.getPages('a', { offset: 13, limit: 17 })).toEqual(await mem.getPages('a', { offset: 13, limit: 17 }));
    // A window near the end (read forwards from the worst page by the IndexedDB store) with ties in it.
    expect(await idb.getPages('a', { offset: 300, limit: 30 })).toEqual(await mem.getPages('a', { offset: 300, limit: 30 }));
    expect(await idb.getPages('a', { offset: 330, limit: 30 })).toEqual(await mem.getPages('a', { offset: 330, limit: 30 }));
    expect(await idb.getSkips('a')).toEqual(await mem.getSkips('a'));
    for (const [name, other] of [
      ['file', file],
      ['idb', idb],
    ] as const) {
      expect(await other.listCrawls(), name).toEqual(await mem.listCrawls());
      expect(await other.getPages('a', { offset: 330, limit: 30 }), name).toEqual(
        await mem.getPages('a', { offset: 330, limit: 30 }),
      );
      expect(await other.getSkips('a', { offset: 1, limit: 5 }), name).toEqual(await mem.getSkips('a', { offset: 1, limit: 5 }));
    }
  });
});

/** The persistent backends: a store opened again on the same place finds everything. */
const persistent: [string, () => { open(): Promise<CrawlStore & { close(): void }> }][] = [
  [
    'idb',
    () => {
      const name = freshName();
      return { open: async () => createIdbStore(name) };
    },
  ],
  [
    'file',
    () => {
      const dir = freshDir();
      return { open: () => openFileStore(dir) };
    },
  ],
];

describe.each(persistent)('persistent store: %s', (_name, place) => {
  it('keeps everything across reopening (a new store on the same place)', async () => {
    const where = place();
    const first = await where.open();
    await first.putCrawl(record('keep', 7));
    await first.addPages('keep', manyPages(120, 3));
    await first.addSkips('keep', [skip('https://e.com/s', 4)]);
    await first.saveProgress('keep', {
      pages: [page('https://e.com/late', 0.01)],
      skips: [skip('https://e.com/s2', 5)],
      checkpoint: checkpoint(4),
      patch: { name: 'kept', updatedAt: 8 },
    });
    await first.putSearchIndex({ crawlId: 'keep', version: 1, pages: 121, bytes: 9000, data: '{"index":true}' });
    await first.putCrawl(record('gone', 9));
    await first.deleteCrawl('gone');
    await first.addPages('keep', [page('https://e.com/dropped', 0.5)]);
    await first.deletePages('keep', ['https://e.com/dropped']);
    first.close();

    const second = await where.open();
    opened.push(second);
    expect(await second.getCrawl('keep')).toEqual({ ...record('keep', 8), name: 'kept' });
    expect(await second.countPages('keep')).toBe(121);
    expect((await second.getPages('keep')).some((p) => p.url === 'https://e.com/dropped')).toBe(false);
    expect((await second.getPages('keep', { limit: 1 }))[0].score).toBe(Math.max(...manyPages(120, 3).map((p) => p.score)));
    expect(await second.getSkips('keep')).toEqual([skip('https://e.com/s', 4), skip('https://e.com/s2', 5)]);
    expect(await second.getCheckpoint('keep')).toEqual(checkpoint(4));
    expect(await second.getSearchIndex('keep')).toEqual({
      crawlId: 'keep',
      version: 1,
      pages: 121,
      bytes: 9000,
      data: '{"index":true}',
    });
    expect((await second.listCrawls()).map((c) => c.id)).toEqual(['keep']);
  });

  it('deleteAll leaves nothing to find on reopening', async () => {
    const where = place();
    const first = await where.open();
    for (const id of ['a', 'b']) {
      await first.putCrawl(record(id, 1));
      await first.addPages(id, manyPages(5, 1));
      await first.addSkips(id, [skip(`https://e.com/s${id}`, 1)]);
      await first.saveCheckpoint(id, checkpoint(1));
    }
    await first.deleteAll();
    first.close();

    const second = await where.open();
    opened.push(second);
    expect(await second.listCrawls()).toEqual([]);
    for (const id of ['a', 'b']) {
      expect(await second.countPages(id)).toBe(0);
      expect(await second.getSkips(id)).toEqual([]);
      expect(await second.getCheckpoint(id)).toBeUndefined();
    }
  });
});

describe('IndexedDB store specifics', () => {
  it('reopens by itself when used after close()', async () => {
    const name = freshName();
    const first = createIdbStore(name);
    await first.addPages('keep', manyPages(12, 3));
    first.close();
    expect(await first.countPages('keep')).toBe(12);
    first.close();
  });

  it('steps aside when another context deletes the database, then reopens', async () => {
    const name = freshName();
    const store = createIdbStore(name);
    opened.push(store);
    await store.putCrawl(record('x', 1));
    // Blocked (and hanging forever) if the store kept its connection open.
    await new Promise<void>((resolve, reject) => {
      deleteDB(name, { blocked: () => reject(new Error('delete blocked by the store')) }).then(resolve, reject);
    });
    expect(await store.getCrawl('x')).toBeUndefined();
    await store.putCrawl(record('y', 2));
    expect((await store.listCrawls()).map((c) => c.id)).toEqual(['y']);
  });

  it('explains a database upgraded by a newer version instead of failing obscurely', async () => {
    const name = freshName();
    const store = createIdbStore(name);
    opened.push(store);
    await store.putCrawl(record('x', 1));
    // The store's connection must close for this upgrade to go through.
    const newer = await new Promise<Awaited<ReturnType<typeof openDB>>>((resolve, reject) => {
      openDB(name, DB_VERSION + 1, { blocked: () => reject(new Error('upgrade blocked by the store')) }).then(resolve, reject);
    });
    newer.close();
    await expect(store.getCrawl('x')).rejects.toThrow(/newer version of Forager/);
  });

  it('turns a quota error into a clear message and keeps nothing of the batch', async () => {
    const store = createIdbStore(freshName());
    opened.push(store);
    const realPut = IDBObjectStore.prototype.put;
    let calls = 0;
    const spy = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (++calls === 3) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return realPut.apply(this, args as [unknown, IDBValidKey?]);
    });
    try {
      const err = await store.addPages('c', manyPages(10)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/Storage is full/);
      expect(((err as Error).cause as DOMException).name).toBe('QuotaExceededError');
    } finally {
      spy.mockRestore();
    }
    expect(await store.countPages('c')).toBe(0);
    await store.addPages('c', manyPages(10));
    expect(await store.countPages('c')).toBe(10);
  });
});

describe('file store specifics', () => {
  it('refuses a directory that is not a crawl store, and one of a newer layout', async () => {
    const dir = freshDir();
    const other = await openFileStore(dir); // creates it
    other.close();
    writeFileSync(path.join(dir, 'forager-store.json'), JSON.stringify({ format: 'something-else' }));
    await expect(openFileStore(dir)).rejects.toThrow(/not a Forager crawl store/);
    writeFileSync(path.join(dir, 'forager-store.json'), JSON.stringify({ format: 'forager-store', version: 99 }));
    await expect(openFileStore(dir)).rejects.toThrow(/newer version of Forager/);
    // A directory holding other files and no marker is not taken over.
    const plain = path.join(tmpRoot, `plain-${++dirCounter}`);
    await openFileStore(path.join(plain, 'sub')).then((s) => s.close());
    await expect(openFileStore(plain)).rejects.toThrow(/not a Forager crawl store \(it holds other files\)/);
  });

  it('is used by one process at a time; a lock left by a dead process is taken over', async () => {
    const dir = freshDir();
    const store = await openFileStore(dir);
    store.close();
    writeFileSync(path.join(dir, 'lock'), String(process.ppid)); // a live process that is not this one
    await expect(openFileStore(dir)).rejects.toThrow(new RegExp(`in use by process ${process.ppid}`));
    writeFileSync(path.join(dir, 'lock'), '4194000'); // above Linux's pid_max default: no such process
    const again = await openFileStore(dir);
    expect(readFileSync(path.join(dir, 'lock'), 'utf8')).toBe(String(process.pid));
    again.close();
  });

  it('drops a line cut short by a kill, and appends cleanly after it', async () => {
    const dir = freshDir();
    const store = await openFileStore(dir);
    await store.putCrawl(record('c', 1));
    await store.addPages('c', [page('https://e.com/1', 0.1), page('https://e.com/2', 0.2)]);
    store.close();
    const crawlDir = path.join(dir, 'crawls');
    const [name] = readdirSync(crawlDir);
    appendFileSync(path.join(crawlDir, name, 'pages.jsonl'), '{"url":"https://e.com/torn","ti');
    const reopened = await openFileStore(dir);
    expect((await reopened.getPages('c')).map((p) => p.url)).toEqual(['https://e.com/2', 'https://e.com/1']);
    await reopened.addPages('c', [page('https://e.com/3', 0.3)]);
    reopened.close();
    const third = await openFileStore(dir);
    opened.push(third);
    expect(await third.countPages('c')).toBe(3);
  });
});

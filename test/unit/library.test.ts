import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { type BackgroundParts, createBackgroundApp } from '../../lib/app/background/background-app';
import { toJson } from '../../lib/app/export';
import { nodeBackgroundParts } from '../../harness/background-parts';
import {
  crawlsToDelete,
  INDEX_VERSION,
  Library,
  MAX_IMPORT_BYTES,
  memoryRetention,
  parseCrawlExport,
  type RetainedCrawl,
} from '../../lib/app/library';
import type { CrawlRecord, CrawlStore } from '../../lib/app/store';
import { createIdbStore } from '../../lib/app/adapters/idb-store';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import type { FetchOutcome, PageFetcher, PageResult } from '../../lib/engine/types';

const EXT = 'ext-id';
const OWN = 'chrome-extension://ext-id/';
const own = { id: EXT, url: `${OWN}results.html` };

/** Ten linked pages; page n's main text holds the made-up word `zorblatt<n>` and its nav the word `navonly`. */
function fetcher(): PageFetcher {
  return {
    async fetch(url): Promise<FetchOutcome> {
      const n = Number(new URL(url).pathname.slice(2)) || 0;
      const html = `<title>Coffee ${n}</title><nav>navonly menu</nav><main><p>Coffee brewing notes: zorblatt${n} and espresso.</p></main>
        <a href="/p${(n + 1) % 10}">next</a> <a href="/p${(n + 3) % 10}">jump</a>`;
      const body = new TextEncoder().encode(html);
      return { ok: true, url, finalUrl: url, status: 200, contentType: 'text/html', body, truncated: false, elapsedMs: 1 };
    },
  };
}

function parts(store: CrawlStore, extra: Partial<BackgroundParts> = {}): BackgroundParts {
  return {
    ...nodeBackgroundParts(store, { extensionId: EXT, ownPagePrefix: OWN }),
    makeFetcher: () => fetcher(),
    liveIntervalMs: 1,
    onError: (e) => {
      throw e;
    },
    ...extra,
  };
}

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function ask<T>(app: ReturnType<typeof createBackgroundApp>, message: Record<string, unknown>): Promise<T> {
  const reply = await app.onMessage(message, own);
  if (!reply?.ok) throw new Error(`request failed: ${JSON.stringify(reply)}`);
  return reply.value as T;
}

async function crawlTo(app: ReturnType<typeof createBackgroundApp>, topic = 'coffee brewing'): Promise<CrawlRecord> {
  const record = await ask<CrawlRecord>(app, {
    type: 'forager/start',
    start: {
      topic,
      seeds: ['https://cafe.example/p0'],
      source: { kind: 'manual' },
      settings: { maxPages: 10, politenessDelayMs: 0 },
    },
  });
  await app.runner.whenIdle();
  return record;
}

function page(url: string, extra: Partial<PageResult> = {}): PageResult {
  return { url, title: `Title ${url}`, snippet: 'snippet', score: 0.5, depth: 1, fetchedAt: 1000, isSeed: false, ...extra };
}

function record(id: string, createdAt: number, extra: Partial<CrawlRecord> = {}): CrawlRecord {
  return {
    version: 2,
    id,
    name: `Crawl ${id}`,
    topic: { keywords: 'coffee brewing', language: 'en', context: ['Coffee brewing guide'] },
    seeds: ['https://cafe.example/p0'],
    source: { kind: 'serp', engine: 'duckduckgo', query: 'coffee brewing' },
    settings: {
      strategy: 'best-n-first',
      params: { n: 16 },
      maxPages: 10,
      maxBuffer: 256,
      politenessDelayMs: 0,
      stayOnSeedSites: false,
      seed: 1,
    },
    status: 'done',
    createdAt,
    updatedAt: createdAt + 5,
    stats: { pagesEvaluated: 2, maxPages: 10, errors: 0, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 10, meanScore: 0.4 },
    ...extra,
  };
}

describe('library search', () => {
  it('finds a page by a word of its main text once its run stored it, and not by a word of its navigation', async () => {
    const app = createBackgroundApp(parts(createMemoryStore()));
    const crawl = await crawlTo(app);
    const hits = await ask<{ url: string; crawlId: string; title: string }[]>(app, {
      type: 'forager/search',
      query: 'zorblatt7',
    });
    expect(hits.map((h) => [h.url, h.crawlId, h.title])).toEqual([['https://cafe.example/p7', crawl.id, 'Coffee 7']]);
    expect(await ask(app, { type: 'forager/search', query: 'navonly' })).toEqual([]);
    // Every word must occur; the last may be the start of a word.
    expect((await ask<unknown[]>(app, { type: 'forager/search', query: 'espresso zorbl' })).length).toBe(10);
    expect(await ask(app, { type: 'forager/search', query: 'espresso zorblatt7 tea' })).toEqual([]);
    expect(await ask(app, { type: 'forager/search', query: '   ' })).toEqual([]);
    expect((await ask<unknown[]>(app, { type: 'forager/search', query: 'espresso', limit: 3 })).length).toBe(3);
  });

  it('searches every crawl, and forgets a deleted crawl’s pages', async () => {
    const app = createBackgroundApp(parts(createMemoryStore()));
    const first = await crawlTo(app, 'coffee brewing');
    const second = await crawlTo(app, 'espresso');
    const crawlsOf = async (q: string) =>
      new Set((await ask<{ crawlId: string }[]>(app, { type: 'forager/search', query: q })).map((h) => h.crawlId));
    expect(await crawlsOf('zorblatt3')).toEqual(new Set([first.id, second.id]));
    await ask(app, { type: 'forager/delete', id: first.id });
    expect(await crawlsOf('zorblatt3')).toEqual(new Set([second.id]));
    await ask(app, { type: 'forager/deleteAll' });
    expect(await crawlsOf('zorblatt3')).toEqual(new Set());
  });

  it('survives a service-worker stop: a new background loads the stored index instead of reading the pages again', async () => {
    const name = `forager-library-${process.pid}-1`;
    const first = createBackgroundApp(parts(createIdbStore(name)));
    const crawl = await crawlTo(first);
    await first.library.flush();
    const stored = await createIdbStore(name).getSearchIndex(crawl.id);
    expect(stored).toMatchObject({ crawlId: crawl.id, version: INDEX_VERSION, pages: 10 });

    const store = createIdbStore(name);
    const getPages = vi.spyOn(store, 'getPages');
    const second = createBackgroundApp(parts(store));
    const hits = await ask<{ url: string }[]>(second, { type: 'forager/search', query: 'zorblatt4' });
    expect(hits.map((h) => h.url)).toEqual(['https://cafe.example/p4']);
    expect(getPages).not.toHaveBeenCalled();
  });

  it('completes a stored index that is behind its crawl (the worker died before it was saved), and rebuilds a damaged one', async () => {
    const store = createMemoryStore();
    await store.putCrawl(record('behind', 1));
    await store.putCrawl(record('damaged', 2));
    await store.addPages('behind', [page('https://a.example/1', { mainText: 'alpha quasar' })]);
    const library = new Library({ store, saveDelayMs: 0 });
    await library.add('behind', [page('https://a.example/1', { mainText: 'alpha quasar' })]);
    await library.flush();
    // Stored afterwards without the library seeing it: the index is one page behind.
    await store.addPages('behind', [page('https://a.example/2', { mainText: 'beta quasar' })]);
    await store.addPages('damaged', [page('https://d.example/1', { mainText: 'gamma quasar' })]);
    await store.putSearchIndex({ crawlId: 'damaged', version: INDEX_VERSION, pages: 1, bytes: 1, data: '{"not":"an index"' });

    const reloaded = new Library({ store, saveDelayMs: 0 });
    const urls = (await reloaded.search('quasar')).map((h) => h.url).sort();
    expect(urls).toEqual(['https://a.example/1', 'https://a.example/2', 'https://d.example/1']);
    await reloaded.flush();
    expect((await store.getSearchIndex('behind'))?.pages).toBe(2);
    expect((await store.getSearchIndex('damaged'))?.pages).toBe(1);
  });

  it('loads only the crawl a run adds to; a search loads every crawl', async () => {
    const store = createMemoryStore();
    for (const id of ['a', 'b', 'c']) {
      await store.putCrawl(record(id, 1));
      await store.addPages(id, [page(`https://${id}.example/1`, { mainText: 'shared word' })]);
    }
    const getSearchIndex = vi.spyOn(store, 'getSearchIndex');
    const library = new Library({ store, saveDelayMs: 60_000 });
    await store.addPages('b', [page('https://b.example/2', { mainText: 'shared word' })]);
    await library.add('b', [page('https://b.example/2', { mainText: 'shared word' })]);
    expect(getSearchIndex.mock.calls.map((c) => c[0])).toEqual(['b']);
    expect((await library.search('shared')).length).toBe(4);
    expect(getSearchIndex.mock.calls.map((c) => c[0]).sort()).toEqual(['a', 'b', 'c']);
    await library.flush();
  });

  it('ranks title matches first, replaces a page stored again, and cuts a long query', async () => {
    const store = createMemoryStore();
    await store.putCrawl(record('c', 1));
    const library = new Library({ store, saveDelayMs: 60_000 });
    // As a run does: pages stored, then handed to the library.
    const stored = async (pages: PageResult[]) => {
      await store.addPages('c', pages);
      await library.add('c', pages);
    };
    await stored([
      page('https://a.example/text', { title: 'Other', mainText: 'all about photovoltaic panels' }),
      page('https://a.example/title', { title: 'Photovoltaic panels', mainText: 'a roof' }),
    ]);
    expect((await library.search('photovoltaic')).map((h) => h.url)).toEqual([
      'https://a.example/title',
      'https://a.example/text',
    ]);
    await stored([page('https://a.example/text', { title: 'Other', mainText: 'now about wind' })]);
    expect((await library.search('photovoltaic')).map((h) => h.url)).toEqual(['https://a.example/title']);
    expect(await library.pageCount()).toBe(2);
    expect(await library.search(`${'x'.repeat(10_000)} photovoltaic`)).toEqual([]);
    await library.flush();
  });
});

describe('retention', () => {
  const crawl = (id: string, createdAt: number, bytes: number, extra: Partial<RetainedCrawl> = {}): RetainedCrawl => ({
    id,
    createdAt,
    bytes,
    active: false,
    ...extra,
  });
  const MB = 1024 * 1024;

  it('deletes nothing without a limit', () => {
    expect(crawlsToDelete([crawl('a', 1, 500 * MB), crawl('b', 2, 500 * MB)], { keepCrawls: null, maxMegabytes: null })).toEqual(
      [],
    );
  });

  it('keeps the newest N unpinned crawls, pinned ones besides, oldest deleted first', () => {
    const all = [crawl('c', 3, 1), crawl('a', 1, 1, { pinned: true }), crawl('b', 2, 1), crawl('d', 4, 1), crawl('e', 5, 1)];
    expect(crawlsToDelete(all, { keepCrawls: 2, maxMegabytes: null })).toEqual(['b', 'c']);
  });

  it('deletes the oldest unpinned crawls until the library fits in M MB, never a running or pinned one', () => {
    const all = [
      crawl('old-pinned', 1, 3 * MB, { pinned: true }),
      crawl('running', 2, 3 * MB, { active: true }),
      crawl('b', 3, 3 * MB),
      crawl('c', 4, 3 * MB),
      crawl('d', 5, 3 * MB),
    ];
    expect(crawlsToDelete(all, { keepCrawls: null, maxMegabytes: 10 })).toEqual(['b', 'c']);
    // Even when nothing deletable is left, the pinned and the running crawl stay.
    expect(crawlsToDelete(all, { keepCrawls: null, maxMegabytes: 1 })).toEqual(['b', 'c', 'd']);
  });

  it('counts watches in both limits and deletes them only after every other unpinned crawl, oldest first', () => {
    const all = [
      crawl('watch-old', 1, 4 * MB, { watched: true }),
      crawl('watch-new', 2, 4 * MB, { watched: true }),
      crawl('plain', 3, 1 * MB),
      crawl('pinned', 4, 1 * MB, { pinned: true }),
    ];
    // Three unpinned crawls, watches among them: keeping 2 deletes the plain one first, keeping 1 the oldest watch.
    expect(crawlsToDelete(all, { keepCrawls: 2, maxMegabytes: null })).toEqual(['plain']);
    expect(crawlsToDelete(all, { keepCrawls: 1, maxMegabytes: null })).toEqual(['plain', 'watch-old']);
    // The watches' bytes count: 10 MB in all, a 5 MB limit takes the plain crawl and then the oldest watch.
    expect(crawlsToDelete(all, { keepCrawls: null, maxMegabytes: 5 })).toEqual(['plain', 'watch-old']);
    expect(crawlsToDelete(all, { keepCrawls: null, maxMegabytes: 9 })).toEqual(['plain']);
  });

  it('applies a policy set through the protocol at once, refuses a bad one, and keeps pinned crawls', async () => {
    const store = createMemoryStore();
    for (let i = 1; i <= 4; i++) {
      await store.putCrawl(record(`c${i}`, i));
      await store.addPages(`c${i}`, [page(`https://a.example/${i}`, { mainText: 'kept words' })]);
    }
    const app = createBackgroundApp(parts(store, { retention: memoryRetention() }));
    await ask(app, { type: 'forager/pin', id: 'c1', pinned: true });
    const bad = await app.onMessage({ type: 'forager/setRetention', policy: { keepCrawls: 0, maxMegabytes: null } }, own);
    expect(bad).toEqual({ ok: false, error: 'Crawls kept must be a whole number from 1 to 10000, or no limit.' });
    expect((await store.listCrawls()).length).toBe(4);
    const set = await ask<{ deleted: string[] }>(app, {
      type: 'forager/setRetention',
      policy: { keepCrawls: 1, maxMegabytes: null },
    });
    expect(set.deleted).toEqual(['c2', 'c3']);
    expect((await store.listCrawls()).map((c) => c.id).sort()).toEqual(['c1', 'c4']);
    expect(await ask(app, { type: 'forager/library' })).toMatchObject({
      crawls: 2,
      pages: 2,
      retention: { keepCrawls: 1, maxMegabytes: null },
    });
    expect((await ask<unknown[]>(app, { type: 'forager/search', query: 'kept' })).length).toBe(2);
  });
});

describe('import of a JSON export', () => {
  async function exported(): Promise<{ json: string; record: CrawlRecord; pages: PageResult[] }> {
    const app = createBackgroundApp(parts(createMemoryStore()));
    const crawl = await crawlTo(app);
    const record = (await app.runner.list())[0];
    const pages = await ask<PageResult[]>(app, { type: 'forager/pages', id: crawl.id });
    const skips = await ask<[]>(app, { type: 'forager/skips', id: crawl.id });
    return { json: toJson(record, pages, skips), record, pages };
  }

  it('recreates the crawl identically (record, pages, skips) and makes it searchable', async () => {
    const { json, record, pages } = await exported();
    expect(pages[0].mainText).toMatch(/zorblatt/);
    const store = createMemoryStore();
    const app = createBackgroundApp(parts(store));
    const imported = await ask<CrawlRecord>(app, { type: 'forager/import', json });
    expect(imported).toEqual(record);
    expect(await store.getCrawl(record.id)).toEqual(record);
    expect(await store.getPages(record.id)).toEqual(pages);
    // Exported again, the file is the same (apart from the export time).
    const again = toJson(
      (await store.getCrawl(record.id)) as CrawlRecord,
      await store.getPages(record.id),
      await store.getSkips(record.id),
    );
    const strip = (s: string) => s.replace(/"exportedAt": "[^"]*"/, '');
    expect(strip(again)).toBe(strip(json));
    expect((await ask<{ url: string }[]>(app, { type: 'forager/search', query: 'zorblatt2' })).map((h) => h.url)).toEqual([
      'https://cafe.example/p2',
    ]);
    // The same crawl twice: refused, nothing changes.
    const twice = await app.onMessage({ type: 'forager/import', json }, own);
    expect(twice).toMatchObject({ ok: false, error: expect.stringMatching(/already in the library/) });
    expect((await store.listCrawls()).length).toBe(1);
  });

  it('refuses malformed or hostile files with the reason and stores nothing', async () => {
    const { json } = await exported();
    const doc = JSON.parse(json);
    const variants: [string, string, RegExp][] = [
      ['not JSON', '{"format": "forager-crawl",', /not JSON/],
      ['another format', JSON.stringify({ ...doc, format: 'something' }), /not a Forager crawl export/],
      ['a newer version', JSON.stringify({ ...doc, version: 99 }), /newer version/],
      ['a score of the wrong type', JSON.stringify({ ...doc, pages: [{ ...doc.pages[0], score: 'high' }] }), /pages\.0\.score/],
      [
        'a javascript: URL',
        JSON.stringify({ ...doc, pages: [{ ...doc.pages[0], url: 'javascript:alert(1)' }] }),
        /pages\.0\.url: not an http\(s\) URL/,
      ],
      ['seeds that are not a list', JSON.stringify({ ...doc, crawl: { ...doc.crawl, seeds: 'x' } }), /crawl\.seeds/],
      ['a record of an unknown layout', JSON.stringify({ ...doc, crawl: { ...doc.crawl, version: 7 } }), /crawl\.version/],
      [
        'a title of a megabyte',
        JSON.stringify({ ...doc, pages: [{ ...doc.pages[0], title: 'x'.repeat(1_000_000) }] }),
        /pages\.0\.title/,
      ],
      ['over the size limit', `${json}${' '.repeat(MAX_IMPORT_BYTES)}`, /too large/],
    ];
    const store = createMemoryStore();
    const app = createBackgroundApp(parts(store));
    for (const [what, text, reason] of variants) {
      const reply = await app.onMessage({ type: 'forager/import', json: text }, own);
      expect(reply, what).toMatchObject({ ok: false, error: expect.stringMatching(reason) });
    }
    expect(await store.listCrawls()).toEqual([]);
    expect(await app.library.pageCount()).toBe(0);
  });

  it('neutralises script, control and bidi characters in titles, snippets and main text (kept as plain text)', () => {
    const doc = JSON.parse(toJson(record('h', 1), [page('https://a.example/x')], []));
    doc.crawl.name = 'Mine\u001b]0;pwned\u0007';
    doc.pages[0].title = '<script>alert(1)</script>\u202Egnp.exe';
    doc.pages[0].snippet = 'line\nbreak\u0000';
    doc.pages[0].mainText = '<img src=x onerror=alert(1)> text';
    doc.pages[0].extra = 'dropped';
    const { record: r, pages } = parseCrawlExport(JSON.stringify(doc));
    expect(r.name).toBe('Mine');
    expect(pages[0].title).toBe('<script>alert(1)</script>gnp.exe');
    expect(pages[0].snippet).toBe('line break');
    expect(pages[0].mainText).toBe('<img src=x onerror=alert(1)> text');
    expect('extra' in pages[0]).toBe(false);
    // Leave to fetch private hosts never comes from a file.
    doc.crawl.settings.privateHosts = ['192.168.1.1'];
    doc.crawl.settings.fetch = {
      concurrency: 4,
      timeoutMs: 1000,
      maxBytes: 1024,
      respectRobots: true,
      allowPrivate: true,
      privateHosts: ['10.0.0.1'],
      retries: 1,
    };
    const settings = parseCrawlExport(JSON.stringify(doc)).record.settings;
    expect(settings.privateHosts).toEqual([]);
    expect(settings.fetch).toEqual({
      concurrency: 4,
      timeoutMs: 1000,
      maxBytes: 1024,
      respectRobots: true,
      allowPrivate: false,
      privateHosts: [],
      retries: 1,
    });
    // A crawl exported while it ran is imported stopped: nothing runs it here.
    doc.crawl.status = 'running';
    expect(parseCrawlExport(JSON.stringify(doc)).record.status).toBe('stopped');
  });
});

describe('library lifecycle in the background', () => {
  it('saves a run’s index when the run ends, without waiting for the timer', async () => {
    const name = `forager-library-${process.pid}-2`;
    const store = createIdbStore(name);
    const app = createBackgroundApp(parts(store));
    const crawl = await crawlTo(app);
    await until(async () => (await store.getSearchIndex(crawl.id))?.pages === 10, 'the index to be saved at the run end');
  });
});

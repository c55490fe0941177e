/**
 * IndexedDB CrawlStore (the extension's persistent storage), built on `idb`. Runs in the service worker, extension
 * pages and Workers; under Node only with `fake-indexeddb` loaded (tests).
 *
 * Layout:
 *  - crawls       key id,               index byUpdatedAt (updatedAt)          -> listCrawls newest first
 *  - pages        key [crawlId, url],   index byScore [crawlId, score]         -> getPages best first, cursor-paged
 *  - skips        key [crawlId, url],   index byTime [crawlId, at]             -> getSkips oldest first, cursor-paged
 *  - checkpoints  key crawlId
 *  - searchIndex  key crawlId            (the library's full-text index of the crawl, serialized; a cache of its pages)
 * Pages and skips are wrapped as { crawlId, page } / { crawlId, skip } so the engine's objects are stored untouched.
 *
 * Database versions: 1 created the stores; 2 (record layout 2, lib/app/store/migrate.ts) moves the outputs version-1
 * checkpoints held into the page and skip lists, drops the checkpoints of finished crawls and versions the records;
 * 3 adds the searchIndex store (empty: the library indexes the crawls already stored when it first loads).
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { CrawlCheckpoint, PageResult, SkipRecord } from '../../engine';
import {
  checkCheckpoint,
  checkCrawl,
  checkId,
  checkPages,
  checkProgress,
  checkSearchIndex,
  checkSkips,
  checkUrls,
  listWindow,
  mergePatch,
} from '../store/common';
import { migrateRecord, splitCheckpoint, type StoredRecord } from '../store/migrate';
import type { CrawlRecord, CrawlStore, ListWindow, SearchIndexRecord } from '../model/records';

/** Database version; bump it and extend `upgrade` when the layout changes. */
export const DB_VERSION = 3;

interface StoredPage {
  crawlId: string;
  page: PageResult;
}
interface StoredSkip {
  crawlId: string;
  skip: SkipRecord;
}
interface StoredCheckpoint {
  crawlId: string;
  checkpoint: CrawlCheckpoint;
}

interface ForagerDB extends DBSchema {
  crawls: { key: string; value: CrawlRecord; indexes: { byUpdatedAt: number } };
  pages: { key: [string, string]; value: StoredPage; indexes: { byScore: [string, number] } };
  skips: { key: [string, string]; value: StoredSkip; indexes: { byTime: [string, number] } };
  checkpoints: { key: string; value: StoredCheckpoint };
  searchIndex: { key: string; value: SearchIndexRecord };
}

type Db = IDBPDatabase<ForagerDB>;
type UpgradeTx = IDBPTransaction<ForagerDB, StoreNames<ForagerDB>[], 'versionchange'>;

/** Database 1 -> 2, inside the upgrade transaction: see the module comment. Pages already listed are kept as they are. */
async function upgradeFrom1(tx: UpgradeTx): Promise<void> {
  const crawls = tx.objectStore('crawls');
  const finished = new Set<string>();
  for (let cursor = await crawls.openCursor(); cursor; cursor = await cursor.continue()) {
    const record = migrateRecord(cursor.value as StoredRecord);
    if (record.status === 'done') finished.add(record.id);
    await cursor.update(record);
  }
  const pages = tx.objectStore('pages');
  const skips = tx.objectStore('skips');
  for (let cursor = await tx.objectStore('checkpoints').openCursor(); cursor; cursor = await cursor.continue()) {
    const { crawlId } = cursor.value;
    const split = splitCheckpoint(cursor.value.checkpoint);
    for (const page of split.pages) if ((await pages.count([crawlId, page.url])) === 0) await pages.put({ crawlId, page });
    for (const skip of split.skips) if ((await skips.count([crawlId, skip.url])) === 0) await skips.put({ crawlId, skip });
    if (finished.has(crawlId)) await cursor.delete();
    else await cursor.update({ crawlId, checkpoint: split.checkpoint });
  }
}

/** The IndexedDB store, plus `close()` to release its connection (it reopens by itself on next use). */
export interface IdbCrawlStore extends CrawlStore {
  close(): void;
}

const noop = (): void => {};

function errorName(e: unknown): string | undefined {
  return e && typeof e === 'object' && 'name' in e ? String((e as { name: unknown }).name) : undefined;
}

/** All keys [crawlId, <string>] of one crawl: arrays sort after strings, so [id, []] bounds every URL. */
function crawlKeys(crawlId: string): IDBKeyRange {
  return IDBKeyRange.bound([crawlId], [crawlId, []]);
}

/** All index keys [crawlId, <number>] of one crawl (scores and times are finite, checked on write). */
function crawlNumbers(crawlId: string): IDBKeyRange {
  return IDBKeyRange.bound([crawlId, -Infinity], [crawlId, Infinity]);
}

/**
 * Issues a transaction's requests and waits for the commit. If issuing throws part-way (e.g. DataCloneError on an
 * uncloneable value), the transaction is aborted so nothing of the batch is written, and no rejection goes unhandled.
 */
async function commit(
  tx: { done: Promise<void>; abort(): void },
  issue: (add: (request: Promise<unknown>) => void) => void,
): Promise<void> {
  const requests: Promise<unknown>[] = [];
  try {
    issue((r) => requests.push(r));
  } catch (e) {
    for (const r of requests) r.catch(noop);
    tx.done.catch(noop);
    try {
      tx.abort();
    } catch {
      // already finished
    }
    throw e;
  }
  await Promise.all([...requests, tx.done]);
}

/**
 * Opens (lazily) an IndexedDB-backed CrawlStore named `dbName`. Several stores (or extension contexts) may use the
 * same database at once. When another context needs a version change or deletes the database, this connection
 * closes itself and the next call reopens. A full disk surfaces as an Error saying so (cause: the QuotaExceededError).
 */
export function createIdbStore(dbName = 'forager'): IdbCrawlStore {
  let current: Promise<Db> | undefined;
  /** Connections closed under us (versionchange, termination): an InvalidStateError on them means "reopen". */
  const closed = new WeakSet<Db>();

  function open(): Promise<Db> {
    if (current) return current;
    let db: Db | undefined;
    const drop = (): void => {
      if (db) closed.add(db);
      if (current === opening) current = undefined;
    };
    const opening = openDB<ForagerDB>(dbName, DB_VERSION, {
      upgrade(database, oldVersion, _newVersion, transaction) {
        if (oldVersion === 1) {
          // A failed migration must not leave a half-upgraded database: abort the upgrade (the open then fails).
          upgradeFrom1(transaction).catch((error: unknown) => {
            console.error('[forager] database upgrade failed', error);
            try {
              transaction.abort();
            } catch {
              // already finished
            }
          });
        }
        if (oldVersion < 1) {
          database.createObjectStore('crawls', { keyPath: 'id' }).createIndex('byUpdatedAt', 'updatedAt');
          database
            .createObjectStore('pages', { keyPath: ['crawlId', 'page.url'] })
            .createIndex('byScore', ['crawlId', 'page.score']);
          database.createObjectStore('skips', { keyPath: ['crawlId', 'skip.url'] }).createIndex('byTime', ['crawlId', 'skip.at']);
          database.createObjectStore('checkpoints', { keyPath: 'crawlId' });
        }
        if (oldVersion < 3) database.createObjectStore('searchIndex', { keyPath: 'crawlId' });
      },
      // Another context wants to upgrade or delete the database: step aside rather than block it forever.
      blocking() {
        drop();
        db?.close();
      },
      terminated: drop,
    });
    current = opening;
    opening.then(
      (d) => {
        db = d;
      },
      () => {
        if (current === opening) current = undefined; // let the next call try again
      },
    );
    return opening;
  }

  function describe(e: unknown, what: string): unknown {
    const name = errorName(e);
    if (name === 'QuotaExceededError') {
      return new Error(
        `Storage is full: the browser refused to save more data while ${what} (quota exceeded). ` +
          'Delete old crawls or free disk space, then try again.',
        { cause: e },
      );
    }
    if (name === 'VersionError') {
      return new Error(`The crawl database "${dbName}" was upgraded by a newer version of Forager; reload the extension.`, {
        cause: e,
      });
    }
    return e;
  }

  /** Runs one operation; retries once on a connection that was closed by a versionchange in between. */
  async function run<T>(what: string, op: (db: Db) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let db: Db | undefined;
      try {
        db = await open();
        return await op(db);
      } catch (e) {
        if (attempt === 0 && db && closed.has(db) && errorName(e) === 'InvalidStateError') continue;
        throw describe(e, what);
      }
    }
  }

  return {
    close() {
      const c = current;
      current = undefined;
      void c?.then((d) => {
        closed.add(d);
        d.close();
      }, noop);
    },

    putCrawl(record) {
      return run('saving a crawl', async (db) => {
        checkCrawl(record);
        const tx = db.transaction('crawls', 'readwrite');
        await commit(tx, (add) => add(tx.store.put(record)));
      });
    },

    getCrawl(id) {
      return run('reading a crawl', async (db) => {
        checkId(id);
        return db.get('crawls', id);
      });
    },

    listCrawls() {
      return run('listing crawls', async (db) => {
        // Ascending index order reversed = what a 'prev' cursor gives: newest first, ties by id descending.
        return (await db.getAllFromIndex('crawls', 'byUpdatedAt')).reverse();
      });
    },

    updateCrawl(id, patch) {
      return run('updating a crawl', async (db) => {
        checkId(id);
        const tx = db.transaction('crawls', 'readwrite');
        const existing = await tx.store.get(id);
        let merged: CrawlRecord | undefined;
        try {
          if (existing) merged = mergePatch(existing, patch);
        } catch (e) {
          tx.done.catch(noop);
          throw e;
        }
        await commit(tx, (add) => {
          if (merged) add(tx.store.put(merged));
        });
        // The merge holds references into the caller's patch; hand back a copy as a read would.
        return merged && structuredClone(merged);
      });
    },

    deleteCrawl(id) {
      return run('deleting a crawl', async (db) => {
        checkId(id);
        const tx = db.transaction(['crawls', 'pages', 'skips', 'checkpoints', 'searchIndex'], 'readwrite');
        await commit(tx, (add) => {
          add(tx.objectStore('searchIndex').delete(id));
          add(tx.objectStore('crawls').delete(id));
          add(tx.objectStore('pages').delete(crawlKeys(id)));
          add(tx.objectStore('skips').delete(crawlKeys(id)));
          add(tx.objectStore('checkpoints').delete(id));
        });
      });
    },

    deleteAll() {
      return run('deleting all crawls', async (db) => {
        const tx = db.transaction(['crawls', 'pages', 'skips', 'checkpoints', 'searchIndex'], 'readwrite');
        await commit(tx, (add) => {
          for (const name of ['crawls', 'pages', 'skips', 'checkpoints', 'searchIndex'] as const)
            add(tx.objectStore(name).clear());
        });
      });
    },

    addPages(crawlId, pages) {
      return run('saving pages', async (db) => {
        checkPages(crawlId, pages);
        if (pages.length === 0) return;
        const tx = db.transaction('pages', 'readwrite');
        await commit(tx, (add) => {
          for (const page of pages) add(tx.store.put({ crawlId, page }));
        });
      });
    },

    getPages(crawlId, window) {
      return run('reading pages', async (db) => {
        checkId(crawlId);
        const { offset, limit } = listWindow(window);
        const out: PageResult[] = [];
        if (limit === 0) return out;
        if (limit === Infinity) {
          // Everything from `offset` on: one getAll beats a cursor step per page (ascending, so reverse).
          const rows = await db.getAllFromIndex('pages', 'byScore', crawlNumbers(crawlId));
          return rows
            .reverse()
            .slice(offset)
            .map((r) => r.page);
        }
        const tx = db.transaction('pages');
        const index = tx.store.index('byScore');
        const range = crawlNumbers(crawlId);
        const total = await index.count(range);
        const take = Math.min(limit, total - offset);
        if (take <= 0) return out;
        // Walk the score index from whichever end is nearer the window, skipping entries without reading them:
        // backwards from the best page, or forwards from the worst and reversed (same order, ties included).
        const after = total - offset - take;
        const backwards = offset <= after;
        let cursor = await index.openCursor(range, backwards ? 'prev' : 'next');
        const skip = backwards ? offset : after;
        if (cursor && skip > 0) cursor = await cursor.advance(skip);
        while (cursor) {
          out.push(cursor.value.page);
          cursor = out.length < take ? await cursor.continue() : null;
        }
        if (!backwards) out.reverse();
        await tx.done;
        return out;
      });
    },

    deletePages(crawlId, urls) {
      return run('deleting pages', async (db) => {
        checkUrls(crawlId, urls);
        if (urls.length === 0) return;
        const tx = db.transaction('pages', 'readwrite');
        await commit(tx, (add) => {
          for (const url of urls) add(tx.store.delete([crawlId, url]));
        });
      });
    },

    countPages(crawlId) {
      return run('counting pages', async (db) => {
        checkId(crawlId);
        return db.count('pages', crawlKeys(crawlId));
      });
    },

    addSkips(crawlId, skips) {
      return run('saving skipped URLs', async (db) => {
        checkSkips(crawlId, skips);
        if (skips.length === 0) return;
        const tx = db.transaction('skips', 'readwrite');
        await commit(tx, (add) => {
          for (const skip of skips) add(tx.store.put({ crawlId, skip }));
        });
      });
    },

    getSkips(crawlId, window?: ListWindow) {
      return run('reading skipped URLs', async (db) => {
        checkId(crawlId);
        const w = listWindow(window);
        if (w.offset === 0 && w.limit === Infinity) {
          return (await db.getAllFromIndex('skips', 'byTime', crawlNumbers(crawlId))).map((r) => r.skip);
        }
        const out: SkipRecord[] = [];
        if (w.limit === 0) return out;
        const tx = db.transaction('skips');
        let cursor = await tx.store.index('byTime').openCursor(crawlNumbers(crawlId));
        if (cursor && w.offset > 0) cursor = await cursor.advance(w.offset);
        while (cursor) {
          out.push(cursor.value.skip);
          cursor = out.length < w.limit ? await cursor.continue() : null;
        }
        await tx.done;
        return out;
      });
    },

    countSkips(crawlId) {
      return run('counting skipped URLs', async (db) => {
        checkId(crawlId);
        return db.count('skips', crawlKeys(crawlId));
      });
    },

    saveCheckpoint(crawlId, checkpoint) {
      return run('saving a checkpoint', async (db) => {
        checkCheckpoint(crawlId, checkpoint);
        const tx = db.transaction('checkpoints', 'readwrite');
        await commit(tx, (add) => add(tx.store.put({ crawlId, checkpoint })));
      });
    },

    saveProgress(crawlId, progress) {
      return run('saving crawl progress', async (db) => {
        checkProgress(crawlId, progress);
        const tx = db.transaction(['crawls', 'pages', 'skips', 'checkpoints'], 'readwrite');
        const crawls = tx.objectStore('crawls');
        // Everything but the record patch is issued at once; the patch needs the record, read in the same transaction.
        // A patch that cannot be merged or stored aborts the transaction: nothing of this write lands.
        await commit(tx, (add) => {
          const pages = tx.objectStore('pages');
          for (const page of progress.pages) add(pages.put({ crawlId, page }));
          const skips = tx.objectStore('skips');
          for (const skip of progress.skips) add(skips.put({ crawlId, skip }));
          const checkpoints = tx.objectStore('checkpoints');
          if (progress.checkpoint === null) add(checkpoints.delete(crawlId));
          else add(checkpoints.put({ crawlId, checkpoint: progress.checkpoint }));
          const patch = progress.patch;
          if (patch) {
            add(
              crawls.get(crawlId).then((existing) => {
                if (!existing) return undefined;
                try {
                  return crawls.put(mergePatch(existing, patch));
                } catch (e) {
                  try {
                    tx.abort();
                  } catch {
                    // already finished
                  }
                  throw e;
                }
              }),
            );
          }
        });
      });
    },

    getCheckpoint(crawlId) {
      return run('reading a checkpoint', async (db) => {
        checkId(crawlId);
        return (await db.get('checkpoints', crawlId))?.checkpoint;
      });
    },

    getSearchIndex(crawlId) {
      return run('reading the search index', async (db) => {
        checkId(crawlId);
        return db.get('searchIndex', crawlId);
      });
    },

    putSearchIndex(record) {
      return run('saving the search index', async (db) => {
        checkSearchIndex(record);
        const tx = db.transaction(['crawls', 'searchIndex'], 'readwrite');
        // The crawl is looked up in the same transaction: a crawl deleted meanwhile leaves no orphaned index.
        await commit(tx, (add) => {
          add(
            tx
              .objectStore('crawls')
              .count(record.crawlId)
              .then((n) => (n > 0 ? tx.objectStore('searchIndex').put(record) : undefined)),
          );
        });
      });
    },
  };
}

/**
 * File-backed CrawlStore: the command line's --save/--resume (Node only: the extension never imports this file).
 * It keeps its data in a memory store for reading and writes every change to a directory:
 *
 *   DIR/forager-store.json            format marker and layout version (refuses a directory that is something else)
 *   DIR/lock                          pid of the process using the store (one writer at a time)
 *   DIR/crawls/<hash of id>/record.json      the crawl record (replaced by rename on every change)
 *   DIR/crawls/<hash of id>/pages.jsonl      pages, one JSON line each, only ever appended (a URL's later line wins)
 *   DIR/crawls/<hash of id>/skips.jsonl      skips, likewise
 *   DIR/crawls/<hash of id>/checkpoint.json  the resume state (replaced by rename; absent once the crawl is done)
 *   DIR/crawls/<hash of id>/search-index.json  the library's search index of the crawl (replaced by rename)
 *
 * A progress write appends its pages and skips before the checkpoint is renamed into place, so a process killed in
 * between leaves pages the checkpoint does not count yet (fetched again on resume, kept once per URL), never a
 * checkpoint that counts a page the store lacks. A line cut short by a kill is dropped when the store is opened.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CrawlCheckpoint, errorMessage, type PageResult, type SkipRecord } from '../../engine';
import {
  checkCheckpoint,
  checkCrawl,
  checkId,
  checkPages,
  checkProgress,
  checkSearchIndex,
  checkSkips,
  checkUrls,
  mergePatch,
} from '../store/common';
import { createMemoryStore } from '../store/memory-store';
import { migrateRecord, type StoredRecord } from '../store/migrate';
import { RECORD_VERSION, type CrawlRecord, type CrawlStore, type SearchIndexRecord } from '../model/records';

const MARKER = 'forager-store.json';
const FORMAT = 'forager-store';

/** The file store, plus `close()` to release its lock. */
export interface FileCrawlStore extends CrawlStore {
  readonly dir: string;
  close(): void;
}

function crawlDirName(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 32);
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Writes a file whole or not at all: a temporary file renamed over the old one. */
async function replaceFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** The lines of a JSON-lines file; a last line without its newline (a write cut short) is cut off the file. */
async function readLines<T>(file: string): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) await truncate(file, Buffer.byteLength(text.slice(0, end)));
  const out: T[] = [];
  for (const line of text.slice(0, end).split('\n')) if (line) out.push(JSON.parse(line) as T);
  return out;
}

const jsonLines = (items: unknown[]): string => items.map((x) => `${JSON.stringify(x)}\n`).join('');

/** Takes the store's lock, or says which live process holds it. A lock left by a dead process is taken over. */
function lock(dir: string): () => void {
  const file = path.join(dir, 'lock');
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const pid = Number(readFileSync(file, 'utf8'));
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = Number.isInteger(pid) && pid > 0 && pid !== process.pid;
      } catch {
        alive = false;
      }
      if (alive) throw new Error(`the crawl store ${dir} is in use by process ${pid}`);
      unlinkSync(file);
    }
  }
}

/**
 * Opens (creating it when missing) the store in `dir`. Rejects with a clear message when `dir` holds something that
 * is not a Forager store, a store of a newer layout, or a store another live process has open.
 */
export async function openFileStore(dir: string): Promise<FileCrawlStore> {
  const root = path.resolve(dir);
  const markerFile = path.join(root, MARKER);
  if (await exists(markerFile)) {
    let marker: { format?: unknown; version?: unknown };
    try {
      marker = JSON.parse(await readFile(markerFile, 'utf8'));
    } catch {
      marker = {};
    }
    if (marker.format !== FORMAT) throw new Error(`${root} is not a Forager crawl store (${MARKER} is not one)`);
    if (typeof marker.version === 'number' && marker.version > RECORD_VERSION) {
      throw new Error(`the crawl store ${root} was written by a newer version of Forager`);
    }
  } else {
    // Never write into a directory that holds something else.
    const entries = await readdir(root).catch(() => [] as string[]);
    if (entries.length > 0) throw new Error(`${root} is not a Forager crawl store (it holds other files)`);
    try {
      await mkdir(root, { recursive: true });
      await replaceFile(markerFile, `${JSON.stringify({ format: FORMAT, version: RECORD_VERSION })}\n`);
    } catch (error) {
      throw new Error(`cannot create the crawl store ${root}: ${errorMessage(error)}`);
    }
  }
  await mkdir(path.join(root, 'crawls'), { recursive: true });
  const unlock = lock(root);

  // Load everything into memory: reads are the memory store's, writes go to disk first, then to memory.
  const memory = createMemoryStore();
  try {
    for (const name of await readdir(path.join(root, 'crawls'))) {
      const crawlDir = path.join(root, 'crawls', name);
      let stored: StoredRecord;
      try {
        stored = JSON.parse(await readFile(path.join(crawlDir, 'record.json'), 'utf8'));
      } catch {
        continue; // a crawl directory whose record was never written (killed at once): nothing to keep
      }
      const record = migrateRecord(stored);
      await memory.putCrawl(record);
      await memory.addPages(record.id, await readLines<PageResult>(path.join(crawlDir, 'pages.jsonl')));
      await memory.addSkips(record.id, await readLines<SkipRecord>(path.join(crawlDir, 'skips.jsonl')));
      try {
        const index = JSON.parse(await readFile(path.join(crawlDir, 'search-index.json'), 'utf8')) as SearchIndexRecord;
        await memory.putSearchIndex(index);
      } catch {
        // none, or cut short by a kill: the library rebuilds it from the pages
      }
      try {
        const checkpoint = JSON.parse(await readFile(path.join(crawlDir, 'checkpoint.json'), 'utf8')) as CrawlCheckpoint;
        await memory.saveCheckpoint(record.id, checkpoint);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  } catch (error) {
    unlock();
    throw new Error(`cannot read the crawl store ${root}: ${errorMessage(error)}`);
  }

  const crawlPath = (id: string, file: string) => path.join(root, 'crawls', crawlDirName(id), file);
  const ensureDir = (id: string) => mkdir(path.join(root, 'crawls', crawlDirName(id)), { recursive: true });
  const writeRecord = async (record: CrawlRecord) => {
    await ensureDir(record.id);
    await replaceFile(crawlPath(record.id, 'record.json'), `${JSON.stringify(record)}\n`);
  };
  /** Disk writes one after another, so appends and renames land in call order. */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const result = queue.then(op);
    queue = result.catch(() => undefined);
    return result;
  };
  const merged = async (id: string, patch: Partial<Omit<CrawlRecord, 'id'>>) => {
    const current = await memory.getCrawl(id);
    return current && mergePatch(current, patch);
  };

  return {
    dir: root,
    close: unlock,

    putCrawl: (record) =>
      serial(async () => {
        checkCrawl(record);
        const copy = structuredClone(record);
        await writeRecord(copy);
        await memory.putCrawl(copy);
      }),

    getCrawl: (id) => memory.getCrawl(id),
    listCrawls: () => memory.listCrawls(),

    updateCrawl: (id, patch) =>
      serial(async () => {
        checkId(id);
        const record = await merged(id, patch);
        if (!record) return undefined;
        const copy = structuredClone(record);
        await writeRecord(copy);
        return memory.updateCrawl(id, patch);
      }),

    deleteCrawl: (id) =>
      serial(async () => {
        checkId(id);
        await rm(path.join(root, 'crawls', crawlDirName(id)), { recursive: true, force: true });
        await memory.deleteCrawl(id);
      }),

    deleteAll: () =>
      serial(async () => {
        // The crawls folder goes whole; the marker and the lock stay, so the directory is still this store's.
        await rm(path.join(root, 'crawls'), { recursive: true, force: true });
        await mkdir(path.join(root, 'crawls'), { recursive: true });
        await memory.deleteAll();
      }),

    addPages: (crawlId, pages) =>
      serial(async () => {
        checkPages(crawlId, pages);
        if (pages.length === 0) return;
        const copies = structuredClone(pages);
        await ensureDir(crawlId);
        await appendFile(crawlPath(crawlId, 'pages.jsonl'), jsonLines(copies));
        await memory.addPages(crawlId, copies);
      }),

    getPages: (crawlId, window) => memory.getPages(crawlId, window),
    countPages: (crawlId) => memory.countPages(crawlId),

    deletePages: (crawlId, urls) =>
      serial(async () => {
        checkUrls(crawlId, urls);
        if (urls.length === 0 || (await memory.countPages(crawlId)) === 0) return;
        // The append-only file is written again whole without them (renamed into place: all of it or none).
        const gone = new Set(urls);
        const kept = (await memory.getPages(crawlId)).filter((p) => !gone.has(p.url));
        await replaceFile(crawlPath(crawlId, 'pages.jsonl'), jsonLines(kept));
        await memory.deletePages(crawlId, urls);
      }),

    addSkips: (crawlId, skips) =>
      serial(async () => {
        checkSkips(crawlId, skips);
        if (skips.length === 0) return;
        const copies = structuredClone(skips);
        await ensureDir(crawlId);
        await appendFile(crawlPath(crawlId, 'skips.jsonl'), jsonLines(copies));
        await memory.addSkips(crawlId, copies);
      }),

    getSkips: (crawlId, window) => memory.getSkips(crawlId, window),
    countSkips: (crawlId) => memory.countSkips(crawlId),

    saveCheckpoint: (crawlId, checkpoint) =>
      serial(async () => {
        checkCheckpoint(crawlId, checkpoint);
        const copy = structuredClone(checkpoint);
        await ensureDir(crawlId);
        await replaceFile(crawlPath(crawlId, 'checkpoint.json'), JSON.stringify(copy));
        await memory.saveCheckpoint(crawlId, copy);
      }),

    getCheckpoint: (crawlId) => memory.getCheckpoint(crawlId),

    getSearchIndex: (crawlId) => memory.getSearchIndex(crawlId),

    putSearchIndex: (record) =>
      serial(async () => {
        checkSearchIndex(record);
        if (!(await memory.getCrawl(record.crawlId))) return;
        await replaceFile(crawlPath(record.crawlId, 'search-index.json'), JSON.stringify(record));
        await memory.putSearchIndex(record);
      }),

    saveProgress: (crawlId, progress) =>
      serial(async () => {
        checkProgress(crawlId, progress);
        // Everything checked and copied before the first byte is written (a bad part writes nothing).
        const record = progress.patch ? await merged(crawlId, progress.patch) : undefined;
        const copies = structuredClone(progress);
        await ensureDir(crawlId);
        if (copies.pages.length) await appendFile(crawlPath(crawlId, 'pages.jsonl'), jsonLines(copies.pages));
        if (copies.skips.length) await appendFile(crawlPath(crawlId, 'skips.jsonl'), jsonLines(copies.skips));
        if (copies.checkpoint === null) await rm(crawlPath(crawlId, 'checkpoint.json'), { force: true });
        else await replaceFile(crawlPath(crawlId, 'checkpoint.json'), JSON.stringify(copies.checkpoint));
        if (record) await writeRecord(structuredClone(record));
        await memory.saveProgress(crawlId, copies);
      }),
  };
}

/**
 * The library: search over every page Forager has found, in every crawl. One index segment per crawl (see
 * search-index.ts), built incrementally as a run's pages are stored, and kept in the crawl store
 * (`putSearchIndex`) a few seconds behind. The store's pages are the truth and the stored segments a cache: when a
 * segment is loaded (a new service worker), one that is missing, of another layout or behind its crawl's pages (the
 * worker died before the segment was saved) is completed from the pages, so nothing found is ever unsearchable.
 * Segments load lazily: a run's additions load only their crawl's, a search loads them all.
 */
import { errorMessage, type PageResult } from '../../engine';
import { oneLine } from '../rules/text-safety';
import type { CrawlStore } from '../model/records';
import { INDEX_VERSION, SearchIndex } from './search-index';
import type { LibraryHit } from '../model/views';

export type { LibraryHit };

export interface LibraryOptions {
  store: CrawlStore;
  /** Time between a change to a segment and its write to the store, ms (default 10 s: serializing costs). */
  saveDelayMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** A background save failed (the segment stays dirty and is saved with the next one). */
  onError?(error: unknown): void;
}

/** Most hits a search answers. */
export const MAX_HITS = 200;
/** Longest query taken (longer ones are cut). */
export const MAX_QUERY_CHARS = 200;
/** Pages read from the store at a time while completing a segment. */
const READ_WINDOW = 2000;

export class Library {
  private readonly segments = new Map<string, SearchIndex>();
  private readonly dirty = new Set<string>();
  /** Segments loaded or on their way, per crawl. */
  private readonly loads = new Map<string, Promise<SearchIndex>>();
  /** The chain of additions (each waits for the load and the one before). */
  private adding: Promise<void> = Promise.resolve();
  /** Crawls deleted: pages of theirs still on their way are not indexed (ids are never reused). */
  private readonly removed = new Set<string>();
  private timer: unknown;
  /** The chain of saves: one at a time, in order. */
  private saving: Promise<void> = Promise.resolve();
  private readonly saveDelayMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: LibraryOptions) {
    this.saveDelayMs = options.saveDelayMs ?? 10_000;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** Loads every crawl's segment (a search needs them all; a run's additions load only their own crawl's). */
  async load(): Promise<void> {
    for (const crawl of await this.options.store.listCrawls()) await this.loadSegment(crawl.id);
  }

  /** The crawl's segment, loaded once (concurrent callers share the load; a failed load is tried again next time). */
  private loadSegment(crawlId: string): Promise<SearchIndex> {
    let loading = this.loads.get(crawlId);
    if (!loading) {
      loading = this.loadOne(crawlId);
      this.loads.set(crawlId, loading);
      loading.catch(() => {
        if (this.loads.get(crawlId) === loading) this.loads.delete(crawlId);
      });
    }
    return loading;
  }

  /** Pages of a crawl were stored: index them (a page already indexed is replaced). Additions apply in call order. */
  add(crawlId: string, pages: readonly PageResult[]): Promise<void> {
    return this.change(crawlId, pages, (segment) => segment.add(pages));
  }

  /** Pages of a crawl were deleted from the store: they leave its segment (after the additions asked for before). */
  removePages(crawlId: string, pages: readonly PageResult[]): Promise<void> {
    return this.change(crawlId, pages, (segment) => segment.remove(pages));
  }

  /** Applies `edit` to a crawl's segment after every change asked for before, unless there is nothing or no crawl. */
  private change(crawlId: string, pages: readonly PageResult[], edit: (segment: SearchIndex) => void): Promise<void> {
    const run = this.adding.then(async () => {
      if (pages.length === 0 || this.removed.has(crawlId)) return;
      const segment = await this.loadSegment(crawlId);
      if (this.removed.has(crawlId)) return;
      edit(segment);
      this.markDirty(crawlId);
    });
    this.adding = run.catch(() => undefined);
    return run;
  }

  /** A crawl was deleted: its segment goes (the store deletes the stored one with the crawl). */
  remove(crawlId: string): void {
    this.removed.add(crawlId);
    this.segments.delete(crawlId);
    this.loads.delete(crawlId);
    this.dirty.delete(crawlId);
  }

  /** Pages whose title, snippet or main text hold every word of the query (the last may be a word's start). */
  async search(query: string, limit = 50): Promise<LibraryHit[]> {
    const q = oneLine(query).slice(0, MAX_QUERY_CHARS);
    const max = Math.min(MAX_HITS, Math.max(0, Math.floor(Number(limit)) || 0));
    if (!q || max === 0) return [];
    await this.load();
    const hits: LibraryHit[] = [];
    for (const [crawlId, segment] of this.segments) {
      for (const h of segment.search(q, max)) {
        hits.push({
          crawlId,
          url: h.url,
          title: h.title,
          snippet: h.snippet,
          pageScore: h.pageScore,
          fetchedAt: h.fetchedAt,
          rank: h.rank,
        });
      }
    }
    hits.sort((a, b) => b.rank - a.rank || b.pageScore - a.pageScore);
    return hits.slice(0, max);
  }

  /**
   * Approximate bytes of each crawl's pages (as indexed), for retention by size: a loaded segment's own count, else
   * the stored segment's when it covers its crawl (no need to load it), else the segment loaded and completed.
   */
  async sizes(): Promise<Map<string, number>> {
    const store = this.options.store;
    const out = new Map<string, number>();
    for (const crawl of await store.listCrawls()) {
      const loaded = this.segments.get(crawl.id);
      if (loaded) {
        out.set(crawl.id, loaded.bytes);
        continue;
      }
      const stored = await store.getSearchIndex(crawl.id);
      if (stored && stored.version === INDEX_VERSION && stored.pages === (await store.countPages(crawl.id))) {
        out.set(crawl.id, stored.bytes);
      } else {
        out.set(crawl.id, (await this.loadSegment(crawl.id)).bytes);
      }
    }
    return out;
  }

  /** Pages searchable over all crawls (every stored page is: a segment behind is completed before a search). */
  async pageCount(): Promise<number> {
    let n = 0;
    for (const crawl of await this.options.store.listCrawls()) n += await this.options.store.countPages(crawl.id);
    return n;
  }

  /** Writes every changed segment now (additions already asked for included) and resolves when they are stored. */
  flush(): Promise<void> {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    const added = this.adding;
    const run = this.saving.then(async () => {
      await added;
      await this.saveDirty();
    });
    this.saving = run.catch(() => undefined);
    return run;
  }

  private markDirty(crawlId: string): void {
    this.dirty.add(crawlId);
    if (this.timer !== undefined) return;
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.options.onError?.(error));
    }, this.saveDelayMs);
  }

  private async saveDirty(): Promise<void> {
    const ids = [...this.dirty];
    this.dirty.clear();
    const failed: unknown[] = [];
    for (const crawlId of ids) {
      const segment = this.segments.get(crawlId);
      if (!segment) continue; // removed meanwhile
      try {
        await this.options.store.putSearchIndex({
          crawlId,
          version: INDEX_VERSION,
          pages: segment.size,
          bytes: segment.bytes,
          data: segment.serialize(),
        });
      } catch (error) {
        this.dirty.add(crawlId);
        failed.push(error);
      }
    }
    if (failed.length) throw new Error(`saving the search index failed: ${errorMessage(failed[0])}`, { cause: failed[0] });
  }

  private async loadOne(crawlId: string): Promise<SearchIndex> {
    const store = this.options.store;
    const stored = await store.getSearchIndex(crawlId);
    let segment: SearchIndex | undefined;
    if (stored && stored.version === INDEX_VERSION) {
      try {
        segment = SearchIndex.load(stored.data, stored.bytes);
      } catch {
        segment = undefined; // damaged: rebuilt below
      }
    }
    const count = await store.countPages(crawlId);
    // More entries than pages: pages were deleted after the segment was saved (a watch kept under its cap).
    if (!segment || segment.size > count) segment = SearchIndex.empty();
    if (count !== segment.size) await this.complete(crawlId, segment);
    if (!this.removed.has(crawlId)) this.segments.set(crawlId, segment);
    return segment;
  }

  /** Indexes the crawl's stored pages the segment lacks, window by window. */
  private async complete(crawlId: string, segment: SearchIndex): Promise<void> {
    const store = this.options.store;
    for (let offset = 0; ; offset += READ_WINDOW) {
      const pages = await store.getPages(crawlId, { offset, limit: READ_WINDOW });
      const missing = pages.filter((p) => !segment.has(p.url));
      if (missing.length) segment.add(missing);
      if (pages.length < READ_WINDOW) break;
    }
    this.markDirty(crawlId);
  }
}

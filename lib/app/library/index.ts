/**
 * The library of everything Forager found: full-text search over every crawl (library.ts, one index segment per crawl
 * in search-index.ts), the retention policy (retention.ts) and import of JSON exports (import.ts).
 */
import type { CrawlRunner } from '../runner';
import type { Library } from './library';
import { checkRetention, crawlsToDelete, NO_RETENTION, type RetentionPolicy } from './retention';

export { Library, MAX_HITS, MAX_QUERY_CHARS, type LibraryHit, type LibraryOptions } from './library';
export { INDEX_VERSION, SearchIndex } from './search-index';
export {
  checkRetention,
  crawlsToDelete,
  NO_RETENTION,
  RETENTION_BOUNDS,
  type RetainedCrawl,
  type RetentionPolicy,
} from './retention';
export { ImportError, MAX_IMPORT_BYTES, parseCrawlExport, type ImportedCrawl } from './import';

/** Where the retention policy is kept (the extension: storage.local), read and written whole. */
export interface RetentionSettings {
  get(): Promise<RetentionPolicy>;
  set(policy: RetentionPolicy): Promise<void>;
}

/** The parts of a storage area (storage.local) the settings need. */
interface KeyValueArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** Retention settings in a storage area under one key; a missing or damaged value means no limits. */
export function storedRetention(area: KeyValueArea, key = 'forager.retention'): RetentionSettings {
  return {
    async get() {
      try {
        return checkRetention((await area.get(key))[key]);
      } catch {
        return { ...NO_RETENTION };
      }
    },
    async set(policy) {
      await area.set({ [key]: checkRetention(policy) });
    },
  };
}

/** Retention settings in memory (tests, the command line). */
export function memoryRetention(initial: RetentionPolicy = NO_RETENTION): RetentionSettings {
  let current = { ...initial };
  return {
    get: async () => ({ ...current }),
    set: async (policy) => {
      current = checkRetention(policy);
    },
  };
}

/** Deletes the crawls the policy says to (oldest unpinned first, watches last, never the running one); their ids. */
export async function applyRetention(runner: CrawlRunner, library: Library, policy: RetentionPolicy): Promise<string[]> {
  if (policy.keepCrawls === null && policy.maxMegabytes === null) return [];
  const [crawls, sizes] = await Promise.all([runner.list(), library.sizes()]);
  const doomed = crawlsToDelete(
    crawls.map((c) => ({
      id: c.id,
      createdAt: c.createdAt,
      pinned: c.pinned,
      watched: c.watch !== undefined,
      active: c.id === runner.activeId,
      bytes: sizes.get(c.id) ?? 0,
    })),
    policy,
  );
  for (const id of doomed) await runner.remove(id);
  return doomed;
}

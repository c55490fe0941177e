/**
 * Crawl persistence: the CrawlStore interface and its behaviour-identical backends, in memory and IndexedDB here;
 * the file backend (Node only) is imported from './file-store' directly, so the extension never bundles it.
 */
export type {
  CrawlProgress,
  CrawlRecord,
  CrawlSettings,
  CrawlStatus,
  CrawlStore,
  FetchSettings,
  ListWindow,
  SearchIndexRecord,
  SeedSource,
  WatchCheck,
  WatchSchedule,
  WatchSkipReason,
  WatchState,
} from './types';
export { RECORD_VERSION } from './types';
export { createMemoryStore } from './memory-store';
export { createIdbStore, DB_VERSION, type IdbCrawlStore } from './idb-store';
export { migrateRecord, recordProblems, splitCheckpoint } from './migrate';

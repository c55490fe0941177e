/**
 * Crawl persistence: the CrawlStore interface (model/records.ts) and its in-memory backend, with what every backend
 * shares (common.ts, migrate.ts). The IndexedDB and file backends are adapters (adapters/idb-store.ts, file-store.ts).
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
} from '../model/records';
export { RECORD_VERSION } from '../model/records';
export { createMemoryStore } from './memory-store';
export { migrateRecord, recordProblems, splitCheckpoint } from './migrate';

/**
 * Crawl persistence: the CrawlStore interface and its two behaviour-identical implementations
 * (IndexedDB for the extension, in-memory for tests and the CLI).
 */
export type { CrawlProgress, CrawlRecord, CrawlSettings, CrawlStatus, CrawlStore, SeedSource } from './types';
export { createMemoryStore } from './memory-store';
export { createIdbStore, DB_VERSION, type IdbCrawlStore } from './idb-store';

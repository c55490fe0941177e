import type { CrawlCheckpoint, CrawlStats, PageResult, SkipRecord, Topic } from '../../engine';

/** The settings a crawl was started with (what the popup offers). */
export interface CrawlSettings {
  strategy: string;
  params: Record<string, number | string | boolean>;
  maxPages: number;
  maxBuffer: number;
  /** Minimum delay between two requests to one origin, ms. */
  politenessDelayMs: number;
  /** Only follow links to the seeds' hosts. */
  stayOnSeedSites: boolean;
  /**
   * Seed hosts on the user's own network or computer (host and port, as URL.host writes them) that the user ticked
   * in the start form: the only private hosts the crawl may fetch (lib/app/settings.ts crawlPolicy). Absent: none.
   */
  privateHosts?: string[];
  /** RNG seed, for reproducible runs. */
  seed: number;
}

export type CrawlStatus = 'running' | 'paused' | 'stopped' | 'done' | 'error';

/** Where the seeds came from. */
export interface SeedSource {
  kind: 'serp' | 'page' | 'link' | 'selection' | 'manual';
  engine?: string;
  query?: string;
  pageUrl?: string;
}

/** One crawl, as kept in storage (the "result list"). Its pages and checkpoint live in their own stores. */
export interface CrawlRecord {
  id: string;
  name: string;
  topic: Topic;
  seeds: string[];
  source: SeedSource;
  settings: CrawlSettings;
  status: CrawlStatus;
  /** Last error message when status is 'error'. */
  error?: string;
  createdAt: number;
  updatedAt: number;
  stats: CrawlStats;
}

/** What one write of a running crawl's progress holds (see {@link CrawlStore.saveProgress}). */
export interface CrawlProgress {
  /** Pages that arrived since the last write (kept per URL, as addPages). */
  pages: PageResult[];
  /** Skips that arrived since the last write (as addSkips). */
  skips: SkipRecord[];
  /** The crawl's checkpoint (replaces the stored one). */
  checkpoint: CrawlCheckpoint;
  /** Fields to merge into the crawl record (as updateCrawl); nothing is written to it when the crawl is unknown. */
  patch?: Partial<Omit<CrawlRecord, 'id'>>;
}

/**
 * Persistence for crawls. Two implementations: IndexedDB (idb) for the extension, in-memory for tests and the CLI.
 * Pages are stored per crawl, keyed by URL, so writing the same page twice keeps one copy.
 */
export interface CrawlStore {
  putCrawl(record: CrawlRecord): Promise<void>;
  getCrawl(id: string): Promise<CrawlRecord | undefined>;
  /** All crawls, newest first. */
  listCrawls(): Promise<CrawlRecord[]>;
  /** Merge fields into a crawl record; resolves to the updated record (undefined when the id is unknown). */
  updateCrawl(id: string, patch: Partial<Omit<CrawlRecord, 'id'>>): Promise<CrawlRecord | undefined>;
  /** Deletes the crawl, its pages, skips and checkpoint. */
  deleteCrawl(id: string): Promise<void>;
  addPages(crawlId: string, pages: PageResult[]): Promise<void>;
  /** Pages of a crawl, best score first. */
  getPages(crawlId: string, opts?: { offset?: number; limit?: number }): Promise<PageResult[]>;
  countPages(crawlId: string): Promise<number>;
  addSkips(crawlId: string, skips: SkipRecord[]): Promise<void>;
  getSkips(crawlId: string): Promise<SkipRecord[]>;
  saveCheckpoint(crawlId: string, checkpoint: CrawlCheckpoint): Promise<void>;
  getCheckpoint(crawlId: string): Promise<CrawlCheckpoint | undefined>;
  /**
   * Pages, skips, checkpoint and record patch of a running crawl in one atomic write (one IndexedDB transaction): a
   * reader, or a worker that starts after a kill, sees all of it or none of it, so the stored pages always match
   * the stored checkpoint. Rejects (writing nothing) on the inputs addPages / addSkips / saveCheckpoint reject.
   */
  saveProgress(crawlId: string, progress: CrawlProgress): Promise<void>;
}

import type { CrawlCheckpoint, CrawlStats, Judgement, PageFetcher, PageResult, SkipRecord, Topic } from '../../engine';

/** A topic as a crawl record keeps it: without the analysis a run works out (Topic.analysis). */
export type RecordTopic = Omit<Topic, 'analysis'>;

/** Version of the stored crawl record layout ({@link CrawlRecord.version}); lib/app/store/migrate.ts upgrades older ones. */
export const RECORD_VERSION = 2;

/** Host names a crawl refused to contact because of their address (lib/app/adapters/host-admission.ts). */
export interface RefusedHosts {
  /** Host names that answered from (or resolved to) an address the crawl refuses. */
  privateAddress: number;
  /** New host names not contacted because one of their registrable domain or referring page had. */
  notContacted: number;
  /** The first few refused host names with why. */
  examples: { host: string; detail: string }[];
}

/** A run's page fetcher: closed when the run ends; the extension's and the command line's say what they refused. */
export type RunFetcher = PageFetcher & { close?(): void; refusedHosts?(): RefusedHosts };

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
   * in the start form: the only private hosts the crawl may fetch (lib/app/rules/settings.ts crawlPolicy). Absent: none.
   */
  privateHosts?: string[];
  /** RNG seed, for reproducible runs. */
  seed: number;
  /** How requests are made, when not the defaults: the command line's options (the extension's UI never sets it). */
  fetch?: FetchSettings;
}

/** Request options the command line offers; kept with its crawls so `--resume` fetches as the first run did. */
export interface FetchSettings {
  /** Requests in flight over all sites. */
  concurrency: number;
  timeoutMs: number;
  /** Bytes read per page. */
  maxBytes: number;
  respectRobots: boolean;
  /** Loopback and private addresses allowed (`--allow-private`: a local test web); link-local ones stay refused. */
  allowPrivate: boolean;
  /** Private hosts allowed by name (`--private-host`: host or host:port, as URL.host writes it). */
  privateHosts?: string[];
  /** Times a URL is fetched again after a transient failure (`--retries`; CrawlLimits.retries). Absent: the engine's default. */
  retries?: number;
}

/**
 * running: a background is crawling it (or was, until it died: recovery decides). paused: waits for Resume.
 * stopped: stopped by the user, resumable. done: finished (budget reached or nothing left), not resumable.
 * error: failed, with the reason in `error`; never relaunched by recovery, resumable by the user when it can be.
 */
export type CrawlStatus = 'running' | 'paused' | 'stopped' | 'done' | 'error';

/** Where the seeds came from. */
export interface SeedSource {
  kind: 'serp' | 'page' | 'link' | 'selection' | 'manual';
  engine?: string;
  query?: string;
  pageUrl?: string;
}

/** One crawl, as kept in storage (the "result list"). Its pages, skips and checkpoint live in their own stores. */
export interface CrawlRecord {
  /** Layout version ({@link RECORD_VERSION}); records written before versions existed have none (version 1). */
  version: typeof RECORD_VERSION;
  id: string;
  name: string;
  /** The topic as the user gave it (its language detected at the start); never its analysis (derived, per run). */
  topic: RecordTopic;
  seeds: string[];
  source: SeedSource;
  settings: CrawlSettings;
  status: CrawlStatus;
  /** Last error message when status is 'error'. */
  error?: string;
  createdAt: number;
  updatedAt: number;
  stats: CrawlStats;
  /** Kept by the library's retention policy whatever its limits (lib/app/library/retention.ts). */
  pinned?: boolean;
  /** Set when the crawl is a topic watch (lib/app/watch): re-crawled on a schedule. */
  watch?: WatchState;
  /**
   * The user's thumbs up and down on its results, oldest first (absent: none): what re-ranks the list and, while the
   * crawl runs, what its topic learns from (the running crawl's checkpoint holds the same).
   */
  judgements?: Judgement[];
  /** Sites (origins) whose pages the user hid from the list. */
  hiddenSites?: string[];
  /** Host names its runs refused because of their address, summed over its runs (absent: none). */
  refusedHosts?: RefusedHosts;
}

/** How often a watch checks its topic. */
export type WatchSchedule = 'daily' | 'weekly';

/** Why a scheduled check was not run when it was due (the browser said so). */
export type WatchSkipReason = 'metered' | 'battery';

/** One check of a watch: a new run of its crawl from the seeds and the best pages found so far. */
export interface WatchCheck {
  /** When it started: the pages it found first have `firstSeenAt` equal to this, those it found changed `changedAt`. */
  startedAt: number;
  /** What "new" is new since: the start of the check before, or when the crawl was made. */
  since: number;
  /** Asked for by "Check now", or due by the schedule. */
  trigger: 'manual' | 'schedule';
  /** When it ended; absent while it runs. */
  endedAt?: number;
  /** How its run ended (the crawl's status then). */
  outcome?: 'done' | 'stopped' | 'error';
  /** Pages it found for the first time, pages whose main content changed, known pages answered 304. */
  newPages?: number;
  changedPages?: number;
  notModified?: number;
  /** New pages that are relevant (lib/app/rules/relevance.ts): the toolbar badge and the notice count these. */
  newRelevant?: number;
}

/** A crawl's watch: its schedule and its last check. */
export interface WatchState {
  schedule: WatchSchedule;
  createdAt: number;
  /** When the next scheduled check is due (epoch ms). */
  nextDueAt: number;
  /** The check running now, or the last one. */
  check?: WatchCheck;
  /** The user has looked at the last check's new pages: they no longer count on the badge. */
  seen?: boolean;
  /** The last scheduled check that was skipped, and why; cleared when a check runs. */
  skipped?: { at: number; reason: WatchSkipReason };
}

/**
 * One crawl's part of the library's full-text index, serialized by lib/app/library; the store keeps it opaque. It is
 * a cache: the crawl's pages are the truth, and pages missing from it are indexed again when it is loaded.
 */
export interface SearchIndexRecord {
  crawlId: string;
  /** Layout of `data` (lib/app/library's INDEX_VERSION): another layout is rebuilt from the pages. */
  version: number;
  /** Pages the index holds. */
  pages: number;
  /** Approximate bytes the crawl's pages take (their JSON), for retention by size. */
  bytes: number;
  /** The serialized index. */
  data: string;
}

/** What one write of a running crawl's progress holds (see {@link CrawlStore.saveProgress}). */
export interface CrawlProgress {
  /** Pages that arrived since the last write (kept per URL, as addPages). */
  pages: PageResult[];
  /** Skips that arrived since the last write (as addSkips). */
  skips: SkipRecord[];
  /** The crawl's resume state (replaces the stored one); null deletes it (a finished crawl is never resumed). */
  checkpoint: CrawlCheckpoint | null;
  /** Fields to merge into the crawl record (as updateCrawl); nothing is written to it when the crawl is unknown. */
  patch?: Partial<Omit<CrawlRecord, 'id'>>;
}

/** A window of a list: skip `offset` entries, return at most `limit` (all when absent). */
export interface ListWindow {
  offset?: number;
  limit?: number;
}

/**
 * Persistence for crawls, behind one interface with three behaviour-identical implementations: in memory (tests, a
 * command-line crawl without --save), IndexedDB (the extension) and files (the command line's --save/--resume).
 * Pages and skips are stored per crawl, keyed by URL, so writing the same one twice keeps one copy; they are only
 * ever added, never rewritten as a whole. The checkpoint is the crawl's resume state alone, opaque to the store.
 */
export interface CrawlStore {
  putCrawl(record: CrawlRecord): Promise<void>;
  getCrawl(id: string): Promise<CrawlRecord | undefined>;
  /** All crawls, newest first. */
  listCrawls(): Promise<CrawlRecord[]>;
  /** Merge fields into a crawl record; resolves to the updated record (undefined when the id is unknown). */
  updateCrawl(id: string, patch: Partial<Omit<CrawlRecord, 'id'>>): Promise<CrawlRecord | undefined>;
  /** Deletes the crawl, its pages, skips, checkpoint and search index. */
  deleteCrawl(id: string): Promise<void>;
  /** Deletes every crawl with its pages, skips and checkpoint, in one write: all of it or (on failure) none. */
  deleteAll(): Promise<void>;
  addPages(crawlId: string, pages: PageResult[]): Promise<void>;
  /** Pages of a crawl, best score first (ties by URL, descending). */
  getPages(crawlId: string, window?: ListWindow): Promise<PageResult[]>;
  countPages(crawlId: string): Promise<number>;
  /** Deletes the crawl's pages with these URLs (a watch kept under its cap); URLs it does not hold are ignored. */
  deletePages(crawlId: string, urls: string[]): Promise<void>;
  addSkips(crawlId: string, skips: SkipRecord[]): Promise<void>;
  /** Skipped URLs of a crawl, oldest first (ties by URL). */
  getSkips(crawlId: string, window?: ListWindow): Promise<SkipRecord[]>;
  countSkips(crawlId: string): Promise<number>;
  saveCheckpoint(crawlId: string, checkpoint: CrawlCheckpoint): Promise<void>;
  getCheckpoint(crawlId: string): Promise<CrawlCheckpoint | undefined>;
  /** The crawl's part of the library's search index, when one was stored. */
  getSearchIndex(crawlId: string): Promise<SearchIndexRecord | undefined>;
  /** Replaces the crawl's search index; writes nothing when the crawl is unknown (deleted meanwhile). */
  putSearchIndex(record: SearchIndexRecord): Promise<void>;
  /**
   * New pages and skips, the checkpoint and a record patch of a running crawl in one atomic write (one IndexedDB
   * transaction; for files, appends before the checkpoint's rename): whoever reads next, a worker started after a
   * kill included, never sees a checkpoint that counts a page the store does not hold. Rejects (writing nothing) on
   * the inputs addPages / addSkips / saveCheckpoint reject.
   */
  saveProgress(crawlId: string, progress: CrawlProgress): Promise<void>;
}

/**
 * What the runner is given: storage, evaluation, fetchers, guards and listeners, injected so the same runner runs in
 * the extension's background, the command line and tests. Also the shapes of a start and of a watch's run plan.
 */
import type { Crawl, CrawlOptions, Evaluator, PageResult, UrlPolicy, Validators } from '../../engine';
import type { StrategyDescription } from '../model/protocol';
import type { CrawlRecord, CrawlSettings, CrawlStore, FetchSettings, RunFetcher } from '../model/records';
import type { FailureNotes } from './failure-notes';

/**
 * What a run of a crawl takes besides its record, when it is a topic watch's check (lib/app/watch): the validators of
 * the pages known so far (conditional requests), the pages to fetch again with the seeds, and what to add to each page
 * before it is stored (when it was first seen, whether its content changed).
 */
export interface RunPlan {
  validators: ReadonlyMap<string, Validators>;
  revisit: string[];
  annotate(page: PageResult): PageResult;
}

export interface RunnerDeps {
  store: CrawlStore;
  /** The plan of a run of this record, if it needs one (a watch's check); asked at every launch, resumes included. */
  planRun?(record: CrawlRecord): Promise<RunPlan | undefined>;
  /** A run ended (done, stopped, failed or paused) and its final state is written. Must not throw. */
  onRunEnded?(record: CrawlRecord): void;
  /** The one evaluator all crawls share. */
  evaluator: Evaluator;
  /**
   * A fetcher for one run (politeness, robots, URL rules); closed when the run ends if it has `close()`. `seeds` are
   * the run's start URLs (their hosts are trusted: adapters/host-admission.ts).
   */
  makeFetcher(settings: CrawlSettings, policy: UrlPolicy, seeds: string[]): RunFetcher;
  /** The URL rules of a crawl. Default: lib/app/rules/settings' crawlPolicy (private seed hosts only if the user ticked them). */
  urlPolicy?(record: CrawlRecord): UrlPolicy;
  /**
   * Installs the browser's own guard for a run's URL rules before its first request (the extension: session rules
   * that block its requests to private hosts, lib/app/adapters/network-guard.ts). If it fails, the run does not start: the
   * crawl is marked 'error' with a message saying so (no crawl runs unguarded).
   */
  guardNetwork?(policy: UrlPolicy): Promise<void>;
  /** Default: the engine's createCrawl. */
  createCrawl?: (options: CrawlOptions) => Crawl;
  /** Known strategies, to validate start requests. */
  strategies?: () => StrategyDescription[];
  /** Where failures go that the store cannot take. Default: in memory. */
  failures?: FailureNotes;
  /** A crawl changed (record) and maybe got pages: feed the live hub. */
  onUpdate?(id: string, record: CrawlRecord, pages: PageResult[]): void;
  /** A crawl was added, renamed, deleted or changed status. */
  onCrawlsChanged?(): void;
  /** Pages of a crawl were stored (a run's write, an import): the library indexes them. Must not throw. */
  onPagesStored?(crawlId: string, pages: PageResult[]): void;
  /** A crawl and everything stored with it were deleted. */
  onCrawlRemoved?(crawlId: string): void;
  /** True while a run is fetching (keep the service worker alive), false when nothing runs. */
  onBusy?(busy: boolean): void;
  /** Something went wrong outside any request (storing a run's progress). */
  onError?(error: unknown): void;
  now?: () => number;
  newId?: () => string;
  /**
   * Least time between two background writes while pages arrive. Default 1000 ms: a killed worker loses at most that
   * much (plus fetches in flight), fetched again after the restart. Each write copies the crawl's resume state (the
   * strategy's frontier, ~150 KB at the default buffer) on the crawl's own thread, so writing 4 times a second cost a
   * service worker ~10% of its time.
   */
  flushEveryMs?: number;
}

/** Why the background (re)started: decides what happens to a crawl found 'running'. */
export type StartKind = 'browser-start' | 'worker-restart';

/** What code (not the UI) may add when starting a crawl: the command line's request options. */
export interface StartOptions {
  fetch?: FetchSettings;
}

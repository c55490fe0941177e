/**
 * The shapes the UIs are shown and the protocol carries: library hits, retention, watch views, page scores and start
 * drafts. Plain types at the bottom floor, so the protocol (./protocol.ts) and every floor above can name them; the
 * code that makes them lives with its service (library/, watch/, rules/relevance.ts, view/start-draft.ts).
 */
import type { PageResult } from '../../engine';
import type { CrawlRecord, SeedSource } from './records';

/** One page found by a library search. */
export interface LibraryHit {
  crawlId: string;
  url: string;
  title: string;
  snippet: string;
  /** The page's score in its crawl (cosine to that crawl's topic). */
  pageScore: number;
  fetchedAt: number;
  /** Relevance to the query (BM25 within the page's crawl). */
  rank: number;
}

export interface RetentionPolicy {
  /** Unpinned crawls kept (the newest); null: no limit. */
  keepCrawls: number | null;
  /** Megabytes all crawls may take (pinned ones count, but are never deleted); null: no limit. */
  maxMegabytes: number | null;
}

/** A watch as its view shows it: new and changed pages first, then the rest. */
export interface WatchView {
  record: CrawlRecord;
  /** What the new pages are new since (the check before the last, or the crawl's start); absent before any check. */
  since?: number;
  added: PageResult[];
  changed: PageResult[];
  /** The best of the other pages, at most VIEW_REST_ROWS (lib/app/watch/watcher.ts). */
  rest: PageResult[];
  restCount: number;
  /** True while its check runs in this background. */
  checking: boolean;
}

/** The part of a page the counts need (the snapshot carries these for every page of a crawl). */
export interface PageScore {
  url: string;
  score: number;
  isSeed: boolean;
}

/** A crawl about to be started: editable topic and seeds, and where they came from. */
export interface StartDraft {
  topic: string;
  seeds: string[];
  source: SeedSource;
  /**
   * What else describes the topic: the results' titles and snippets, or the text around the link, selection or page
   * a crawl starts from (Topic.context: it expands the topic's vector).
   */
  context: string[];
  /** The lang attribute of the page the draft comes from (a hint to the topic's language). */
  pageLang?: string;
}

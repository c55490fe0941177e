/**
 * The one typed message protocol of the extension.
 *
 * - UI (popup, results page) -> background: one-shot requests over `runtime.sendMessage`, each `{ type: 'forager/...' }`,
 *   answered with a {@link Reply} (errors travel as data: a thrown error does not cross `runtime` messaging reliably).
 * - UI <- background: live updates over a `runtime.connect({ name: LIVE_PORT })` port. The client sends
 *   {@link LiveClientMessage}s, the background answers with a snapshot first and then throttled {@link LiveServerMessage} deltas.
 * - background -> offscreen document (Chrome only): {@link OffscreenRequest}s addressed with `target: 'offscreen'`.
 *   Chrome serializes runtime messages as JSON, so page bytes travel base64-encoded there (see `lib/background/wire`).
 *
 * Every listener ignores messages not addressed to it: `isForagerRequest` / `isOffscreenRequest` are the guards.
 */
import type { CrawlRecord, CrawlSettings, SeedSource } from './store/types';
import type { CrawlStats, PageEvaluation, PageResult, SkipRecord } from './types';

/** Name of the runtime port for live updates. */
export const LIVE_PORT = 'forager/live';

/** A search results page as read by the content script (mirrors lib/serp/extract's result, plain data). */
export interface SerpInfo {
  engine: string | null;
  query: string;
  results: { url: string; title: string; snippet: string; rank: number }[];
  linkCount: number;
}

/** What the popup learns about the tab it was opened on. */
export interface TabContext {
  tabId: number;
  url: string;
  title: string;
  /** The extracted results page, or null when the tab is not a results page (or cannot be read). */
  serp: SerpInfo | null;
  /** Why the tab could not be read, when it could not. */
  error?: string;
}

/** What the user asks for when starting a crawl (validated and clamped by the background). */
export interface StartRequest {
  topic: string;
  language?: string;
  seeds: string[];
  source: SeedSource;
  /** Missing fields take the defaults. */
  settings?: Partial<CrawlSettings>;
  name?: string;
}

/** A strategy as the settings UI shows it: lib/strategies' StrategyInfo without its functions (plain, cloneable). */
export interface StrategyInfo {
  name: string;
  label: string;
  description: string;
  params: {
    name: string;
    label: string;
    type: string;
    default: number | string | boolean;
    min?: number;
    max?: number;
    integer?: boolean;
    description?: string;
  }[];
}

/** State of one crawl as the UI shows it. */
export interface CrawlSnapshot {
  record: CrawlRecord;
  /** Best pages first, at most the number asked for. */
  top: PageResult[];
  pageCount: number;
  /** True when this crawl is the one running in this background right now. */
  active: boolean;
}

/** A request to the background, answered with `ResponseMap[type]`. */
export type ForagerRequest =
  | { type: 'forager/inspectTab'; tabId: number }
  | { type: 'forager/start'; start: StartRequest }
  | { type: 'forager/pause'; id: string }
  | { type: 'forager/resume'; id: string }
  | { type: 'forager/stop'; id: string }
  | { type: 'forager/rename'; id: string; name: string }
  | { type: 'forager/delete'; id: string }
  | { type: 'forager/list' }
  | { type: 'forager/snapshot'; id?: string; limit?: number }
  | { type: 'forager/pages'; id: string; offset?: number; limit?: number }
  | { type: 'forager/skips'; id: string }
  | { type: 'forager/strategies' }
  | { type: 'forager/defaults' }
  | { type: 'forager/ping' };

/** The value each request resolves to. */
export interface ResponseMap {
  'forager/inspectTab': TabContext;
  'forager/start': CrawlRecord;
  'forager/pause': CrawlRecord;
  'forager/resume': CrawlRecord;
  'forager/stop': CrawlRecord;
  'forager/rename': CrawlRecord;
  'forager/delete': true;
  'forager/list': CrawlRecord[];
  /** The asked crawl, else the running one, else the newest; null when there are none. */
  'forager/snapshot': CrawlSnapshot | null;
  'forager/pages': PageResult[];
  'forager/skips': SkipRecord[];
  'forager/strategies': StrategyInfo[];
  'forager/defaults': CrawlSettings;
  'forager/ping': { ok: true; activeCrawl: string | null };
}

export type RequestType = ForagerRequest['type'];
export type RequestOf<T extends RequestType> = Extract<ForagerRequest, { type: T }>;

/** Every answer: the value, or an error message for the user. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: string };

const REQUEST_TYPES: ReadonlySet<string> = new Set<RequestType>([
  'forager/inspectTab',
  'forager/start',
  'forager/pause',
  'forager/resume',
  'forager/stop',
  'forager/rename',
  'forager/delete',
  'forager/list',
  'forager/snapshot',
  'forager/pages',
  'forager/skips',
  'forager/strategies',
  'forager/defaults',
  'forager/ping',
]);

/** True for messages meant for the background's request handler (and nothing else). */
export function isForagerRequest(message: unknown): message is ForagerRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { type?: unknown }).type === 'string' &&
    REQUEST_TYPES.has((message as { type: string }).type) &&
    (message as { target?: unknown }).target === undefined
  );
}

/** Messages a live-port client sends. */
export type LiveClientMessage =
  /** Follow one crawl (or, without id, whichever is running / newest, switching when a new crawl starts). */
  { type: 'subscribe'; id?: string; limit?: number };

/** Messages the background sends on a live port. */
export type LiveServerMessage =
  | { type: 'snapshot'; snapshot: CrawlSnapshot | null }
  /** New pages since the last message (not sorted) and the crawl's current record. */
  | { type: 'update'; id: string; record: CrawlRecord; pages: PageResult[] }
  /** The list of crawls changed (started, renamed, deleted): reload lists. */
  | { type: 'crawls-changed' };

/** Base64-encoded evaluation input: what crosses Chrome's JSON runtime messaging. */
export interface WireEvaluationInput {
  url: string;
  bodyBase64: string;
  contentType?: string;
  topic: { keywords: string; language?: string };
  contextWindow?: number;
}

/** Requests from the service worker to the offscreen document. */
export type OffscreenRequest =
  | { target: 'offscreen'; type: 'evaluate'; input: WireEvaluationInput }
  | { target: 'offscreen'; type: 'ping' };

export type OffscreenResponse = Reply<PageEvaluation> | Reply<'pong'>;

/** True for messages addressed to the offscreen document. */
export function isOffscreenRequest(message: unknown): message is OffscreenRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { target?: unknown }).target === 'offscreen' &&
    typeof (message as { type?: unknown }).type === 'string'
  );
}

/** The stats a new crawl starts with. */
export function emptyStats(maxPages: number): CrawlStats {
  return { pagesEvaluated: 0, maxPages, errors: 0, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 0, meanScore: 0 };
}

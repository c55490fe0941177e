/**
 * The one typed message protocol of the extension.
 *
 * - UI (popup, results page) -> background: one-shot requests over `runtime.sendMessage`, each `{ type: 'forager/...' }`,
 *   answered with a {@link Reply} (errors travel as data: a thrown error does not cross `runtime` messaging reliably).
 * - UI <- background: live updates over a `runtime.connect({ name: LIVE_PORT })` port. The client sends
 *   {@link LiveClientMessage}s, the background answers with a snapshot first and then throttled {@link LiveServerMessage} deltas.
 * - Evaluation in Chrome does not use runtime messaging (JSON, broadcast to every extension page): the service worker
 *   posts an {@link EvaluatorPortHandoff} with two MessagePorts to the offscreen document (`Client.postMessage`,
 *   structured clone), which hands the first on to its Worker ({@link WorkerPortHandoff}); from then on the service
 *   worker calls the Worker directly over that port with comlink, page bytes transferred. The second port carries
 *   {@link EvaluatorCrashNotice}s back.
 *
 * Every listener ignores messages not addressed to it: `isForagerRequest`, `isEvaluatorPortHandoff`, ... are the guards.
 */
import type { CrawlRecord, CrawlSettings, SeedSource } from './store/types';
import type { CrawlStats, PageResult, SkipRecord } from '../engine';

/** Name of the runtime port for live updates. */
export const LIVE_PORT = 'forager/live';

/** A search results page as read by the content script (mirrors lib/app/serp/extract's result, plain data). */
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

/** A strategy as the settings UI shows it: lib/engine/strategies' StrategyInfo without its functions (plain, cloneable). */
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
  /** Every crawl and everything else Forager keeps (options page, "Delete all Forager data"). */
  | { type: 'forager/deleteAll' }
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
  'forager/deleteAll': true;
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
  'forager/deleteAll',
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

/** Service worker -> offscreen document, with `ports: [evaluator, control]`: connect this port to the Worker. */
export interface EvaluatorPortHandoff {
  type: 'forager/evaluator-port';
  /** Terminate the current Worker first (the last one missed a deadline and may be stuck in a loop). */
  replace: boolean;
}

/** Offscreen document -> its Worker, with `ports: [evaluator]`: serve comlink calls on this port (instead of the last one). */
export interface WorkerPortHandoff {
  type: 'forager/worker-port';
}

/** Offscreen document -> service worker, on the control port: the Worker died; calls pending on it will never settle. */
export interface EvaluatorCrashNotice {
  type: 'forager/evaluator-crashed';
  reason: string;
}

const hasType = (message: unknown, type: string): boolean =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/** True for the service worker's port hand-off (the offscreen document's only message). */
export function isEvaluatorPortHandoff(message: unknown): message is EvaluatorPortHandoff {
  return hasType(message, 'forager/evaluator-port') && typeof (message as { replace?: unknown }).replace === 'boolean';
}

/** True for the offscreen document's hand-off of a port to its Worker. */
export function isWorkerPortHandoff(message: unknown): message is WorkerPortHandoff {
  return hasType(message, 'forager/worker-port');
}

/** True for a crash notice on the control port. */
export function isEvaluatorCrashNotice(message: unknown): message is EvaluatorCrashNotice {
  return hasType(message, 'forager/evaluator-crashed') && typeof (message as { reason?: unknown }).reason === 'string';
}

/** The stats a new crawl starts with. */
export function emptyStats(maxPages: number): CrawlStats {
  return { pagesEvaluated: 0, maxPages, errors: 0, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 0, meanScore: 0 };
}

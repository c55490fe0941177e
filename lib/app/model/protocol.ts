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
 * Every listener ignores messages not addressed to it: `isForagerRequest` (lib/app/background/handlers.ts), `isEvaluatorPortHandoff`,
 * ... are the guards.
 */
import type { CrawlRecord, CrawlSettings, SeedSource, WatchSchedule } from './records';
import type { JudgementValue, PageResult, SkipRecord, StrategyInfo } from '../../engine';
import type { LibraryHit, PageScore, RetentionPolicy, WatchView } from './views';

/** Name of the runtime port for live updates. */
export const LIVE_PORT = 'forager/live';

/** A search results page as read by the content script (mirrors lib/app/serp/extract's result, plain data). */
export interface SerpInfo {
  engine: string | null;
  /** The engine's display name ('Google'); null when the page's engine is unknown (read by its structure alone). */
  engineName: string | null;
  query: string;
  /** The results page's <html lang>, when it has one (the engine's interface language). */
  lang?: string;
  results: { url: string; title: string; snippet: string; rank: number }[];
  linkCount: number;
  /** Set when no result was read: why (a bot check, a consent wall, a search that found nothing, unreadable markup). */
  blocked?: 'challenge' | 'consent' | 'no-results' | 'unreadable';
  /** When no result was read: the links the user can see on the page, offered as seeds instead. */
  visibleLinks?: { url: string; text: string }[];
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
  /** The topic's language (ISO 639-1); detected from the topic, its context and `pageLang` when not given. */
  language?: string;
  /** Text describing the topic: the results' titles and snippets, or the text around a link or selection. */
  context?: string[];
  /** The `lang` of the page the crawl starts from (results page or the page of "Crawl from here"). */
  pageLang?: string;
  /** Score pages in any language alike. */
  allLanguages?: boolean;
  seeds: string[];
  source: SeedSource;
  /** Missing fields take the defaults. */
  settings?: Partial<CrawlSettings>;
  name?: string;
}

/** A strategy as the settings UI shows it: the engine's StrategyInfo without its functions (plain, cloneable). */
export type StrategyDescription = Pick<StrategyInfo, 'name' | 'label' | 'description' | 'params'>;

/** State of one crawl as the UI shows it. */
export interface CrawlSnapshot {
  record: CrawlRecord;
  /** Best pages first, at most the number asked for. */
  top: PageResult[];
  pageCount: number;
  /** True when this crawl is the one running in this background right now. */
  active: boolean;
  /** Every listed page's URL, score and seed flag: what the counts of new relevant pages need (lib/app/rules/relevance.ts). */
  scores: PageScore[];
}

/** The library as the settings show it. */
export interface LibraryInfo {
  crawls: number;
  /** Pages searchable over all crawls. */
  pages: number;
  /** Approximate bytes the crawls' pages take. */
  bytes: number;
  retention: RetentionPolicy;
}

/** A request that carries nothing but its type. */
type NoParams = object;

/**
 * The protocol table: every request the background answers, written once, with what it carries and what it answers.
 * The handler table in lib/app/background/handlers.ts `satisfies` {@link RequestHandlers}, so a missing, extra or wrongly typed
 * handler fails to compile; the UI's `request()` is typed from the same table.
 */
export interface Requests {
  /** Reads the tab the popup was opened on (a results page gives topic and seeds). */
  'forager/inspectTab': { params: { tabId: number }; answer: TabContext };
  'forager/start': { params: { start: StartRequest }; answer: CrawlRecord };
  'forager/pause': { params: { id: string }; answer: CrawlRecord };
  'forager/resume': { params: { id: string }; answer: CrawlRecord };
  'forager/stop': { params: { id: string }; answer: CrawlRecord };
  'forager/rename': { params: { id: string; name: string }; answer: CrawlRecord };
  'forager/delete': { params: { id: string }; answer: true };
  /** Every crawl and everything else Forager keeps (the options page's "Delete all Forager data"). */
  'forager/deleteAll': { params: NoParams; answer: true };
  /** Every crawl, newest first. */
  'forager/list': { params: NoParams; answer: CrawlRecord[] };
  /** The asked crawl, else the running one, else the newest; null when there are none. */
  'forager/snapshot': { params: { id?: string; limit?: number }; answer: CrawlSnapshot | null };
  /** A window of a crawl's pages, best first, at most {@link MAX_WINDOW} long (a shorter one is the last). */
  'forager/pages': { params: { id: string; offset?: number; limit?: number }; answer: PageResult[] };
  /** A window of a crawl's skipped URLs, oldest first, at most {@link MAX_WINDOW} long (a shorter one is the last). */
  'forager/skips': { params: { id: string; offset?: number; limit?: number }; answer: SkipRecord[] };
  'forager/strategies': { params: NoParams; answer: StrategyDescription[] };
  'forager/defaults': { params: NoParams; answer: CrawlSettings };
  'forager/ping': { params: NoParams; answer: { activeCrawl: string | null } };
  /** Full-text search over every crawl's pages (titles, snippets, main text), best match first. */
  'forager/search': { params: { query: string; limit?: number }; answer: LibraryHit[] };
  /** Imports a JSON export (lib/app/library/import.ts): the stored crawl, or a refusal saying why. */
  'forager/import': { params: { json: string }; answer: CrawlRecord };
  /** Pins a crawl (kept by retention) or unpins it. */
  'forager/pin': { params: { id: string; pinned: boolean }; answer: CrawlRecord };
  'forager/library': { params: NoParams; answer: LibraryInfo };
  /** Thumbs up (1) or down (-1) on one of a crawl's pages, or undo (0): the crawl's record with its judgements. */
  'forager/judge': { params: { id: string; url: string; value: JudgementValue }; answer: CrawlRecord };
  /** Hides a site's pages (origin, scheme://host) from a crawl's lists, or shows them again. */
  'forager/hideSite': { params: { id: string; site: string; hidden: boolean }; answer: CrawlRecord };
  /** Sets the retention policy and applies it at once: the ids of the crawls it deleted. */
  'forager/setRetention': { params: { policy: RetentionPolicy }; answer: { retention: RetentionPolicy; deleted: string[] } };
  /** Makes a crawl a topic watch (lib/app/watch), or changes its schedule. */
  'forager/watch': { params: { id: string; schedule: WatchSchedule }; answer: CrawlRecord };
  /** Stops watching a crawl (it and its pages stay). */
  'forager/unwatch': { params: { id: string }; answer: CrawlRecord };
  /** "Check now": the watch's check at once (refused while another crawl runs). */
  'forager/checkNow': { params: { id: string }; answer: CrawlRecord };
  /** A watch's pages: new since the last check and changed first, then the rest. */
  'forager/watchView': { params: { id: string }; answer: WatchView };
  /** The user has seen the watch's new pages: they leave the toolbar badge. */
  'forager/watchSeen': { params: { id: string }; answer: true };
}

export type RequestType = keyof Requests;
/** The message of one request type: `{ type, ...params }`. */
export type RequestOf<T extends RequestType> = { type: T } & Requests[T]['params'];
/** Any request to the background. */
export type ForagerRequest = { [T in RequestType]: RequestOf<T> }[RequestType];
/** What a request of type T answers. */
export type AnswerOf<T extends RequestType> = Requests[T]['answer'];
/** One handler per request type, each answering its own type (lib/app/background/handlers.ts). */
export type RequestHandlers<Deps> = { [T in RequestType]: (request: RequestOf<T>, deps: Deps) => Promise<AnswerOf<T>> };

/** Every answer: the value, or an error message for the user. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Longest page or skip window one answer carries. Windows keep every runtime message small (Chrome refuses messages
 * over 64 MiB; a hostile crawl can hold hundreds of thousands of skips): exports read a crawl window by window.
 */
export const MAX_WINDOW = 5000;

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

/**
 * Service worker -> Chrome's offscreen document, over runtime messaging: what `navigator.getBattery()` says (a
 * document's API; the service worker has none). Answered with {@link BatteryAnswer}; `target` keeps the background's
 * own request handler from taking it.
 */
export interface BatteryQuery {
  target: 'offscreen';
  type: 'forager/battery';
}

/** The battery as the offscreen document reads it; null when the API is missing or refuses. */
export type BatteryAnswer = { charging: boolean; level: number } | null;

export const BATTERY_QUERY: BatteryQuery = { target: 'offscreen', type: 'forager/battery' };

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

/** True for the service worker's battery question (the offscreen document's runtime listener answers only this). */
export function isBatteryQuery(message: unknown): message is BatteryQuery {
  return hasType(message, 'forager/battery') && (message as { target?: unknown }).target === 'offscreen';
}

/** True for a crash notice on the control port. */
export function isEvaluatorCrashNotice(message: unknown): message is EvaluatorCrashNotice {
  return hasType(message, 'forager/evaluator-crashed') && typeof (message as { reason?: unknown }).reason === 'string';
}

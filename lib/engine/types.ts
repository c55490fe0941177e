/**
 * The shared vocabulary of the engine. Everything here is plain, structured-cloneable data so it crosses
 * worker boundaries, runtime messages and IndexedDB unchanged.
 *
 * Where a page goes: fetcher (lib/fetch) -> evaluator (lib/html/evaluate) -> strategy (lib/engine/strategies)
 * -> crawl loop (lib/crawl) emits CrawlEvents -> CLI / popup / lab consume them.
 */

/** A term-frequency vector: stemmed term -> weight. */
export type TermVector = Record<string, number>;

/** The topic a crawl is focused on. */
export interface Topic {
  /** The user's words, as typed (the search query). */
  keywords: string;
  /**
   * The topic's language (ISO 639-1, e.g. 'en', 'de', 'fr'): its stop words and stemmer, and, when set, pages in
   * another language score low (see `allLanguages`). Unset: English stop words and stemmer, no language filter.
   */
  language?: string;
  /** Score pages in any language alike (no penalty for a language other than `language`). */
  allLanguages?: boolean;
  /**
   * Text describing the topic besides the query: the results page's titles and snippets, or the link text and
   * its surroundings a crawl started from. Expands the topic vector (see text/vector.ts topicVector).
   */
  context?: string[];
  /** Scoring weights; each has a default. */
  weights?: TopicWeights;
}

/** How a topic's vector and the page score are put together. */
export interface TopicWeights {
  /**
   * Mass of the expansion terms from `context`, as a share of the query terms' mass (0: no expansion).
   * Default 0.4 (see text/vector.ts DEFAULT_EXPANSION).
   */
  expansion?: number;
  /** Weight of a page's boilerplate text (navigation, banners, link lists) in its score, in [0, 1]; 1: none. Default 0.2. */
  boilerplate?: number;
}

/** One outlink of an evaluated page, with the features strategies learn from. */
export interface LinkFeature {
  /** Canonical absolute URL (already resolved against <base href> and canonicalized). */
  url: string;
  /** Visible anchor text, whitespace-collapsed (alt text of images inside the link included). */
  anchorText: string;
  /** Stemmed, stop-word-free terms of the anchor text. */
  anchorTerms: string[];
  /** Stemmed terms just before the link (nearest last), up to the context window size. */
  contextBefore: string[];
  /** Stemmed terms just after the link (nearest first), up to the context window size. */
  contextAfter: string[];
  /** rel=nofollow on the link. */
  nofollow: boolean;
}

/** What the evaluator makes of one fetched HTML page. */
export interface PageEvaluation {
  /** Cosine similarity of the page's term vector to the topic vector, in [0, 1]. */
  score: number;
  title: string;
  /** The passage that best matches the topic (plain text, never HTML). */
  snippet: string;
  /** Outlinks in document order, deduplicated by URL (first occurrence wins, later anchors appended). */
  links: LinkFeature[];
  /** Term frequencies of the page's visible text (stemmed, stop words removed). */
  terms: TermVector;
  /** Number of tokens in the visible text (after stop-word removal). */
  length: number;
  /** Charset actually used to decode the bytes. */
  charset: string;
  /** Effective base URL (from <base href> or the final URL). */
  baseUrl: string;
  /** meta robots: noindex -> do not list as a result; nofollow -> do not follow its links. */
  robots: { noindex: boolean; nofollow: boolean };
  /** Declared language (<html lang>), if any. */
  lang?: string;
  /**
   * Publication date as the page states it (unparsed): meta article:published_time and kin, else JSON-LD
   * datePublished, else the first <time datetime> in the main content.
   */
  published?: string;
  /** Last update as the page states it: meta article:modified_time / og:updated_time, else JSON-LD dateModified. */
  modified?: string;
  /** og:title, when the page has one. */
  ogTitle?: string;
  /** Text of the first non-empty <h1>. */
  h1?: string;
  /**
   * The page's language (ISO 639-1): its first `lang` attribute, else detected from its main text; unset when
   * neither says. Its text is analysed (stop words, stemmer) in this language when known before the pass.
   */
  language?: string;
}

/** What the evaluator needs: the raw bytes and what the server said about them. */
export interface EvaluationInput {
  /** Final URL after redirects (resolution base). */
  url: string;
  body: Uint8Array;
  /** Content-Type header value, if any (its charset beats <meta charset>). */
  contentType?: string;
  topic: Topic;
  /** Words either side of a link kept as its context. Default 10. */
  contextWindow?: number;
}

/** Evaluates pages; in the extension this is a Web Worker behind comlink, in Node a direct call. */
export interface Evaluator {
  evaluate(input: EvaluationInput): Promise<PageEvaluation>;
}

/** A URL waiting in the frontier. */
export interface FrontierEntry {
  url: string;
  /** Priority (higher is better). */
  score: number;
  /** Clicks from the nearest seed (seeds are 0). */
  depth: number;
  /** The page it was first found on (undefined for seeds). */
  from?: string;
}

/** An evaluated page as shown to a strategy. */
export interface EvaluatedPage {
  url: string;
  depth: number;
  from?: string;
  isSeed: boolean;
  evaluation: PageEvaluation;
  /** Outlinks worth considering: canonical, allowed by the URL rules, not yet fetched by this crawl. */
  links: LinkFeature[];
}

/** Anything JSON can hold: strategy and checkpoint state must be this. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A crawl strategy: decides what to fetch next. The crawl loop shows it every evaluated page with its outlinks,
 * asks it for the next batch, and tells it about failed fetches. It owns its frontier, keeps whatever state it
 * wants, and can save and restore that state as JSON (checkpoints).
 */
export interface Strategy {
  /** Registry name, e.g. 'best-n-first'. */
  readonly name: string;
  /** Seeds enter the frontier (depth 0). */
  addSeeds(urls: string[]): void;
  /** A page was evaluated: learn from it and enqueue its links. */
  onPage(page: EvaluatedPage): void;
  /** A fetch failed (or was refused) and will not be retried. */
  onError?(url: string, reason: string): void;
  /** Up to `max` entries to fetch next, removed from the frontier, in the order to fetch them. Empty: nothing left. */
  nextBatch(max: number): FrontierEntry[];
  /** URLs currently waiting. */
  frontierSize(): number;
  save(): Json;
  restore(state: Json): void;
}

/** Constructor arguments every strategy receives. */
export interface StrategyContext {
  topic: Topic;
  /** Frontier capacity (MAX_BUFFER). */
  maxBuffer: number;
  /** Seed of the strategy's RNG; same seed, same choices. */
  seed: number;
  /** Strategy-specific parameters (e.g. { n: 16 }). */
  params: Record<string, number | string | boolean>;
}

/** Why a URL was not fetched or not evaluated. */
export type SkipReason =
  | 'url-refused' // URL rules: scheme, private address, trap, non-HTML extension
  | 'robots' // robots.txt disallows
  | 'http-error' // 4xx/5xx
  | 'not-html' // Content-Type not text/html or application/xhtml+xml
  | 'timeout'
  | 'network' // connection refused, DNS, reset
  | 'redirect' // too many redirects, loop, or a hop refused by the URL rules
  | 'aborted'
  | 'evaluation'; // the evaluator threw

/** One successful HTTP response, body possibly cut at the size cap. */
export interface FetchSuccess {
  ok: true;
  url: string;
  finalUrl: string;
  status: number;
  contentType?: string;
  lastModified?: string;
  body: Uint8Array;
  truncated: boolean;
  /** Milliseconds from request to end of body. */
  elapsedMs: number;
}

export interface FetchFailure {
  ok: false;
  url: string;
  reason: SkipReason;
  /** Human-readable detail, e.g. 'HTTP 404', 'redirect loop', 'timeout after 10000 ms'. */
  detail: string;
  status?: number;
  elapsedMs: number;
}

export type FetchOutcome = FetchSuccess | FetchFailure;

/** Fetches one URL politely (robots, per-origin delay, concurrency) and never throws. */
export interface PageFetcher {
  fetch(url: string, signal?: AbortSignal): Promise<FetchOutcome>;
}

/** One ranked result of a crawl. */
export interface PageResult {
  url: string;
  title: string;
  snippet: string;
  score: number;
  depth: number;
  from?: string;
  /** Epoch ms when the page was fetched. */
  fetchedAt: number;
  lastModified?: string;
  /** Publication date from the page's metadata (PageEvaluation.published), as given. */
  published?: string;
  /** Update date from the page's metadata (PageEvaluation.modified), as given. */
  modified?: string;
  /** og:title, for a page whose <title> is empty. */
  ogTitle?: string;
  /** First <h1>, for a page whose <title> is empty. */
  h1?: string;
  /** Among the seeds (e.g. shown by the search engine), so not fresh. */
  isSeed: boolean;
  /** meta robots noindex: evaluated but should not be listed. */
  noindex?: boolean;
}

/** A skipped URL and why. */
export interface SkipRecord {
  url: string;
  reason: SkipReason;
  detail: string;
  at: number;
}

export interface CrawlLimits {
  /** Pages to evaluate (successful HTML fetches only). Default 500. */
  maxPages: number;
  /** Frontier capacity. Default 256. */
  maxBuffer: number;
}

export interface CrawlStats {
  pagesEvaluated: number;
  maxPages: number;
  errors: number;
  frontierSize: number;
  fetchesInFlight: number;
  elapsedMs: number;
  /** Mean page score so far (harvest). */
  meanScore: number;
  /** Where the time went, summed over fetches (they overlap, so these can exceed elapsedMs). */
  timings?: { fetchMs: number; evaluateMs: number; strategyMs: number };
}

export type CrawlEvent =
  | { type: 'page'; page: PageResult; stats: CrawlStats }
  | { type: 'skip'; skip: SkipRecord; stats: CrawlStats }
  | { type: 'progress'; stats: CrawlStats }
  /**
   * A clean cut (a batch end, a pause point, an abort): `crawl.checkpoint()` taken while handling this event is a
   * resume point with nothing in flight. The event carries no copy itself: a checkpoint copies the strategy's state
   * (~150 KB for forager at the default buffer), and most consumers do not want one at every batch end.
   */
  | { type: 'checkpoint' }
  | { type: 'done'; reason: 'budget' | 'exhausted' | 'aborted'; stats: CrawlStats };

/** Everything needed to continue a crawl exactly where it stopped: plain, serializable data. */
export interface CrawlCheckpoint {
  version: 1;
  topic: Topic;
  seeds: string[];
  strategy: { name: string; params: StrategyContext['params']; seed: number; state: Json };
  limits: CrawlLimits;
  /** Canonical URLs already fetched (success or failure): never fetched again. */
  fetched: string[];
  /** The batch being fetched when the checkpoint was taken, and the outcomes already in. */
  pendingBatch: FrontierEntry[];
  pendingDone: PendingOutcome[];
  results: PageResult[];
  skips: SkipRecord[];
  pagesEvaluated: number;
  errors: number;
  scoreSum: number;
  elapsedMs: number;
}

/** A finished fetch within the pending batch, kept so a resumed crawl does not fetch it again. */
export type PendingOutcome =
  | { url: string; kind: 'page'; page: PageResult; evaluation: PageEvaluation }
  | { url: string; kind: 'skip'; skip: SkipRecord };

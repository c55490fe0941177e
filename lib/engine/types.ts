/**
 * The shared vocabulary of the engine. Everything here is plain, structured-cloneable data so it crosses
 * worker boundaries, runtime messages and IndexedDB unchanged.
 *
 * Where a page goes: fetcher (fetch/) -> evaluator (html/evaluate) -> strategy (strategies/) -> crawl loop
 * (crawl.ts) emits CrawlEvents -> CLI / popup / lab consume them.
 */
import type { Clock } from './clock';
import type { UrlPolicy } from './url/rules';

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
  /**
   * Relevance feedback from the user's judgements (Rocchio; built by text/feedback.ts `withFeedback`): stemmed term ->
   * weight as a share of the query vector's mass, positive where up-voted pages pull, negative where down-voted push.
   */
  feedback?: TermVector;
  /**
   * The topic's words as text analysis makes them, worked out once where the language data is (text/topic-analysis.ts
   * analyseTopic): with it, scoring links and pages against the topic needs no stop list, stemmer or detector, which
   * is what lets the extension's service worker run a crawl without them. Derived data: never stored in a crawl
   * record or an export; a topic whose words changed since is analysed again.
   */
  analysis?: TopicAnalysis;
}

/** What besides a topic says its language: the `lang` of the page it comes from (a results page, a page). */
export interface TopicHints {
  pageLang?: string;
}

/** A topic's analysed words (see {@link Topic.analysis}). */
export interface TopicAnalysis {
  /** A hash of what the analysis was made from (keywords, language, context, expansion weight). */
  of: string;
  /** The query's terms, each occurrence counting 1 (text/vector.ts keywordVector). */
  query: TermVector;
  /** The query's terms with its context's expansion terms: the topic vector before feedback. */
  expanded: TermVector;
}

/** The user's verdict on a result: relevant (1), not relevant (-1), or no verdict (0: undone). */
export type JudgementValue = 1 | 0 | -1;

/** A judged page, as the crawl learns from it: its term profile (PageResult.profile.terms) and the verdict. */
export interface Judgement {
  url: string;
  value: 1 | -1;
  /** The page's term profile (its heaviest terms); empty when unknown (the topic then does not move). */
  terms: TermVector;
  /** Epoch ms of the judgement. */
  at: number;
}

/** What a strategy is told when the user judges a page (Strategy.onJudgement). */
export interface JudgementChange {
  url: string;
  value: JudgementValue;
  /** The page's verdict before this one (0: none). */
  previous: JudgementValue;
  /** The topic with every judgement so far: new pages are scored against it. */
  topic: Topic;
  /**
   * Pages of this run whose score the new topic moved, by how much (new - old): what their queued links inherited
   * follows them.
   */
  moved: ReadonlyMap<string, number>;
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
  /**
   * The words of the link's URL, tokenized in the topic's language (text/url-terms.ts): the evaluator's work, so
   * a strategy reads them without language data. Absent on links made elsewhere; strategies then tokenize.
   */
  urlTerms?: readonly string[];
}

/** What the evaluator makes of one fetched HTML page. */
export interface PageEvaluation {
  /** Cosine similarity of the page's term vector to the topic vector, in [0, 1]. */
  score: number;
  title: string;
  /** The passage that best matches the topic (plain text, never HTML). */
  snippet: string;
  /** The page's main text (its heaviest text, boilerplate never), whitespace collapsed, at most 4000 characters. */
  mainText?: string;
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
   * Hash of the page's whole main content (the heaviest text, as `mainText` is read, but not cut at 4000 characters;
   * whitespace collapsed): two fetches of a page whose main content is the same have the same hash, whatever changed
   * in its navigation, banners, footers or markup (text/hash.ts).
   */
  contentHash?: string;
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
  /**
   * The topic with its language and analysis (text/topic-analysis.ts analyseTopic), worked out where the language data
   * is. Optional: without it, the caller analyses the topic itself.
   */
  analyseTopic?(topic: Topic, hints?: TopicHints): Promise<Topic>;
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
  /** Failed attempts so far that may be retried (a timeout, a server error); absent: none. */
  attempt?: number;
}

/** An evaluated page as shown to a strategy. */
export interface EvaluatedPage {
  /** The page's URL (after redirects). */
  url: string;
  /** The frontier URL that was fetched (`url` unless it redirected): what the strategy handed out. */
  requestedUrl: string;
  depth: number;
  from?: string;
  isSeed: boolean;
  /** The evaluation; without links when the page's meta robots says nofollow. */
  evaluation: PageEvaluation;
  /**
   * Outlinks to follow: canonical, allowed by the URL rules, not yet fetched by this crawl. Empty when the page's
   * meta robots says nofollow (the crawl loop applies that rule once, for every strategy).
   */
  links: LinkFeature[];
}

/** Anything JSON can hold: strategy and checkpoint state must be this. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Whether a URL's site may be contacted now (the crawl loop's answer from the fetcher's politeness). */
export type ReadyTest = (url: string) => boolean;

/**
 * A crawl strategy: decides what to fetch next. The crawl loop shows it every evaluated page with its outlinks as
 * soon as the page is evaluated, asks it for one URL whenever a fetch slot is free, and tells it about failed
 * fetches. It owns its frontier, keeps whatever state it wants, and can save and restore that state as JSON
 * (checkpoints). Most strategies extend FrontierStrategy (lib/engine/strategies/frontier-strategy.ts), which holds the
 * frontier plumbing.
 */
export interface Strategy {
  /** Registry name, e.g. 'best-n-first'. */
  readonly name: string;
  /** Seeds enter the frontier (depth 0). */
  addSeeds(urls: string[]): void;
  /** A page was evaluated: learn from it and enqueue its links. */
  onPage(page: EvaluatedPage): void;
  /** A fetch of a URL it handed out failed (or was refused) and will not be retried. */
  onError?(url: string, reason: string): void;
  /**
   * The next URL to fetch, chosen among the queued URLs `ready` accepts (their site may be contacted now), and
   * removed from the frontier; null when none is ready (or none is queued).
   */
  next(ready: ReadyTest): FrontierEntry | null;
  /** URLs currently waiting. */
  frontierSize(): number;
  /**
   * The user judged a page (or undid a judgement): learn from it and re-score what depends on it. Optional: a
   * strategy without it still gets the judgement's effect on the topic through the pages' scores.
   */
  onJudgement?(change: JudgementChange): void;
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

/** What a fetch knows about a page from an earlier fetch: sent as a conditional request (If-None-Match / If-Modified-Since). */
export interface Validators {
  /** The ETag response header of the earlier fetch, as sent. */
  etag?: string;
  /** The Last-Modified response header of the earlier fetch, as sent. */
  lastModified?: string;
}

/** One successful HTTP response, body possibly cut at the size cap. */
export interface FetchSuccess {
  ok: true;
  notModified?: false;
  url: string;
  finalUrl: string;
  status: number;
  contentType?: string;
  lastModified?: string;
  etag?: string;
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
  /**
   * The failure may pass: the server did not answer in time, or answered 408, 425, 429, 500, 502, 503, 504, 522 or
   * 524. The crawl fetches such a URL again later (CrawlLimits.retries). Refused connections, DNS failures and other
   * network errors are not marked: a browser reports them all alike, and most are lasting.
   */
  transient?: true;
  elapsedMs: number;
}

/**
 * A conditional request answered 304 Not Modified: the page is as it was when its validators were taken. No body, so
 * nothing to evaluate.
 */
export interface FetchNotModified {
  ok: true;
  notModified: true;
  url: string;
  finalUrl: string;
  status: 304;
  /** The validators the 304 carried (a server may send a new ETag or Last-Modified with it). */
  etag?: string;
  lastModified?: string;
  elapsedMs: number;
}

export type FetchOutcome = FetchSuccess | FetchNotModified | FetchFailure;

/** Whether fetch() would send a request to one site now (see {@link PageFetcher.gate}). */
export interface ReadyGate {
  ready(): boolean;
}

/**
 * Fetches one URL politely (robots, per-site pause and limit, requests in flight) and never throws; tells the crawl
 * loop which sites may be contacted now, so that the loop starts only fetches that go out at once.
 */
export interface PageFetcher {
  /**
   * With `validators`, the request is conditional, and a 304 answer is a {@link FetchNotModified}. `from` is the page
   * whose link led here (absent for seeds): the extension and the command line bound wildcard DNS by it.
   */
  fetch(url: string, signal?: AbortSignal, validators?: Validators, from?: string): Promise<FetchOutcome>;
  /** Requests in flight at most: the crawl keeps this many fetches going. Absent: 6. */
  readonly maxInFlight?: number;
  /**
   * The URL rules this fetcher applies to every URL and redirect hop; the crawl applies them to outlinks too (one
   * place for both). Absent: the default rules.
   */
  readonly urlPolicy?: UrlPolicy;
  /**
   * Whether fetch(url) would send its request now, without waiting for its site (politeness pause, Retry-After,
   * per-site limit). Absent: every URL is always ready.
   */
  isReady?(url: string): boolean;
  /**
   * The readiness of `url`'s site, as one object for all the URLs of a site: `gate(url).ready()` is `isReady(url)`,
   * now and later. The crawl loop asks for every queued URL its strategy walks past, and keeps each URL's gate.
   * Absent: the loop asks isReady.
   */
  gate?(url: string): ReadyGate;
  /** When a site that is resting now becomes ready (on `clock`, ms), or undefined when none rests. */
  nextReadyAt?(): number | undefined;
  /** The site (origin) {@link nextReadyAt} is about, with its time; undefined when none rests. */
  nextReadySite?(): { site: string; at: number } | undefined;
  /** The clock its timeouts and pauses run on; the crawl runs on the same one. Absent: the real clock. */
  readonly clock?: Clock;
}

/** One ranked result of a crawl. */
export interface PageResult {
  url: string;
  title: string;
  snippet: string;
  /** The page's main text (PageEvaluation.mainText), for the library's search; absent in crawls stored before it. */
  mainText?: string;
  score: number;
  depth: number;
  from?: string;
  /** Epoch ms when the page was fetched. */
  fetchedAt: number;
  lastModified?: string;
  /** The ETag response header, when the server sent one: with `lastModified`, what a later fetch is conditional on. */
  etag?: string;
  /** PageEvaluation.contentHash: whether the main content changed between two fetches. */
  contentHash?: string;
  /**
   * Set by a topic watch (lib/app/watch), never by the engine: when the watch first found the page (a check's start
   * time; absent for pages of the crawl the watch was made from), and when a check last found its main content
   * changed (contentHash).
   */
  firstSeenAt?: number;
  changedAt?: number;
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
  /**
   * The page's term profile for relevance feedback: its heaviest terms (text/feedback.ts PROFILE_TERMS) and their cosine
   * to the topic vector the page was scored with, so a new topic re-scores it without fetching or parsing it again
   * (text/feedback.ts rescore). Absent in crawls stored before it.
   */
  profile?: TermProfile;
}

/** A page's heaviest terms and their cosine to the topic vector it was scored with. */
export interface TermProfile {
  terms: TermVector;
  cosine: number;
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
  /**
   * Times a URL whose fetch failed transiently (FetchFailure.transient) is fetched again, after 2 s, then 8 s, 32 s
   * (and as long as its site rests). Absent: 2.
   */
  retries?: number;
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
  /** Outlinks refused by the URL rules so far (sightings; see {@link RefusedLinks}). Absent in stats stored before. */
  linksRefused?: number;
  /** Conditional requests answered 304 Not Modified (not evaluated, not counted in pagesEvaluated). Absent: none. */
  notModified?: number;
  /** Fetches that failed transiently and were queued to be tried again (not in `errors`). Absent: none. */
  retried?: number;
  /**
   * Set while nothing is in flight and every URL left waits at least 10 s (crawl.ts WAIT_SHOWN_MS) for its site (a Retry-After,
   * a long Crawl-delay) or its retry: the site (origin) the crawl goes on with first, and when (clock ms). Absent
   * otherwise.
   */
  waiting?: { site: string; until: number };
  /** Where the time went, summed over fetches (they overlap, so these can exceed elapsedMs). */
  timings?: { fetchMs: number; evaluateMs: number; strategyMs: number };
}

/**
 * Outlinks the URL rules refused, counted per rule with a few examples. They get no skip record each: a hostile page
 * holds thousands (a 200-page crawl once stored 550,808), and nothing was fetched.
 */
export interface RefusedLinks {
  /** Sightings of refused links (a refused link found on ten pages counts ten times). */
  total: number;
  /** Per rule (e.g. 'private host', 'scheme', 'calendar'): how many, and the first few URLs with the rule's detail. */
  byRule: Record<string, { count: number; examples: { url: string; detail: string }[] }>;
}

export type CrawlEvent =
  | { type: 'page'; page: PageResult; stats: CrawlStats }
  /** A URL that was fetched (or a seed) and gave no page: why. */
  | { type: 'skip'; skip: SkipRecord; stats: CrawlStats }
  /** A conditional request (CrawlOptions.validators) answered 304: the page is unchanged, and was not evaluated. */
  | { type: 'not-modified'; url: string; etag?: string; lastModified?: string; stats: CrawlStats }
  | { type: 'progress'; stats: CrawlStats }
  /**
   * A fetch failed transiently and its URL is queued to be fetched again at `at` (clock time); `attempt` counts the
   * failures so far. A URL out of retries ends as a 'skip'.
   */
  | { type: 'retry'; url: string; attempt: number; reason: SkipReason; detail: string; at: number; stats: CrawlStats }
  /** The outlinks refused so far, summed up: sent before each 'checkpoint' event when some were refused. */
  | { type: 'links-refused'; refused: RefusedLinks; stats: CrawlStats }
  /**
   * A point worth saving at: nothing is in flight (a pause point, an abort, the end). `crawl.checkpoint()` is valid
   * at any moment; this says the crawl stands still. The event carries no copy itself: a checkpoint copies the
   * strategy's state (~150 KB for forager at the default buffer).
   */
  | { type: 'checkpoint' }
  | { type: 'done'; reason: 'budget' | 'exhausted' | 'aborted'; stats: CrawlStats };

/**
 * Everything needed to continue a crawl where it stopped: resume state only, plain serializable data. The pages and
 * skips reach consumers as events only; a consumer keeps them itself and stores this next to the ones delivered so
 * far: a checkpoint taken while an event is handled covers exactly the outcomes whose events came before it.
 */
export interface CrawlCheckpoint {
  version: 2;
  topic: Topic;
  seeds: string[];
  strategy: { name: string; params: StrategyContext['params']; seed: number; state: Json };
  limits: CrawlLimits;
  /** Canonical URLs already fetched (success or failure): never fetched again. */
  fetched: string[];
  /**
   * URLs the strategy handed out whose outcome was not delivered yet, those waiting for a retry among them (with
   * their `attempt`): fetched first when the crawl resumes.
   */
  inFlight: FrontierEntry[];
  pagesEvaluated: number;
  errors: number;
  scoreSum: number;
  elapsedMs: number;
  linksRefused: RefusedLinks;
  /** Conditional requests answered 304 so far (absent in checkpoints written before conditional requests). */
  notModified?: number;
  /** Fetches queued to be tried again so far (absent: none). */
  retried?: number;
  /** The user's judgements so far (absent: none); `topic` is the topic without them. */
  judgements?: Judgement[];
}

/** The checkpoint of the batch loop (before 2): it carried the crawl's results and skips too. */
export interface CrawlCheckpointV1 {
  version: 1;
  topic: Topic;
  seeds: string[];
  strategy: { name: string; params: StrategyContext['params']; seed: number; state: Json };
  limits: CrawlLimits;
  fetched: string[];
  /** The batch being fetched when the checkpoint was taken, and the outcomes already in. */
  pendingBatch: FrontierEntry[];
  pendingDone: PendingOutcomeV1[];
  results: PageResult[];
  skips: SkipRecord[];
  pagesEvaluated: number;
  errors: number;
  scoreSum: number;
  elapsedMs: number;
}

/** A finished fetch within a version 1 checkpoint's pending batch. */
export type PendingOutcomeV1 =
  | { url: string; kind: 'page'; page: PageResult; evaluation: PageEvaluation }
  | { url: string; kind: 'skip'; skip: SkipRecord };

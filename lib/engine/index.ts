/**
 * Forager's engine: the one entry point for everything outside lib/engine (the application layer, the extension's
 * entrypoints, the command line, the lab and the benchmark). Pure TypeScript over web-standard globals only
 * (fetch, URL, TextDecoder, AbortSignal, timers), so it runs unchanged in Node, a service worker and a Worker;
 * `npm run lint` and `tsconfig.engine.json` hold it to that. All time goes through one injectable Clock (clock.ts),
 * so a crawl can run on simulated time (lib/engine/README.md).
 *
 * Where a page goes: fetcher (fetch/) -> evaluator (html/evaluate) -> strategy (strategies/) -> crawl loop (crawl.ts),
 * which emits CrawlEvents to whoever drives it.
 */
export type * from './types';
export { createCrawl, crawl, DEFAULT_LIMITS, DEFAULT_RETRIES, type Crawl, type CrawlOptions, WAIT_SHOWN_MS } from './crawl';
export { migrateCheckpoint, type MigratedCheckpoint } from './checkpoint';
export { realClock, sleep, SleepAbortedError, VirtualClock, type Clock, type TimerHandle } from './clock';
export { createFetcher, DEFAULT_MAX_BYTES, type Fetcher, type FetcherOptions, type FetcherStats } from './fetch/fetcher';
export { DEFAULT_USER_AGENT, HTML_ACCEPT, MAX_VALIDATOR_CHARS, requestInit } from './fetch/http';
export {
  DEFAULT_SLOW_SITE_RULE,
  type Lease,
  PolitenessScheduler,
  type SchedulerOptions,
  type SlowSiteRule,
} from './fetch/scheduler';
export { RobotsCache, type RobotsCacheOptions, type RobotsStatus, type RobotsVerdict } from './fetch/robots';
export { RobotsRules } from './fetch/robots-rules';
export {
  evaluatePage,
  evaluateReading,
  prepareTopic,
  readPage,
  pageTexts,
  localEvaluator,
  PageReading,
  TopicScoring,
  DEFAULT_BOILERPLATE_WEIGHT,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_LINKS,
  MAIN_TEXT_CHARS,
  OTHER_LANGUAGE_WEIGHT,
  type EvaluateOptions,
  type PageInput,
} from './html/evaluate';
export { decodeHtml } from './html/charset';
export { tokenize, words, stopwordLanguage } from './text/tokenize';
export { cyrb53, hashText } from './text/hash';
export { cosine, norm, termVector, topicVector, keywordVector, expansionTerms, DEFAULT_EXPANSION } from './text/vector';
export {
  feedbackTerms,
  FEEDBACK_DOWN,
  FEEDBACK_TERMS,
  FEEDBACK_UP,
  isJudgementValue,
  measuredTopic,
  pageProfile,
  PROFILE_TERMS,
  rescore,
  termProfile,
  withFeedback,
} from './text/feedback';
export { baseLanguage, detectLanguage, topicLanguage, STEMMED_LANGUAGES, type TopicLanguageHints } from './text/language';
export { MissingLanguageData, withLanguageData } from './text/language-data';
export { analyseTopic, isAnalysed, withoutAnalysis } from './text/topic-analysis';
export { urlTerms } from './text/url-terms';
export { canonicalizeUrl, originOf } from './url/canonical';
export {
  checkAddress,
  checkHost,
  checkUrl,
  hostKind,
  isLoopbackHost,
  isNamedHost,
  isPrivateHost,
  normalizeNamedHost,
  type HostKind,
  type UrlCheck,
  type UrlPolicy,
} from './url/rules';
export { PriorityFrontier } from './frontier/index';
export { Rng, type RngState } from './rng';
export { errorMessage } from './errors';
export {
  createStrategy,
  FrontierStrategy,
  getStrategyInfo,
  listStrategies,
  resolveParams,
  strategySpec,
  type ParamSpec,
  type StrategyInfo,
} from './strategies/index';
export { FORAGER_DEFAULTS } from './strategies/forager';

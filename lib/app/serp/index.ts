/** Search-results-page extraction: engines as data, one extractor. */
export { detectChallenge, detectEngine, extractSerp, markupVisible, visibleText } from './extract';
export { isRendered, type RenderedWindow } from './visibility';
export { extractRendered } from './rendered';
export { assertEngines, engineProblems, selectorProblem } from './schema';
export type { QueryRoot } from './extract';
export { unwrapRedirect, applyRedirectRule, decodeBase64Url, isRedirectWrapper, isOpaqueRedirect } from './redirect';
export { hostMatches, domainMatches, isAdHost, siteOf, AD_TRACKING_DOMAINS } from './hosts';
export { ENGINES } from './engines/index';
export type {
  EngineSpec,
  ExtractOptions,
  RedirectRule,
  SerpBlocked,
  SerpExtraction,
  SerpResult,
  TargetAttribute,
  VisibleLink,
} from './types';
export { AD_LABELS, MODULE_LABELS } from './labels';
export { resolveRedirect, withRedirectSeeds } from './resolve-redirect';

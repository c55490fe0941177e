/** Search-results-page extraction: engines as data, one extractor. */
export { detectEngine, extractSerp, visibleText } from './extract';
export type { QueryRoot } from './extract';
export { unwrapRedirect, applyRedirectRule, decodeBase64Url, isRedirectWrapper } from './redirect';
export { hostMatches, domainMatches, isAdHost, AD_TRACKING_DOMAINS } from './hosts';
export { ENGINES } from './engines/index';
export type { EngineSpec, RedirectRule, SerpExtraction, SerpResult } from './types';

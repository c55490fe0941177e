import type { EngineSpec } from '../types';

/**
 * Ecosia. Organic results carry data-test-id="organic-result"; each also holds "learn more" and "report" links,
 * so the link is the one marked result-link, not the first one. Ads are iframes in mainline-result-ad wrappers.
 * Checked on: ecosia-javascript-tutorial-2026-04.
 */
export const ecosia: EngineSpec = {
  id: 'ecosia',
  name: 'Ecosia',
  hosts: ['www.ecosia.org', 'ecosia.org'],
  paths: ['/search'],
  queryParam: ['q'],
  queryInput: ['input[name="q"]'],
  results: {
    container: ['[data-test-id="organic-result"]', 'article.result.web-result', 'article.result'],
    title: ['[data-test-id="result-title"]', '.result__title', 'h2'],
    link: ['a[data-test-id="result-link"]', 'a.result__link', '.result__title a[href]', 'a.result-title'],
    snippet: [
      '[data-test-id="result-description"]',
      '[data-test-id="web-result-description"]',
      '.result__description',
      '.result-snippet',
    ],
  },
  exclude: [
    '[data-test-id="mainline-result-ad"]',
    '[data-test-id="ad-google"]',
    '.result--ad',
    '[data-test-id="web-related-queries"]',
    '[data-test-id="sidebar"]',
  ],
  navigationPaths: ['/images', '/news', '/videos', '/settings'],
};

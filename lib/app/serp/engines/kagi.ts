import type { EngineSpec } from '../types';

/**
 * Kagi. Organic results are div.search-result in the main results column, the title link in an <h3>
 * (h3.__sri-title-box; the result's menu of "more from this site" and web-archive links sits beside it in the same
 * .__sri-title, so only the heading's link is the title). More results of the same site are grouped under a result
 * (.sr-group, h3.__srgi-title), which makes them its sub-results. Checked on a 2025 page.
 */
export const kagi: EngineSpec = {
  id: 'kagi',
  name: 'Kagi',
  hosts: ['kagi.com', 'www.kagi.com'],
  paths: ['/search', '/html/search'],
  queryParam: ['q'],
  queryInput: ['input[name="q"]', 'textarea[name="q"]'],
  results: {
    container: ['._0_main-search-results', '#main', '.results-box'],
    title: ['h3 a[href]'],
    link: ['h3 a[href]'],
    snippet: ['.__sri-desc', '.__srgi-desc', '._0_DESC'],
  },
  exclude: [
    '.right-content-box',
    '._0_right_sidebar',
    '.inline-videos',
    '._0_inline_videos',
    '.inline-images',
    '.news-results',
    '.widget-header',
  ],
  navigationPaths: ['/search', '/settings', '/images', '/videos', '/news', '/maps', '/proxy'],
  serviceDomains: ['kagiproxy.com', 'p.kagi.com'],
};

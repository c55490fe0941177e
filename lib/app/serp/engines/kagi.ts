import type { EngineSpec } from '../types';

/**
 * Kagi. Organic results are div.search-result in the main results column, the title link in .__sri-title (an
 * <h3>); more results of the same site are grouped under a result (.sr-group), which makes them its sub-results.
 * Not yet checked on a saved page.
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
    title: ['.__sri-title a[href]', 'a.__sri_title_link', 'h3 a[href]'],
    link: ['a.__sri_title_link', '.__sri-title a[href]', 'h3 a[href]'],
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

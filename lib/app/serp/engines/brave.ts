import type { EngineSpec } from '../types';

/**
 * Brave Search. Web results are the snippets with data-type="web"; their links go straight to the target.
 * Checked on: brave-javascript-tutorial-2026-04.
 */
export const brave: EngineSpec = {
  id: 'brave',
  name: 'Brave Search',
  hosts: ['search.brave.com'],
  paths: ['/search'],
  queryParam: ['q'],
  queryInput: ['input[name="q"]'],
  results: {
    container: ['#results > [data-type="web"]', '[data-type="web"]', '.snippet.fdb'],
    title: ['.search-snippet-title', '.snippet-title', '.title'],
    link: ['.result-content > a[href]', 'a.result-header[href]', 'a.h[href]', 'a[href]'],
    snippet: [
      '.generic-snippet .content',
      '.video-snippet .line-clamp-2',
      '.video-snippet .content',
      '.snippet-description',
      '.snippet-content',
      '.description',
    ],
  },
  exclude: [
    '[data-type="ad"]',
    '[data-type="videos"]',
    '[data-type="news"]',
    '#faq',
    '#related-queries',
    '#search-elsewhere',
    '#pagination-snippet',
    '#infobox',
    '.infobox',
    '.result-cluster',
  ],
  adMarkers: ['.ad-label'],
  navigationPaths: ['/images', '/news', '/videos', '/goggles', '/settings', '/ask'],
};

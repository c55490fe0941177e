import type { EngineSpec } from '../types';

/**
 * DuckDuckGo: the JavaScript version (duckduckgo.com/?q=, articles with an h2 link), the HTML version
 * (html.duckduckgo.com/html/, div.result with a.result__a, wrapped as //duckduckgo.com/l/?uddg=<target> or not) and
 * the Lite version (lite.duckduckgo.com/lite/, a table: a.result-link in one row, td.result-snippet in the next).
 * Checked on pages of 2019 and 2020 (JavaScript), 2025 (HTML) and 2026 (Lite).
 */
export const duckduckgo: EngineSpec = {
  id: 'duckduckgo',
  name: 'DuckDuckGo',
  hosts: [
    'duckduckgo.com',
    'html.duckduckgo.com',
    'lite.duckduckgo.com',
    'safe.duckduckgo.com',
    'start.duckduckgo.com',
    'noai.duckduckgo.com',
  ],
  paths: ['/', '/html', '/html/', '/lite', '/lite/'],
  queryParam: ['q'],
  queryInput: ['input[name="q"]', 'textarea[name="q"]'],
  results: {
    container: [
      'li[data-layout="organic"]',
      'article[data-testid="result"]',
      '[data-testid="web-vertical"] li > article',
      '.result.web-result',
      '.result',
      'body',
    ],
    title: ['a[data-testid="result-title-a"]', 'a.result__a', 'h2 a[href]', 'a.result-link'],
    link: ['a[data-testid="result-title-a"]', 'a.result__a', 'a.result-link', 'h2 a[href]'],
    snippet: ['[data-result="snippet"]', '.result__snippet', '.result-snippet', '[data-testid="result-snippet"]'],
  },
  exclude: [
    '.result--ad',
    '[data-testid="ad"]',
    '[data-layout="ad"]',
    '.result--news',
    '[data-testid="news-vertical"]',
    '[data-testid="zci-videos"]',
    '[data-testid="zci-images"]',
    '[data-layout="videos"]',
    '[data-layout="news"]',
    '[data-layout="images"]',
    '[data-testid="related-searches"]',
    '.related-searches',
    '.module--carousel',
  ],
  adMarkers: ['.badge--ad', '[data-testid="ad-badge"]'],
  redirect: [{ pathPrefix: '/l/', param: 'uddg' }],
  navigationPaths: ['/l/', '/y.js', '/settings', '/params'],
  serviceDomains: ['external-content.duckduckgo.com', 'improving.duckduckgo.com'],
};

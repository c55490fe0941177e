import type { EngineSpec } from '../types';

/**
 * Startpage. Searches are usually POSTed to /sp/search, so the query often comes from the search box.
 * Checked on: startpage-javascript-tutorial-2026-04.
 */
export const startpage: EngineSpec = {
  id: 'startpage',
  name: 'Startpage',
  hosts: ['*.startpage.com'],
  paths: ['/sp/search', '/do/search', '/do/dsearch', '/do/asearch', '/search'],
  queryParam: ['query', 'q'],
  queryInput: ['input[name="query"]', 'input[name="q"]'],
  results: {
    container: ['.w-gl .result', '.w-gl__result', 'div.result'],
    title: ['.wgl-title', 'a.result-title h2', 'a.w-gl__result-title h3', 'h2', 'h3'],
    link: ['a.result-title[href]', 'a.result-link[href]', 'a.w-gl__result-title[href]', 'a[data-testid="gl-title-link"]'],
    snippet: ['p.description', '.description', '.w-gl__description'],
  },
  exclude: ['.bannerad', '.a-bg-result', '.a-gl', '.sponsored-results'],
  navigationPaths: ['/av/', '/do/', '/sp/'],
};

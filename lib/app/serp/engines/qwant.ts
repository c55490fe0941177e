import type { EngineSpec } from '../types';

/** Qwant (web results page, links go straight to the target). */
export const qwant: EngineSpec = {
  id: 'qwant',
  name: 'Qwant',
  hosts: ['www.qwant.com', 'qwant.com', 'lite.qwant.com'],
  paths: ['/'],
  queryParam: ['q'],
  queryInput: ['input[name="q"]'],
  results: {
    container: ['[data-testid="webResult"]', '[domain]', 'section.content article'],
    // Titles are links with CSS-module classes ('SER-module__title___34qCe', 'WebResult-module__title___MOBFg'):
    // the hashed suffix changes with every build, the 'module__title' part has not.
    title: ['a[class*="module__title"]', '[data-testid="serTitle"]', 'h2 a[href]', 'h2', 'a[href]'],
    link: ['a[class*="module__title"]', 'a[data-testid="serTitle"]', 'h2 a[href]', 'a[href]'],
    snippet: ['[class*="module__description"]', '[data-testid="webResultDescription"]', '.description', 'p'],
  },
  exclude: [
    '[data-testid="adResult"]',
    '[data-testid="sponsoredResult"]',
    '[data-testid="videosList"]',
    '[data-testid="imageResult"]',
  ],
  navigationPaths: ['/maps', '/settings'],
};

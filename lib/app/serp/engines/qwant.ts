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
    title: ['[data-testid="serTitle"]', 'h2 a[href]', 'h2', 'a[href]'],
    link: ['a[data-testid="serTitle"]', 'h2 a[href]', 'a[href]'],
    snippet: ['[data-testid="webResultDescription"]', '.description', 'p'],
  },
  exclude: [
    '[data-testid="adResult"]',
    '[data-testid="sponsoredResult"]',
    '[data-testid="videosList"]',
    '[data-testid="imageResult"]',
  ],
  ownDomains: ['qwant.com'],
};

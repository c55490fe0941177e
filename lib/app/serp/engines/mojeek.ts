import type { EngineSpec } from '../types';

/** Mojeek: results in ul.results-standard, title link a.title inside <h2>, snippet p.s. */
export const mojeek: EngineSpec = {
  id: 'mojeek',
  name: 'Mojeek',
  hosts: ['www.mojeek.com', 'mojeek.com', 'www.mojeek.co.uk', 'mojeek.co.uk'],
  paths: ['/search'],
  queryParam: ['q'],
  queryInput: ['input[name="q"]'],
  results: {
    container: ['ul.results-standard > li', '.results-standard li', '.results li'],
    title: ['h2 a.title', 'a.title', 'h2 a[href]', 'h2'],
    link: ['a.title', 'h2 a[href]', 'a.ob'],
    snippet: ['p.s', '.s'],
  },
  exclude: ['.serp-ad', '.sponsored'],
  navigationPaths: ['/preferences', '/about'],
};

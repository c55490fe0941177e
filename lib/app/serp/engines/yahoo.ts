import type { EngineSpec } from '../types';

/**
 * Yahoo search. Results are div.algo with the title link in <h3>; links go through
 * r.search.yahoo.com/.../RU=<percent-encoded target>/RK=.... Checked on: the synthetic test/fixtures/serp/yahoo.html.
 */
export const yahoo: EngineSpec = {
  id: 'yahoo',
  name: 'Yahoo',
  hosts: ['search.yahoo.com', '*.search.yahoo.com'],
  paths: ['/search', '/yhs/search'],
  queryParam: ['p', 'q'],
  queryInput: ['input[name="p"]', 'input[name="q"]'],
  results: {
    container: ['#web .algo', 'div.algo', '.algo-sr', '.dd.algo'],
    title: ['h3.title a[href]', 'h3 a[href]', 'h3'],
    // 2021: the URL breadcrumb is an absolutely placed span inside the title link.
    titleExclude: ['span.p-abs'],
    link: ['h3 a[href]', '.compTitle a[href]'],
    snippet: ['.compText p', '.compText', 'p'],
  },
  exclude: [
    '.searchCenterTopAds',
    '.searchCenterBottomAds',
    '.searchRightTopAds',
    '.searchRightBottomAds',
    'ol.ads',
    '.ads',
    '.AlsoTry',
    '.compDlink',
  ],
  adMarkers: ['.ad-label', '.adlink'],
  redirect: [{ hosts: ['r.search.yahoo.com', '*.r.search.yahoo.com'], pathSegment: 'RU=' }],
  navigationPaths: ['/images/', '/video/', '/news/'],
  serviceDomains: ['yimg.com', 'r.search.yahoo.com'],
};

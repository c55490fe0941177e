import type { EngineSpec } from '../types';

/**
 * Google web search. Organic results are links holding an <h3> inside the results region (#rso); Google's class
 * names change every few months, so the spec leans on that structure and lists only stable ids and custom
 * elements as exclusions. Checked on: google-desktop-coffee-2023, google-desktop-matrix-2023 (test/fixtures/serp).
 */
export const google: EngineSpec = {
  id: 'google',
  name: 'Google',
  hosts: ['www.google.*', 'google.*'],
  paths: ['/search', '/webhp'],
  queryParam: ['q', 'as_q'],
  queryInput: ['textarea[name="q"]', 'input[name="q"]'],
  results: {
    container: ['#Odp5De, #rso', '#search', '#center_col', '#main'],
    title: ['a[href] h3', 'h3 a[href]', 'a[href] [role="heading"][aria-level="3"]'],
    link: ['a[href]'],
    snippet: ['[data-sncf]', '.VwiC3b', '[data-content-feature="1"]', '.IsZvec', '.Uroaid', '.s', '.st'],
  },
  exclude: [
    '#tads',
    '#tadsb',
    '#bottomads',
    '#tvcap',
    '[aria-label="Ads"]',
    '.commercial-unit-desktop-top',
    '.commercial-unit-desktop-rhs',
    '.cu-container',
    '.related-question-pair',
    '[data-initq]',
    'related-question-pair',
    'g-section-with-header',
    'g-scrolling-carousel',
    'g-inner-card',
    'video-voyager',
    'inline-video',
    '[data-news-cluster-id]',
    '#rhs',
    '#botstuff',
    '#brs',
    '#extrares',
    '#appbar',
    '#top_nav',
  ],
  sectionHeadings: ['[role="heading"][aria-level="2"]:not(h2)'],
  adMarkers: ['[data-text-ad]', '[data-rw*="googleadservices"]'],
  redirect: [
    { pathPrefix: '/url', param: 'q' },
    { pathPrefix: '/url', param: 'url' },
  ],
  navigationPaths: ['/url', '/imgres', '/aclk', '/travel/', '/sorry/', '/setprefs', '/preferences', '/advanced_search'],
  serviceDomains: ['googleusercontent.com', 'gstatic.com', 'googleapis.com', 'googleadservices.com'],
  challenge: { paths: ['/sorry/'], continueParam: 'continue' },
};

import type { EngineSpec } from '../types';

/**
 * Bing. Organic results are li.b_algo in ol#b_results, titles in <h2>; links go through /ck/a?u=a1<base64url>.
 * Checked on: bing-javascript-tutorial-2026-04 (server-rendered).
 */
export const bing: EngineSpec = {
  id: 'bing',
  name: 'Bing',
  hosts: ['www.bing.com', 'bing.com', 'cn.bing.com'],
  paths: ['/search'],
  queryParam: ['q'],
  queryInput: ['input[name="q"]', 'textarea[name="q"]'],
  results: {
    container: ['#b_results > li.b_algo', 'li.b_algo', '.b_algo'],
    title: ['h2', 'h3'],
    link: ['h2 a[href]', 'a.tilk[href]', 'a[href]'],
    snippet: ['.b_caption p', 'p.b_lineclamp2', 'p.b_lineclamp3', 'p.b_lineclamp4', '.b_algoSlug', '.b_caption', 'p'],
  },
  exclude: ['.b_ad', '.b_adTop', '.b_adBottom', '.b_ans', '#b_pole', '#b_context', '.b_rs', '.b_vidAns', '.b_imgAns', '.b_pag'],
  adMarkers: ['.b_adSlug', '.b_adProvider'],
  redirect: [{ pathPrefix: '/ck/a', param: 'u', prefix: 'a1', decode: 'base64url' }],
  navigationPaths: ['/ck/', '/images/', '/videos/', '/news/', '/maps', '/shop', '/aclick', '/aclk', '/travel/', '/rebates/'],
  serviceDomains: ['bing.net'],
};

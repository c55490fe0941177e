import type { EngineSpec } from '../types';

/**
 * Sogou web search. Organic results are div.vrwrap (and div.rb) in div.results, the title link in an <h3>; every
 * link goes through www.sogou.com/link?url=<opaque token>, so results are kept as redirect seeds and resolved with
 * one request. Checked on: sogou-air-guns-2022.
 */
export const sogou: EngineSpec = {
  id: 'sogou',
  name: 'Sogou',
  hosts: ['www.sogou.com', 'sogou.com', 'm.sogou.com', 'wap.sogou.com'],
  paths: ['/web', '/sogou', '/tx'],
  queryParam: ['query', 'keyword'],
  queryInput: ['input#upquery', 'input[name="query"]'],
  results: {
    container: ['#main .results', '.results'],
    title: ['h3.vr-title a[href]', 'h3.vrTitle a[href]', 'h3.pt a[href]', 'h3 a[href]'],
    link: ['h3 a[href]'],
    snippet: ['.star-wiki', '.str-text-info', '.str_info', '.text-layout', '.ft', 'p'],
  },
  exclude: [
    '#right',
    '.sponsored',
    '#promotion_adv_container',
    '.biz_sponsor',
    '.hintBox',
    '#hint_container',
    '.r-sech',
    '#pagebar_container',
  ],
  adMarkers: ['.biz_sponsor', '.sponsored'],
  redirect: [{ pathPrefix: '/link', param: 'url', opaque: true }],
  targetAttributes: [{ name: 'data-url' }],
  navigationPaths: ['/link', '/web', '/sogou', '/bill_cpc', '/websearch/', '/tx'],
  serviceDomains: ['sogoucdn.com', 'pinyin.sogou.com'],
};

import type { EngineSpec } from '../types';

/**
 * Baidu. Organic results are div.result.c-container in #content_left, the title link in an <h3>; every link goes
 * through www.baidu.com/link?url=<opaque token>, so results are kept as redirect seeds (SerpResult.redirect) and
 * resolved with one request before crawling. `.result-op` blocks are Baidu's own modules (encyclopaedia cards, top
 * lists, video strips). Checked on: baidu-yuezi-2018, baidu-spiders-2018.
 */
export const baidu: EngineSpec = {
  id: 'baidu',
  name: 'Baidu',
  hosts: ['www.baidu.com', 'baidu.com', 'm.baidu.com'],
  paths: ['/s', '/baidu'],
  queryParam: ['wd', 'word'],
  queryInput: ['input#kw', 'input[name="wd"]', 'input[name="word"]'],
  results: {
    container: ['#content_left'],
    title: ['h3.t a[href]', 'h3 a[href]'],
    link: ['h3 a[href]'],
    snippet: ['.c-abstract', '[class*="content-right_"]', '.c-span-last', '.c-span18'],
  },
  exclude: ['#content_right', '.result-op', '[data-tuiguang]', '.ec_tuiguang_pplink', '.ec-tuiguang', '#rs', '#page'],
  adMarkers: ['.ec_tuiguang_pplink', '.ec-tuiguang', '[data-tuiguang]'],
  redirect: [{ pathPrefix: '/link', param: 'url', opaque: true }],
  navigationPaths: ['/link', '/baidu.php', '/s', '/sf/', '/home/', '/more/', '/gaoji/'],
  serviceDomains: ['bdimg.com', 'bdstatic.com', 'baidustatic.com', 'cache.baiducontent.com', 'wappass.baidu.com'],
  blocked: { challenge: ['script[src*="wappass.baidu.com/static/machine"]'] },
};

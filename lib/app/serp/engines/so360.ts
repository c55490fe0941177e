import type { EngineSpec } from '../types';

/**
 * 360 Search (so.com). Organic results are li.res-list in ul.result, the title link in h3.res-title; links go
 * through www.so.com/link?m=<opaque token>, the real target named by the link's `data-mdurl`. `.g-mohe` blocks
 * are 360's own modules ("onebox" news, encyclopaedia, feedback). Checked on: so360-theatres-2020, so360-bats-2020.
 */
export const so360: EngineSpec = {
  id: 'so360',
  name: '360 Search',
  hosts: ['www.so.com', 'so.com', 'm.so.com'],
  paths: ['/s'],
  queryParam: ['q'],
  queryInput: ['input#keyword', 'input[name="q"]'],
  results: {
    container: ['#main ul.result', 'ul.result'],
    title: ['h3.res-title a[href]', 'h3 a[href]'],
    link: ['h3 a[href]'],
    snippet: ['.res-desc', '.res-rich', '.res-comm-con', 'p'],
  },
  exclude: ['#side', '.g-mohe', '.spread', '#so_kw-ad', '.e-buss', '#e_idea_pp', '#rs', '.mod-relation', '#page'],
  targetAttributes: [{ name: 'data-mdurl' }, { name: 'data-url' }],
  redirect: [{ pathPrefix: '/link', param: 'm', opaque: true }],
  navigationPaths: ['/link', '/s', '/index.php'],
  serviceDomains: ['qhimg.com', 'qhres.com', 'qhres2.com', 'qhmsg.com', '360img.cn', 'e.360.cn'],
};

import type { EngineSpec } from '../types';

/**
 * Naver integrated search. Its organic web results are the "웹사이트" collection (section.sp_ntotal, links
 * a.link_tit); the other collections (VIEW blogs and cafés, 지식iN questions, news, books, dictionary) are Naver's
 * own verticals, and the power links and brand search are ads (adcr.naver.com). Not yet checked on a saved page.
 */
export const naver: EngineSpec = {
  id: 'naver',
  name: 'Naver',
  hosts: ['search.naver.com', 'm.search.naver.com'],
  paths: ['/search.naver'],
  queryParam: ['query'],
  queryInput: ['input#nx_query', 'input[name="query"]'],
  results: {
    container: ['section.sp_ntotal', 'section.sp_nweb', '.sp_website'],
    title: ['a.link_tit', 'a.total_tit', 'a.title_link'],
    link: ['a.link_tit', 'a.total_tit', 'a.title_link'],
    snippet: ['.total_dsc', '.api_txt_lines.dsc_txt', '.dsc_txt', '.total_group'],
  },
  exclude: ['.ad_section', '#power_link_body', '.brand_search', '.sp_nkeyword', '.api_subject_bx .mod_more_wrap'],
  navigationPaths: ['/search.naver', '/p/'],
  serviceDomains: ['pstatic.net', 'adcr.naver.com', 'nid.naver.com', 'ader.naver.com'],
};

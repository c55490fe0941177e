import type { EngineSpec } from '../types';

/**
 * Naver integrated search. Its organic web results are the web collection: "웹사이트" since about 2020
 * (section.sp_ntotal, links a.link_tit), "웹문서" before (div.webdoc, links a.sh_web_title in a <dt>). The other
 * collections (VIEW, blog and café posts, 지식iN questions, news, books, dictionary) are Naver's own verticals, and the
 * power links and brand search are ads (adcr.naver.com). Checked on pages of 2014, 2015 and 2021.
 */
export const naver: EngineSpec = {
  id: 'naver',
  name: 'Naver',
  hosts: ['search.naver.com', 'm.search.naver.com'],
  paths: ['/search.naver'],
  queryParam: ['query'],
  queryInput: ['input#nx_query', 'input[name="query"]'],
  results: {
    container: ['section.sp_ntotal', 'section.sp_nweb', '.sp_website', 'div.webdoc'],
    title: ['a.link_tit', 'a.total_tit', 'a.title_link', 'a.sh_web_title'],
    link: ['a.link_tit', 'a.total_tit', 'a.title_link', 'a.sh_web_title'],
    snippet: ['.total_dsc', '.api_txt_lines.dsc_txt', '.dsc_txt', '.total_group', '.sh_web_passage'],
  },
  exclude: ['.ad_section', '#power_link_body', '.brand_search', '.sp_nkeyword', '.api_subject_bx .mod_more_wrap'],
  navigationPaths: ['/search.naver', '/p/'],
  serviceDomains: ['pstatic.net', 'adcr.naver.com', 'nid.naver.com', 'ader.naver.com'],
};

import type { EngineSpec } from '../types';

/**
 * Yandex. Organic results are li.serp-item (div.serp-item on the 2020 light layout) in the results list, the title
 * link in an <h2>; ads carry Yandex Direct's label or come from yabs.yandex.* (an ad host). A result's sitelinks
 * (realty.yandex.ru's "Двухкомнатные", "Студии") are its sub-results. The bot check is /showcaptcha, continuing to
 * `retpath`. Checked on desktop pages of 2021 and 2022 (ads above and below the results, a knowledge panel).
 */
export const yandex: EngineSpec = {
  id: 'yandex',
  name: 'Yandex',
  hosts: ['yandex.*', 'www.yandex.*', 'ya.ru'],
  paths: ['/search', '/yandsearch', '/touchsearch'],
  queryParam: ['text'],
  queryInput: ['input[name="text"]', 'textarea[name="text"]'],
  results: {
    container: ['#search-result', '.serp-list', '.content__left'],
    title: ['h2 a[href]', 'a.OrganicTitle-Link', 'a.organic__url'],
    link: ['h2 a[href]', 'a.OrganicTitle-Link', 'a.organic__url'],
    snippet: ['.OrganicTextContentSpan', '.organic__content-wrapper', '.text-container', '.organic__text', '.serp-item__text'],
  },
  exclude: [
    '[data-fast-name="direct"]',
    '[data-fast-wzrd]',
    '.serp-adv',
    '.serp-adv-item',
    '[data-fast-name="images"]',
    '[data-fast-name="videowiz"]',
    '[data-fast-name="related_discovery"]',
    '.related',
    '.pager',
  ],
  adMarkers: [
    '.label_theme_direct',
    '.Label_theme_direct',
    '.organic__label_type_ad',
    '[aria-label="Реклама"]',
    '[aria-label="Ad"]',
  ],
  navigationPaths: ['/clck/', '/images/', '/video/', '/maps', '/showcaptcha', '/checkcaptcha', '/search/ads', '/support/'],
  serviceDomains: ['yastatic.net', 'yandex.net', 'yabs.yandex.*', 'an.yandex.*', 'mc.yandex.*'],
  challenge: { paths: ['/showcaptcha', '/checkcaptcha'], continueParam: 'retpath' },
};

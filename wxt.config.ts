import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

/**
 * Permissions, the fewest that work (entrypoints/README.md explains each):
 * - contextMenus: "Crawl from here". storage + unlimitedStorage: crawls in IndexedDB, a session mark in storage.session.
 * - activeTab + scripting: read the results page the popup was opened on (and a page's headings on a menu click)
 *   only when the user asks, instead of host permissions for every search engine.
 * - alarms: restarts a service worker that died mid-crawl so the crawl carries on by itself.
 * - declarativeNetRequestWithHostAccess: session rules that block the crawl's own requests, redirect hops included,
 *   to private hosts by name (lib/app/network-guard.ts); no install warning, acts only where the user granted host access.
 * - webRequest: the address every answer to the crawl's own requests came from, so a name that resolves to a private
 *   address is caught (lib/app/address-guard.ts); listened to only while a crawl runs, and only for requests outside
 *   tabs. No install warning of its own (it sees only hosts the user granted).
 * - Firefox also webRequestBlocking + dns: each crawl request is held until its host name is resolved and its
 *   addresses checked, so nothing is sent to a private address. Neither shows an install warning in Firefox.
 * - offscreen (Chrome): the evaluator Worker lives in an offscreen document.
 * - optional <all_urls>: crawling fetches any site; asked for on the first Crawl click.
 *
 * FORAGER_E2E=1 at build time grants <all_urls> up front: a headless browser cannot click the permission prompt.
 */
const e2e = process.env.FORAGER_E2E === '1';

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser }) => ({
    name: 'Forager',
    description: 'Extends a web search: crawls outward from the results and ranks fresh pages on the same topic.',
    permissions: [
      'contextMenus',
      'storage',
      'unlimitedStorage',
      'activeTab',
      'scripting',
      'alarms',
      'declarativeNetRequestWithHostAccess',
      'webRequest',
      ...(browser === 'chrome' ? ['offscreen'] : ['webRequestBlocking', 'dns']),
    ],
    optional_host_permissions: ['<all_urls>'],
    ...(e2e ? { host_permissions: ['<all_urls>'] } : {}),
    browser_specific_settings:
      browser === 'firefox'
        ? {
            gecko: {
              id: 'forager@forager.invalid',
              strict_min_version: '128.0',
              data_collection_permissions: { required: ['none'] },
            },
          }
        : undefined,
  }),
});

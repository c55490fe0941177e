import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { type Plugin, transformWithEsbuild } from 'vite';
import { ENGINES } from './lib/app/serp/engines/index';
import { assertEngines } from './lib/app/serp/schema';

/**
 * Permissions, the fewest that work (entrypoints/README.md explains each):
 * - contextMenus: "Crawl from here". storage + unlimitedStorage: crawls in IndexedDB, a session mark in storage.session.
 * - activeTab + scripting: read the results page the popup was opened on (and a page's headings on a menu click)
 *   only when the user asks, instead of host permissions for every search engine.
 * - alarms: restarts a service worker that died mid-crawl so the crawl carries on by itself.
 * - declarativeNetRequestWithHostAccess: session rules that block the crawl's own requests, redirect hops included,
 *   to private hosts by name (lib/app/adapters/network-guard.ts); no install warning, acts only where the user granted host access.
 * - webRequest: the address every answer to the crawl's own requests came from, so a name that resolves to a private
 *   address is caught (lib/app/adapters/address-guard.ts); listened to only while a crawl runs, and only for requests outside
 *   tabs. No install warning of its own (it sees only hosts the user granted).
 * - Firefox also webRequestBlocking + dns: each crawl request is held until its host name is resolved and its
 *   addresses checked, so nothing is sent to a private address. Neither shows an install warning in Firefox.
 * - offscreen (Chrome): the evaluator Worker lives in an offscreen document.
 * - favicon (Chrome): result rows show sites' icons from the browser's own favicon cache, never fetched.
 * - optional <all_urls>: crawling fetches any site; asked for on the first Crawl click.
 *
 * FORAGER_E2E=1 at build time grants <all_urls> up front (a headless browser cannot click the permission prompt) and
 * gives the background its test handle, globalThis.forager (entrypoints/background.ts).
 * Such a build goes to .output/e2e/, never where a user loads the extension from (.output/chrome-mv3, firefox-mv3).
 */
const e2e = process.env.FORAGER_E2E === '1';

/**
 * eld (language detection) builds its detector when its module loads, which a bundler must keep as a side effect
 * wherever the engine is imported. Declared free of side effects, it is left out of the bundles that never detect a
 * language (popup and results page: 1.3 MB less each) and kept where pages and topics are read (the Worker).
 */
const treeshake = { moduleSideEffects: (id: string) => !/[\\/]node_modules[\\/]eld[\\/]/.test(id) };

/**
 * The evaluator Worker reads language data (stop lists, stemmers, the detector's n-grams: 1.5 MB in all) only when a
 * page's language needs it: its build takes lib/engine/text/language-sources.lazy.ts, where each is a dynamic
 * import, a chunk of its own, in place of language-sources.ts, where all are at hand (Node, the other bundles).
 * Chunks need an ES module Worker (Chrome 80+, Firefox 114+).
 */
const lazyLanguageData: Plugin = {
  ...languageSources('lazy'),
  /**
   * Vite leaves whitespace in ES chunks of a library-mode build (the background's, which builds the Worker for
   * Firefox): minified last, every build of the Worker writes the same files (same names), not a second copy.
   */
  renderChunk: {
    order: 'post',
    async handler(code, chunk) {
      return (await transformWithEsbuild(code, chunk.fileName, { minify: true, format: 'esm' })).code;
    },
  },
};

/**
 * The background (Chrome's service worker, Firefox's event page) is built with lib/engine/text/
 * language-sources.absent.ts: no stop list, stemmer or detector (1.5 MB) in the script parsed at every start. Its
 * crawls get the topic's analysed words and the links' URL words from the evaluator Worker (Topic.analysis,
 * LinkFeature.urlTerms); asking for language data there throws (test/unit/service-worker-language.test.ts).
 */
const noLanguageData: Plugin = languageSources('absent');

/** Builds lib/engine/text with `language-sources.<variant>.ts` in the place of language-sources.ts. */
function languageSources(variant: 'lazy' | 'absent'): Plugin {
  return {
    name: `forager-language-sources-${variant}`,
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== './language-sources' || !importer || !/[\\/]lib[\\/]engine[\\/]text[\\/]/.test(importer)) return null;
      return this.resolve(`./language-sources.${variant}`, importer, { skipSelf: true });
    },
  };
}

export default defineConfig({
  outDir: e2e ? '.output/e2e' : '.output',
  /**
   * `npm run zip`: the store packages, and for addons.mozilla.org the sources it asks for: what `npm ci && npm run zip`
   * needs to make the same Firefox package (docs/building.md, "Rebuilding the Firefox package"). Tests, the lab, the benchmark and
   * the command line are not part of the extension and stay out.
   */
  zip: {
    ...(e2e ? { zipSources: false } : {}),
    includeSources: ['.puppeteerrc.cjs'],
    excludeSources: ['test/**', 'lab/**', 'bench/**', 'harness/**', 'cli/**', 'scripts/**', 'biome.json', 'vitest.config.ts'],
  },
  modules: ['@wxt-dev/webextension-polyfill'],
  // Engine data with a selector that does not parse (or any other schema error) fails the build.
  hooks: {
    'build:before': () => assertEngines(ENGINES),
    'vite:build:extendConfig': (entrypoints, config) => {
      if (entrypoints.some((e) => e.type === 'background')) config.plugins = [...(config.plugins ?? []), noLanguageData];
    },
  },
  vite: () => ({
    // The background's test handle (globalThis.forager) exists only in the e2e build: the store build has none.
    define: { __FORAGER_TEST_HANDLE__: JSON.stringify(e2e) },
    plugins: [preact()],
    build: { rollupOptions: { treeshake } },
    worker: { format: 'es', plugins: () => [lazyLanguageData], rollupOptions: { treeshake } },
  }),
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: [
      'contextMenus',
      'storage',
      'unlimitedStorage',
      'activeTab',
      'scripting',
      'alarms',
      'declarativeNetRequestWithHostAccess',
      'webRequest',
      ...(browser === 'chrome' ? ['offscreen', 'favicon'] : ['webRequestBlocking', 'dns']),
      ...(e2e ? ['notifications'] : []),
    ],
    optional_host_permissions: ['<all_urls>'],
    // The notice when a crawl ends, asked for when the user turns it on (options page).
    // The e2e build has it from the start (a headless browser cannot click the prompt either).
    ...(e2e ? {} : { optional_permissions: ['notifications'] }),
    ...(e2e ? { host_permissions: ['<all_urls>'] } : {}),
    // runtime.getContexts (finding the offscreen document) came in Chrome 116, CSS light-dark() (the pages' colours,
    // entrypoints/ui/styles.css) in 123.
    ...(browser === 'chrome' ? { minimum_chrome_version: '123' } : {}),
    browser_specific_settings:
      browser === 'firefox'
        ? {
            gecko: {
              id: 'forager@forager.invalid',
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
          }
        : undefined,
  }),
});

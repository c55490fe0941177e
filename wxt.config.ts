import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// See ../shared/GUIDE.md-style facts in README: WXT 0.20 on Node 20, Preact through its Vite preset.
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser }) => ({
    name: 'Forager',
    description: 'Extends a web search: crawls outward from the results and ranks fresh pages on the same topic.',
    permissions: ['contextMenus', 'storage', 'unlimitedStorage', ...(browser === 'chrome' ? ['offscreen'] : [])],
    optional_host_permissions: ['<all_urls>'],
    browser_specific_settings: browser === 'firefox' ? { gecko: { id: 'forager@forager.invalid' } } : undefined,
  }),
});

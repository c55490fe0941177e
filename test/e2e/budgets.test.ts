/**
 * Bundle budgets, read from the store packages (`npm run zip`, which `npm run test:e2e` runs first): what Chrome and
 * Firefox parse when the background starts, and what the evaluator Worker parses before any language data.
 */
import JSZip from 'jszip';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { packagePath } from '../../harness/browsers';
import { type BuildFiles, bundleSizes } from '../../harness/bundle-sizes';

const KB = 1000;
const BACKGROUND_BUDGET = 500 * KB;
const WORKER_BUDGET = 600 * KB;

async function packageBuild(browser: 'chrome' | 'firefox', e2e = false): Promise<BuildFiles> {
  const zip = await JSZip.loadAsync(readFileSync(packagePath(browser, { e2e })));
  const files: BuildFiles = new Map();
  for (const entry of Object.values(zip.files)) if (!entry.dir) files.set(entry.name, await entry.async('uint8array'));
  return files;
}

describe.each(['chrome', 'firefox'] as const)('bundle budgets: %s package', (browser) => {
  test(`the evaluator Worker is at most ${WORKER_BUDGET / KB} KB before language data, which it imports when needed`, async () => {
    const sizes = bundleSizes(await packageBuild(browser));
    expect(sizes.worker.module).toBe(true); // chunks need a module Worker
    expect(sizes.worker.bytes).toBeLessThanOrEqual(WORKER_BUDGET);
    // The detector's n-grams, the stemmers and the stop lists are chunks of their own, outside what the Worker parses.
    const lazy = sizes.lazy.map((c) => c.file);
    expect(lazy.some((f) => /static\.extrasmall-/.test(f))).toBe(true);
    expect(lazy.some((f) => /stopwords_deu-/.test(f))).toBe(true);
    expect(lazy.some((f) => /\/de-[\w-]+\.js$/.test(f))).toBe(true);
    expect(sizes.lazy.reduce((n, c) => n + c.bytes, 0)).toBeGreaterThan(1000 * KB);
  });

  // The background has no language data (wxt.config.ts, lib/engine/text/language-sources.absent.ts): its text
  // analysis is the evaluator Worker's.
  test(`the background is at most ${BACKGROUND_BUDGET / KB} KB, without language data`, async () => {
    const files = await packageBuild(browser);
    const sizes = bundleSizes(files);
    expect(sizes.background.bytes).toBeLessThanOrEqual(BACKGROUND_BUDGET);
    const script = sizes.background.files.map((f) => new TextDecoder().decode(files.get(f))).join('\n');
    expect(script).toContain('no language data in this build');
    expect(script).not.toContain('"allerdings"'); // a word of the German stop list
  });

  // The e2e build's test handle (entrypoints/background.ts) reaches the runner, the store and every request without
  // a sender check: the store build must not carry it. The e2e package shows the pattern finds it where it is.
  test("the store package's background has no test handle (globalThis.forager); the e2e package has one", async () => {
    const handle = /\bforager:\s*\{\s*runner:/;
    const background = (files: BuildFiles) => new TextDecoder().decode(files.get('background.js'));
    expect(background(await packageBuild(browser, true))).toMatch(handle);
    const store = background(await packageBuild(browser));
    expect(store.length).toBeGreaterThan(100_000);
    expect(store).not.toMatch(handle);
    expect(store).not.toContain('addressGuard:');
  });
});

/**
 * The results-page reader's code (lib/app/serp/rendered.ts) as one script a test can evaluate in any page, in either
 * browser: `globalThis.__foragerRead(url)` reads the document as if it had been served at `url` (so a saved page of
 * a known engine is read with that engine's data), `__foragerRead(url, true)` with the markup-only check instead
 * of the rendered one, for comparison. Built with Vite (the test runner's own bundler), once per process.
 */
import path from 'node:path';
import { build, type Rollup } from 'vite';
import { ROOT } from '../../harness/browsers';

let cached: Promise<string> | undefined;

/** The reader as an IIFE script's source. */
export function readerBundle(): Promise<string> {
  cached ??= (async () => {
    const out = await build({
      configFile: false,
      logLevel: 'silent',
      root: ROOT,
      build: {
        write: false,
        minify: false,
        lib: { entry: path.join(ROOT, 'test/hostile/reader-entry.ts'), formats: ['iife'], name: 'foragerReaderBundle' },
      },
    });
    const chunk = (Array.isArray(out) ? out[0] : (out as Rollup.RollupOutput)).output[0];
    return chunk.code;
  })();
  return cached;
}

/** One reading of a page, as __foragerRead returns it. */
export interface PageReading {
  engine: string | null;
  urls: string[];
  hidden: number;
}

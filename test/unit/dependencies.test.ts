import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * What the extension runs is a dependency: every package the extension's own code imports (followed from each
 * entrypoint, as the bundler does) is listed in package.json `dependencies`, not only in `devDependencies`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The extension's entrypoints (WXT builds one bundle from each). */
const ENTRIES = [
  'entrypoints/background.ts',
  'entrypoints/serp-reader.ts',
  'entrypoints/worker/evaluator.worker.ts',
  'entrypoints/offscreen/main.ts',
  'entrypoints/popup/main.tsx',
  'entrypoints/results/main.tsx',
  'entrypoints/options/main.tsx',
  'entrypoints/library/main.tsx',
];

/**
 * The build tool's own runtime shims: `wxt/browser` (the `browser` object, which the polyfill module redirects to
 * webextension-polyfill, a dependency) and the like are part of the build, which `npm ci` installs with it.
 */
const BUILD_TOOLS = new Set(['wxt']);

/** Vite's `?worker` imports are separate bundles (an entry above) and `?raw` ones are text: not followed here. */
const viteSuffixes: Plugin = {
  name: 'vite-suffixes',
  setup(b) {
    b.onResolve({ filter: /\?(worker|raw)$/ }, (args) => ({ path: args.path, external: true }));
  },
};

function packageOf(file: string): string | null {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file.replace(/\\/g, '/'));
  return m ? m[1] : null;
}

/** Packages imported directly by the project's own files reached from `entry`. */
async function importedPackages(entry: string): Promise<Set<string>> {
  const result = await build({
    entryPoints: [path.join(root, entry)],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.css': 'empty' },
    logLevel: 'silent',
    plugins: [viteSuffixes],
  });
  const found = new Set<string>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    if (packageOf(file) !== null) continue; // a package's own imports are its business
    for (const imported of input.imports) {
      const name = packageOf(imported.path);
      if (name) found.add(name);
    }
  }
  return found;
}

describe('runtime dependencies', () => {
  it.each(ENTRIES)('%s imports only packages listed in dependencies', async (entry) => {
    const missing = [...(await importedPackages(entry))].filter((p) => !(p in pkg.dependencies) && !BUILD_TOOLS.has(p));
    expect(missing).toEqual([]);
  });

  it('sees the packages it is meant to (valibot through the crawl import, htmlparser2 in the Worker)', async () => {
    expect(await importedPackages('entrypoints/background.ts')).toContain('valibot');
    expect(await importedPackages('entrypoints/worker/evaluator.worker.ts')).toContain('htmlparser2');
  });
});

/**
 * What a built extension makes each context read: the background's script, the evaluator Worker's script with the
 * chunks it imports statically (what it parses at start), and the chunks it imports dynamically (language data,
 * fetched when a page's language needs it). Read from an unpacked build or from a package's files; used by the
 * bundle budgets (test/e2e/budgets.test.ts) and the service-worker start benchmark (bench/sw-start.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A build's files: name (relative, '/'-separated) -> bytes. */
export type BuildFiles = Map<string, Uint8Array>;

export interface BundleSizes {
  /** The background's scripts (Chrome: the service worker; Firefox: the event page's scripts) and their bytes. */
  background: { files: string[]; bytes: number };
  /** The Worker's script and its static imports: what it parses before any language data. */
  worker: { entry: string; files: string[]; bytes: number; module: boolean };
  /** Chunks only the Worker's dynamic imports reach, with their bytes, largest first. */
  lazy: { file: string; bytes: number }[];
}

/** Every file of an unpacked build. */
export function readBuild(dir: string): BuildFiles {
  const files: BuildFiles = new Map();
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const name = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else files.set(name, readFileSync(path.join(dir, name)));
    }
  };
  walk('');
  return files;
}

const STATIC_IMPORT = /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
const WORKER_SCRIPT = /new Worker\(\s*["'`]\/?(assets\/evaluator\.worker-[^"'`]+\.js)["'`]\s*(,\s*\{[^}]*\})?/;

function text(files: BuildFiles, name: string): string {
  const bytes = files.get(name);
  if (!bytes) throw new Error(`the build has no ${name}`);
  return new TextDecoder().decode(bytes);
}

function importsOf(files: BuildFiles, name: string, pattern: RegExp): string[] {
  const dir = path.posix.dirname(name);
  return [...text(files, name).matchAll(pattern)].map((m) => path.posix.normalize(path.posix.join(dir, m[1])));
}

/** `from` and every file its static imports reach. */
function staticClosure(files: BuildFiles, from: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...from];
  while (todo.length) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    todo.push(...importsOf(files, name, STATIC_IMPORT));
  }
  return seen;
}

const sum = (files: BuildFiles, names: Iterable<string>) => [...names].reduce((n, f) => n + (files.get(f)?.byteLength ?? 0), 0);

/** The sizes of a build (see {@link BundleSizes}). */
export function bundleSizes(build: string | BuildFiles): BundleSizes {
  const files = typeof build === 'string' ? readBuild(build) : build;
  const manifest = JSON.parse(text(files, 'manifest.json')) as {
    background: { service_worker?: string; scripts?: string[] };
  };
  const backgroundEntries = manifest.background.service_worker
    ? [manifest.background.service_worker]
    : (manifest.background.scripts ?? []);
  const background = staticClosure(files, backgroundEntries);

  let entry: string | undefined;
  let module = false;
  for (const name of files.keys()) {
    if (!name.endsWith('.js')) continue;
    const m = WORKER_SCRIPT.exec(text(files, name));
    if (m) {
      entry = m[1];
      module = /type\s*:\s*["']module["']/.test(m[2] ?? '');
      break;
    }
  }
  if (!entry) throw new Error('no script of the build starts the evaluator Worker');
  const worker = staticClosure(files, [entry]);
  const dynamic = new Set<string>();
  for (const name of worker) for (const target of importsOf(files, name, DYNAMIC_IMPORT)) dynamic.add(target);
  const lazy = [...staticClosure(files, [...dynamic])].filter((f) => !worker.has(f));
  return {
    background: { files: [...background], bytes: sum(files, background) },
    worker: { entry, files: [...worker], bytes: sum(files, worker), module },
    lazy: lazy.map((file) => ({ file, bytes: files.get(file)?.byteLength ?? 0 })).sort((a, b) => b.bytes - a.bytes),
  };
}

/**
 * The article-extraction benchmark's pages and hand-made article bodies, committed under
 * lab/data/article-extraction-benchmark (source, commit and licence in its README): every file is checked against
 * SHA256SUMS before anything is read, so a changed or missing file is an error, never a different score.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO_ROOT } from '../docweb/prepare';

export const BENCHMARK_DIR = join(REPO_ROOT, 'lab', 'data', 'article-extraction-benchmark');

export interface BenchmarkPage {
  /** The page's id in the benchmark (the sha256 the benchmark names its file by). */
  id: string;
  url: string;
  /** The page as served, gunzipped (the benchmark reads it as UTF-8). */
  html: Uint8Array;
  /** The hand-made article body. */
  truth: string;
}

/** SHA256SUMS as a map from path (relative to the data folder) to hex digest. */
function readManifest(dir: string): Map<string, string> {
  const file = join(dir, 'SHA256SUMS');
  if (!existsSync(file)) throw new Error(`${file} is missing: the benchmark's data is not in this checkout`);
  const sums = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m) throw new Error(`${file}: unreadable line "${line.slice(0, 100)}"`);
    sums.set(m[2], m[1]);
  }
  return sums;
}

/** The file's bytes, after checking them against the manifest. */
function verified(dir: string, path: string, sums: Map<string, string>): Buffer {
  const want = sums.get(path);
  if (want === undefined) throw new Error(`${join(dir, path)} is not listed in SHA256SUMS`);
  const full = join(dir, path);
  if (!existsSync(full)) throw new Error(`${full} is missing (listed in SHA256SUMS)`);
  const bytes = readFileSync(full);
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== want) throw new Error(`${full}: sha256 ${got}, SHA256SUMS says ${want}`);
  return bytes;
}

/**
 * The benchmark's pages with their true article bodies, in the ground truth's order; `ids` picks some (every page
 * when absent). Throws when a file is missing, unlisted or differs from its checksum.
 */
export function loadBenchmark(options: { dir?: string; ids?: readonly string[] } = {}): BenchmarkPage[] {
  const dir = options.dir ?? BENCHMARK_DIR;
  const sums = readManifest(dir);
  const truth = JSON.parse(verified(dir, 'ground-truth.json', sums).toString('utf8')) as Record<
    string,
    { articleBody?: string; url?: string }
  >;
  const onDisk = readdirSync(join(dir, 'html')).filter((f) => f.endsWith('.html.gz'));
  const expected = new Set(Object.keys(truth).map((id) => `${id}.html.gz`));
  const stray = onDisk.filter((f) => !expected.has(f));
  if (stray.length) throw new Error(`${dir}/html holds pages the ground truth does not: ${stray.slice(0, 3).join(', ')}`);
  const ids = options.ids ?? Object.keys(truth);
  return ids.map((id) => {
    const entry = truth[id];
    if (!entry) throw new Error(`no page ${id} in the benchmark's ground truth`);
    return {
      id,
      url: entry.url ?? `https://example.invalid/${id}`,
      html: new Uint8Array(gunzipSync(verified(dir, `html/${id}.html.gz`, sums))),
      truth: entry.articleBody ?? '',
    };
  });
}

/** A published output of another extractor (output/NAME.json, as the benchmark's repository holds them), by page id. */
export function loadPublishedOutput(name: string, dir = BENCHMARK_DIR): { version: string; bodies: Map<string, string> } {
  const sums = readManifest(dir);
  const data = JSON.parse(verified(dir, `output/${name}.json`, sums).toString('utf8')) as
    | { version?: string; output: Record<string, { articleBody?: string }> }
    | Record<string, { articleBody?: string }>;
  const wrapped = 'output' in data && typeof data.output === 'object' && data.output !== null && !('articleBody' in data.output);
  const output = (wrapped ? data.output : data) as Record<string, { articleBody?: string }>;
  const version = wrapped ? String((data as { version?: string }).version ?? '') : '';
  return { version, bodies: new Map(Object.entries(output).map(([id, v]) => [id, v.articleBody ?? ''])) };
}

/**
 * robots.txt matching: what the check before each request costs, on a hostile file and on a usual one.
 *   - the hostile file: 500 KiB of `Disallow: /*a<i>*z$` (23,777 lines), asked about URLs with 2,000-character paths;
 *     parse time, the first match (which compiles the crawler's groups) and the median per URL;
 *   - files built against this tree's matcher (pieces that nest, 47 pieces per line): the median per URL;
 *   - a usual file (test/fixtures/robots/typical.txt, 72 lines) and 400 usual URLs: the median per URL;
 *   - a crawl of 40 pages over loopback whose robots.txt is the hostile file and whose URLs have 2,000-character
 *     paths: wall time and the process's CPU time.
 * With `--baseline REV` the same figures for another commit's engine (`git archive` into .cache/), measured in the
 * same run, the two sides alternated; `npm run bench -- robots` compares against {@link ROBOTS_BASELINE}, the engine
 * before the bounded matcher.
 *
 *   npx tsx bench/robots.ts [--baseline REV]     or     npm run bench -- robots
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as engine from '../lib/engine';
import { median } from './stats';
import { Rng } from '../lib/engine';

type Engine = Pick<typeof engine, 'RobotsRules' | 'createCrawl' | 'createFetcher'>;
interface Side {
  name: string;
  engine: Engine;
}

const ROOT = resolve(import.meta.dirname, '..');

/** The issue's file: `Disallow: /*a<i>*z$` lines, as many as 500 KiB hold. */
function linesUpTo(make: (i: number) => string, bytes = 500 * 1024): string {
  const lines = ['User-agent: *'];
  let size = lines[0].length + 1;
  for (let i = 0; ; i++) {
    const line = make(i);
    if (size + line.length + 1 > bytes) return `${lines.join('\n')}\n`;
    lines.push(line);
    size += line.length + 1;
  }
}

const HOSTILE = linesUpTo((i) => `Disallow: /*a${i}*z$`);
const BUILT_AGAINST: Record<string, string> = {
  'nested pieces (/*a*z$, /*aa*z$, …)': linesUpTo((i) => `Disallow: /*${'a'.repeat(i + 1)}*z$`),
  '47 pieces per line (/*a*a*…*b<i>)': linesUpTo((i) => `Disallow: /*${'a*'.repeat(46)}b${i}`),
};
/** 2,000-character paths of `unit` repeated, each with a number of its own at the end. */
function longPaths(unit: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `/${unit.repeat(2000).slice(0, 1999 - String(i).length)}${i}`);
}
/** `a` only: the paths that cost the old matcher most on the hostile file; then other kinds. */
const PATH_KINDS: Record<string, string> = { 'a…a': 'a', 'a9a9…': 'a9', 'abab…': 'ab', 'a…az (every `$` tail holds)': 'a' };
/** Paths of the last kind end in `z`, so every `…*z$` rule's anchored tail matches and only its middle piece decides. */
const ENDS_IN_Z = 'a…az (every `$` tail holds)';

/** The engine's seeded generator, so every run asks about the same URLs and a failure names its case. */
function random(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

/** URLs of the kinds a crawl meets on such a site: articles, listings, products with parameters, search, files. */
function usualPaths(count: number): string[] {
  const next = random(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const words = ['shark', 'reef', 'ocean', 'fish', 'coral', 'deep', 'blue', 'white', 'tiger', 'migration', 'guide'];
  const slug = () => Array.from({ length: 2 + Math.floor(next() * 6) }, () => pick(words)).join('-');
  const kinds = [
    () => `/news/20${20 + Math.floor(next() * 6)}/0${1 + Math.floor(next() * 9)}/${slug()}-${Math.floor(next() * 9999)}`,
    () => `/shop/${slug()}?color=${pick(words)}&size=${pick(['s', 'm', 'l'])}${next() < 0.3 ? '&sort=price' : ''}`,
    () => `/search?q=${slug().replace(/-/g, '+')}`,
    () => `/tag/${pick(words)}/page/${Math.floor(next() * 20)}`,
    () => `/category/${pick(words)}/${slug()}/${next() < 0.2 ? 'feed/' : ''}`,
    () => `/files/${slug()}.${pick(['pdf', 'html', 'zip', 'css'])}`,
    () => `/wp-content/uploads/2025/0${1 + Math.floor(next() * 9)}/${slug()}.jpg`,
    () => `/${slug()}/?utm_source=${pick(words)}&id=${Math.floor(next() * 1e6)}`,
  ];
  return Array.from({ length: count }, () => pick(kinds)());
}

/** The engine of commit `rev`, extracted under .cache/ so that it resolves this tree's node_modules. */
async function engineAt(rev: string): Promise<Engine> {
  const commit = execFileSync('git', ['rev-parse', '--short', rev], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = join(ROOT, '.cache', 'bench-robots', commit);
  if (!existsSync(join(dir, 'lib', 'engine', 'index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', commit, 'lib/engine'], { cwd: ROOT, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  return (await import(join(dir, 'lib', 'engine', 'index.ts'))) as Engine;
}

/** Milliseconds per URL over paths of `unit`: 60 URLs, or 3 for a matcher that takes over 50 ms each. */
function sample(rules: InstanceType<Engine['RobotsRules']>, unit: string, endsInZ = false): number[] {
  const paths = (count: number) => longPaths(unit, count).map((p) => (endsInZ ? `${p.slice(0, -1)}z` : p));
  const first = perUrl(rules, paths(3));
  return median(first) > 50 ? first : perUrl(rules, paths(60));
}

function timed<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

/** Milliseconds per URL of each `paths`, asked of `rules` (a warm-up URL first). */
function perUrl(rules: InstanceType<Engine['RobotsRules']>, paths: string[]): number[] {
  rules.isAllowed('https://r.example/warm-up', 'Forager');
  return paths.map((path) => timed(() => rules.isAllowed(`https://r.example${path}`, 'Forager')).ms);
}

/** A loopback site: /robots.txt is `robots`; each page links to the next two, all under 2,000-character paths. */
async function hostileSite(robots: string, pages: number): Promise<{ base: string; close: () => Promise<void> }> {
  const path = (k: number) => `/${'a'.repeat(1990)}-${k}`;
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(robots);
      return;
    }
    const k = Number(/-(\d+)$/.exec(req.url ?? '')?.[1] ?? Number.NaN);
    if (!Number.isInteger(k) || k >= pages * 2) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const links = [k + 1, k + 2].map((j) => `<a href="${path(j)}">shark page ${j}</a>`).join(' ');
    res.end(`<html><head><title>Shark page ${k}</title></head><body><p>Sharks of the reef, page ${k}.</p>${links}</body></html>`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `${base}${path(0)}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** One crawl of `pages` pages against the hostile file: wall and CPU seconds. */
async function crawlOnce(side: Side, pages: number): Promise<{ wallS: number; cpuS: number; pages: number }> {
  const site = await hostileSite(HOSTILE, pages);
  try {
    const run = side.engine.createCrawl({
      topic: { keywords: 'shark reef', language: 'en' },
      seeds: [site.base],
      strategy: { name: 'best-n-first', params: { n: 1 }, seed: 1 },
      limits: { maxPages: pages, maxBuffer: 256 },
      fetcher: side.engine.createFetcher({ politenessDelayMs: 0, maxInFlight: 4, urlPolicy: { allowPrivate: 'loopback' } }),
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let fetched = 0;
    for await (const e of run.events()) if (e.type === 'page') fetched++;
    const cpu = process.cpuUsage(cpu0);
    return { wallS: (performance.now() - t0) / 1000, cpuS: (cpu.user + cpu.system) / 1e6, pages: fetched };
  } finally {
    await site.close();
  }
}

/** The engine before the bounded matcher: the matcher `npm run bench` compares against. */
export const ROBOTS_BASELINE = 'fc81f28';

export async function benchRobots(options: { baseline?: string; rounds?: number } = {}): Promise<Record<string, number>> {
  const sides: Side[] = [{ name: 'this tree', engine }];
  if (options.baseline) sides.push({ name: options.baseline, engine: await engineAt(options.baseline) });
  const rounds = options.rounds ?? 3;
  const usualText = readFileSync(join(ROOT, 'test', 'fixtures', 'robots', 'typical.txt'), 'utf8');
  const usual = usualPaths(400);
  const figures: Record<string, number> = {
    'hostile file: lines': HOSTILE.split('\n').length - 2,
    'hostile file: bytes': HOSTILE.length,
  };
  const samples = new Map<string, number[]>();
  const add = (key: string, values: number[]) => samples.set(key, [...(samples.get(key) ?? []), ...values]);
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const { RobotsRules } = side.engine;
      const parse = timed(() => new RobotsRules(HOSTILE));
      add(`hostile file: parse ms [${side.name}]`, [parse.ms]);
      add(`hostile file: first match, groups compiled, ms [${side.name}]`, [
        timed(() => parse.value.isAllowed('https://r.example/first', 'Forager')).ms,
      ]);
      for (const [kind, unit] of Object.entries(PATH_KINDS)) {
        add(`hostile file: ms per URL, 2,000-char paths ${kind} [${side.name}]`, sample(parse.value, unit, kind === ENDS_IN_Z));
      }
      for (const [name, text] of Object.entries(BUILT_AGAINST)) {
        add(`${name}: ms per URL, paths a…a [${side.name}]`, sample(new RobotsRules(text), 'a'));
      }
      add(`usual file: ms per URL [${side.name}]`, perUrl(new RobotsRules(usualText), usual));
    }
  }
  // Each figure's sides next to each other: before and after on adjacent lines.
  const byFigure = [...samples.keys()].sort((a, b) => a.replace(/ \[.*\]$/, '').localeCompare(b.replace(/ \[.*\]$/, '')));
  for (const key of byFigure) figures[`${key} (median)`] = median(samples.get(key) ?? []);
  for (const side of sides) {
    const crawl = await crawlOnce(side, 40);
    figures[`crawl of 40 pages, hostile robots.txt: pages [${side.name}]`] = crawl.pages;
    figures[`crawl of 40 pages, hostile robots.txt: wall s [${side.name}]`] = crawl.wallS;
    figures[`crawl of 40 pages, hostile robots.txt: CPU s [${side.name}]`] = crawl.cpuS;
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--baseline');
  const figures = await benchRobots({ baseline: at > 0 ? process.argv[at + 1] : undefined });
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(84)} ${Number.isInteger(v) ? v : v.toFixed(3)}`);
}

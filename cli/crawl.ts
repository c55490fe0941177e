/**
 * Forager on the command line: the same engine as the extension, fetching with Node's fetch.
 *
 *   npm run crawl -- "<topic keywords>" <seed URL>... [options]
 *
 * Progress goes to stderr; the ranked pages (or JSON with --json) to stdout.
 */
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createCrawl } from '../lib/engine';
import { createFetcher } from '../lib/engine';
import { listStrategies, strategySpec } from '../lib/engine';
import { createGuardedFetch } from '../lib/node/guarded-fetch';
import { normalizeNamedHost } from '../lib/engine';
import type { CrawlCheckpoint, CrawlStats, PageResult, SkipRecord, UrlPolicy } from '../lib/engine';

const HELP = `Usage: npm run crawl -- "<topic keywords>" <seed URL>... [options]

Crawls outward from the seed URLs and prints the pages most similar to the topic.

Options:
  --strategy NAME       crawl strategy (default forager); also best-n-first, bfs1, bfs16, best-first, breadth-first,
                        shark-search, pagerank, infospiders, anchor-text, adaptive-bnf (--list-strategies)
  --n N                 links fetched per round (greediness; Best-N-First's N, 1 = greedy Best-First)
  --param KEY=VALUE     any other strategy parameter (repeatable)
  --max-pages N         pages to evaluate (default 500)
  --max-buffer N        frontier capacity MAX_BUFFER (default 256)
  --delay MS            minimum delay between requests to one site (default 1000; robots.txt crawl-delay wins if larger)
  --concurrency N       requests in flight over all sites (default 6)
  --timeout MS          per-request timeout (default 10000)
  --max-bytes N         bytes read per page (default 102400)
  --stay-on-sites       follow only links to the seeds' hosts
  --allow-private       allow loopback and private addresses (local test webs); link-local ones stay refused
  --private-host HOST   allow this private host (HOST or HOST:PORT; repeatable), link-local ones included;
                        cloud metadata addresses (169.254.169.254 ...) are never fetched
  --ignore-robots       do not fetch or obey robots.txt
  --seed N              RNG seed (default 1): same seed, same crawl
  --lang CODE           stop-word language of the topic (default en)
  --top N               how many pages to print (default 25)
  --all                 include the seeds in the printed list (default: fresh pages only)
  --save FILE           write a checkpoint to FILE after every round and on Ctrl-C
  --resume FILE         continue the crawl saved in FILE (topic and seeds come from it)
  --json                print everything (results, skips, stats) as JSON
  --quiet               no progress on stderr
  --list-strategies     list the strategies and their parameters
  -h, --help            this help
`;

function fail(message: string): never {
  process.stderr.write(`forager: ${message}\n(try --help)\n`);
  process.exit(2);
}

function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || Math.floor(n) !== n) fail(`--${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

function parseParam(text: string): [string, number | string | boolean] {
  const eq = text.indexOf('=');
  if (eq <= 0) fail(`--param expects KEY=VALUE, got "${text}"`);
  const key = text.slice(0, eq);
  const raw = text.slice(eq + 1);
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  const n = Number(raw);
  return [key, raw !== '' && Number.isFinite(n) ? n : raw];
}

function formatStats(s: CrawlStats): string {
  const secs = s.elapsedMs / 1000;
  return (
    `${s.pagesEvaluated}/${s.maxPages} pages, ${s.errors} skipped, frontier ${s.frontierSize}, ` +
    `${secs.toFixed(1)} s, ${(s.pagesEvaluated / Math.max(secs, 0.001)).toFixed(1)} pages/s, mean score ${s.meanScore.toFixed(3)}`
  );
}

function parseCommandLine() {
  return parseArgs({
    allowPositionals: true,
    options: {
      strategy: { type: 'string' },
      n: { type: 'string' },
      param: { type: 'string', multiple: true },
      'max-pages': { type: 'string' },
      'max-buffer': { type: 'string' },
      delay: { type: 'string' },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      'max-bytes': { type: 'string' },
      'stay-on-sites': { type: 'boolean' },
      'allow-private': { type: 'boolean' },
      'private-host': { type: 'string', multiple: true },
      'ignore-robots': { type: 'boolean' },
      seed: { type: 'string' },
      lang: { type: 'string' },
      top: { type: 'string' },
      all: { type: 'boolean' },
      save: { type: 'string' },
      resume: { type: 'string' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean' },
      'list-strategies': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine();
  } catch (error) {
    fail((error as Error).message);
  }
  const { values: o, positionals } = parsed;
  if (o.help) {
    process.stdout.write(HELP);
    return;
  }
  if (o['list-strategies']) {
    for (const s of listStrategies()) {
      process.stdout.write(`${s.name}: ${s.description}\n`);
      for (const p of s.params) process.stdout.write(`    ${p.name} (default ${String(p.default)}): ${p.description}\n`);
    }
    return;
  }

  let checkpoint: CrawlCheckpoint | undefined;
  if (o.resume) {
    try {
      checkpoint = JSON.parse(readFileSync(o.resume, 'utf8')) as CrawlCheckpoint;
    } catch (error) {
      fail(`cannot read checkpoint ${o.resume}: ${(error as Error).message}`);
    }
  } else if (positionals.length < 2) {
    fail('give the topic keywords and at least one seed URL');
  }
  const [keywords = '', ...seeds] = positionals;

  let spec: { name: string; params: Record<string, number | string | boolean> };
  try {
    spec = strategySpec(o.strategy ?? 'forager');
  } catch (error) {
    fail((error as Error).message);
  }
  const params: Record<string, number | string | boolean> = { ...spec.params };
  if (o.n !== undefined) params.n = intOption(o.n, 'n', 16, 1);
  for (const p of o.param ?? []) {
    const [k, v] = parseParam(p);
    params[k] = v;
  }

  const privateHosts = (o['private-host'] ?? []).map((h) => normalizeNamedHost(h) ?? fail(`--private-host: not a host: "${h}"`));
  const urlPolicy: UrlPolicy = {
    allowPrivate: Boolean(o['allow-private']),
    ...(privateHosts.length ? { privateHosts } : {}),
    allowedHosts: o['stay-on-sites']
      ? [
          ...new Set(
            (checkpoint?.seeds ?? seeds).flatMap((s) => {
              try {
                return [new URL(s).hostname];
              } catch {
                return [];
              }
            }),
          ),
        ]
      : undefined,
  };
  // Connections only to addresses the policy allows, whatever a host name resolves to (lib/node/guarded-fetch.ts).
  const net = createGuardedFetch(urlPolicy);
  const fetcher = createFetcher({
    fetch: net.fetch,
    politenessDelayMs: intOption(o.delay, 'delay', 1000),
    concurrency: intOption(o.concurrency, 'concurrency', 6, 1),
    timeoutMs: intOption(o.timeout, 'timeout', 10_000, 1),
    maxBytes: intOption(o['max-bytes'], 'max-bytes', 100 * 1024, 1024),
    respectRobots: !o['ignore-robots'],
    urlPolicy,
  });
  const controller = new AbortController();
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('\nStopping (Ctrl-C again to quit at once)...\n');
    controller.abort();
  });

  let run: ReturnType<typeof createCrawl>;
  try {
    run = createCrawl({
      topic: { keywords, language: o.lang },
      seeds,
      strategy: { name: spec.name, params, seed: intOption(o.seed, 'seed', 1) },
      limits: {
        maxPages: intOption(o['max-pages'], 'max-pages', 500, 1),
        maxBuffer: intOption(o['max-buffer'], 'max-buffer', 256, 1),
      },
      fetcher,
      urlPolicy,
      signal: controller.signal,
      checkpoint,
    });
  } catch (error) {
    fail((error as Error).message);
  }

  const initial = run.checkpoint();
  if (initial.seeds.length === 0) {
    fail(`no usable seed URL: ${initial.skips.map((k) => `"${k.url}" (${k.detail})`).join(', ')}`);
  }

  const save = (cp: CrawlCheckpoint) => {
    if (!o.save) return;
    const tmp = `${o.save}.tmp`;
    writeFileSync(tmp, JSON.stringify(cp));
    renameSync(tmp, o.save); // atomic: a crash never leaves half a checkpoint
  };

  const results: PageResult[] = [...(checkpoint?.results ?? [])];
  const skips: SkipRecord[] = [...(checkpoint?.skips ?? [])];
  let lastProgress = 0;
  let stats: CrawlStats = run.stats();
  let reason = 'aborted';
  for await (const event of run.events()) {
    if (event.type === 'page') results.push(event.page);
    else if (event.type === 'skip') skips.push(event.skip);
    else if (event.type === 'checkpoint' && o.save) save(run.checkpoint());
    else if (event.type === 'done') reason = event.reason;
    if ('stats' in event) stats = event.stats;
    if (!o.quiet && (event.type === 'done' || Date.now() - lastProgress > 500)) {
      lastProgress = Date.now();
      process.stderr.write(`\r\x1b[K${formatStats(stats)}`);
    }
  }
  if ('close' in fetcher && typeof fetcher.close === 'function') fetcher.close();
  await net.close();
  if (!o.quiet) process.stderr.write(`\ndone (${reason})\n`);

  const ranked = results.filter((p) => !p.noindex).sort((a, b) => b.score - a.score);
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ topic: keywords || checkpoint?.topic.keywords, reason, stats, results: ranked, skips }, null, 2)}\n`,
    );
    return;
  }
  const top = intOption(o.top, 'top', 25, 1);
  const shown = ranked.filter((p) => o.all || !p.isSeed).slice(0, top);
  if (shown.length === 0) process.stdout.write('No pages found.\n');
  shown.forEach((p, i) => {
    const tag = p.isSeed ? 'seed ' : 'fresh';
    process.stdout.write(
      `${String(i + 1).padStart(3)}. ${p.score.toFixed(3)} ${tag} ${p.title || '(untitled)'}\n     ${p.url}\n`,
    );
  });
  if (reason === 'aborted' && o.save) process.stderr.write(`Saved; continue with --resume ${o.save}\n`);
}

main().catch((error) => {
  process.stderr.write(`forager: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

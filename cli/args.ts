/**
 * Command-line arguments of `npm run crawl` and `npm start`, checked before anything runs: a mistake is a
 * {@link UsageError} with a sentence saying what is wrong and what to do (printed without a stack trace, exit 2),
 * never a value silently replaced by a default.
 */
import { parseArgs } from 'node:util';
import {
  cleanSeed,
  FETCH_BOUNDS,
  type FetchSettings,
  isKnownLanguage,
  KNOWN_LANGUAGES,
  MAX_RETRIES,
  MAX_SEEDS,
  MAX_TOPIC_LENGTH,
  privateSeedHosts,
  SETTING_BOUNDS,
} from '../lib/app/node';
import {
  checkHost,
  DEFAULT_MAX_BYTES,
  DEFAULT_RETRIES,
  errorMessage,
  getStrategyInfo,
  normalizeNamedHost,
  resolveParams,
  strategySpec,
  type UrlPolicy,
} from '../lib/engine';

/** A mistake in the command line: its message is for the user. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A whole number within bounds, or a UsageError naming the option. Absent: the fallback. */
export function intOption(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be a whole number ${range}, got "${value}"`);
  }
  return n;
}

/**
 * `--max-pages -5` as `--max-pages=-5`: parseArgs reads a value that starts with "-" as an option and refuses it as
 * ambiguous; joined, the value reaches the range check, which says what is allowed.
 */
export function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = argv[i + 1];
    if (/^--[a-z][\w-]*$/.test(arg) && next !== undefined && /^-\d+(\.\d+)?$/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Runs parseArgs, with its errors (unknown option, missing value) as UsageErrors. */
function parsing<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(errorMessage(error).replace(/\. To specify a positional argument.*$/s, ''));
  }
}

// ---------------------------------------------------------------- npm run crawl

export const CRAWL_HELP = `Usage: npm run crawl -- "<topic keywords>" <seed URL>... [options]
       npm run crawl -- --resume DIR [--top N] [--all] [--json] [--quiet]

Crawls outward from the seed URLs and prints the pages most similar to the topic.

Options:
  --strategy NAME       crawl strategy (default forager); also best-n-first, bfs1, bfs16, best-first, breadth-first,
                        shark-search, pagerank, infospiders, anchor-text, adaptive-bnf (--list-strategies)
  --n N                 greediness: each link fetched is drawn from the N best (Best-N-First's N, 1 = greedy Best-First)
  --param KEY=VALUE     any other strategy parameter (repeatable)
  --max-pages N         pages to evaluate (default 500, at most ${SETTING_BOUNDS.maxPages.max})
  --max-buffer N        frontier capacity MAX_BUFFER (default 256)
  --delay MS            minimum delay between requests to one site (default 1000; robots.txt crawl-delay wins if larger)
  --concurrency N       requests in flight over all sites (default 6); one per site while --delay is above 0
  --timeout MS          per-request timeout (default 10000)
  --retries N           times a URL is fetched again after a timeout or a 408/425/429/5xx answer (default ${DEFAULT_RETRIES},
                        at most ${MAX_RETRIES}, 0 for never); the waits grow fourfold: 2 s, 8 s, 32 s ...
  --max-bytes N         bytes read per page (default ${DEFAULT_MAX_BYTES})
  --stay-on-sites       follow only links to the seeds' hosts
  --allow-private       allow loopback and private addresses (a local test web, your own network); link-local
                        ones stay refused
  --private-host HOST   allow this private host (HOST or HOST:PORT; repeatable), link-local ones included;
                        cloud metadata addresses (169.254.169.254 ...) are never fetched
  --ignore-robots       do not fetch or obey robots.txt
  --seed N              RNG seed (default 1): same seed, same crawl
  --lang CODE           stop-word language of the topic (default en; ${KNOWN_LANGUAGES.length} known, e.g. de, fr, es)
  --top N               how many pages to print (default 25)
  --all                 include the seeds in the printed list (default: fresh pages only)
  --save DIR            keep the crawl in DIR as it goes (a crawl store: pages, skips, resume state); Ctrl-C pauses it
  --resume DIR          continue the newest unfinished crawl kept in DIR, with its own topic, seeds and settings
  --json                print the whole crawl (record, pages, skips) as the extension's JSON export
  --quiet               no progress on stderr
  --list-strategies     list the strategies and their parameters
  -h, --help            this help

Try it on the bundled test web (no internet needed): start it in one terminal with
  npx tsx harness/testweb/serve.ts
and crawl from the seed URLs it prints, in another (its sites are on 127.0.0.1, hence --allow-private):
  npm run crawl -- "<topic keywords it prints>" <seed URLs> --allow-private --delay 0
`;

/** A checked `npm run crawl` command line. */
export type CrawlCommand =
  | { kind: 'help' }
  | { kind: 'list-strategies' }
  | { kind: 'start'; start: CrawlStart; output: CrawlOutput; save?: string }
  | { kind: 'resume'; dir: string; output: CrawlOutput };

export interface CrawlOutput {
  top: number;
  all: boolean;
  json: boolean;
  quiet: boolean;
}

/** A new crawl, as the runner takes it. */
export interface CrawlStart {
  topic: string;
  language?: string;
  seeds: string[];
  settings: {
    strategy: string;
    params: Record<string, number | string | boolean>;
    maxPages: number;
    maxBuffer: number;
    politenessDelayMs: number;
    stayOnSeedSites: boolean;
    /** The seeds' private hosts, all allowed by the options above (the start form's ticks). */
    privateHosts: string[];
    seed: number;
  };
  fetch: FetchSettings;
}

/** Options that shape a crawl: a resumed crawl keeps its own, so they are refused with --resume. */
const CRAWL_SHAPING = [
  'strategy',
  'n',
  'param',
  'max-pages',
  'max-buffer',
  'delay',
  'concurrency',
  'timeout',
  'retries',
  'max-bytes',
  'stay-on-sites',
  'allow-private',
  'private-host',
  'ignore-robots',
  'seed',
  'lang',
  'save',
] as const;

function parseParam(text: string): [string, number | string | boolean] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--param expects KEY=VALUE, got "${text}"`);
  const key = text.slice(0, eq);
  const raw = text.slice(eq + 1);
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  const n = Number(raw);
  return [key, raw.trim() !== '' && Number.isFinite(n) ? n : raw];
}

/** Reads and checks `npm run crawl`'s arguments. Throws a UsageError for anything wrong. */
export function parseCrawlArgs(argv: string[]): CrawlCommand {
  const { values: o, positionals } = parsing(() =>
    parseArgs({
      args: joinNegativeValues(argv),
      allowPositionals: true,
      strict: true,
      options: {
        strategy: { type: 'string' },
        n: { type: 'string' },
        param: { type: 'string', multiple: true },
        'max-pages': { type: 'string' },
        'max-buffer': { type: 'string' },
        delay: { type: 'string' },
        concurrency: { type: 'string' },
        timeout: { type: 'string' },
        retries: { type: 'string' },
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
    }),
  );
  if (o.help) return { kind: 'help' };
  if (o['list-strategies']) return { kind: 'list-strategies' };
  const output: CrawlOutput = {
    top: intOption(o.top, 'top', 25, 1),
    all: !!o.all,
    json: !!o.json,
    quiet: !!o.quiet,
  };

  if (o.resume !== undefined) {
    if (!o.resume) throw new UsageError('--resume needs the directory given to --save');
    const given = CRAWL_SHAPING.filter((name) => o[name] !== undefined);
    if (given.length) {
      throw new UsageError(
        `--resume continues the saved crawl with its own topic, seeds and settings; drop ${given.map((g) => `--${g}`).join(', ')}`,
      );
    }
    if (positionals.length) throw new UsageError('--resume takes no topic or seed URLs: they are kept with the crawl');
    return { kind: 'resume', dir: o.resume, output };
  }

  const [topic = '', ...rawSeeds] = positionals;
  if (!topic.trim() || rawSeeds.length === 0) throw new UsageError('give the topic keywords and at least one seed URL');
  if (topic.length > MAX_TOPIC_LENGTH) throw new UsageError(`the topic is longer than ${MAX_TOPIC_LENGTH} characters`);
  if (rawSeeds.length > MAX_SEEDS) throw new UsageError(`at most ${MAX_SEEDS} seed URLs, got ${rawSeeds.length}`);
  const allowPrivate = !!o['allow-private'];
  const privateHosts = (o['private-host'] ?? []).map((entry) => {
    const host = normalizeNamedHost(entry);
    if (!host) throw new UsageError(`--private-host: not a host: "${entry}"`);
    return host;
  });
  const policy: UrlPolicy = { allowPrivate, ...(privateHosts.length ? { privateHosts } : {}) };
  const seeds: string[] = [];
  for (const raw of rawSeeds) {
    const seed = cleanSeed(raw);
    if (!seed) throw new UsageError(`"${raw}" is not a seed URL (http or https, without user:password@)`);
    const refusal = checkHost(new URL(seed), policy);
    if (!refusal.ok) {
      throw new UsageError(
        `the seed ${seed} is refused: ${refusal.detail}; --allow-private allows loopback and private addresses, --private-host HOST[:PORT] names one (cloud metadata addresses are never fetched)`,
      );
    }
    if (!seeds.includes(seed)) seeds.push(seed);
  }

  let spec: { name: string; params: Record<string, number | string | boolean> };
  try {
    spec = strategySpec(o.strategy ?? 'forager');
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const params: Record<string, number | string | boolean> = { ...spec.params };
  if (o.n !== undefined) params.n = intOption(o.n, 'n', 16, 1);
  for (const p of o.param ?? []) {
    const [k, v] = parseParam(p);
    params[k] = v;
  }
  const info = getStrategyInfo(spec.name);
  try {
    if (info) resolveParams(info, params);
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }

  let language: string | undefined;
  if (o.lang !== undefined) {
    language = o.lang.trim().toLowerCase();
    if (!isKnownLanguage(language)) {
      throw new UsageError(`--lang ${o.lang}: no stop words for that language; known: ${KNOWN_LANGUAGES.join(' ')}`);
    }
  }
  const start: CrawlStart = {
    topic,
    language,
    seeds,
    settings: {
      strategy: spec.name,
      params,
      maxPages: intOption(o['max-pages'], 'max-pages', 500, SETTING_BOUNDS.maxPages.min, SETTING_BOUNDS.maxPages.max),
      maxBuffer: intOption(o['max-buffer'], 'max-buffer', 256, SETTING_BOUNDS.maxBuffer.min, SETTING_BOUNDS.maxBuffer.max),
      politenessDelayMs: intOption(
        o.delay,
        'delay',
        1000,
        SETTING_BOUNDS.politenessDelayMs.min,
        SETTING_BOUNDS.politenessDelayMs.max,
      ),
      stayOnSeedSites: !!o['stay-on-sites'],
      privateHosts: privateSeedHosts(seeds).map((p) => p.host),
      seed: intOption(o.seed, 'seed', 1, SETTING_BOUNDS.seed.min, SETTING_BOUNDS.seed.max),
    },
    fetch: {
      concurrency: intOption(o.concurrency, 'concurrency', 6, FETCH_BOUNDS.concurrency.min, FETCH_BOUNDS.concurrency.max),
      timeoutMs: intOption(o.timeout, 'timeout', 10_000, FETCH_BOUNDS.timeoutMs.min, FETCH_BOUNDS.timeoutMs.max),
      retries: intOption(o.retries, 'retries', DEFAULT_RETRIES, FETCH_BOUNDS.retries.min, FETCH_BOUNDS.retries.max),
      maxBytes: intOption(o['max-bytes'], 'max-bytes', DEFAULT_MAX_BYTES, FETCH_BOUNDS.maxBytes.min, FETCH_BOUNDS.maxBytes.max),
      respectRobots: !o['ignore-robots'],
      allowPrivate,
      ...(privateHosts.length ? { privateHosts } : {}),
    },
  };
  if (o.save === '') throw new UsageError('--save needs a directory');
  return { kind: 'start', start, output, save: o.save };
}

// ---------------------------------------------------------------- npm start

export const DEMO_USAGE = `Usage: npm start -- [--headless] [--pages N] [--screenshot file.png] [--rebuild | --no-build]
  --headless          no browser window (the default without a display): crawl, print the results, save a screenshot
  --pages N           pages the headless crawl checks (default 100)
  --screenshot FILE   where the headless run saves the popup's screenshot (default ./forager-demo.png)
  --rebuild           build the extension even if the last build is newer than every source file
  --no-build          use the last build as it is (fails if there is none)
The build is reused when it is newer than every file it is made from (entrypoints/, lib/, public/, the configuration).`;

export interface DemoOptions {
  help: boolean;
  headless: boolean;
  pages: number;
  screenshot: string;
  /** auto: build when the last build is older than a source file (or missing); always; never. */
  build: 'auto' | 'always' | 'never';
}

/** Reads and checks `npm start`'s arguments. Throws a UsageError for anything wrong. */
export function parseDemoArgs(argv: string[]): DemoOptions {
  const { values } = parsing(() =>
    parseArgs({
      args: joinNegativeValues(argv),
      strict: true,
      allowPositionals: false,
      options: {
        headless: { type: 'boolean' },
        pages: { type: 'string' },
        screenshot: { type: 'string' },
        'no-build': { type: 'boolean' },
        rebuild: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.rebuild && values['no-build']) throw new UsageError('--rebuild and --no-build contradict each other');
  if (values.screenshot !== undefined && !values.screenshot.endsWith('.png')) {
    throw new UsageError(`--screenshot must name a .png file, got "${values.screenshot}"`);
  }
  return {
    help: !!values.help,
    headless: !!values.headless,
    pages: intOption(values.pages, 'pages', 100, 1, 10_000),
    screenshot: values.screenshot ?? 'forager-demo.png',
    build: values.rebuild ? 'always' : values['no-build'] ? 'never' : 'auto',
  };
}

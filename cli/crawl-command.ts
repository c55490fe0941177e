/**
 * `npm run crawl`: the same runner and store interface as the extension. A crawl without --save lives in a memory
 * store; with --save DIR it lives in a file store, and --resume DIR continues it through the runner's resume path
 * (the one a restarted service worker takes). Everything printed from a page (titles, URLs) goes through
 * lib/app/rules/text-safety: no escape sequence reaches the terminal.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  crawlPolicy,
  type CrawlRecord,
  CrawlRunner,
  type CrawlStore,
  createGuardedFetch,
  createMemoryStore,
  describeRefusedHosts,
  describeStrategies,
  exportCrawlStream,
  HostAdmission,
  oneLine,
  openFileStore,
  type Resolver,
} from '../lib/app/node';
import {
  type CrawlStats,
  createFetcher,
  errorMessage,
  listStrategies,
  localEvaluator,
  type PageResult,
  type UrlPolicy,
} from '../lib/engine';
import { CRAWL_HELP, type CrawlCommand, type CrawlOutput, parseCrawlArgs, UsageError } from './args';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Registers what Ctrl-C does (the entry point connects it to SIGINT). */
  onInterrupt?(stop: () => void): void;
  /** How host names are resolved; default the system's (tests play wildcard DNS with it). */
  resolve?: Resolver;
}

/** Exit codes: 0 pages found, 1 the crawl failed or found nothing (with the reason), 2 a usage error. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

function formatStats(s: CrawlStats): string {
  const secs = s.elapsedMs / 1000;
  return (
    `${s.pagesEvaluated}/${s.maxPages} pages, ${s.errors} skipped, ${s.retried ? `${s.retried} retried, ` : ''}frontier ${s.frontierSize}, ` +
    `${secs.toFixed(1)} s, ${(s.pagesEvaluated / Math.max(secs, 0.001)).toFixed(1)} pages/s, mean score ${s.meanScore.toFixed(3)}`
  );
}

/** The ranked list as printed: rank, score, fresh or seed, title and URL, every field made safe for a terminal. */
export function formatResults(pages: PageResult[]): string {
  return pages
    .map((p, i) => {
      const tag = p.isSeed ? 'seed ' : 'fresh';
      return `${String(i + 1).padStart(3)}. ${p.score.toFixed(3)} ${tag} ${oneLine(p.title) || '(untitled)'}\n     ${oneLine(p.url)}\n`;
    })
    .join('');
}

/** The first `top` pages to print: listed (not noindex), fresh unless `all`, best first, read window by window. */
async function topPages(store: CrawlStore, id: string, output: CrawlOutput): Promise<PageResult[]> {
  const out: PageResult[] = [];
  const size = 500;
  for (let offset = 0; out.length < output.top; offset += size) {
    const window = await store.getPages(id, { offset, limit: size });
    for (const p of window) if (!p.noindex && (output.all || !p.isSeed) && out.length < output.top) out.push(p);
    if (window.length < size) break;
  }
  return out;
}

function endReason(record: CrawlRecord): string {
  switch (record.status) {
    case 'done':
      return record.stats.pagesEvaluated >= record.stats.maxPages ? 'budget reached' : 'nothing left to crawl';
    case 'error':
      return `failed: ${oneLine(record.error ?? 'unknown error')}`;
    default:
      return record.status;
  }
}

/** Why nothing was found: what happened to each seed. */
async function whyNothing(store: CrawlStore, record: CrawlRecord): Promise<string> {
  const seeds = new Set(record.seeds);
  const lines: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const window = await store.getSkips(record.id, { offset, limit: 1000 });
    for (const s of window) if (seeds.has(s.url)) lines.push(`  ${oneLine(s.url)}: ${s.reason} (${oneLine(s.detail)})`);
    if (window.length < 1000) break;
  }
  if (lines.length === 0) return 'No pages found: the seeds gave no HTML page.\n';
  return `No pages found: no seed could be read.\n${lines.join('\n')}\n`;
}

/** Runs `npm run crawl` with these arguments; resolves to the exit code. */
export async function runCrawlCommand(argv: string[], io: CliIo): Promise<number> {
  const say = (text: string) => void io.stderr.write(text);
  let command: CrawlCommand;
  try {
    command = parseCrawlArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`forager: ${error.message}\n(npm run crawl -- --help lists the options)\n`);
    return EXIT.usage;
  }
  if (command.kind === 'help') {
    io.stdout.write(CRAWL_HELP);
    return EXIT.ok;
  }
  if (command.kind === 'list-strategies') {
    for (const s of listStrategies()) {
      io.stdout.write(`${s.name}: ${s.description}\n`);
      for (const p of s.params) io.stdout.write(`    ${p.name} (default ${String(p.default)}): ${p.description}\n`);
    }
    return EXIT.ok;
  }

  const dir = command.kind === 'resume' ? command.dir : command.save;
  if (command.kind === 'resume' && !existsSync(path.join(dir!, 'forager-store.json'))) {
    say(`forager: ${dir} holds no saved crawl (start one with --save ${dir})\n`);
    return EXIT.usage;
  }
  let store: CrawlStore & { close?(): void };
  try {
    store = dir ? await openFileStore(dir) : createMemoryStore();
  } catch (error) {
    say(`forager: ${errorMessage(error)}\n`);
    return EXIT.usage;
  }
  try {
    return await crawl(command, store, dir, io);
  } finally {
    store.close?.();
  }
}

/** A command-line crawl's URL rules: the seeds' (ticked) private hosts, plus --allow-private and --private-host. */
export function cliPolicy(record: CrawlRecord): UrlPolicy {
  const policy = crawlPolicy(record.seeds, record.settings);
  const fetch = record.settings.fetch;
  if (fetch?.allowPrivate) policy.allowPrivate = true;
  if (fetch?.privateHosts?.length) policy.privateHosts = [...new Set([...(policy.privateHosts ?? []), ...fetch.privateHosts])];
  return policy;
}

async function crawl(
  command: Extract<CrawlCommand, { kind: 'start' | 'resume' }>,
  store: CrawlStore,
  dir: string | undefined,
  io: CliIo,
): Promise<number> {
  const say = (text: string) => void io.stderr.write(text);
  const { output } = command;
  let lastProgress = 0;
  const progress = (stats: CrawlStats, final = false) => {
    if (output.quiet || (!final && Date.now() - lastProgress < 500)) return;
    lastProgress = Date.now();
    say(io.stderr.isTTY ? `\r\x1b[K${formatStats(stats)}${final ? '\n' : ''}` : `${formatStats(stats)}\n`);
  };
  /** One per run of this command (a resume that fails over starts another). */
  const admissions: HostAdmission[] = [];
  const runner = new CrawlRunner({
    store,
    evaluator: localEvaluator,
    strategies: () => describeStrategies(listStrategies()),
    urlPolicy: (record) => cliPolicy(record),
    makeFetcher: (settings, urlPolicy, seeds) => {
      // Connections only to addresses the policy allows, whatever a host name resolves to (lib/app/adapters/guarded-fetch.ts);
      // after a private answer, no new host of its domain or linking page is even looked up (lib/app/adapters/host-admission.ts).
      const admission = new HostAdmission(seeds);
      admissions.push(admission);
      const net = createGuardedFetch(urlPolicy, {
        ...(io.resolve ? { resolve: io.resolve } : {}),
        onRefused: (host, detail) => admission.privateAnswer(host, detail),
      });
      const fetcher = createFetcher({
        fetch: admission.guardFetch(net.fetch),
        politenessDelayMs: settings.politenessDelayMs,
        maxInFlight: settings.fetch?.concurrency,
        timeoutMs: settings.fetch?.timeoutMs,
        maxBytes: settings.fetch?.maxBytes,
        respectRobots: settings.fetch?.respectRobots ?? true,
        urlPolicy,
      });
      return admission.guardFetcher({
        ...fetcher,
        close() {
          fetcher.close();
          void net.close();
        },
      });
    },
    onUpdate: (_id, record) => progress(record.stats),
    onError: (error) => say(`\nforager: ${errorMessage(error)}\n`),
  });

  let record: CrawlRecord;
  try {
    if (command.kind === 'start') {
      const { start } = command;
      record = await runner.start(
        {
          topic: start.topic,
          language: start.language,
          seeds: start.seeds,
          source: { kind: 'manual' },
          settings: start.settings,
        },
        { fetch: start.fetch },
      );
    } else {
      const crawls = await store.listCrawls();
      const resumable = crawls.find((c) => c.status !== 'done');
      if (resumable) {
        if (!output.quiet) say(`Resuming "${oneLine(resumable.name)}" (${resumable.stats.pagesEvaluated} pages so far)\n`);
        record = await runner.resume(resumable.id);
      } else {
        // Finished: nothing to fetch, but --top, --all and --json still read its results.
        if (!crawls[0]) throw new Error(`no crawl in ${dir}`);
        record = crawls[0];
        say(`forager: the crawl in ${dir} is finished; its results follow (start a new one to go further)\n`);
      }
    }
  } catch (error) {
    say(`forager: ${errorMessage(error)}\n`);
    return EXIT.usage;
  }

  let stopping = false;
  io.onInterrupt?.(() => {
    if (stopping) return;
    stopping = true;
    // A pause, not an abort: the fetches in flight finish and are kept, so a resume fetches nothing twice.
    say('\nStopping after the fetches in flight (Ctrl-C again to quit at once)...\n');
    void runner.pause(record.id);
  });
  await runner.whenIdle();
  const final = (await store.getCrawl(record.id)) ?? record;
  progress(final.stats, true);
  if (!output.quiet) say(`${endReason(final)}\n`);
  for (const admission of admissions) {
    const refused = describeRefusedHosts(admission.report());
    if (refused) say(`${refused}\n`);
  }

  const count = await store.countPages(record.id);
  if (output.json) {
    const file = exportCrawlStream('json', final, {
      pages: (offset, limit) => store.getPages(record.id, { offset, limit }),
      skips: (offset, limit) => store.getSkips(record.id, { offset, limit }),
    });
    for await (const piece of file.pieces) io.stdout.write(piece);
  } else if (count > 0) {
    const shown = await topPages(store, record.id, output);
    io.stdout.write(shown.length ? formatResults(shown) : 'No fresh pages (the seeds only; --all lists them).\n');
  }
  if (count === 0) say(await whyNothing(store, final));
  if (dir && (final.status === 'stopped' || final.status === 'paused' || final.status === 'error')) {
    say(`Saved; continue with: npm run crawl -- --resume ${dir}\n`);
  }
  return final.status === 'error' || count === 0 ? EXIT.failed : EXIT.ok;
}

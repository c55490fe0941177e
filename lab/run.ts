/**
 * Runs the lab's crawls: every (topic, task, strategy, RNG seed) once, to the largest budget, through the engine's
 * real crawl loop and fetcher over HTTP on the local web. Smaller budgets are read from the page sequence (a crawl's
 * first k pages do not depend on its budget). Pages are read (parsed) once per thread for every topic's crawls, and
 * scored per topic (see CachingEvaluator).
 */
import { createHash } from 'node:crypto';
import {
  createCrawl,
  evaluatePage,
  evaluateReading,
  measuredTopic,
  prepareTopic,
  readPage,
  rescore,
  VirtualClock,
} from '../lib/engine';
import { createFetcher, DEFAULT_MAX_BYTES } from '../lib/engine';
import { countsOf, createGuardedFetch, judgedRows } from '../lib/app/node';
import { strategySpec } from '../lib/engine';
import type {
  CrawlCheckpoint,
  EvaluationInput,
  Evaluator,
  PageEvaluation,
  PageReading,
  PageResult,
  Topic,
  TopicScoring,
} from '../lib/engine';
import type { Fetcher, UrlPolicy } from '../lib/engine';
import type { LocalWeb } from './docweb/server';
import { networkModel, SimulatedNetwork } from './network';
import { driveOnClock, SentAnswers, simulatedFetch } from './simnet';
import type { SiteConfig } from './sites';
import type { CrawledPage } from './metrics';
import { seedsOf, type LabTopic, type TaskId } from './topics';

/** A strategy as the lab runs it: a label for tables and plots, a registry name and parameters. */
export interface LabStrategy {
  label: string;
  name: string;
  params: Record<string, number | string | boolean>;
}

/**
 * Parses `--strategies`: comma-separated items, each a registered name or alias ('breadth-first', 'bfs16') with
 * optional parameters `name:key=value,key=value`. An item with '=' and no ':' continues the previous item's
 * parameters, so `bfs1,shark-search:d=0.5,r=0.8,bfs16` is three strategies. ';' also separates items.
 * @throws Error for unknown strategies, malformed parameters or duplicate labels.
 */
export function parseStrategies(text: string): LabStrategy[] {
  const out: LabStrategy[] = [];
  for (const group of text.split(';')) {
    for (const raw of group.split(',')) {
      const item = raw.trim();
      if (!item) continue;
      const colon = item.indexOf(':');
      if (colon < 0 && item.includes('=')) {
        const last = out[out.length - 1];
        if (!last?.label.includes(':')) throw new Error(`strategy parameter "${item}" does not follow a name:key=value item`);
        addParam(last, item);
        last.label += `,${item}`;
        continue;
      }
      const name = colon < 0 ? item : item.slice(0, colon);
      const spec = strategySpec(name);
      const s: LabStrategy = { label: item, name: spec.name, params: { ...spec.params } };
      if (colon >= 0) {
        const rest = item.slice(colon + 1);
        if (!rest.includes('=')) throw new Error(`strategy "${item}": expected name:key=value`);
        addParam(s, rest);
      }
      out.push(s);
    }
  }
  if (out.length === 0) throw new Error('no strategies given');
  const labels = new Set<string>();
  for (const s of out) {
    if (labels.has(s.label)) throw new Error(`strategy ${s.label} given twice`);
    labels.add(s.label);
  }
  return out;
}

function addParam(s: LabStrategy, kv: string): void {
  const eq = kv.indexOf('=');
  const key = kv.slice(0, eq).trim();
  const value = kv.slice(eq + 1).trim();
  if (!key || eq < 0 || value === '') throw new Error(`strategy ${s.label}: malformed parameter "${kv}"`);
  s.params[key] = value === 'true' ? true : value === 'false' ? false : Number.isFinite(Number(value)) ? Number(value) : value;
}

/**
 * An Evaluator over page readings shared by every topic (lib/engine/html/evaluate.ts readPage): the same URL,
 * content type, context window and bytes give the same reading, so each page is parsed once (per language its text
 * is read in) for all the crawls of all topics in a thread, and each crawl only scores it for its topic
 * (evaluateReading, bit for bit what evaluatePage gives). Each topic is prepared once (its vector). Readings are
 * kept up to `maxBytes` (an estimate, see READING_BYTES_PER_BODY_BYTE), least recently used dropped first.
 */
export class CachingEvaluator implements Evaluator {
  private readonly cache = new Map<string, { reading: PageReading; bytes: number }>();
  private readonly topics = new WeakMap<Topic, TopicScoring>();
  /**
   * Digests of bodies seen, by the body itself: the simulated network hands over the answer it keeps for a URL
   * (SentAnswers), the same bytes object each time, and nothing writes into a served body.
   */
  private readonly digests = new WeakMap<Uint8Array, string>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  constructor(private readonly maxBytes = DEFAULT_READING_CACHE_BYTES) {}

  evaluate(input: EvaluationInput): Promise<PageEvaluation> {
    return this.lookup(input).evaluation;
  }

  /** An Evaluator over this cache that counts its own hits and misses (one per crawl; crawls run concurrently). */
  view(): Evaluator & { hits: number; misses: number } {
    const counts = {
      hits: 0,
      misses: 0,
      evaluate: (input: EvaluationInput): Promise<PageEvaluation> => {
        const r = this.lookup(input);
        if (r.hit) counts.hits++;
        else counts.misses++;
        return r.evaluation;
      },
    };
    return counts;
  }

  private lookup(input: EvaluationInput): { hit: boolean; evaluation: Promise<PageEvaluation> } {
    let digest = this.digests.get(input.body);
    if (digest === undefined) {
      digest = createHash('sha1').update(input.body).digest('base64');
      this.digests.set(input.body, digest);
    }
    const key = `${input.url}\0${input.contentType ?? ''}\0${input.contextWindow ?? ''}\0${digest}`;
    let entry = this.cache.get(key);
    const hit = entry !== undefined;
    let evaluation: Promise<PageEvaluation>;
    try {
      if (entry) {
        this.hits++;
        this.cache.delete(key); // most recently used last
        this.cache.set(key, entry);
      } else {
        this.misses++;
        const bytes = input.body.length * READING_BYTES_PER_BODY_BYTE + READING_BYTES_FIXED;
        entry = { reading: readPage(input), bytes };
        this.cache.set(key, entry);
        this.bytes += bytes;
        while (this.bytes > this.maxBytes && this.cache.size > 1) {
          const [oldKey, old] = this.cache.entries().next().value!;
          this.cache.delete(oldKey);
          this.bytes -= old.bytes;
        }
      }
      let scoring = this.topics.get(input.topic);
      if (!scoring) this.topics.set(input.topic, (scoring = prepareTopic(input.topic)));
      evaluation = Promise.resolve(evaluateReading(entry.reading, scoring));
    } catch (error) {
      evaluation = Promise.reject(error);
    }
    // One promise step more, as the evaluator's answer took before (the order of a crawl's events must not change).
    return { hit, evaluation: evaluation.then((ev) => ev) };
  }

  /** Readings held. */
  get size(): number {
    return this.cache.size;
  }
}

/**
 * Memory a reading holds per byte of the page (visible text, tokens and their offsets, runs, packed links, term
 * vector), and per page. Set when a reading held its links and tokens as objects (`node --expose-gc --import tsx
 * bench/evaluate-split.ts --memory` on DocWeb-L pages: 56, 86, 171 and 425 KB for bodies of 5, 13, 31 and 81 KB,
 * 160 KB for the average body of 28 KB). Packed, a reading holds 42, 58, 102 and 226 KB (95 KB on average), so the
 * estimate is now about 1.7 times what a reading holds: kept so, the heap it sizes (the cache plus
 * CRAWL_WORKER_HEAP_BESIDES_READINGS_MB) has room to spare and the collector seldom runs near the limit.
 */
const READING_BYTES_PER_BODY_BYTE = 5;
const READING_BYTES_FIXED = 24_000;
/** Readings kept per thread: 2 GB (estimated), about 12,000 DocWeb-L pages. */
export const DEFAULT_READING_CACHE_BYTES = 2 * 2 ** 30;
/** The most a crawl worker keeps unless told: 6 GB, about every DocWeb-L page (the full comparison's peak: 13.6 GB). */
export const MAX_DEFAULT_READING_CACHE_BYTES = 6 * 2 ** 30;

/**
 * Readings each crawl worker keeps when the run does not say: half the memory free at the start shared among the
 * workers, at least DEFAULT_READING_CACHE_BYTES and at most MAX_DEFAULT_READING_CACHE_BYTES. With 6 GB a worker reads
 * each page about once and the full comparison read 74,810 pages instead of 355,060, 7% less time (lab/README.md,
 * "Speed"). Crawls in the main thread (no workers) keep the default: its heap is not grown.
 */
export function readingCacheFor(workers: number, freeBytes: number): number {
  if (workers <= 0) return DEFAULT_READING_CACHE_BYTES;
  const share = Math.floor(freeBytes / 2 / workers / 2 ** 20) * 2 ** 20;
  return Math.min(MAX_DEFAULT_READING_CACHE_BYTES, Math.max(DEFAULT_READING_CACHE_BYTES, share));
}

/** One crawl to run. */
export interface CrawlJob {
  topic: LabTopic;
  task: TaskId;
  strategy: LabStrategy;
  /** RNG seed of the strategy. */
  seed: number;
}

/** What one crawl did. */
export interface CrawlRecord {
  topic: string;
  task: TaskId;
  strategy: string;
  seed: number;
  /** Every evaluated page in order, as corpus ids. */
  pages: CrawledPage[];
  /** Failed fetches (404s, non-HTML...), which do not count toward the budget. */
  errors: number;
  done: 'budget' | 'exhausted' | 'aborted';
  elapsedMs: number;
  /** Simulated network runs: simulated milliseconds from the crawl's start to each page, ascending. */
  times?: number[];
  /** Each page's score, as the crawler gave it: with RunOptions.keepScores (lab/relevance-cut.ts). */
  scores?: number[];
}

/** How a crawl meets the simulated network (see lab/network.ts and lab/simnet.ts). */
export interface NetworkSetting {
  /** Model name (lab/network.ts NETWORK_MODELS). */
  model: string;
  /** Seed of the network's draws (latencies, failures). */
  seed: number;
  /** The fetcher's pause between requests to one site. */
  politenessMs: number;
}

/** A crawl as a worker thread runs it: plain data only. */
export interface CrawlTask {
  index: number;
  topicId: string;
  topic: Topic;
  seedUrls: string[];
  strategy: { name: string; params: Record<string, number | string | boolean> };
  seed: number;
  maxPages: number;
  maxBuffer: number;
  /** CrawlLimits.retries (absent: the engine's default). */
  retries?: number;
  fetchConcurrency: number;
  maxBytes?: number;
  /** Crawl on the simulated network (virtual time) instead of HTTP. */
  network?: NetworkSetting;
  /** A simulated user judging results as the crawl goes (see {@link simulatedUser}). */
  feedback?: SimulatedUser;
  /** Take the crawl's checkpoint when this many pages are in (lab/losses.ts reads its frontier). */
  snapshotAt?: number;
}

/**
 * The lab's simulated user (relevance feedback): after every `every` pages, the `k` best-ranked results not judged yet (new
 * pages, not seeds, ranked as the results list ranks them: by their score re-scored against the current topic) are
 * judged: a target up, anything else down.
 */
export interface SimulatedUser {
  every: number;
  k: number;
  /** The topic's targets, as URLs of the web the crawl runs on. */
  targets: string[];
}

/** What a crawl returns before its URLs are mapped to corpus ids. */
export interface CrawlOutcome {
  index: number;
  urls: string[];
  isSeed: boolean[];
  /** Each page's score. */
  scores: number[];
  errors: number;
  done: CrawlRecord['done'];
  elapsedMs: number;
  evaluations: number;
  cacheHits: number;
  /** Simulated network: simulated ms from the crawl's start to each page. */
  times?: number[];
  /** The simulated user's judgements, when there was one. */
  judgements?: { url: string; value: 1 | -1 }[];
  /** The user's result list at the end, when there was a user. */
  list?: ListOutcome;
  /** The checkpoint at CrawlTask.snapshotAt pages, when asked for and reached. */
  snapshot?: CrawlCheckpoint;
}

/** The result list at a crawl's end: its rows, and those that are not targets. */
export interface ListOutcome {
  rows: number;
  falsePositives: number;
}

export interface RunOptions {
  web: LocalWeb;
  jobs: CrawlJob[];
  /** Pages per crawl (the largest budget). */
  maxPages: number;
  maxBuffer: number;
  /** Times a transiently failed fetch is tried again (CrawlLimits.retries; absent: the engine's default). */
  retries?: number;
  /** Worker threads running crawls (0: all in this thread). Default 0. */
  workers?: number;
  /** Crawls running at once in each thread. Default 4. */
  parallel?: number;
  /** Fetches in flight per crawl. Default 8. */
  fetchConcurrency?: number;
  /** Fetcher body cap (bytes); default the engine's. */
  maxBytes?: number;
  /** Crawl on the simulated network; workers then serve the sites from memory (`sites`, `redirectStubs`). */
  network?: NetworkSetting;
  sites?: SiteConfig[];
  redirectStubs?: boolean;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Keep each page's score in the records (off by default: result files stay the size they were). */
  keepScores?: boolean;
  /** Bytes of page readings each thread keeps (estimated; default DEFAULT_READING_CACHE_BYTES). */
  readingCacheBytes?: number;
  /** Called with each crawl's record as the crawl ends (`index`: its job's). */
  onRecord?: (record: CrawlRecord, index: number) => void;
}

/** Counters of a whole run. */
export interface RunStats {
  evaluations: number;
  cacheHits: number;
}

/** The URL rules of a lab crawl: only the local web (127.0.0.1); everything outside it is unreachable anyway. */
export const LAB_URL_POLICY: UrlPolicy = { allowPrivate: true, allowedHosts: ['127.0.0.1'] };

/** The engine's default fetch timeout (FetcherOptions.timeoutMs). */
const ENGINE_TIMEOUT_MS = 10_000;

/** The engine's crawl of a task (the same on HTTP and on the simulated network; only the fetcher differs). */
function taskCrawl(task: CrawlTask, fetcher: Fetcher, evaluator: Evaluator, signal?: AbortSignal) {
  return createCrawl({
    topic: task.topic,
    seeds: task.seedUrls,
    strategy: { name: task.strategy.name, params: task.strategy.params, seed: task.seed },
    limits: {
      maxPages: task.maxPages,
      maxBuffer: task.maxBuffer,
      ...(task.retries !== undefined ? { retries: task.retries } : {}),
    },
    fetcher,
    evaluator,
    signal,
  });
}

/**
 * Runs one crawl to `task.maxPages` and records its page sequence (URLs): over HTTP, or, with `task.network`, on
 * the simulated network served from `web` (the same engine loop, fetcher and strategies on a virtual clock).
 */
export async function runCrawlTask(
  task: CrawlTask,
  evaluator: CachingEvaluator,
  signal?: AbortSignal,
  web?: LocalWeb,
): Promise<CrawlOutcome> {
  if (task.network) {
    if (!web) throw new Error('a crawl on the simulated network needs the web it serves');
    return runSimulatedCrawl(task, task.network, evaluator, web, signal);
  }
  const net = createGuardedFetch(LAB_URL_POLICY);
  const fetcher = createFetcher({
    fetch: net.fetch,
    politenessDelayMs: 0,
    maxInFlight: task.fetchConcurrency,
    respectRobots: false,
    urlPolicy: LAB_URL_POLICY,
    ...(task.maxBytes ? { maxBytes: task.maxBytes } : {}),
  });
  const started = Date.now();
  const counted = evaluator.view();
  const crawl = taskCrawl(task, fetcher, counted, signal);
  try {
    const outcome = await consume(crawl, task.index, undefined, task.feedback, task.snapshotAt);
    return { ...outcome, elapsedMs: Date.now() - started, evaluations: counted.misses, cacheHits: counted.hits };
  } finally {
    fetcher.close();
    await net.close();
  }
}

/** Reads a crawl's events: page URLs in order (with the clock's time when one is given), errors, why it ended. */
async function consume(
  crawl: ReturnType<typeof createCrawl>,
  index: number,
  clock?: { now(): number },
  user?: SimulatedUser,
  snapshotAt?: number,
): Promise<
  Pick<CrawlOutcome, 'index' | 'urls' | 'isSeed' | 'scores' | 'errors' | 'done' | 'times' | 'judgements' | 'list' | 'snapshot'>
> {
  const judge = user ? simulatedUser(crawl, user) : undefined;
  const pages: PageResult[] = [];
  const urls: string[] = [];
  const isSeed: boolean[] = [];
  const scores: number[] = [];
  const times: number[] = [];
  let errors = 0;
  let done: CrawlRecord['done'] = 'exhausted';
  let snapshot: CrawlCheckpoint | undefined;
  for await (const ev of crawl.events()) {
    if (ev.type === 'page') {
      urls.push(ev.page.url);
      if (urls.length === snapshotAt) snapshot = crawl.checkpoint();
      isSeed.push(ev.page.isSeed);
      scores.push(ev.page.score);
      if (clock) times.push(clock.now());
      judge?.onPage(ev.page);
      if (user) pages.push(ev.page);
    } else if (ev.type === 'done') {
      done = ev.reason;
      errors = ev.stats.errors;
    }
  }
  return {
    index,
    urls,
    isSeed,
    scores,
    errors,
    done,
    ...(clock ? { times } : {}),
    ...(snapshot ? { snapshot } : {}),
    ...(user
      ? {
          judgements: crawl.judgements().map((j) => ({ url: j.url, value: j.value })),
          list: listOutcome(crawl, pages, new Set(user.targets)),
        }
      : {}),
  };
}

/**
 * The result list the user would see at the crawl's end (lib/app/view: new pages at or above the relevance cut,
 * re-ranked and filtered by the judgements): how many rows, how many of them are not targets (false positives).
 */
function listOutcome(crawl: ReturnType<typeof createCrawl>, pages: PageResult[], targets: Set<string>): ListOutcome {
  const { rows } = judgedRows(pages, { topic: crawl.checkpoint().topic, judgements: crawl.judgements() }, countsOf(pages).cut, {
    showSearch: false,
    showLow: false,
    showHidden: false,
  });
  return { rows: rows.length, falsePositives: rows.filter((p) => !targets.has(p.url)).length };
}

/** The simulated user of `user` on `crawl`: call `onPage` with each page as it comes. */
export function simulatedUser(crawl: ReturnType<typeof createCrawl>, user: SimulatedUser): { onPage(page: PageResult): void } {
  const targets = new Set(user.targets);
  const results: PageResult[] = [];
  const judged = new Set<string>();
  let pages = 0;
  const onPage = (page: PageResult) => {
    pages++;
    if (!page.isSeed && !page.noindex) results.push(page);
    if (pages % user.every !== 0) return;
    const vec = measuredTopic(crawl.currentTopic());
    const ranked = results
      .filter((p) => !judged.has(p.url))
      .map((p) => ({ p, score: rescore(p, vec) }))
      .sort((a, b) => b.score - a.score || (a.p.url < b.p.url ? -1 : 1))
      .slice(0, user.k);
    for (const { p } of ranked) {
      judged.add(p.url);
      crawl.judge(p.url, targets.has(p.url) ? 1 : -1, p.profile?.terms);
    }
  };
  return { onPage };
}

/** Per web and body cap, the answers the simulated network sent, for every crawl of this thread (lab/simnet.ts). */
const answersByWeb = new WeakMap<LocalWeb, Map<number, SentAnswers>>();
function sentAnswers(web: LocalWeb, maxBytes: number): SentAnswers {
  let byCap = answersByWeb.get(web);
  if (!byCap) answersByWeb.set(web, (byCap = new Map()));
  let answers = byCap.get(maxBytes);
  if (!answers) byCap.set(maxBytes, (answers = new SentAnswers(web, maxBytes)));
  return answers;
}

/** One crawl on the simulated network: virtual clock, in-memory fetch with the network's latencies, the engine's loop. */
async function runSimulatedCrawl(
  task: CrawlTask,
  setting: NetworkSetting,
  evaluator: CachingEvaluator,
  web: LocalWeb,
  signal?: AbortSignal,
): Promise<CrawlOutcome> {
  const clock = new VirtualClock();
  const network = new SimulatedNetwork(networkModel(setting.model), setting.seed, Object.keys(web.origins));
  // The engine's default body cap unless --max-bytes: what the simulated network transfers at most.
  const maxBytes = task.maxBytes ?? DEFAULT_MAX_BYTES;
  const fetch = simulatedFetch({
    web,
    network,
    clock,
    maxBytes,
    giveUpMs: ENGINE_TIMEOUT_MS + 1000,
    answers: sentAnswers(web, maxBytes),
  });
  const fetcher = createFetcher({
    fetch,
    clock,
    politenessDelayMs: setting.politenessMs,
    maxInFlight: task.fetchConcurrency,
    respectRobots: false,
    urlPolicy: LAB_URL_POLICY,
    maxBytes,
    timeoutMs: ENGINE_TIMEOUT_MS,
  });
  const started = Date.now();
  const counted = evaluator.view();
  const crawl = taskCrawl(task, fetcher, counted, signal);
  try {
    const outcome = await driveOnClock(clock, consume(crawl, task.index, clock, task.feedback, task.snapshotAt));
    return { ...outcome, elapsedMs: Date.now() - started, evaluations: counted.misses, cacheHits: counted.hits };
  } finally {
    fetcher.close();
  }
}

/**
 * Runs every job and returns records in job order. With `workers` > 0 the crawls run in worker threads (the
 * server stays in this thread); a worker is preferably given jobs of a topic it has already evaluated pages for.
 */
export async function runCrawls(options: RunOptions): Promise<{ records: CrawlRecord[]; stats: RunStats }> {
  const log = options.log ?? (() => {});
  const { web } = options;
  const resultsPages = new Map<string, string[]>();
  for (const job of options.jobs) {
    const key = `${job.topic.id}\0${job.task}`;
    if (!resultsPages.has(key)) resultsPages.set(key, await resultsPageContext(web, seedsOf(job.topic, job.task)));
  }
  const tasks: CrawlTask[] = options.jobs.map((job, index) => ({
    index,
    topicId: job.topic.id,
    topic: labTopic(job, resultsPages.get(`${job.topic.id}\0${job.task}`)!),
    seedUrls: seedsOf(job.topic, job.task).map((id) => web.urlFor(id)),
    strategy: { name: job.strategy.name, params: strategyParams(job.strategy.params) },
    seed: job.seed,
    maxPages: options.maxPages,
    maxBuffer: options.maxBuffer,
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    fetchConcurrency: options.fetchConcurrency ?? 8,
    maxBytes: options.maxBytes,
    ...(options.network ? { network: options.network } : {}),
    ...feedbackOf(job, web),
  }));
  const records = new Array<CrawlRecord>(tasks.length);
  const stats: RunStats = { evaluations: 0, cacheHits: 0 };
  const started = Date.now();
  let finished = 0;
  const onOutcome = (o: CrawlOutcome) => {
    const job = options.jobs[o.index];
    records[o.index] = {
      topic: job.topic.id,
      task: job.task,
      strategy: job.strategy.label,
      seed: job.seed,
      pages: o.urls.map((url, i) => ({ id: web.idFor(url), isSeed: o.isSeed[i] })),
      errors: o.errors,
      done: o.done,
      elapsedMs: o.elapsedMs,
      ...(o.times ? { times: o.times } : {}),
      ...(options.keepScores ? { scores: o.scores } : {}),
    };
    options.onRecord?.(records[o.index], o.index);
    stats.evaluations += o.evaluations;
    stats.cacheHits += o.cacheHits;
    finished++;
    const elapsed = (Date.now() - started) / 1000;
    const eta = (elapsed / finished) * (tasks.length - finished);
    if (o.list) {
      const up = o.judgements?.filter((j) => j.value === 1).length ?? 0;
      // One line per crawl with a simulated user, read by lab/feedback-table.ts (--lists).
      log(
        `[feedback] ${JSON.stringify({ topic: job.topic.id, strategy: job.strategy.label, ...o.list, up, down: (o.judgements?.length ?? 0) - up })}`,
      );
    }
    log(
      `[${finished}/${tasks.length}] ${job.topic.id} task${job.task} ${job.strategy.label} seed${job.seed}: ` +
        `${o.urls.length} pages, ${o.errors} errors, ${o.done}, ${(o.elapsedMs / 1000).toFixed(1)} s ` +
        `(elapsed ${elapsed.toFixed(0)} s, eta ${eta.toFixed(0)} s)`,
    );
  };
  const parallel = Math.max(1, options.parallel ?? 4);
  const workers = Math.max(0, options.workers ?? 0);
  const topicSites = new Map(options.jobs.map((job) => [job.topic.id, sitesOfTopic(job.topic)]));
  // One reading cache per worker thread (in this thread: one for every lane).
  const queue = new JobQueue(tasks, Math.max(1, workers), topicSites);
  if (workers === 0) {
    const evaluator = new CachingEvaluator(options.readingCacheBytes);
    const lane = async () => {
      for (let t = queue.take(0); t; t = queue.take(0)) {
        if (options.signal?.aborted) return;
        onOutcome(await runCrawlTask(t, evaluator, options.signal, web));
      }
    };
    await Promise.all(Array.from({ length: parallel }, lane));
  } else {
    const { runInWorkers } = await import('./workers');
    const webData = options.network ? { sites: options.sites, redirectStubs: !!options.redirectStubs } : undefined;
    await runInWorkers(queue, workers, parallel, onOutcome, options.signal, webData, options.readingCacheBytes);
  }
  if (options.signal?.aborted) throw new Error('lab run aborted');
  return { records, stats };
}

/**
 * A simulated results page for a task: each seed's title and the first ~30 words of its main text (the evaluator's
 * snippet of a page with no topic), as a search engine would show the seeds as results.
 */
export async function resultsPageContext(web: LocalWeb, seedIds: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of seedIds) {
    const slash = id.indexOf('/');
    const served = await web.render(id.slice(0, slash), `/${id.slice(slash + 1)}`);
    if (served.status !== 200) continue;
    const ev = evaluatePage({ url: web.urlFor(id), body: served.body, contentType: served.contentType, topic: { keywords: '' } });
    if (ev.title) out.push(ev.title);
    const snippet = ev.snippet.replace(/^… |\s…$/g, '');
    if (snippet) out.push(snippet);
  }
  return out;
}

/** Prefix of the topic settings a strategy label may carry: `forager:topic.expansion=0,topic.boilerplate=1`. */
const TOPIC_PARAM = 'topic.';

/** A strategy's own parameters (the `topic.` ones are the topic's, see {@link labTopic}). */
export function strategyParams(params: LabStrategy['params']): LabStrategy['params'] {
  const out: LabStrategy['params'] = {};
  for (const [k, v] of Object.entries(params)) if (!k.startsWith(TOPIC_PARAM) && !k.startsWith(FEEDBACK_PARAM)) out[k] = v;
  return out;
}

/** Prefix of the simulated user's settings in a strategy label: `forager:feedback.every=100,feedback.k=5`. */
const FEEDBACK_PARAM = 'feedback.';

/**
 * The simulated user a strategy label asks for: `feedback.every` (pages between judging rounds) and `feedback.k`
 * (results judged per round; 0 judges nothing but counts the list), both needed; none without them. So one run
 * compares a strategy with and without.
 * @throws Error for an unknown `feedback.` setting or a value that is not a positive whole number.
 */
export function feedbackOf(job: CrawlJob, web: Pick<LocalWeb, 'urlFor'>): { feedback?: SimulatedUser } {
  const settings: Record<string, number> = {};
  for (const [k, v] of Object.entries(job.strategy.params)) {
    if (!k.startsWith(FEEDBACK_PARAM)) continue;
    const name = k.slice(FEEDBACK_PARAM.length);
    if (name !== 'every' && name !== 'k')
      throw new Error(`strategy ${job.strategy.label}: ${k}: unknown feedback setting (every, k)`);
    // k = 0: a user who judges nothing, so the list's false positives are counted without feedback too.
    const least = name === 'k' ? 0 : 1;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < least)
      throw new Error(`strategy ${job.strategy.label}: ${k} must be a whole number >= ${least}`);
    settings[name] = v;
  }
  if (Object.keys(settings).length === 0) return {};
  if (settings.every === undefined || settings.k === undefined)
    throw new Error(`strategy ${job.strategy.label}: feedback needs both feedback.every and feedback.k`);
  return { feedback: { every: settings.every, k: settings.k, targets: job.topic.targets.map((id) => web.urlFor(id)) } };
}

/**
 * The topic a lab crawl gets: the keywords and language, the simulated results page as context, and the settings
 * given in the strategy label: `topic.expansion` and `topic.boilerplate` (Topic.weights), `topic.context=false` (no
 * results page), `topic.allLanguages=true`. So one run compares a strategy with and without each of them.
 * @throws Error for an unknown `topic.` setting or a value of the wrong type.
 */
export function labTopic(job: CrawlJob, resultsPage: string[]): Topic {
  const topic: Topic = { keywords: job.topic.keywords };
  if (job.topic.language) topic.language = job.topic.language;
  let context = true;
  for (const [k, v] of Object.entries(job.strategy.params)) {
    if (!k.startsWith(TOPIC_PARAM)) continue;
    const name = k.slice(TOPIC_PARAM.length);
    const where = `strategy ${job.strategy.label}: ${k}`;
    if (name === 'expansion' || name === 'boilerplate') {
      if (typeof v !== 'number') throw new Error(`${where} must be a number`);
      topic.weights = { ...topic.weights, [name]: v };
    } else if (name === 'context' || name === 'allLanguages') {
      if (typeof v !== 'boolean') throw new Error(`${where} must be true or false`);
      if (name === 'context') context = v;
      else topic.allLanguages = v;
    } else {
      throw new Error(`${where}: unknown topic setting (expansion, boilerplate, context, allLanguages)`);
    }
  }
  if (context && resultsPage.length > 0) topic.context = resultsPage;
  return topic;
}

/**
 * Jobs waiting to run, handed to `lanes` readers (worker threads, each with its own cache of page readings). The
 * crawls of one topic read mostly the same pages (the 11 strategies of a DocWeb-L topic visit 5,000-8,000 distinct
 * pages in 22,000 page visits, and its two tasks share most of them), and topics on the same sites share many. So a
 * lane takes every job of a topic before it starts another; topics follow a chain that puts topics on the same sites
 * next to each other ({@link topicChain}); the chain is cut into one stretch per lane, of about equal jobs, and each
 * lane walks its own stretch, so its cache serves topic after topic and no two lanes read the same topic's pages. A
 * lane done with its stretch takes the last topic of the stretch with the most jobs left, and once no topic is left
 * to start, helps with the topic in progress that has the most jobs left.
 */
export class JobQueue {
  /** Per topic, its jobs not handed out yet, in the order given. */
  private readonly byTopic = new Map<string, CrawlTask[]>();
  /** Per lane, the topics of its stretch not started yet, next first. */
  private readonly stretches: string[][];
  /** Per lane, the topic it works on. */
  private readonly current: (string | undefined)[];
  private left: number;

  /**
   * @param lanes readers that take jobs (`take(lane)`, lane in [0, lanes)).
   * @param topicSites per topic, its pages per site (targets and seeds): topics are chained by it; without it,
   *   topics keep the order of `tasks`.
   */
  constructor(tasks: CrawlTask[], lanes = 1, topicSites?: ReadonlyMap<string, ReadonlyMap<string, number>>) {
    for (const t of tasks) {
      const list = this.byTopic.get(t.topicId);
      if (list) list.push(t);
      else this.byTopic.set(t.topicId, [t]);
    }
    this.left = tasks.length;
    const order = topicSites ? topicChain([...this.byTopic.keys()], topicSites) : [...this.byTopic.keys()];
    const n = Math.max(1, Math.floor(lanes));
    this.stretches = Array.from({ length: n }, () => []);
    this.current = new Array(n).fill(undefined);
    // Contiguous stretches of about tasks.length / n jobs each.
    let done = 0;
    for (const topic of order) {
      const lane = Math.min(n - 1, Math.floor((done * n) / Math.max(1, tasks.length)));
      this.stretches[lane].push(topic);
      done += this.byTopic.get(topic)!.length;
    }
  }

  /** Jobs not handed out yet. */
  get size(): number {
    return this.left;
  }

  /** The next job for `lane`, or undefined when every job was handed out. */
  take(lane = 0): CrawlTask | undefined {
    if (this.left === 0) return undefined;
    const l = Math.max(0, Math.min(this.stretches.length - 1, Math.floor(lane)));
    let topic = this.current[l];
    if (topic === undefined || this.byTopic.get(topic)!.length === 0) {
      topic = this.nextTopic(l);
      this.current[l] = topic;
    }
    if (topic === undefined) return undefined;
    this.left--;
    return this.byTopic.get(topic)!.shift();
  }

  /** The topic `lane` goes on with: its stretch's next, else another stretch's last, else another lane's topic. */
  private nextTopic(lane: number): string | undefined {
    const own = this.stretches[lane];
    if (own.length > 0) return own.shift();
    let victim = -1;
    let most = 0;
    for (let i = 0; i < this.stretches.length; i++) {
      const jobs = this.stretches[i].reduce((sum, t) => sum + this.byTopic.get(t)!.length, 0);
      if (jobs > most) {
        most = jobs;
        victim = i;
      }
    }
    if (victim >= 0) return this.stretches[victim].pop();
    let busiest: string | undefined;
    most = 0;
    for (const t of this.current) {
      const jobs = t === undefined ? 0 : this.byTopic.get(t)!.length;
      if (jobs > most) {
        most = jobs;
        busiest = t;
      }
    }
    return busiest;
  }
}

/**
 * Topics in an order that puts topics on the same sites next to each other: a greedy chain from the first topic,
 * each next topic the one left whose pages per site are closest (cosine) to the last one's, ties in the order given.
 */
export function topicChain(topics: string[], sites: ReadonlyMap<string, ReadonlyMap<string, number>>): string[] {
  const norm = (m: ReadonlyMap<string, number> | undefined) => Math.sqrt([...(m?.values() ?? [])].reduce((s, x) => s + x * x, 0));
  const cosine = (a: string, b: string): number => {
    const x = sites.get(a);
    const y = sites.get(b);
    if (!x || !y) return 0;
    let dot = 0;
    for (const [site, c] of x) dot += c * (y.get(site) ?? 0);
    const d = norm(x) * norm(y);
    return d > 0 ? dot / d : 0;
  };
  const rest = [...topics];
  const out: string[] = [];
  let last = rest.shift();
  while (last !== undefined) {
    out.push(last);
    let best = -1;
    let bestSim = -1;
    for (let i = 0; i < rest.length; i++) {
      const sim = cosine(last, rest[i]);
      if (sim > bestSim) {
        bestSim = sim;
        best = i;
      }
    }
    last = best >= 0 ? rest.splice(best, 1)[0] : undefined;
  }
  return out;
}

/** A topic's pages per site: its targets and both tasks' seeds (page ids are `SITE/PATH`). */
export function sitesOfTopic(topic: LabTopic): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of [...topic.targets, ...topic.examples, ...topic.neighbors]) {
    const site = id.slice(0, id.indexOf('/'));
    out.set(site, (out.get(site) ?? 0) + 1);
  }
  return out;
}

/**
 * The run driver: one run of a crawl through this process, from its launch until its events end. It makes the run
 * (guard, plan, fetcher, the engine's crawl, a {@link ProgressWriter}), then consumes the crawl's events, appends
 * pages and skips to the writer, writes the pause point when pausing, and writes the final state. The runner's
 * commands (crawl-runner.ts) decide when a run starts and what the user changes; this decides nothing of that.
 */
import { type Crawl, type CrawlEvent, type CrawlOptions, type CrawlStats, errorMessage, type PageResult } from '../../engine';
import type { CrawlRecord, RefusedHosts, RunFetcher } from '../model/records';
import { crawlPolicy } from '../rules/settings';
import { ProgressWriter } from './progress-writer';
import { RunLifecycle } from './run-lifecycle';
import type { RunnerDeps, RunPlan } from './runner-deps';

/** One run in this process. */
export interface Run {
  id: string;
  record: CrawlRecord;
  crawl: Crawl;
  controller: AbortController;
  fetcher: RunFetcher;
  /** What the crawl's earlier runs refused (its record's, when this run began). */
  refusedBefore?: RefusedHosts;
  life: RunLifecycle;
  writer: ProgressWriter;
  /** The first failed write: the crawl is stopped and ends in 'error'. */
  writeError: unknown;
  /** Resolves when the run has ended and its final state is written. */
  ended: Promise<void>;
  plan?: RunPlan;
}

/** What the driver takes from the runner. */
export interface RunContext {
  deps: RunnerDeps;
  createCrawl: (options: CrawlOptions) => Crawl;
  now: () => number;
  flushEveryMs: number;
  /** Marks a crawl failed (in the store, or noted outside it when the store refuses). */
  fail(id: string, reason: string): Promise<void>;
}

/**
 * Makes a run of `record`, from its checkpoint when it has one, else from its seeds: the network guard installed, the
 * watch's plan asked, the fetcher and the engine's crawl made, judgements made while it did not run handed over. A
 * failure on the way marks the crawl failed and is thrown.
 */
export async function startRun(ctx: RunContext, record: CrawlRecord): Promise<Run> {
  const checkpoint = await ctx.deps.store.getCheckpoint(record.id);
  const policy = ctx.deps.urlPolicy?.(record) ?? crawlPolicy(record.seeds, record.settings);
  try {
    await ctx.deps.guardNetwork?.(policy);
  } catch (error) {
    const text = `Forager could not install its network guard (${errorMessage(error)}) and does not crawl without it.`;
    await ctx.fail(record.id, text);
    ctx.deps.onCrawlsChanged?.();
    throw new Error(text);
  }
  let plan: RunPlan | undefined;
  try {
    plan = await ctx.deps.planRun?.(record);
  } catch (error) {
    await ctx.fail(record.id, errorMessage(error));
    ctx.deps.onCrawlsChanged?.();
    throw error;
  }
  const fetcher = ctx.deps.makeFetcher(record.settings, policy, record.seeds);
  const controller = new AbortController();
  let crawl: Crawl;
  try {
    crawl = ctx.createCrawl({
      ...(plan ? { validators: plan.validators, revisit: plan.revisit } : {}),
      topic: record.topic,
      seeds: record.seeds,
      strategy: { name: record.settings.strategy, params: record.settings.params, seed: record.settings.seed },
      limits: {
        maxPages: record.settings.maxPages,
        maxBuffer: record.settings.maxBuffer,
        ...(record.settings.fetch?.retries !== undefined ? { retries: record.settings.fetch.retries } : {}),
      },
      fetcher,
      evaluator: ctx.deps.evaluator,
      signal: controller.signal,
      checkpoint: checkpoint ?? undefined,
    });
  } catch (error) {
    fetcher.close?.();
    await ctx.fail(record.id, errorMessage(error));
    ctx.deps.onCrawlsChanged?.();
    throw error;
  }
  // Judgements made while the crawl did not run are in its record only: the crawl learns them now.
  const wanted = new Map((record.judgements ?? []).map((j) => [j.url, j]));
  for (const j of crawl.judgements()) if (!wanted.has(j.url)) crawl.judge(j.url, 0);
  const known = new Map(crawl.judgements().map((j) => [j.url, j.value]));
  for (const j of wanted.values()) if (known.get(j.url) !== j.value) crawl.judge(j.url, j.value, j.terms);
  const run: Run = {
    id: record.id,
    record: { ...record, status: 'running' },
    crawl,
    controller,
    fetcher,
    ...(record.refusedHosts ? { refusedBefore: record.refusedHosts } : {}),
    life: new RunLifecycle(),
    writer: new ProgressWriter({
      store: ctx.deps.store,
      crawlId: record.id,
      everyMs: ctx.flushEveryMs,
      now: ctx.now,
      state: () => ({ checkpoint: crawl.checkpoint(), patch: progressPatch(run, ctx.now()) }),
      onStored: (pages) => ctx.deps.onPagesStored?.(record.id, pages),
      onFailure: (error) => {
        // Storage is failing (quota, closed database): stop rather than crawl what cannot be kept.
        run.writeError ??= error;
        controller.abort();
      },
    }),
    writeError: null,
    ended: Promise.resolve(),
    plan,
  };
  return run;
}

/** Consumes the crawl's events until they end, then writes the final state. Never throws. */
export async function driveRun(ctx: RunContext, run: Run): Promise<void> {
  let doneReason: Extract<CrawlEvent, { type: 'done' }>['reason'] | null = null;
  let failure: unknown = null;
  try {
    for await (const event of run.crawl.events()) {
      switch (event.type) {
        case 'page': {
          const page = run.plan ? run.plan.annotate(event.page) : event.page;
          run.writer.addPage(page);
          setStats(ctx, run, event.stats, [page]);
          break;
        }
        case 'skip':
          run.writer.addSkip(event.skip);
          setStats(ctx, run, event.stats, []);
          break;
        case 'progress':
        case 'not-modified':
        case 'retry':
          setStats(ctx, run, event.stats, []);
          break;
        case 'checkpoint':
          if (run.life.state !== 'pausing') {
            // A batch end: written with the next write-behind (the crawl does not wait for it).
            run.writer.request();
            break;
          }
          // Maybe the pause point: written now, and the crawl waits for it.
          await run.writer.flush();
          if (run.crawl.paused && run.crawl.stats().fetchesInFlight === 0 && run.life.fire('pause-point')) {
            // Nothing in flight any more: end this run; resume starts a new one from here.
            run.controller.abort();
          }
          break;
        case 'done':
          doneReason = event.reason;
          setStats(ctx, run, event.stats, []);
          break;
      }
    }
  } catch (error) {
    failure = error;
  }
  run.writer.stop();
  failure ??= run.writeError;
  let status: CrawlRecord['status'];
  if (failure) status = 'error';
  else if (run.life.state === 'detaching') status = 'paused';
  else if (run.life.state === 'stopping' || doneReason === 'aborted') status = 'stopped';
  else status = 'done';
  const patch: Partial<CrawlRecord> = { ...progressPatch(run, ctx.now()), status };
  if (failure) patch.error = errorMessage(failure);
  try {
    // One write: the last pages and skips, the final checkpoint (none for a finished crawl: it is never resumed,
    // so its resume state would only take room) and the final status.
    await run.writer.flush({ checkpoint: status === 'done' ? null : run.crawl.checkpoint(), patch });
    run.record = { ...run.record, ...patch };
  } catch (error) {
    // The store refuses the final write (it may well be why the crawl stopped): try the status alone, then the note.
    failure ??= error;
    const reason = `Storage is failing, the crawl was stopped: ${errorMessage(error)}`;
    run.record = { ...run.record, status: 'error', error: reason };
    await ctx.fail(run.id, reason);
  }
  run.life.fire('end');
  ctx.deps.onUpdate?.(run.id, run.record, []);
  if (failure) ctx.deps.onError?.(failure);
  ctx.deps.onCrawlsChanged?.();
  ctx.deps.onRunEnded?.(run.record);
}

function setStats(ctx: RunContext, run: Run, stats: CrawlStats, pages: PageResult[]): void {
  run.record = { ...run.record, stats, updatedAt: ctx.now() };
  const refused = refusedSoFar(run);
  if (refused) run.record.refusedHosts = refused;
  ctx.deps.onUpdate?.(run.id, run.record, pages);
}

/** What a progress write puts in the record: the stats, and the refused hosts when there are any. */
function progressPatch(run: Run, now: number): Partial<CrawlRecord> {
  const refused = refusedSoFar(run);
  return { stats: run.record.stats, updatedAt: now, ...(refused ? { refusedHosts: refused } : {}) };
}

/** Most refused host names a record keeps as examples. */
const MAX_REFUSED_EXAMPLES = 10;

/** The crawl's refused hosts: its earlier runs' (`refusedBefore`) plus this run's fetcher's; undefined when none. */
function refusedSoFar(run: Run): RefusedHosts | undefined {
  const now = run.fetcher.refusedHosts?.();
  const before = run.refusedBefore;
  if (!now || now.privateAddress + now.notContacted === 0) return before;
  if (!before) return now;
  const hosts = new Set(before.examples.map((e) => e.host));
  return {
    privateAddress: before.privateAddress + now.privateAddress,
    notContacted: before.notContacted + now.notContacted,
    examples: [...before.examples, ...now.examples.filter((e) => !hosts.has(e.host))].slice(0, MAX_REFUSED_EXAMPLES),
  };
}

/**
 * The crawl runner: everything the background does with crawls, without the browser. It starts, pauses, resumes and
 * stops crawls, persists them as they go, and picks them up again after the service worker was killed.
 *
 * One crawl runs at a time (the fetcher's politeness and the one evaluator are shared resources, and a second crawl
 * would halve both); starting another while one runs is refused with a message. Paused crawls take no slot.
 *
 * Persistence, through one write queue per run (so an older checkpoint can never overwrite a newer one): each write
 * is one transaction holding the new pages and skips, the checkpoint (without its results: the page list has them)
 * and the record's stats. Writes happen behind the crawl (it never waits for the disk, batch ends included), at
 * most every `flushEveryMs`. The crawl's checkpoint is valid at any moment and records the outcomes already in, so
 * a killed worker loses at most the pages of the last interval and the fetches in flight: those are fetched again,
 * and the store keeps one copy of a page per URL.
 *
 * Pausing lets in-flight fetches finish, persists the checkpoint the crawl emits, then lets the run end. Resuming
 * always starts a new run from the stored checkpoint: the same path a restarted service worker takes, so it is the
 * path every pause/resume exercises.
 */
import { createCrawl as defaultCreateCrawl, type Crawl, type CrawlOptions } from '../engine';
import type { CrawlSnapshot, StartRequest, StrategyInfo } from './protocol';
import { emptyStats } from './protocol';
import type { CrawlRecord, CrawlSettings, CrawlStore } from './store/types';
import type { CrawlEvent, CrawlStats, Evaluator, PageFetcher, PageResult } from '../engine';
import type { UrlPolicy } from '../engine';
import { crawlPolicy, MAX_NAME_LENGTH, validateStart } from './settings';

export interface RunnerDeps {
  store: CrawlStore;
  /** The one evaluator all crawls share. */
  evaluator: Evaluator;
  /** A fetcher for one run (politeness, robots, URL rules); closed when the run ends if it has `close()`. */
  makeFetcher(settings: CrawlSettings, policy: UrlPolicy): PageFetcher & { close?(): void };
  /**
   * Installs the browser's own guard for a run's URL rules before its first request (the extension: session rules
   * that block its requests to private hosts, lib/app/network-guard.ts). If it fails, the run does not start: the
   * crawl is marked 'error' with a message saying so (no crawl runs unguarded).
   */
  guardNetwork?(policy: UrlPolicy): Promise<void>;
  /** Default: lib/engine/crawl's createCrawl. */
  createCrawl?: (options: CrawlOptions) => Crawl;
  /** Known strategies, to validate start requests. */
  strategies?: () => StrategyInfo[];
  /** A crawl changed (record) and maybe got pages: feed the live hub. */
  onUpdate?(id: string, record: CrawlRecord, pages: PageResult[]): void;
  /** A crawl was added, renamed, deleted or changed status. */
  onCrawlsChanged?(): void;
  /** True while a run is fetching (keep the service worker alive), false when nothing runs. */
  onBusy?(busy: boolean): void;
  /** Something went wrong outside any request (persistence of a run). */
  onError?(error: unknown): void;
  now?: () => number;
  newId?: () => string;
  /**
   * Least time between two background writes of new pages + checkpoint while pages arrive. Default 1000 ms: a killed
   * worker loses at most that much (plus fetches in flight), fetched again after the restart. Each write copies the
   * crawl state (the strategy's frontier, ~150 KB at the default buffer) twice on the crawl's own thread, once for
   * the snapshot and once into IndexedDB, so writing 4 times a second cost a service worker ~10% of its time.
   */
  flushEveryMs?: number;
}

/** Why the background (re)started: decides what happens to a crawl found 'running'. */
export type StartKind = 'browser-start' | 'worker-restart';

interface Run {
  id: string;
  record: CrawlRecord;
  crawl: Crawl;
  controller: AbortController;
  fetcher: PageFetcher & { close?(): void };
  /** How many of the crawl's results / skips (lists it only appends to) are in the store already. */
  savedPages: number;
  savedSkips: number;
  lastFlush: number;
  writes: Promise<void>;
  /** pause() was asked: end the run once the crawl reaches its pause checkpoint. */
  pausing: boolean;
  /** stop() was asked. */
  stopping: boolean;
  /** The run is ending because of a pause (keep status 'paused'). */
  detaching: boolean;
  loop: Promise<void>;
  /** Write-behind state: something waits to be written / a write is on its way / the timer of the next one. */
  dirty: boolean;
  flushing: boolean;
  flushTimer: ReturnType<typeof setTimeout> | undefined;
  writeError: unknown;
}

const RESUMABLE = new Set<CrawlRecord['status']>(['paused', 'stopped', 'error']);

/** Runs crawls for the background; see the module comment. */
export class CrawlRunner {
  private run: Run | null = null;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly createCrawl: (options: CrawlOptions) => Crawl;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly flushEveryMs: number;

  constructor(private readonly deps: RunnerDeps) {
    this.createCrawl = deps.createCrawl ?? defaultCreateCrawl;
    this.now = deps.now ?? Date.now;
    this.newId =
      deps.newId ??
      (() =>
        typeof crypto !== 'undefined' && 'randomUUID' in crypto
          ? crypto.randomUUID()
          : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);
    this.flushEveryMs = deps.flushEveryMs ?? 1000;
  }

  /** Id of the crawl running in this background now (paused crawls are not running). */
  get activeId(): string | null {
    return this.run && !this.run.detaching && !this.run.stopping ? this.run.id : null;
  }

  /** Resolves when no run is in progress (tests; shutdown). */
  async whenIdle(): Promise<void> {
    while (this.run) await this.run.loop;
  }

  /**
   * Looks for crawls left 'running' by a previous background. After a browser start they are marked 'paused' (the
   * user resumes them); after a service-worker restart the newest is resumed from its checkpoint and any other is
   * paused (only one runs at a time).
   */
  recover(kind: StartKind): Promise<string | null> {
    return this.exclusive(async () => {
      const running = (await this.deps.store.listCrawls()).filter((c) => c.status === 'running' && c.id !== this.run?.id);
      if (running.length === 0) return null;
      const [newest, ...others] = running;
      for (const c of kind === 'browser-start' ? running : others) await this.setStatus(c.id, 'paused');
      this.deps.onCrawlsChanged?.();
      if (kind === 'browser-start' || this.run) return null;
      await this.launch(newest);
      return newest.id;
    });
  }

  /** Validates the request and starts a new crawl. Rejects with a message when one is running or input is bad. */
  start(request: StartRequest): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const valid = validateStart(request, this.deps.strategies?.(), this.now());
      if (!valid.ok) throw new Error(valid.error);
      this.refuseIfBusy();
      const at = this.now();
      const { name, topic, seeds, source, settings } = valid.value;
      const record: CrawlRecord = {
        id: this.newId(),
        name,
        topic,
        seeds,
        source,
        settings,
        status: 'running',
        createdAt: at,
        updatedAt: at,
        stats: emptyStats(settings.maxPages),
      };
      await this.deps.store.putCrawl(record);
      this.deps.onCrawlsChanged?.();
      await this.launch(record);
      return record;
    });
  }

  /** Pauses a running crawl (fetches in flight finish first). Pausing a paused crawl is a no-op. */
  pause(id: string): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const run = this.run;
      if (run && run.id === id && !run.stopping) {
        if (!run.pausing) {
          run.pausing = true;
          run.crawl.pause();
          run.record = { ...run.record, status: 'paused', updatedAt: this.now() };
          await this.enqueue(run, () => this.deps.store.updateCrawl(id, { status: 'paused', updatedAt: run.record.updatedAt }));
          this.deps.onUpdate?.(id, run.record, []);
          this.deps.onCrawlsChanged?.();
          this.deps.onBusy?.(false);
        }
        return run.record;
      }
      const record = await this.mustGet(id);
      if (record.status === 'running') return this.setStatus(id, 'paused'); // left over by a dead worker
      return record;
    });
  }

  /** Resumes a paused (or stopped / failed) crawl from its checkpoint. */
  resume(id: string): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const run = this.run;
      if (run && run.id === id) {
        if (run.pausing && !run.detaching) {
          // Still winding down to the pause point: just carry on.
          run.pausing = false;
          run.crawl.resume();
          run.record = { ...run.record, status: 'running', updatedAt: this.now() };
          await this.enqueue(run, () => this.deps.store.updateCrawl(id, { status: 'running', updatedAt: run.record.updatedAt }));
          this.deps.onUpdate?.(id, run.record, []);
          this.deps.onCrawlsChanged?.();
          this.deps.onBusy?.(true);
          return run.record;
        }
        if (!run.detaching && !run.stopping) return run.record;
        await run.loop; // ending: let it persist, then start again from its checkpoint
      }
      const record = await this.mustGet(id);
      if (record.status === 'done') throw new Error('This crawl has finished; start a new one to go further.');
      if (!RESUMABLE.has(record.status) && record.status !== 'running')
        throw new Error(`Cannot resume a crawl that is ${record.status}.`);
      this.refuseIfBusy();
      const resumed = await this.setStatus(id, 'running');
      this.deps.onCrawlsChanged?.();
      await this.launch(resumed);
      return resumed;
    });
  }

  /** Stops a crawl for good (it can still be resumed later from where it stopped). */
  stop(id: string): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const run = this.run;
      if (run && run.id === id && !run.detaching) {
        run.stopping = true;
        run.controller.abort();
        await run.loop;
        return this.mustGet(id);
      }
      if (run && run.id === id) await run.loop;
      const record = await this.mustGet(id);
      if (record.status === 'running' || record.status === 'paused') {
        const stopped = await this.setStatus(id, 'stopped');
        this.deps.onCrawlsChanged?.();
        return stopped;
      }
      return record;
    });
  }

  /** Renames a crawl. */
  rename(id: string, name: string): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const clean = typeof name === 'string' ? name.replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH) : '';
      if (!clean) throw new Error('A name cannot be empty.');
      const updated = await this.deps.store.updateCrawl(id, { name: clean });
      if (!updated) throw new Error('That crawl no longer exists.');
      if (this.run?.id === id) this.run.record = { ...this.run.record, name: clean };
      this.deps.onCrawlsChanged?.();
      return updated;
    });
  }

  /** Deletes a crawl and everything stored with it (stopping it first if it runs). */
  remove(id: string): Promise<void> {
    return this.exclusive(async () => {
      const run = this.run;
      if (run && run.id === id) {
        run.stopping = true;
        run.controller.abort();
        await run.loop;
      }
      await this.deps.store.deleteCrawl(id);
      this.deps.onCrawlsChanged?.();
    });
  }

  /**
   * The state of a crawl for a UI: the asked one, else the running one, else the newest. The running crawl's
   * buffered pages are persisted first so the snapshot and later deltas fit together.
   */
  async snapshot(id?: string, limit = 50): Promise<CrawlSnapshot | null> {
    let targetId = id ?? this.activeId ?? this.run?.id;
    if (!targetId) targetId = (await this.deps.store.listCrawls())[0]?.id;
    if (!targetId) return null;
    const run = this.run && this.run.id === targetId ? this.run : null;
    if (run) await this.enqueue(run, () => this.persist(run));
    const record = run ? run.record : await this.deps.store.getCrawl(targetId);
    if (!record) return null;
    const cap = Math.max(0, Math.min(10_000, Math.floor(Number.isFinite(limit) ? limit : 50)));
    const [top, pageCount] = await Promise.all([
      this.deps.store.getPages(targetId, { limit: cap }),
      this.deps.store.countPages(targetId),
    ]);
    return { record, top, pageCount, active: this.activeId === targetId };
  }

  // ---- internals ----

  /** Serializes operations: two clicks must not start two runs. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.lock.then(fn, fn);
    this.lock = result.catch(() => undefined);
    return result;
  }

  private refuseIfBusy(): void {
    const run = this.run;
    if (run && !run.detaching && !run.stopping && !run.pausing) {
      throw new Error(`A crawl is already running ("${run.record.name}"). Pause or stop it first: one crawl runs at a time.`);
    }
  }

  private async mustGet(id: string): Promise<CrawlRecord> {
    const record = typeof id === 'string' && id ? await this.deps.store.getCrawl(id) : undefined;
    if (!record) throw new Error('That crawl no longer exists.');
    return record;
  }

  private async setStatus(id: string, status: CrawlRecord['status'], extra: Partial<CrawlRecord> = {}): Promise<CrawlRecord> {
    const updated = await this.deps.store.updateCrawl(id, { ...extra, status, updatedAt: this.now() });
    if (!updated) throw new Error('That crawl no longer exists.');
    this.deps.onUpdate?.(id, updated, []);
    return updated;
  }

  /** Starts a run of `record`: from its checkpoint when it has one, else from its seeds. */
  private async launch(record: CrawlRecord): Promise<void> {
    // A paused run still winding down holds the slot until its last checkpoint is written.
    if (this.run) await this.run.loop;
    const checkpoint = await this.deps.store.getCheckpoint(record.id);
    // Checkpoints are stored without their results (the pages are in the page list, written in the same
    // transaction); one from an older version may hold them: make sure they are in the page list too (idempotent).
    if (checkpoint?.results.length) await this.deps.store.addPages(record.id, checkpoint.results);
    const policy = crawlPolicy(record.seeds, record.settings);
    try {
      await this.deps.guardNetwork?.(policy);
    } catch (error) {
      const text = `Forager could not install its network guard (${message(error)}) and does not crawl without it.`;
      await this.setStatus(record.id, 'error', { error: text });
      this.deps.onCrawlsChanged?.();
      throw new Error(text);
    }
    const fetcher = this.deps.makeFetcher(record.settings, policy);
    const controller = new AbortController();
    let crawl: Crawl;
    try {
      crawl = this.createCrawl({
        topic: record.topic,
        seeds: record.seeds,
        strategy: { name: record.settings.strategy, params: record.settings.params, seed: record.settings.seed },
        limits: { maxPages: record.settings.maxPages, maxBuffer: record.settings.maxBuffer },
        fetcher,
        evaluator: this.deps.evaluator,
        urlPolicy: policy,
        signal: controller.signal,
        checkpoint: checkpoint ?? undefined,
      });
    } catch (error) {
      fetcher.close?.();
      await this.setStatus(record.id, 'error', { error: message(error) });
      this.deps.onCrawlsChanged?.();
      throw error;
    }
    const run: Run = {
      id: record.id,
      record: { ...record, status: 'running' },
      crawl,
      controller,
      fetcher,
      savedPages: checkpoint?.results.length ?? 0,
      savedSkips: checkpoint?.skips.length ?? 0,
      lastFlush: this.now(),
      writes: Promise.resolve(),
      pausing: false,
      stopping: false,
      detaching: false,
      loop: Promise.resolve(),
      dirty: false,
      flushing: false,
      flushTimer: undefined,
      writeError: null,
    };
    this.run = run;
    run.loop = this.drive(run).finally(() => {
      if (this.run === run) this.run = null;
      fetcher.close?.();
      this.deps.onBusy?.(this.run !== null && !this.run.pausing);
    });
    this.deps.onBusy?.(true);
  }

  /** Consumes the crawl's events until it ends. Never throws: failures become status 'error'. */
  private async drive(run: Run): Promise<void> {
    let doneReason: Extract<CrawlEvent, { type: 'done' }>['reason'] | null = null;
    let failure: unknown = null;
    try {
      for await (const event of run.crawl.events()) {
        switch (event.type) {
          case 'page':
            this.setStats(run, event.stats, [event.page]);
            this.requestFlush(run);
            break;
          case 'skip':
            this.setStats(run, event.stats, []);
            this.requestFlush(run);
            break;
          case 'progress':
            this.setStats(run, event.stats, []);
            break;
          case 'checkpoint': {
            if (!run.pausing) {
              // A batch end: written with the next write-behind, like any page (the crawl does not wait for it).
              this.requestFlush(run);
              break;
            }
            // Maybe the pause point: written now, and the crawl waits for it.
            await this.enqueue(run, () => this.persist(run));
            // The pause point: nothing in flight any more. End this run; resume starts a new one from here.
            if (run.pausing && !run.stopping && run.crawl.paused && run.crawl.stats().fetchesInFlight === 0) {
              run.detaching = true;
              run.controller.abort();
            }
            break;
          }
          case 'done':
            doneReason = event.reason;
            this.setStats(run, event.stats, []);
            break;
        }
      }
    } catch (error) {
      failure = error;
    }
    if (run.flushTimer !== undefined) clearTimeout(run.flushTimer);
    run.flushTimer = undefined;
    try {
      await this.enqueue(run, () => this.persist(run));
    } catch (error) {
      failure ??= error;
    }
    failure ??= run.writeError;
    let status: CrawlRecord['status'];
    if (failure) status = 'error';
    else if (run.detaching) status = 'paused';
    else if (run.stopping || doneReason === 'aborted') status = 'stopped';
    else status = 'done';
    try {
      const patch: Partial<CrawlRecord> = { status, stats: run.record.stats, updatedAt: this.now() };
      if (failure) patch.error = message(failure);
      const updated = await this.deps.store.updateCrawl(run.id, patch);
      if (updated) {
        run.record = updated;
        this.deps.onUpdate?.(run.id, updated, []);
      }
    } catch (error) {
      this.deps.onError?.(error);
    }
    if (failure) this.deps.onError?.(failure);
    this.deps.onCrawlsChanged?.();
  }

  private setStats(run: Run, stats: CrawlStats, pages: PageResult[]): void {
    run.record = { ...run.record, stats, updatedAt: this.now() };
    this.deps.onUpdate?.(run.id, run.record, pages);
  }

  /**
   * Write-behind: persists soon, without holding up the crawl. At most one write per `flushEveryMs`; pages arriving
   * meanwhile ride along with the next one, so a slow disk means bigger batches, not a slower crawl.
   */
  private requestFlush(run: Run): void {
    run.dirty = true;
    if (run.flushTimer !== undefined || run.flushing) return;
    const wait = Math.max(0, run.lastFlush + this.flushEveryMs - this.now());
    const go = () => {
      run.flushTimer = undefined;
      run.flushing = true;
      run.dirty = false;
      this.enqueue(run, () => this.persist(run))
        .catch((error: unknown) => {
          run.writeError ??= error;
          // Storage is failing (quota, closed database): stop rather than crawl what cannot be kept.
          run.controller.abort();
        })
        .finally(() => {
          run.flushing = false;
          if (run.dirty && !run.controller.signal.aborted) this.requestFlush(run);
        });
    };
    if (wait === 0) go();
    else run.flushTimer = setTimeout(go, wait);
  }

  /** Chains a write after the run's previous ones; a failed write fails this call but not the queue. */
  private enqueue<T>(run: Run, write: () => Promise<T>): Promise<T> {
    const result = run.writes.then(write);
    run.writes = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /**
   * Writes the crawl's current checkpoint with the pages and skips it holds that are not stored yet, and the
   * record's stats, in one transaction. The pages come from the checkpoint itself (the crawl only appends to its
   * results and skips), so what is written always matches the checkpoint written with it: a page the checkpoint
   * counts is stored, and a stored page is never fetched again. The checkpoint is stored without its results (the
   * page list has them): each write costs the crawl state and the new pages, not every page so far.
   */
  private async persist(run: Run): Promise<void> {
    const cp = run.crawl.checkpoint();
    const pages = cp.results.slice(run.savedPages);
    const skips = cp.skips.slice(run.savedSkips);
    run.lastFlush = this.now();
    await this.deps.store.saveProgress(run.id, {
      pages,
      skips,
      checkpoint: { ...cp, results: [] },
      patch: { stats: run.record.stats, updatedAt: this.now() },
    });
    // Writes are serialized (enqueue): counted only once stored, so a failed write's pages go with the next one.
    run.savedPages = cp.results.length;
    run.savedSkips = cp.skips.length;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

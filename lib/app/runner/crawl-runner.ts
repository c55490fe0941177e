/**
 * The crawl runner: everything the extension's background and the command line do with crawls, without a browser.
 * It starts, pauses, resumes and stops crawls, stores them as they go, and picks them up again after the process
 * (a service worker) was killed.
 *
 * One crawl runs at a time (the fetcher's politeness and the one evaluator are shared resources, and a second crawl
 * would halve both); starting another while one runs is refused with a message. Paused crawls take no slot.
 *
 * Each run's life is a {@link RunLifecycle} (one state, transitions in one table). Its progress is stored by a
 * {@link ProgressWriter}: pages and skips appended from the crawl's events as they come, written with the crawl's
 * checkpoint (resume state only) and the record's stats in one transaction, behind the crawl, at most every
 * `flushEveryMs`. A killed process loses at most the last interval's pages and the fetches in flight: those are
 * fetched again, and the store keeps one copy of a page per URL.
 *
 * Pausing lets in-flight fetches finish, writes the pause point, then lets the run end. Resuming always starts a new
 * run from the stored checkpoint: the same path a restarted service worker takes, so every pause/resume exercises it.
 *
 * When storage fails, the crawl stops with status 'error' and the reason. If even that cannot be written, the reason
 * goes to {@link FailureNotes} (another storage area) so that no restart relaunches the crawl, and the crawl is shown
 * failed. A stored record that is damaged (fields missing) becomes an 'error' crawl saying what is missing.
 */
import {
  type Crawl,
  createCrawl as defaultCreateCrawl,
  errorMessage,
  isJudgementValue,
  type JudgementValue,
  type PageResult,
  type SkipRecord,
  withoutAnalysis,
} from '../../engine';
import type { CrawlSnapshot, StartRequest } from '../model/protocol';
import { type CrawlRecord, RECORD_VERSION } from '../model/records';
import { applyJudgement, toggleSite } from '../rules/feedback';
import { ScoreTally } from '../rules/relevance';
import { MAX_NAME_LENGTH, validateStart } from '../rules/settings';
import { recordProblems } from '../store/migrate';
import { damagedMessage, displayable, emptyStats } from './crawl-records';
import { type FailureNotes, memoryFailureNotes } from './failure-notes';
import { analysedTopic, driveRun, type Run, type RunContext, startRun } from './run-driver';
import type { RunnerDeps, StartKind, StartOptions } from './runner-deps';

/** Pages or skips written at a time by an import. */
const IMPORT_BATCH = 1000;

const RESUMABLE = new Set<CrawlRecord['status']>(['paused', 'stopped', 'error', 'running']);

/** Runs crawls; see the module comment. */
export class CrawlRunner {
  private run: Run | null = null;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly failures: FailureNotes;
  private readonly now: () => number;
  private readonly newId: () => string;
  /** What the run driver (run-driver.ts) takes from the runner. */
  private readonly context: RunContext;

  constructor(private readonly deps: RunnerDeps) {
    this.failures = deps.failures ?? memoryFailureNotes();
    this.now = deps.now ?? Date.now;
    this.newId =
      deps.newId ??
      (() =>
        typeof crypto !== 'undefined' && 'randomUUID' in crypto
          ? crypto.randomUUID()
          : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);
    this.context = {
      deps,
      createCrawl: deps.createCrawl ?? defaultCreateCrawl,
      now: this.now,
      flushEveryMs: deps.flushEveryMs ?? 1000,
      fail: (id, reason) => this.fail(id, reason),
    };
  }

  /** Id of the crawl running in this process now (paused crawls are not running). */
  get activeId(): string | null {
    return this.run?.life.active ? this.run.id : null;
  }

  /** Resolves when no run is in progress (tests; shutdown). */
  async whenIdle(): Promise<void> {
    while (this.run) await this.run.ended;
  }

  /**
   * Looks for crawls left 'running' by a previous process. After a browser start they are marked 'paused' (the user
   * resumes them); after a service-worker restart the newest is resumed from its checkpoint and any other is paused
   * (only one runs at a time). A crawl whose failure was noted outside the store, or whose record is damaged, is
   * marked 'error' instead and never relaunched; so is one whose store refuses the write that would relaunch it.
   */
  recover(kind: StartKind): Promise<string | null> {
    return this.exclusive(async () => {
      const notes = await this.failures.all();
      const running: CrawlRecord[] = [];
      for (const c of await this.deps.store.listCrawls()) {
        if (c.id === this.run?.id) continue;
        if (notes[c.id] !== undefined) await this.settleFailure(c.id, notes[c.id]);
        else if (c.status === 'running') running.push(c);
      }
      if (running.length === 0) return null;
      const launchable: CrawlRecord[] = [];
      for (const c of running) {
        const problems = recordProblems(c);
        if (problems.length) await this.fail(c.id, damagedMessage(problems));
        else launchable.push(c);
      }
      const [newest, ...others] = launchable;
      for (const c of kind === 'browser-start' ? launchable : others) await this.setStatus(c.id, 'paused');
      this.deps.onCrawlsChanged?.();
      if (kind === 'browser-start' || this.run || !newest) return null;
      // Write before fetching: a store that cannot even take this must not see the crawl relaunched at every restart.
      let record: CrawlRecord;
      try {
        record = await this.setStatus(newest.id, 'running');
      } catch (error) {
        await this.fail(newest.id, `Storage is failing, the crawl cannot go on: ${errorMessage(error)}`);
        this.deps.onError?.(error);
        return null;
      }
      await this.launch(record);
      return newest.id;
    });
  }

  /** Every crawl, newest first, as the UI shows them (failures noted outside the store and damage included). */
  async list(): Promise<CrawlRecord[]> {
    const [records, notes] = await Promise.all([this.deps.store.listCrawls(), this.failures.all()]);
    return records.map((r) => this.shown(r, notes));
  }

  /** Validates the request and starts a new crawl. Rejects with a message when one is running or input is bad. */
  start(request: StartRequest, options: StartOptions = {}): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const valid = validateStart(request, this.deps.strategies?.(), this.now());
      if (!valid.ok) throw new Error(valid.error);
      this.refuseIfBusy();
      const at = this.now();
      const { name, seeds, source, settings } = valid.value;
      // Its language is detected where the language data is (the evaluator); the record keeps no analysis.
      const topic = withoutAnalysis(await analysedTopic(this.deps.evaluator, valid.value.topic, valid.value.hints));
      const record: CrawlRecord = {
        version: RECORD_VERSION,
        id: this.newId(),
        name,
        topic,
        seeds,
        source,
        settings: options.fetch ? { ...settings, fetch: { ...options.fetch } } : settings,
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
      if (run && run.id === id && run.life.state !== 'ended') {
        if (run.life.fire('pause')) {
          run.crawl.pause();
          await this.changeRunStatus(run, 'paused');
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
        if (run.life.fire('resume')) {
          // Still winding down to the pause point: just carry on.
          run.crawl.resume();
          await this.changeRunStatus(run, 'running');
          this.deps.onBusy?.(true);
          return run.record;
        }
        if (run.life.state === 'running') return run.record;
        await run.ended; // ending: let it write its last state, then start again from its checkpoint
      }
      const record = await this.mustGet(id);
      if (record.status === 'done') throw new Error('This crawl has finished; start a new one to go further.');
      if (!RESUMABLE.has(record.status)) throw new Error(`Cannot resume a crawl that is ${record.status}.`);
      const problems = recordProblems(record);
      if (problems.length) throw new Error(damagedMessage(problems));
      this.refuseIfBusy();
      const resumed = await this.setStatus(id, 'running', { error: undefined });
      await this.failures.clear(id);
      this.deps.onCrawlsChanged?.();
      await this.launch(resumed);
      return resumed;
    });
  }

  /**
   * Runs a crawl again from its seeds (a topic watch's check): whatever state it is in but running, its old resume
   * state dropped, `patch` (the watch's new check) written with the 'running' status in one write. Refused like
   * start() while another crawl runs; its pages stay, and the run adds to them (one copy per URL, the newer wins).
   */
  rerun(id: string, patch: Partial<Omit<CrawlRecord, 'id'>>): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const record = await this.mustGet(id);
      if (this.run?.id === id || record.status === 'running') throw new Error('This crawl is running already.');
      const problems = recordProblems(record);
      if (problems.length) throw new Error(damagedMessage(problems));
      this.refuseIfBusy();
      if (this.run) await this.run.ended;
      await this.deps.store.saveProgress(id, { pages: [], skips: [], checkpoint: null });
      const again = await this.setStatus(id, 'running', {
        ...patch,
        error: undefined,
        stats: emptyStats(record.settings.maxPages),
      });
      await this.failures.clear(id);
      this.deps.onCrawlsChanged?.();
      await this.launch(again);
      return again;
    });
  }

  /** Merges fields into a crawl's record (a watch's state), also into the running copy so later writes keep them. */
  patch(id: string, patch: Partial<Omit<CrawlRecord, 'id'>>): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const updated = await this.deps.store.updateCrawl(id, patch);
      if (!updated) throw new Error('That crawl no longer exists.');
      if (this.run?.id === id) this.run.record = { ...this.run.record, ...patch };
      this.deps.onUpdate?.(id, this.run?.id === id ? this.run.record : updated, []);
      this.deps.onCrawlsChanged?.();
      return updated;
    });
  }

  /** Stops a crawl for good (it can still be resumed later from where it stopped). */
  stop(id: string): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const run = this.run;
      if (run && run.id === id) {
        if (run.life.fire('stop')) {
          run.controller.abort();
          await run.ended;
          return this.mustGet(id);
        }
        await run.ended; // detaching: it ends paused, then becomes stopped below
      }
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
        if (run.life.fire('stop')) run.controller.abort();
        await run.ended;
      }
      await this.deps.store.deleteCrawl(id);
      await this.failures.clear(id);
      this.deps.onCrawlRemoved?.(id);
      this.deps.onCrawlsChanged?.();
    });
  }

  /** Pins a crawl (the library's retention keeps it) or unpins it. */
  pin(id: string, pinned: boolean): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const updated = await this.deps.store.updateCrawl(id, { pinned: pinned === true });
      if (!updated) throw new Error('That crawl no longer exists.');
      if (this.run?.id === id) this.run.record = { ...this.run.record, pinned: updated.pinned };
      this.deps.onCrawlsChanged?.();
      return updated;
    });
  }

  /**
   * The user's verdict on one of a crawl's pages (1 up, -1 down, 0 undo), kept in the crawl record. A running crawl
   * learns from it at once (its topic, strategy and frontier: lib/engine crawl.judge) and stores it with its
   * checkpoint in the same write; any other crawl learns it when it is resumed. Resolves to the updated record.
   */
  judge(id: string, url: string, value: JudgementValue): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      if (!isJudgementValue(value)) throw new Error('A judgement is up (1), down (-1) or none (0).');
      if (typeof url !== 'string' || !url) throw new Error('Missing page URL.');
      const run = this.liveRun(id);
      if (run) await run.writer.flush(); // the page may still be in the write-behind buffer
      const record = run ? run.record : await this.mustGet(id);
      const page = (await this.deps.store.getPages(id)).find((p) => p.url === url);
      if (!page) throw new Error('That page is not in this crawl.');
      const judgements = applyJudgement(record.judgements, page.url, value, page.profile?.terms ?? {}, this.now());
      const patch: Partial<CrawlRecord> = { judgements, updatedAt: this.now() };
      return this.patchRecord(id, run, patch, (crawl) => crawl.judge(page.url, value, page.profile?.terms));
    });
  }

  /** Hides a site's pages from the crawl's lists (or shows them again); kept in the crawl record. */
  hideSite(id: string, site: string, hidden: boolean): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      if (typeof site !== 'string' || !/^https?:\/\/[^/]+$/.test(site)) throw new Error('Not a site (scheme://host).');
      const run = this.liveRun(id);
      const record = run ? run.record : await this.mustGet(id);
      const patch: Partial<CrawlRecord> = {
        hiddenSites: toggleSite(record.hiddenSites, site, hidden === true),
        updatedAt: this.now(),
      };
      return this.patchRecord(id, run, patch);
    });
  }

  /**
   * Stores a crawl read from an export (lib/app/library/import.ts) under its own id. Refused when a crawl with that
   * id is already here; a write that fails part-way is undone, so a refused import leaves nothing behind.
   */
  importCrawl(imported: { record: CrawlRecord; pages: PageResult[]; skips: SkipRecord[] }): Promise<CrawlRecord> {
    return this.exclusive(async () => {
      const { record, pages, skips } = imported;
      if (await this.deps.store.getCrawl(record.id)) {
        throw new Error('This crawl is already in the library (delete it first to import it again).');
      }
      try {
        await this.deps.store.putCrawl(record);
        for (let i = 0; i < pages.length; i += IMPORT_BATCH)
          await this.deps.store.addPages(record.id, pages.slice(i, i + IMPORT_BATCH));
        for (let i = 0; i < skips.length; i += IMPORT_BATCH)
          await this.deps.store.addSkips(record.id, skips.slice(i, i + IMPORT_BATCH));
      } catch (error) {
        await this.deps.store.deleteCrawl(record.id).catch((e: unknown) => this.deps.onError?.(e));
        throw error;
      }
      this.deps.onPagesStored?.(record.id, pages);
      this.deps.onCrawlsChanged?.();
      return record;
    });
  }

  /** Deletes every crawl and everything stored with them (the running one is stopped first): "Delete all data". */
  removeAll(): Promise<void> {
    return this.exclusive(async () => {
      const run = this.run;
      if (run) {
        if (run.life.fire('stop')) run.controller.abort();
        await run.ended; // its last write lands before the delete, not after it
      }
      const ids = (await this.deps.store.listCrawls()).map((c) => c.id);
      await this.deps.store.deleteAll();
      for (const id of ids) this.deps.onCrawlRemoved?.(id);
      for (const id of Object.keys(await this.failures.all())) await this.failures.clear(id);
      this.deps.onCrawlsChanged?.();
    });
  }

  /**
   * The state of a crawl for a UI: the asked one, else the running one, else the newest. The running crawl's
   * buffered pages are stored first so the snapshot and later deltas fit together.
   */
  async snapshot(id?: string, limit = 50): Promise<CrawlSnapshot | null> {
    let targetId = id ?? this.activeId ?? this.run?.id;
    if (!targetId) targetId = (await this.deps.store.listCrawls())[0]?.id;
    if (!targetId) return null;
    const run = this.run && this.run.id === targetId && this.run.life.state !== 'ended' ? this.run : null;
    if (run) await run.writer.flush().catch(() => undefined); // a failing store: show what it has
    const stored = run ? run.record : await this.deps.store.getCrawl(targetId);
    if (!stored) return null;
    const record = this.shown(stored, await this.failures.all());
    const cap = Math.max(0, Math.min(10_000, Math.floor(Number.isFinite(limit) ? limit : 50)));
    // All pages, for the counts of new relevant pages (relative to the crawl's best score, so no window will do).
    const all = await this.deps.store.getPages(targetId);
    const scores = new ScoreTally(all).toScores();
    return { record, top: all.slice(0, cap), pageCount: all.length, active: this.activeId === targetId, scores };
  }

  // ---- internals ----

  /** The run of crawl `id` while it has not ended. */
  private liveRun(id: string): Run | null {
    return this.run && this.run.id === id && this.run.life.state !== 'ended' ? this.run : null;
  }

  /**
   * Writes a record patch: a live run's through its writer, with its checkpoint after `apply` (one transaction), any
   * other crawl's straight to the store.
   */
  private async patchRecord(
    id: string,
    run: Run | null,
    patch: Partial<CrawlRecord>,
    apply?: (crawl: Crawl) => void,
  ): Promise<CrawlRecord> {
    if (run) {
      apply?.(run.crawl);
      run.record = { ...run.record, ...patch };
      await run.writer.flush({ checkpoint: run.crawl.checkpoint(), patch });
      this.deps.onUpdate?.(id, run.record, []);
      return run.record;
    }
    const updated = await this.deps.store.updateCrawl(id, patch);
    if (!updated) throw new Error('That crawl no longer exists.');
    this.deps.onUpdate?.(id, updated, []);
    return updated;
  }

  /** Serializes operations: two clicks must not start two runs. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.lock.then(fn, fn);
    this.lock = result.catch(() => undefined);
    return result;
  }

  private refuseIfBusy(): void {
    const run = this.run;
    if (run?.life.fetching) {
      throw new Error(`A crawl is already running ("${run.record.name}"). Pause or stop it first: one crawl runs at a time.`);
    }
  }

  /** The record as the UI should see it: a failure noted outside the store, or damage, shows as 'error'. */
  private shown(record: CrawlRecord, notes: Record<string, string>): CrawlRecord {
    const note = notes[record.id];
    if (note !== undefined && this.run?.id !== record.id) return { ...record, status: 'error', error: note };
    const problems = recordProblems(record);
    return problems.length ? displayable(record, problems) : record;
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

  /**
   * Marks a crawl failed with the reason. When the store cannot take even that, the reason is noted outside it
   * (never relaunched, shown failed) and stays noted until the store holds it.
   */
  private async fail(id: string, reason: string): Promise<void> {
    try {
      await this.setStatus(id, 'error', { error: reason });
      await this.failures.clear(id);
    } catch (error) {
      await this.failures.note(id, reason).catch((e: unknown) => this.deps.onError?.(e));
      this.deps.onError?.(error);
    }
  }

  /** A failure noted outside the store: into the store now if it takes it (then the note goes). */
  private async settleFailure(id: string, reason: string): Promise<void> {
    const record = await this.deps.store.getCrawl(id);
    if (!record) return void (await this.failures.clear(id));
    if (record.status !== 'running' && record.status !== 'error') return void (await this.failures.clear(id));
    await this.fail(id, reason);
  }

  /** A run's status changes while it runs (pause, resume): written in the run's own write order. */
  private async changeRunStatus(run: Run, status: CrawlRecord['status']): Promise<void> {
    run.record = { ...run.record, status, updatedAt: this.now() };
    await run.writer.flush({
      checkpoint: run.crawl.checkpoint(),
      patch: { status, stats: run.record.stats, updatedAt: run.record.updatedAt },
    });
    this.deps.onUpdate?.(run.id, run.record, []);
    this.deps.onCrawlsChanged?.();
  }

  /** Starts a run of `record` (run-driver.ts) and drives it until its events end. */
  private async launch(record: CrawlRecord): Promise<void> {
    // A paused run still winding down holds on until its last state is written.
    if (this.run) await this.run.ended;
    const run = await startRun(this.context, record);
    this.run = run;
    run.ended = driveRun(this.context, run).finally(() => {
      if (this.run === run) this.run = null;
      run.fetcher.close?.();
      this.deps.onBusy?.(this.run?.life.fetching ?? false);
    });
    this.deps.onBusy?.(true);
  }
}

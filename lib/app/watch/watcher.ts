/**
 * Topic watches: any crawl can become one. A watch re-crawls its topic on a schedule (daily or weekly) or when asked
 * ("Check now"): a new run of the same crawl record, from its seeds plus the best pages found so far, known pages
 * fetched with conditional requests (a 304 costs no evaluation). Each page the check reads is stored with when the
 * watch first saw it and when its main content last changed (./diff.ts), so the stored pages say what is new and
 * what changed; the check's counts go into the record's `watch` when it ends.
 *
 * All of a watch's state is in its crawl record (the store: IndexedDB in the extension), none only in memory: a
 * scheduled time missed while the browser was closed is caught up once at the next tick (./schedule.ts), a worker
 * killed mid-check resumes the check (the runner's recovery), a browser restart resumes it at start-up. One crawl runs
 * at a time (the runner refuses a second), so a watch never runs two crawls of itself; a check that falls due while
 * another crawl runs waits for the next tick or the end of that crawl.
 */
import { errorMessage, type PageResult, type Validators } from '../../engine';
import type { CrawlRunner, RunPlan } from '../runner';
import type { CrawlRecord, CrawlStore, WatchCheck, WatchSchedule, WatchState } from '../model/records';
import { pagesOverCap, watchPageCap } from './cap';
import { annotatePage, diffPages, type KnownPage } from './diff';
import { checkSchedule, conditionsVerdict, type DeviceConditions, isDue, nextDueAfter, PERIOD_MS } from './schedule';
import type { WatchView } from '../model/views';

export type { WatchView };

/** The messages (public/_locales) a watch's notice is made of. */
export type WatchNoticeKey = 'notifyWatchTitle' | 'notifyWatchNewOne' | 'notifyWatchNew';
export type WatchSay = (key: WatchNoticeKey, ...subs: (string | number)[]) => string;

/** A notice after a check that found new relevant pages (the end-of-crawl notice's shape). */
export interface WatchNotice {
  crawlId: string;
  title: string;
  message: string;
}

/** Rows of "the rest" a view carries at most (the crawl view lists them all). */
export const VIEW_REST_ROWS = 200;

export interface WatcherDeps {
  runner: CrawlRunner;
  store: CrawlStore;
  now?: () => number;
  /** What the browser tells about the connection and the battery (nothing: nothing known). */
  conditions?: () => Promise<DeviceConditions>;
  /** New relevant pages across watches, not yet looked at: the toolbar badge. */
  onCount?(count: number): void;
  /** A check found new relevant pages (the background shows it when the user turned notices on). */
  onNotice?(notice: WatchNotice): void;
  say: WatchSay;
  /** Pages a watch dropped to stay under its cap, before the store deletes them (the library unindexes them). */
  onPagesDropped?(crawlId: string, pages: readonly PageResult[]): Promise<void>;
  onError?(error: unknown): void;
}

const inProgress = (watch: WatchState | undefined): watch is WatchState & { check: WatchCheck } =>
  !!watch?.check && watch.check.endedAt === undefined;

export class Watcher {
  private readonly now: () => number;
  private ticking: Promise<void> = Promise.resolve();

  constructor(private readonly deps: WatcherDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The runner's planRun: a check's validators, pages to revisit and page annotation. */
  async planRun(record: CrawlRecord): Promise<RunPlan | undefined> {
    const watch = record.watch;
    if (!inProgress(watch)) return undefined;
    const pages = await this.deps.store.getPages(record.id); // best first
    const validators = new Map<string, Validators>();
    const known = new Map<string, KnownPage>();
    for (const p of pages) {
      // What the diff needs only: the pages' texts need not stay in memory for the whole run.
      known.set(p.url, {
        contentHash: p.contentHash,
        firstSeenAt: p.firstSeenAt,
        changedAt: p.changedAt,
        depth: p.depth,
        from: p.from,
      });
      if (p.etag || p.lastModified) {
        validators.set(p.url, {
          ...(p.etag ? { etag: p.etag } : {}),
          ...(p.lastModified ? { lastModified: p.lastModified } : {}),
        });
      }
    }
    const check = watch.check;
    return {
      validators,
      // As many known pages as one run may read and its frontier hold (more would be evicted unread): the best first.
      revisit: pages.slice(0, Math.min(record.settings.maxPages, record.settings.maxBuffer)).map((p) => p.url),
      annotate: (page) => annotatePage(page, known.get(page.url), check),
    };
  }

  /** Makes a crawl a watch, or changes its schedule. The first scheduled check is a period from now. */
  async watch(id: string, schedule: unknown): Promise<CrawlRecord> {
    const every = checkSchedule(schedule);
    const record = await this.mustGet(id);
    const now = this.now();
    const old = record.watch;
    const from = old?.check?.startedAt ?? now;
    const watch: WatchState = old
      ? { ...old, schedule: every, nextDueAt: nextDueAfter(from, every) }
      : { schedule: every, createdAt: now, nextDueAt: now + PERIOD_MS[every] };
    const updated = await this.deps.runner.patch(id, { watch });
    await this.refreshCount();
    return updated;
  }

  /** Stops watching (the crawl and its pages stay; a check running now ends as a plain run). */
  async unwatch(id: string): Promise<CrawlRecord> {
    await this.mustGet(id);
    const updated = await this.deps.runner.patch(id, { watch: undefined });
    await this.refreshCount();
    return updated;
  }

  /** "Check now": a check at once, whatever the connection (the user asked for it). */
  checkNow(id: string): Promise<CrawlRecord> {
    return this.begin(id, 'manual');
  }

  /** The user looked at the watch: its new pages leave the badge. */
  async seen(id: string): Promise<void> {
    const record = await this.mustGet(id);
    if (!record.watch || record.watch.seen) return;
    await this.deps.runner.patch(id, { watch: { ...record.watch, seen: true } });
    await this.refreshCount();
  }

  /** A watch's view: its record and its pages, new and changed first. */
  async view(id: string): Promise<WatchView> {
    const record = await this.mustGet(id);
    const pages = await this.deps.store.getPages(id);
    const diff = diffPages(pages, record.watch);
    return {
      record,
      ...(record.watch?.check ? { since: record.watch.check.since } : {}),
      added: diff.added,
      changed: diff.changed,
      rest: diff.rest.slice(0, VIEW_REST_ROWS),
      restCount: diff.rest.length,
      checking: this.deps.runner.activeId === id,
    };
  }

  /**
   * Looks at every watch (the alarm, start-up, the end of a run): a check whose run ended without being counted is
   * counted; after a browser start (`browserStarted`), a check the restart interrupted is resumed; one due watch starts
   * its check unless a crawl runs or the browser says the connection is metered or the battery low (then it is
   * skipped, saying why, and tried again at the next tick). One tick at a time.
   */
  tick(browserStarted = false): Promise<void> {
    const next = this.ticking.then(() => this.tickOnce(browserStarted));
    this.ticking = next.catch((error: unknown) => this.deps.onError?.(error));
    return next;
  }

  /**
   * The runner's onRunEnded: a tick, which counts a check whose run ended (one place for it, so a check is counted
   * once) and starts another watch's check if one is due.
   */
  onRunEnded(_record: CrawlRecord): void {
    void this.tick().catch(() => undefined);
  }

  /** New relevant pages of the last checks, over all watches, not yet looked at. */
  async count(): Promise<number> {
    let n = 0;
    for (const c of await this.deps.store.listCrawls()) {
      const check = c.watch?.check;
      if (check?.endedAt !== undefined && !c.watch?.seen) n += check.newRelevant ?? 0;
    }
    return n;
  }

  // ---- internals ----

  private async tickOnce(browserStarted: boolean): Promise<void> {
    const watched = (await this.deps.store.listCrawls()).filter((c) => c.watch !== undefined);
    const now = this.now();
    for (const record of watched) {
      if (!inProgress(record.watch) || this.deps.runner.activeId === record.id) continue;
      if (record.status === 'paused') {
        if (browserStarted && !this.deps.runner.activeId) await this.deps.runner.resume(record.id).catch(this.report);
      } else if (record.status !== 'running') {
        await this.finish(record); // ended, but the worker died before it was counted
      }
    }
    if (this.deps.runner.activeId) return; // one crawl at a time: due checks wait for it
    const due = watched
      .filter((c) => c.watch && isDue(c.watch, now) && !inProgress(c.watch))
      .sort((a, b) => a.watch!.nextDueAt - b.watch!.nextDueAt)[0];
    if (!due?.watch) return;
    const verdict = conditionsVerdict((await this.deps.conditions?.().catch(() => ({}))) ?? {});
    if (verdict) {
      await this.deps.runner.patch(due.id, { watch: { ...due.watch, skipped: { at: now, reason: verdict } } });
      return;
    }
    await this.begin(due.id, 'schedule').catch(this.report);
  }

  private readonly report = (error: unknown) => this.deps.onError?.(error);

  private async begin(id: string, trigger: WatchCheck['trigger']): Promise<CrawlRecord> {
    const record = await this.mustGet(id);
    const watch = record.watch;
    if (!watch) throw new Error('This crawl is not watched.');
    if (inProgress(watch)) {
      if (record.status === 'paused' && trigger === 'manual') return this.deps.runner.resume(id);
      if (record.status === 'running') throw new Error('This watch is checking already.');
    }
    const now = this.now();
    const check: WatchCheck = { startedAt: now, since: watch.check?.startedAt ?? record.createdAt, trigger };
    const next: WatchState = { ...watch, check, nextDueAt: nextDueAfter(now, watch.schedule) };
    delete next.skipped;
    return this.deps.runner.rerun(id, { watch: next });
  }

  /** A check's run ended: its counts into the record, the badge and the notice. */
  private async finish(record: CrawlRecord): Promise<void> {
    const watch = record.watch;
    if (!inProgress(watch)) return;
    const pages = await this.deps.store.getPages(record.id);
    const diff = diffPages(pages, watch);
    await this.keepUnderCap(record, pages, watch.check);
    const outcome = record.status === 'done' || record.status === 'error' ? record.status : 'stopped';
    const check: WatchCheck = {
      ...watch.check,
      endedAt: this.now(),
      outcome,
      newPages: diff.added.length,
      changedPages: diff.changed.length,
      notModified: record.stats.notModified ?? 0,
      newRelevant: diff.newRelevant,
    };
    await this.deps.runner.patch(record.id, { watch: { ...watch, check, seen: diff.newRelevant === 0 } });
    await this.refreshCount();
    if (diff.newRelevant > 0) {
      const n = diff.newRelevant;
      const say = this.deps.say;
      this.deps.onNotice?.({
        crawlId: record.id,
        title: say('notifyWatchTitle'),
        message: n === 1 ? say('notifyWatchNewOne', record.topic.keywords) : say('notifyWatchNew', n, record.topic.keywords),
      });
    }
  }

  /** Drops the pages over the watch's cap (./cap.ts): from the search index first, then from the store. */
  private async keepUnderCap(record: CrawlRecord, pages: readonly PageResult[], check: WatchCheck): Promise<void> {
    const drop = pagesOverCap(pages, check, watchPageCap(record.settings));
    if (drop.length === 0) return;
    await this.deps.onPagesDropped?.(record.id, drop);
    await this.deps.store.deletePages(
      record.id,
      drop.map((p) => p.url),
    );
  }

  private async refreshCount(): Promise<void> {
    if (!this.deps.onCount) return;
    try {
      this.deps.onCount(await this.count());
    } catch (error) {
      this.deps.onError?.(new Error(`watch count: ${errorMessage(error)}`));
    }
  }

  private async mustGet(id: string): Promise<CrawlRecord> {
    const record = typeof id === 'string' && id ? await this.deps.store.getCrawl(id) : undefined;
    if (!record) throw new Error('That crawl no longer exists.');
    return record;
  }
}

export type { WatchSchedule };

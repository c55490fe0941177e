/**
 * Write-behind of one run's progress. Pages and skips are appended to a buffer as the crawl's events bring them; a
 * write takes what is buffered, the crawl's checkpoint (its resume state, without outputs) and the record's stats, and
 * stores them in one `saveProgress` (one transaction): each write costs what is new plus the resume state, never every
 * page so far, and the stored pages always cover the stored checkpoint.
 *
 * Writes happen behind the crawl, at most one per `everyMs` while events come (a slow disk means bigger writes, not a
 * slower crawl), one after another (an older checkpoint can never overwrite a newer one). `flush()` writes now and
 * resolves once it is stored (pause points, snapshots, the run's end). A failed write keeps its pages and skips for
 * the next one and is reported; the runner stops a crawl whose storage fails.
 *
 * Consistency with the crawl: the checkpoint is taken when the write starts, which is always between two of the
 * crawl's events (a timer or a caller, never inside the engine's synchronous booking of an outcome and its event), so
 * every outcome the checkpoint counts has had its event, and its page or skip is in the buffer being written.
 */
import type { CrawlCheckpoint, PageResult, SkipRecord } from '../../engine';
import type { CrawlRecord, CrawlStore } from '../model/records';

/** What a write takes besides the buffered pages and skips. */
export interface WriteState {
  /** The crawl's checkpoint now, or null to delete the stored one (a finished crawl is never resumed). */
  checkpoint: CrawlCheckpoint | null;
  patch: Partial<Omit<CrawlRecord, 'id'>>;
}

export interface ProgressWriterOptions {
  store: CrawlStore;
  crawlId: string;
  /** Least time between two background writes, ms. */
  everyMs: number;
  now: () => number;
  /** The state to write, read when a write starts. */
  state(): WriteState;
  /** A background write failed (the caller decides what to do with the crawl). */
  onFailure(error: unknown): void;
  /** Pages were stored (the library indexes them): called after each write that held any. */
  onStored?(pages: PageResult[]): void;
}

/**
 * idle: nothing waits. waiting: new outcomes wait for the timer. writing: a write is on its way.
 * writing-more: a write is on its way and more outcomes came meanwhile (written next).
 */
type WriterState = 'idle' | 'waiting' | 'writing' | 'writing-more';

export class ProgressWriter {
  private state: WriterState = 'idle';
  private pages: PageResult[] = [];
  private skips: SkipRecord[] = [];
  private lastWrite: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The chain of writes: each starts when the one before has settled. */
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: ProgressWriterOptions) {
    this.lastWrite = options.now();
  }

  /** Pages and skips not stored yet. */
  get pending(): number {
    return this.pages.length + this.skips.length;
  }

  addPage(page: PageResult): void {
    this.pages.push(page);
    this.request();
  }

  addSkip(skip: SkipRecord): void {
    this.skips.push(skip);
    this.request();
  }

  /** Something changed (an outcome, a batch end): write it soon, without holding up the crawl. */
  request(): void {
    if (this.stopped) return;
    switch (this.state) {
      case 'idle': {
        const wait = Math.max(0, this.lastWrite + this.options.everyMs - this.options.now());
        this.state = 'waiting';
        this.timer = setTimeout(() => this.writeBehind(), wait);
        return;
      }
      case 'writing':
        this.state = 'writing-more';
        return;
      case 'waiting':
      case 'writing-more':
        return;
    }
  }

  /**
   * Writes everything now (after any write on its way) with `final` instead of the current state when given, and
   * resolves once it is stored; rejects when the write fails (its pages and skips stay buffered).
   */
  flush(final?: WriteState): Promise<void> {
    this.cancelTimer();
    return this.enqueue(final);
  }

  /** No more background writes (the run is over); a flush still writes. */
  stop(): void {
    this.stopped = true;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.state === 'waiting') this.state = 'idle';
  }

  private writeBehind(): void {
    this.timer = undefined;
    this.state = 'writing';
    this.enqueue().then(
      () => this.afterWrite(true),
      (error: unknown) => {
        this.afterWrite(false);
        this.options.onFailure(error);
      },
    );
  }

  private afterWrite(ok: boolean): void {
    const more = this.state === 'writing-more';
    this.state = 'idle';
    if (more && ok) this.request();
  }

  private enqueue(final?: WriteState): Promise<void> {
    const result = this.queue.then(() => this.write(final));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async write(final?: WriteState): Promise<void> {
    const pages = this.pages;
    const skips = this.skips;
    this.pages = [];
    this.skips = [];
    const { checkpoint, patch } = final ?? this.options.state();
    this.lastWrite = this.options.now();
    try {
      await this.options.store.saveProgress(this.options.crawlId, {
        pages,
        skips,
        checkpoint,
        patch,
      });
    } catch (error) {
      // Not stored: they go with the next write, ahead of what came meanwhile.
      this.pages = pages.concat(this.pages);
      this.skips = skips.concat(this.skips);
      throw error;
    }
    if (pages.length) this.options.onStored?.(pages);
  }
}

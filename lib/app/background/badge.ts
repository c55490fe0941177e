/**
 * The toolbar badge: the count of new relevant pages (lib/app/rules/relevance.ts, the popup's own definition) of the
 * crawl last heard of, coloured by its state; and, when the user asked for it, a notice when a crawl ends. Fed with
 * the live hub's batched updates (at most one per 250 ms), so it costs one badge call per batch. Browser-free: the
 * background passes the badge and notice functions in.
 *
 * Topic watches (lib/app/watch): while no crawl runs, the new relevant pages their last checks found and the user has
 * not looked at yet, summed over watches, take the badge (in {@link WATCH_COLOR}). A watch's check is not "a crawl
 * ending": it gets the watch's own notice ("3 new pages on ..."), not this one.
 */
import type { CrawlSnapshot, LiveServerMessage } from '../model/protocol';
import type { CrawlRecord, CrawlStatus } from '../model/records';
import { type ResultCounts, ScoreTally } from '../rules/relevance';

/** Badge colours by crawl state (white text on each is over 4.5:1). */
export const BADGE_COLORS: Record<CrawlStatus, string> = {
  running: '#1a5fb4',
  done: '#1e6b3f',
  paused: '#5f6b73',
  stopped: '#5f6b73',
  error: '#b3261e',
};

/** The badge's colour when it counts the watches' new pages. */
export const WATCH_COLOR = '#6a3d9a';

export interface BadgeSurface {
  set(text: string, color: string): void;
}

/** The messages (public/_locales) a notice is made of. */
export type NoticeKey =
  | 'notifyFinished'
  | 'notifyFailed'
  | 'notifyError'
  | 'notifyErrorUnknown'
  | 'notifyNothing'
  | 'notifyFoundOne'
  | 'notifyFound';

/** A message with its placeholders filled (the extension passes its i18n `t`). */
export type Say = (key: NoticeKey, ...subs: (string | number)[]) => string;

/** What a notice at the end of a crawl says. */
export interface EndNotice {
  crawlId: string;
  title: string;
  message: string;
}

export interface BadgeParts {
  surface: BadgeSurface;
  /** A crawl's snapshot (all its scores): for a crawl first heard of mid-way (the worker restarted). */
  load(id?: string): Promise<CrawlSnapshot | null>;
  /** Called when a crawl the badge saw running ends (done or error); the background decides whether to show it. */
  onEnded?(notice: EndNotice): void;
  /** The words of the notice. */
  say: Say;
}

/** Badge text for a count: at most four characters (what fits). */
export function badgeText(count: number): string {
  return count > 999 ? '999+' : String(Math.max(0, count));
}

/** The notice for a crawl that ended. */
export function endNotice(record: CrawlRecord, counts: ResultCounts, say: Say): EndNotice {
  const failed = record.status === 'error';
  const title = say(failed ? 'notifyFailed' : 'notifyFinished');
  const n = counts.newRelevant;
  const message = failed
    ? say('notifyError', record.name, record.error ?? say('notifyErrorUnknown'))
    : record.stats.pagesEvaluated === 0
      ? say('notifyNothing', record.name)
      : say(n === 1 ? 'notifyFoundOne' : 'notifyFound', record.name, n);
  return { crawlId: record.id, title, message };
}

export class ToolbarBadge {
  private id: string | null = null;
  private tally = new ScoreTally();
  private status: CrawlStatus | null = null;
  private createdAt = -Infinity;
  private loading: Promise<void> | null = null;
  private watchCount = 0;
  private shown: CrawlRecord | null = null;

  constructor(private readonly parts: BadgeParts) {}

  /** Shows the crawl a fresh background should show (the newest), or nothing. */
  async init(): Promise<void> {
    const snap = await this.parts.load();
    if (snap && this.id === null) this.adopt(snap);
  }

  /** A live hub message. */
  receive(message: LiveServerMessage): void {
    if (message.type === 'crawls-changed') {
      // Deleted? Then the badge goes to the newest crawl left, or away.
      const id = this.id;
      if (id !== null)
        void this.parts.load(id).then((snap) => {
          if (snap || this.id !== id) return;
          this.forget(id);
          return this.init();
        });
      return;
    }
    if (message.type !== 'update') return;
    const { id, record, pages } = message;
    // A watch's check: counted by the watch when it ends (new pages only), never announced as a crawl's end.
    if (record.watch?.check && record.watch.check.endedAt === undefined) return;
    if (id !== this.id) {
      // A crawl that runs, or one newer than the shown one (it may start and end within one batch: unreachable start
      // pages fail at once), takes the badge over; an older crawl renamed or resumed-and-paused does not.
      if (record.status !== 'running' && this.id !== null && record.createdAt < this.createdAt) return;
      this.id = id;
      this.createdAt = record.createdAt;
      this.tally = new ScoreTally(pages);
      this.status = record.status;
      this.show(record);
      // Heard of mid-way (a worker restart): its earlier pages come from the store.
      if (record.stats.pagesEvaluated > pages.length) {
        this.loading = this.parts.load(id).then((snap) => {
          if (snap && this.id === id) {
            this.tally.add(snap.scores);
            this.show(snap.record.status === 'running' ? record : snap.record);
          }
        });
      }
      return;
    }
    this.tally.add(pages);
    const was = this.status;
    this.status = record.status;
    this.show(record);
    if (was === 'running' && (record.status === 'done' || record.status === 'error')) {
      const ended = () => this.parts.onEnded?.(endNotice(record, this.tally.counts(), this.parts.say));
      if (this.loading) void this.loading.then(ended, ended);
      else ended();
    }
  }

  /** New relevant pages of the watches' last checks not looked at yet (lib/app/watch Watcher.count). */
  setWatchCount(count: number): void {
    this.watchCount = Math.max(0, count);
    if (this.shown) this.show(this.shown);
    else if (this.watchCount > 0) this.parts.surface.set(badgeText(this.watchCount), WATCH_COLOR);
    else this.parts.surface.set('', BADGE_COLORS.done);
  }

  /** A crawl was deleted: clear the badge if it was this one. */
  forget(id: string): void {
    if (id !== this.id) return;
    this.id = null;
    this.tally = new ScoreTally();
    this.status = null;
    this.createdAt = -Infinity;
    this.shown = null;
    this.setWatchCount(this.watchCount);
  }

  /** The count shown now (tests). */
  get count(): number {
    return this.tally.counts().newRelevant;
  }

  private adopt(snap: CrawlSnapshot): void {
    this.id = snap.record.id;
    this.createdAt = snap.record.createdAt;
    this.tally = new ScoreTally(snap.scores);
    this.status = snap.record.status;
    this.show(snap.record);
  }

  private show(record: CrawlRecord): void {
    this.shown = record;
    if (this.watchCount > 0 && record.status !== 'running') {
      this.parts.surface.set(badgeText(this.watchCount), WATCH_COLOR);
      return;
    }
    const failed = record.status === 'error' || (record.status !== 'running' && record.stats.pagesEvaluated === 0);
    this.parts.surface.set(
      failed ? '!' : badgeText(this.tally.counts().newRelevant),
      failed ? BADGE_COLORS.error : BADGE_COLORS[record.status],
    );
  }
}

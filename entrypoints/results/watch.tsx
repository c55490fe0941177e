/**
 * A crawl's topic watch on the results page (lib/app/watch): "Watch this topic" with its schedule, then "Check now",
 * the last and next check, and the pages the last check found new and changed, before the crawl's other pages (the
 * crawl view lists those below). Worked out from the crawl's own pages, live as a check streams them in.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type CrawlRecord, diffPages, formatDateTime, type WatchDiff, type WatchSchedule } from '../../lib/app';
import { errorMessage, type PageResult } from '../../lib/engine';
import { request } from '../ui/api';
import { ResultList } from '../ui/result-list';
import type { RowActions } from '../ui/result-row';
import { t } from '../ui/i18n';
import { WatchSince } from '../ui/watch-since';

/** The watch's split of the crawl's pages (nothing new or changed for a crawl that is not watched). */
export function useWatchDiff(record: CrawlRecord | null, pages: PageResult[]): WatchDiff | null {
  const watch = record?.watch;
  return useMemo(() => (watch ? diffPages(pages, watch) : null), [watch, pages]);
}

/** " · watched daily · 2 new since 3 Dec 2026" on a crawl's card in the list of crawls, for a watched crawl. */
export function WatchNote({ record }: { record: CrawlRecord }) {
  if (!record.watch) return null;
  const since = <WatchSince record={record} />;
  return (
    <span data-testid="crawl-item-watch">
      {' · '}
      {t(record.watch.schedule === 'daily' ? 'watchCardDaily' : 'watchCardWeekly')}
      {record.watch.check?.endedAt !== undefined && ' · '}
      {since}
    </span>
  );
}

export function WatchPanel({
  record,
  diff,
  running,
  onError,
  actions,
}: {
  record: CrawlRecord;
  /** The rows' actions, as in the crawl's list (thumbs, "More like this", hide). */
  actions?: RowActions;
  diff: WatchDiff | null;
  /** Some crawl runs in this background now (a check waits for it). */
  running: boolean;
  onError(message: string): void;
}) {
  const watch = record.watch;
  const [schedule, setSchedule] = useState<WatchSchedule>(watch?.schedule ?? 'weekly');
  const [busy, setBusy] = useState(false);
  const act = (fn: () => Promise<unknown>) => {
    setBusy(true);
    fn()
      .catch((e: unknown) => onError(errorMessage(e)))
      .finally(() => setBusy(false));
  };
  // Looked at: the last check's new pages leave the toolbar badge.
  const unseen = !!watch && watch.seen === false && watch.check?.endedAt !== undefined;
  useEffect(() => {
    if (unseen) void request({ type: 'forager/watchSeen', id: record.id }).catch(() => undefined);
  }, [record.id, unseen]);

  const scheduleSelect = (onChange: (s: WatchSchedule) => void) => (
    <label class="inline">
      <span>{t('watchScheduleLabel')}</span>
      <select
        value={watch?.schedule ?? schedule}
        data-testid="watch-schedule"
        disabled={busy}
        onChange={(e) => onChange(e.currentTarget.value as WatchSchedule)}
      >
        <option value="daily">{t('watchDaily')}</option>
        <option value="weekly">{t('watchWeekly')}</option>
      </select>
    </label>
  );

  if (!watch) {
    return (
      <section class="card watch" data-testid="watch-panel" data-watched="false">
        <h3>{t('watchTitle')}</h3>
        <p class="muted">{t('watchIntro')}</p>
        <div class="toolbar">
          {scheduleSelect(setSchedule)}
          <button
            type="button"
            data-testid="watch-button"
            disabled={busy}
            onClick={() => act(() => request({ type: 'forager/watch', id: record.id, schedule }))}
          >
            {t('watchStart')}
          </button>
        </div>
      </section>
    );
  }

  const check = watch.check;
  const checking = !!check && check.endedAt === undefined && record.status === 'running';
  return (
    <section
      class="card watch"
      data-testid="watch-panel"
      data-watched="true"
      data-checking={checking ? 'true' : 'false'}
      data-check-started={check?.startedAt ?? ''}
      data-check-ended={check?.endedAt ?? ''}
    >
      <h3>{t('watchOn')}</h3>
      <div class="toolbar">
        {scheduleSelect((s) => act(() => request({ type: 'forager/watch', id: record.id, schedule: s })))}
        <button
          type="button"
          data-testid="check-now"
          disabled={busy || running}
          onClick={() => act(() => request({ type: 'forager/checkNow', id: record.id }))}
        >
          {t('watchCheckNow')}
        </button>
        <button
          type="button"
          class="secondary"
          data-testid="unwatch"
          disabled={busy}
          onClick={() => act(() => request({ type: 'forager/unwatch', id: record.id }))}
        >
          {t('watchStop')}
        </button>
      </div>
      <p class="muted" data-testid="watch-last" aria-live="polite">
        {checking
          ? t('watchChecking')
          : !check
            ? t('watchNever')
            : check.outcome === 'done'
              ? t(
                  'watchLastCheck',
                  formatDateTime(check.startedAt),
                  check.newPages ?? 0,
                  check.changedPages ?? 0,
                  check.notModified ?? 0,
                )
              : t('watchLastStopped', formatDateTime(check.startedAt))}
      </p>
      <p class="muted" data-testid="watch-next">
        {t('watchNext', formatDateTime(watch.nextDueAt))}
      </p>
      {watch.skipped && (
        <p class="message" data-testid="watch-skipped" data-reason={watch.skipped.reason}>
          {t(
            watch.skipped.reason === 'metered' ? 'watchSkippedMetered' : 'watchSkippedBattery',
            formatDateTime(watch.skipped.at),
          )}
        </p>
      )}
      {check && diff && (
        <>
          <section data-testid="watch-new" data-count={diff.added.length}>
            <h4>{t('watchNewSince', formatDateTime(check.since))}</h4>
            <ResultList
              pages={diff.added}
              topic={record.topic.keywords}
              language={record.topic.language}
              limit={500}
              actions={actions}
              empty={t('watchNoNew')}
            />
          </section>
          <section data-testid="watch-changed" data-count={diff.changed.length}>
            <h4>{t('watchChanged')}</h4>
            <ResultList
              pages={diff.changed}
              topic={record.topic.keywords}
              language={record.topic.language}
              limit={500}
              actions={actions}
              changed
              empty={t('watchNoChanged')}
            />
          </section>
          <h4>{t('watchRest')}</h4>
        </>
      )}
    </section>
  );
}

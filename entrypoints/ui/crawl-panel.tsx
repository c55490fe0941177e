/** The crawl's headline, progress and Pause / Resume / Stop. */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import {
  type CrawlRecord,
  type CrawlSnapshot,
  formatClockTime,
  displayLocation,
  oneLine,
  type ResultCounts,
  timeLeft,
} from '../../lib/app';
import { errorMessage } from '../../lib/engine';
import { formatElapsed, request, requestSiteAccess } from './api';
import { t, tn } from './i18n';
import { WatchSince } from './watch-since';
import { StatusChip } from './status-chip';

/** Elapsed time that keeps ticking between updates while the crawl runs. */
function useElapsed(record: CrawlRecord): number {
  const [now, setNow] = useState(Date.now());
  const received = useMemo(() => Date.now(), [record]);
  useEffect(() => {
    if (record.status !== 'running') return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [record.status]);
  return record.stats.elapsedMs + (record.status === 'running' ? Math.max(0, now - received) : 0);
}

/** "about 2 min left" */
function leftText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes < 1 ? t('lessThanMinuteLeft') : tn(minutes, 'minuteLeft', 'minutesLeft');
}

/**
 * The crawl's headline (new relevant pages, pages checked, time left), progress, and Pause / Resume / Stop. The
 * headline is a polite live region: screen readers hear the count as it grows, and the end.
 */
export function CrawlPanel({
  snapshot,
  counts,
  onError,
  onShowSkips,
  children,
}: {
  snapshot: CrawlSnapshot;
  counts: ResultCounts;
  onError(message: string): void;
  /** Errors opens the list of skipped pages. */
  onShowSkips?(): void;
  children?: ComponentChildren;
}) {
  const { record } = snapshot;
  const s = record.stats;
  const elapsed = useElapsed(record);
  const [busy, setBusy] = useState(false);
  const pct = s.maxPages > 0 ? Math.min(100, (s.pagesEvaluated / s.maxPages) * 100) : 0;
  const act = (type: 'forager/pause' | 'forager/resume' | 'forager/stop') => async () => {
    setBusy(true);
    try {
      if (type === 'forager/resume' && !(await requestSiteAccess())) {
        onError(t('needSiteAccessResume'));
        return;
      }
      await request({ type, id: record.id });
    } catch (error) {
      onError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const running = record.status === 'running';
  // After a watch's check the run's own count (pages that check read) would sit beside the crawl's total as if it
  // were the crawl's; what the check found new says it instead, and the watch panel has the check's counts.
  const checkEnded = !running && record.watch?.check?.endedAt !== undefined;
  const resumable = record.status === 'paused' || record.status === 'stopped' || record.status === 'error';
  const left = running ? timeLeft({ ...s, elapsedMs: elapsed }) : null;
  const refused = (record.refusedHosts?.privateAddress ?? 0) + (record.refusedHosts?.notContacted ?? 0);
  return (
    <section class="panel" data-testid="crawl-panel" data-crawl-id={record.id} data-status={record.status}>
      <div class="panel-head">
        <h2 class="crawl-name" data-testid="crawl-name" title={oneLine(record.topic.keywords)}>
          {oneLine(record.name)}
        </h2>
        <StatusChip record={record} />
      </div>
      <p class="headline" aria-live="polite" data-testid="headline">
        <strong data-testid="new-count">{tn(counts.newRelevant, 'newRelevantOne', 'newRelevant')}</strong>
        <span class="muted">
          {' · '}
          {checkEnded ? (
            <WatchSince record={record} />
          ) : (
            <span data-testid="stat-pages">{t('pagesChecked', s.pagesEvaluated, s.maxPages)}</span>
          )}
          {left !== null && ` · ${leftText(left)}`}
        </span>
      </p>
      <div
        class="progress"
        role="progressbar"
        aria-label={t('pagesCheckedLabel')}
        aria-valuemin={0}
        aria-valuemax={s.maxPages}
        aria-valuenow={s.pagesEvaluated}
        data-testid="progress"
      >
        {/* Scaled, not resized: no layout when it moves. */}
        <span style={{ transform: `scaleX(${pct / 100})` }} />
      </div>
      {running && s.waiting && (
        <p class="message" role="status" data-testid="crawl-waiting" data-until={s.waiting.until}>
          {t('waitingForSite', displayLocation(s.waiting.site).site, formatClockTime(s.waiting.until))}
        </p>
      )}
      {refused > 0 && (
        <details class="refused-hosts" data-testid="refused-hosts" data-count={refused}>
          <summary>{tn(refused, 'refusedHostsOne', 'refusedHosts')}</summary>
          <p class="muted">{t('refusedHostsExplain')}</p>
          <ul>
            {record.refusedHosts!.examples.map((e) => (
              <li key={e.host}>
                <strong>{oneLine(e.host)}</strong> <span class="muted">{oneLine(e.detail)}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {record.status === 'error' && record.error && (
        <p class="message error" role="alert" data-testid="crawl-error">
          {record.error}
        </p>
      )}
      <div class="controls small">
        {/* All three always there, the ones that do not apply hidden and disabled: focus order never shifts. */}
        <button type="button" data-testid="pause" hidden={!running} disabled={busy || !running} onClick={act('forager/pause')}>
          {t('pause')}
        </button>
        <button
          type="button"
          data-testid="resume"
          hidden={!resumable}
          disabled={busy || !resumable}
          onClick={act('forager/resume')}
        >
          {t('resume')}
        </button>
        <button
          type="button"
          data-testid="stop"
          hidden={!(running || record.status === 'paused')}
          disabled={busy || !(running || record.status === 'paused')}
          onClick={act('forager/stop')}
        >
          {t('stop')}
        </button>
        <span class="muted stat">
          <span data-testid="stat-elapsed">{formatElapsed(elapsed)}</span>
          {s.errors > 0 && (
            <>
              {' · '}
              {onShowSkips ? (
                <button type="button" class="link" data-testid="stat-errors" onClick={onShowSkips}>
                  {tn(s.errors, 'skippedOne', 'skipped')}
                </button>
              ) : (
                <span data-testid="stat-errors">{tn(s.errors, 'skippedOne', 'skipped')}</span>
              )}
            </>
          )}
        </span>
        {children}
      </div>
    </section>
  );
}

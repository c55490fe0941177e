/** What a user sees when a crawl fetched nothing: the reason per start page, Retry and Edit. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type CrawlRecord, draftFromRecord, startHash } from '../../lib/app';
import { errorMessage, type SkipRecord } from '../../lib/engine';
import { openResultsPage, request, requestSiteAccess } from './api';
import { t } from './i18n';
import { Location } from './location';
import { skipSummary, skipText } from './skip-list';

/** The reason per start page of a crawl that fetched nothing, with Retry and Edit. */
export function FailureNotice({ record, onError }: { record: CrawlRecord; onError(message: string): void }) {
  const [skips, setSkips] = useState<SkipRecord[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    request({ type: 'forager/skips', id: record.id, limit: 500 }).then(setSkips, () => setSkips([]));
  }, [record.id, record.updatedAt]);
  const bySeed = useMemo(() => {
    const found = new Map<string, SkipRecord>();
    for (const s of skips ?? []) if (!found.has(s.url)) found.set(s.url, s);
    return record.seeds.map((seed) => ({ seed, skip: found.get(seed) }));
  }, [skips, record.seeds]);
  const retry = async () => {
    const access = requestSiteAccess();
    setBusy(true);
    try {
      if (!(await access)) return onError(t('needSiteAccess'));
      const draft = draftFromRecord(record);
      await request({
        type: 'forager/start',
        start: {
          topic: draft.topic,
          seeds: draft.seeds,
          source: record.source,
          settings: record.settings,
          context: draft.context,
        },
      });
    } catch (error) {
      onError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="failure" role="alert" data-testid="crawl-failure">
      <h3>{t('failureTitle')}</h3>
      <ul class="skips">
        {bySeed.map(({ seed, skip }) => (
          <li key={seed} data-testid="failure-reason" data-reason={skip?.reason ?? ''}>
            {skip ? (
              <>
                <span data-testid="failure-summary">{skipSummary(skip)}</span>
                <details class="failure-detail">
                  <summary>{t('failureDetail')}</summary>
                  <Location url={seed} /> <span class="muted">{skipText(skip)}</span>
                </details>
              </>
            ) : (
              <>
                <Location url={seed} /> <span class="muted">{t('skipUnknown')}</span>
              </>
            )}
          </li>
        ))}
      </ul>
      <div class="controls">
        <button type="button" class="primary" data-testid="retry" disabled={busy} onClick={() => void retry()}>
          {t('retry')}
        </button>
        <button type="button" data-testid="edit" onClick={() => openResultsPage(startHash(draftFromRecord(record)))}>
          {t('edit')}
        </button>
      </div>
    </section>
  );
}

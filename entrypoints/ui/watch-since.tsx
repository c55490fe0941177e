/**
 * "N new since <date>" for a watched crawl whose last check has ended: the pages that check found new, counted as the
 * watch's list counts them (lib/app/watch: diffPages), since the check before it began, dated and timed in the user's locale (a watch may be checked twice a day).
 * Shown on the crawl's card in the list of crawls and in its headline (popup and results page).
 */
import { type CrawlRecord, formatDateTime } from '../../lib/app';
import { t } from './i18n';

export function WatchSince({ record }: { record: CrawlRecord }) {
  const check = record.watch?.check;
  if (!check || check.endedAt === undefined || check.newPages === undefined) return null;
  return (
    <span data-testid="watch-since" data-count={check.newPages}>
      {t('watchNewSinceCount', check.newPages, formatDateTime(check.since))}
    </span>
  );
}

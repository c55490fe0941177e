/** A crawl's status in words and as a chip; a crawl that fetched nothing counts as failed. */
import type { CrawlRecord } from '../../lib/app';
import { type MessageKey, t } from './i18n';

const STATUS_KEY: Record<CrawlRecord['status'], MessageKey> = {
  running: 'statusRunning',
  paused: 'statusPaused',
  stopped: 'statusStopped',
  done: 'statusDone',
  error: 'statusError',
};

/** A crawl that ended without a single page: it failed, whatever its stored status says. */
export function fetchedNothing(record: CrawlRecord): boolean {
  return record.stats.pagesEvaluated === 0 && record.status !== 'running' && record.status !== 'paused';
}

/** The status chip's words. */
export function statusLabel(record: CrawlRecord): string {
  return fetchedNothing(record) ? t('statusNothing') : t(STATUS_KEY[record.status]);
}

/** The status as a chip. */
export function StatusChip({ record }: { record: CrawlRecord }) {
  const failed = fetchedNothing(record) || record.status === 'error';
  return (
    <span class={`status status-${failed ? 'error' : record.status}`} data-testid="crawl-status">
      {statusLabel(record)}
    </span>
  );
}

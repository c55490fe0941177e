/** Skipped pages and their reasons in plain words. */
import { displayLocation, oneLine } from '../../lib/app';
import type { SkipRecord } from '../../lib/engine';
import { type MessageKey, t } from './i18n';
import { Location } from './location';

const SKIP_KEY: Record<SkipRecord['reason'], MessageKey> = {
  'url-refused': 'skipUrlRefused',
  robots: 'skipRobots',
  'http-error': 'skipHttpError',
  'not-html': 'skipNotHtml',
  timeout: 'skipTimeout',
  network: 'skipNetwork',
  redirect: 'skipRedirect',
  aborted: 'skipAborted',
  evaluation: 'skipEvaluation',
};

/** A skip in plain words: "could not connect (ECONNREFUSED)". */
export function skipText(skip: SkipRecord): string {
  return `${t(SKIP_KEY[skip.reason] ?? 'skipNetwork')} (${oneLine(skip.detail)})`;
}

/** A start page's failure in a few words: "Could not reach example.com"; the detail goes behind a disclosure. */
export function skipSummary(skip: SkipRecord): string {
  const site = displayLocation(skip.url).site;
  return skip.reason === 'network' || skip.reason === 'timeout'
    ? t('couldNotReach', site)
    : t('skipAt', site, t(SKIP_KEY[skip.reason] ?? 'skipNetwork'));
}

/** The skipped pages, oldest first. */
export function SkipList({ skips }: { skips: SkipRecord[] }) {
  if (skips.length === 0) return <p class="muted">{t('noSkips')}</p>;
  return (
    <ul class="skips" data-testid="skip-list">
      {skips.map((s) => (
        <li key={s.url} data-testid="skip-item" data-reason={s.reason}>
          <Location url={s.url} /> <span class="muted">{skipText(s)}</span>
        </li>
      ))}
    </ul>
  );
}

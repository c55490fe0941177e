/**
 * One result row of the popup, the results page and the library. Page content is hostile input: rendered only as
 * text nodes (Preact escapes strings), without control or bidi-override characters (oneLine, lib/app/text-safety).
 * Stable data-testid attributes are the contract with the end-to-end tests.
 */
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { displayLocation, displayTitle, formatDate, oneLine, pageDate } from '../../lib/app';
import type { PageResult } from '../../lib/engine';
import { Highlighted } from './highlighted';
import { type MessageKey, t } from './i18n';
import { Icon } from './icon';
import { LinkActions } from './link-actions';
import { Location } from './location';
import { safeHref } from './safe-href';

const DATE_LABEL: Record<'published' | 'updated' | 'server', MessageKey> = {
  published: 'datePublished',
  updated: 'dateUpdated',
  server: 'dateServer',
};

export interface RowActions {
  /** Hide this page from the list (kept in the crawl; the list offers "show hidden"). */
  onHide?(url: string): void;
  /** More of the row, under its text (the judgement buttons: entrypoints/ui/feedback.tsx). */
  extra?(page: PageResult): ComponentChildren;
}

/**
 * One result: title (two lines at most), location, snippet, date and "found via", and its actions. Everything depends
 * on the page alone and is kept from one render to the next (same page object, same vnodes: Preact skips them), so a
 * list update re-renders only rows whose page changed.
 */
export function ResultRow({
  page,
  terms,
  viaTitle,
  actions,
}: {
  page: PageResult;
  terms: Set<string>;
  /** The title of the page that led to this one, when the list holds it. */
  viaTitle?: string;
  actions?: RowActions;
}) {
  const body = useMemo(() => {
    const title = displayTitle(page);
    const date = pageDate(page);
    const via = page.from && safeHref(page.from) ? page.from : undefined;
    return (
      <>
        <div class="row-head">
          <a
            class="title"
            href={safeHref(page.url)}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="result-link"
            title={title}
          >
            <Highlighted text={title} terms={terms} />
          </a>
          {page.isSeed ? (
            <span class="badge search" data-testid="search-badge" title={t('searchBadgeTitle')}>
              {t('searchBadge')}
            </span>
          ) : (
            <span class="badge" data-testid="fresh-badge" title={t('newBadgeTitle')}>
              {t('newBadge')}
            </span>
          )}
        </div>
        <Location url={page.url} />
        <div class="snippet" data-testid="result-snippet">
          <Highlighted text={page.snippet} terms={terms} />
        </div>
        <div class="row-meta">
          {date && (
            <span class="date" data-testid="result-date" data-kind={date.kind} title={oneLine(date.raw)}>
              {t(DATE_LABEL[date.kind], formatDate(date.time))}
            </span>
          )}
          {via && (
            <span class="via" data-testid="result-via">
              {t('foundVia')}{' '}
              <a href={via} target="_blank" rel="noopener noreferrer" title={oneLine(via)}>
                {viaTitle ? oneLine(viaTitle) : displayLocation(via).site}
              </a>
            </span>
          )}
        </div>
      </>
    );
  }, [page, terms, viaTitle]);
  return (
    <div
      class="row"
      data-testid="result-row"
      data-row={page.url}
      data-url={page.url}
      data-fresh={page.isSeed ? 'false' : 'true'}
      data-score={page.score.toFixed(4)}
    >
      {body}
      {actions?.extra?.(page)}
      <div class="row-actions">
        <LinkActions url={page.url} />
        {actions?.onHide && (
          <button
            type="button"
            class="icon"
            data-testid="hide-result"
            title={t('hideResult')}
            aria-label={t('hideResult')}
            onClick={() => actions.onHide?.(page.url)}
          >
            <Icon path="M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c6 0 10 7 10 7a17 17 0 0 1-3.2 3.9M6.6 6.6C3.7 8.5 2 12 2 12s4 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2" />
          </button>
        )}
      </div>
    </div>
  );
}

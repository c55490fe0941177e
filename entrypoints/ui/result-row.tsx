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
import { IconButton } from './icon';
import { LinkActions } from './link-actions';
import { Location } from './location';
import { SiteIcon } from './site-icon';
import { safeHref } from './safe-href';

const DATE_LABEL: Record<'published' | 'updated' | 'server', MessageKey> = {
  published: 'datePublished',
  updated: 'dateUpdated',
  server: 'dateServer',
};

export interface RowActions {
  /** Hide this page from the list (kept in the crawl; the list offers "show hidden"). */
  onHide?(url: string): void;
  /** More of the row's actions, in its one group of actions (the judgement buttons: entrypoints/ui/feedback.tsx). */
  extra?(page: PageResult): ComponentChildren;
}

/**
 * One result in about 90 px: site icon, title (two lines at most) and badge; then "site › path", the date and "found
 * via" on the left of one line, the row's actions grouped on its right; then two lines of snippet. Everything depends
 * on the page alone and is kept from one render to the next (same page object, same vnodes: Preact skips them), so a
 * list update re-renders only rows whose page changed.
 */
export function ResultRow({
  page,
  terms,
  viaTitle,
  actions,
  changed,
}: {
  page: PageResult;
  terms: Set<string>;
  /** The title of the page that led to this one, when the list holds it. */
  viaTitle?: string;
  actions?: RowActions;
  /** A watch found this page changed since its last check: badged "changed", not "new". */
  changed?: boolean;
}) {
  const head = useMemo(() => {
    const title = displayTitle(page);
    return (
      <div class="row-head">
        <SiteIcon url={page.url} />
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
        ) : changed ? (
          <span class="badge changed" data-testid="changed-badge" title={t('changedBadgeTitle')}>
            {t('changedBadge')}
          </span>
        ) : (
          <span class="badge" data-testid="fresh-badge" title={t('newBadgeTitle')}>
            {t('newBadge')}
          </span>
        )}
      </div>
    );
  }, [page, terms, changed]);
  const where = useMemo(() => {
    const date = pageDate(page);
    const via = page.from && safeHref(page.from) ? page.from : undefined;
    return (
      <div class="row-meta">
        <Location url={page.url} />
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
    );
  }, [page, viaTitle]);
  const snippet = useMemo(
    () => (
      <div class="snippet" data-testid="result-snippet">
        <Highlighted text={page.snippet} terms={terms} />
      </div>
    ),
    [page, terms],
  );
  return (
    <div
      class="row"
      data-testid="result-row"
      data-row={page.url}
      data-url={page.url}
      data-fresh={page.isSeed ? 'false' : 'true'}
      data-score={page.score.toFixed(4)}
    >
      {head}
      <div class="row-line">
        {where}
        <RowActionGroup>
          <LinkActions url={page.url} />
          {actions?.extra?.(page)}
          {actions?.onHide && (
            <IconButton
              icon={HIDE_ICON}
              extraClass="hide"
              testid="hide-result"
              tip={t('hideResultShort')}
              label={t('hideResult')}
              onClick={() => actions.onHide?.(page.url)}
            />
          )}
        </RowActionGroup>
      </div>
      {snippet}
    </div>
  );
}

/** "Remove from the list": a cross, apart from the thumbs (thumbs down judges the page; this only hides it). */
const HIDE_ICON = 'M6 6l12 12M18 6L6 18';

/** A row's actions, one group on the right of its location line. */
export function RowActionGroup({ children }: { children: ComponentChildren }) {
  return (
    <fieldset class="row-actions" aria-label={t('rowActions')} data-testid="row-actions">
      {children}
    </fieldset>
  );
}

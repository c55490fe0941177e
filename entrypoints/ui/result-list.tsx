/**
 * A list of result rows, capped at `limit`, with the topic's words highlighted; one tab stop per row, arrow keys within
 * (row-keys.ts), and a skip link, shown when focused, past the list.
 */
import { useMemo, useRef } from 'preact/hooks';
import { highlightTerms } from '../../lib/app';
import type { PageResult } from '../../lib/engine';
import { t } from './i18n';
import { ResultRow, type RowActions } from './result-row';
import { useRowKeys } from './row-keys';

/**
 * A list of results. `limit` caps what is rendered (the popup); the results page renders more as the reader scrolls
 * (`limit` grows), rows out of view skipped by the browser (content-visibility).
 */
export function ResultList({
  pages,
  topic,
  language,
  limit,
  actions,
  empty,
  changed,
}: {
  pages: PageResult[];
  topic: string;
  language?: string;
  limit: number;
  actions?: RowActions;
  /** What an empty list says. */
  empty?: string;
  /** The pages are a watch's changed ones (badged "changed", not "new"). */
  changed?: boolean;
}) {
  const terms = useMemo(() => highlightTerms(topic, language), [topic, language]);
  const titles = useMemo(() => {
    const m = new Map<string, string>();
    for (const p of pages) if (p.title) m.set(p.url, p.title);
    return m;
  }, [pages]);
  const shown = pages.length > limit ? pages.slice(0, limit) : pages;
  const box = useRef<HTMLDivElement>(null);
  useRowKeys(box);
  // Past the list: to the first control after it (the list's toggles and actions), never into a hidden one.
  const skip = () => {
    const end = box.current;
    if (!end) return;
    const after = Array.from(document.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input, select')).find(
      (el) => !end.contains(el) && end.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && el.offsetParent,
    );
    (after ?? end.querySelector<HTMLElement>('[data-testid="list-end"]'))?.focus();
  };
  return (
    <div class="result-list" ref={box}>
      {shown.length === 0 ? (
        <p class="empty" data-testid="results-empty">
          {empty ?? t('noPagesYet')}
        </p>
      ) : (
        <>
          <button type="button" class="skip-link" data-testid="skip-past-list" onClick={skip}>
            {t('skipList')}
          </button>
          <ol class="results" data-testid="results" data-count={pages.length}>
            {shown.map((p) => (
              <li key={p.url}>
                <ResultRow
                  page={p}
                  terms={terms}
                  viaTitle={p.from ? titles.get(p.from) : undefined}
                  actions={actions}
                  changed={changed}
                />
              </li>
            ))}
          </ol>
          {/* Where the skip link lands when nothing focusable follows the list (the results page). */}
          <span class="skip-link" tabIndex={-1} data-testid="list-end">
            {t('listEnd')}
          </span>
        </>
      )}
    </div>
  );
}

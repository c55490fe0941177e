/** A list of result rows, capped at `limit`, with the topic's words highlighted. */
import { useMemo } from 'preact/hooks';
import { highlightTerms } from '../../lib/app/view/highlight';
import type { PageResult } from '../../lib/engine';
import { t } from './i18n';
import { ResultRow, type RowActions } from './result-row';

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
}: {
  pages: PageResult[];
  topic: string;
  language?: string;
  limit: number;
  actions?: RowActions;
  /** What an empty list says. */
  empty?: string;
}) {
  const terms = useMemo(() => highlightTerms(topic, language), [topic, language]);
  const titles = useMemo(() => {
    const m = new Map<string, string>();
    for (const p of pages) if (p.title) m.set(p.url, p.title);
    return m;
  }, [pages]);
  const shown = pages.length > limit ? pages.slice(0, limit) : pages;
  if (shown.length === 0)
    return (
      <p class="empty" data-testid="results-empty">
        {empty ?? t('noPagesYet')}
      </p>
    );
  return (
    <ol class="results" data-testid="results" data-count={pages.length}>
      {shown.map((p) => (
        <li key={p.url}>
          <ResultRow page={p} terms={terms} viaTitle={p.from ? titles.get(p.from) : undefined} actions={actions} />
        </li>
      ))}
    </ol>
  );
}

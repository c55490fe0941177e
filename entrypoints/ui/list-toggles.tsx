/** The toggles under a result list: search results, low-relevance pages and hidden pages, each off by default. */
import type { ResultCounts } from '../../lib/app';
import { t, tn } from './i18n';

/** The toggles under a list: the search's own results and the low-relevance pages, hidden by default. */
export function ListToggles({
  counts,
  hiddenCount,
  showSearch,
  showLow,
  showHidden,
  onChange,
}: {
  counts: ResultCounts;
  hiddenCount: number;
  showSearch: boolean;
  showLow: boolean;
  showHidden: boolean;
  onChange(next: { showSearch?: boolean; showLow?: boolean; showHidden?: boolean }): void;
}) {
  return (
    <div class="toggles">
      {counts.fromSearch > 0 && (
        <button
          type="button"
          class="link"
          data-testid="toggle-search"
          aria-pressed={showSearch}
          onClick={() => onChange({ showSearch: !showSearch })}
        >
          {showSearch
            ? tn(counts.fromSearch, 'hideFromSearchOne', 'hideFromSearch')
            : tn(counts.fromSearch, 'showFromSearchOne', 'showFromSearch')}
        </button>
      )}
      {counts.lowRelevance > 0 && (
        <button
          type="button"
          class="link"
          data-testid="toggle-low"
          aria-pressed={showLow}
          onClick={() => onChange({ showLow: !showLow })}
        >
          {showLow ? t('hideLowRelevance') : tn(counts.lowRelevance, 'lowRelevanceHiddenOne', 'lowRelevanceHidden')}
        </button>
      )}
      {hiddenCount > 0 && (
        <button
          type="button"
          class="link"
          data-testid="toggle-hidden"
          aria-pressed={showHidden}
          onClick={() => onChange({ showHidden: !showHidden })}
        >
          {showHidden ? t('hideHidden') : tn(hiddenCount, 'showHiddenOne', 'showHidden')}
        </button>
      )}
    </div>
  );
}

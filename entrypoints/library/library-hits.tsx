/**
 * The library's search hits, in the result rows' design: title with the query's words marked, "site › path", when
 * it was found (in the user's locale) and by which crawl, the snippet, and the link's actions. Titles and snippets are
 * page text: rendered as text only; a hit whose URL is not http(s) gets no link.
 */
import { useMemo, useRef } from 'preact/hooks';
import { formatDate, highlightTerms, type LibraryHit, oneLine } from '../../lib/app';
import { Highlighted } from '../ui/highlighted';
import { t } from '../ui/i18n';
import { LinkActions } from '../ui/link-actions';
import { Location } from '../ui/location';
import { RowActionGroup } from '../ui/result-row';
import { useRowKeys } from '../ui/row-keys';
import { safeHref } from '../ui/safe-href';
import { SiteIcon } from '../ui/site-icon';

export function LibraryHits({
  hits,
  crawlNames,
  query = '',
}: {
  hits: LibraryHit[];
  crawlNames: Map<string, string>;
  /** The words searched for, marked in titles and snippets. */
  query?: string;
}) {
  const terms = useMemo(() => highlightTerms(query), [query]);
  const list = useRef<HTMLOListElement>(null);
  useRowKeys(list);
  return (
    <ol class="results library-hits" data-testid="library-hits" ref={list}>
      {hits.map((hit) => {
        const href = safeHref(hit.url);
        const title = oneLine(hit.title) || oneLine(hit.url);
        return (
          <li key={`${hit.crawlId} ${hit.url}`}>
            <div class="row" data-testid="library-hit" data-row={hit.url}>
              <div class="row-head">
                <SiteIcon url={hit.url} />
                {href ? (
                  <a class="title" href={href} target="_blank" rel="noopener noreferrer" title={title}>
                    <Highlighted text={title} terms={terms} />
                  </a>
                ) : (
                  <span class="title">{title}</span>
                )}
              </div>
              <div class="row-line">
                <div class="row-meta">
                  <Location url={hit.url} />
                  <span class="date" data-testid="library-hit-date">
                    {t('libraryHitFound', formatDate(hit.fetchedAt), crawlNames.get(hit.crawlId) ?? t('libraryUnnamedCrawl'))}
                  </span>
                </div>
                <RowActionGroup>
                  <LinkActions url={hit.url} />
                </RowActionGroup>
              </div>
              <div class="snippet">
                <Highlighted text={hit.snippet} terms={terms} />
              </div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

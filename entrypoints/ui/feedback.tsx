/**
 * Relevance feedback on result rows, shared by the popup and the results page: thumbs up and down in each row's
 * actions (buttons with aria-pressed; pressing a pressed one undoes it), "More like this" (the start view, seeded by
 * the row, its text as the topic), and a notice above the list with Undo and "hide this site" for the last action.
 * Kept apart from components.tsx: rows take these through RowActions.extra. What a judgement does to the list is
 * lib/app/rules/feedback.ts; the background keeps judgements in the crawl (forager/judge).
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import {
  type CrawlRecord,
  displayLocation,
  displayTitle,
  judgementMap,
  moreLikeThis,
  oneLine,
  siteKey,
  startHash,
} from '../../lib/app';
import { errorMessage, type JudgementValue, type PageResult } from '../../lib/engine';
import { request } from './api';
import { IconButton } from './icon';
import { t } from './i18n';

const THUMB_UP = 'M7 10v11H3V10h4zm0 0l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7';
const THUMB_DOWN = 'M17 14V3h4v11h-4zm0 0l-4 8a3 3 0 0 1-3-3v-4H4.5a2 2 0 0 1-2-2.3l1.4-8A2 2 0 0 1 5.9 3H17';
/** A magnifier with a plus: search for more of this. */
const MORE_LIKE = 'M10.5 18a7.5 7.5 0 1 0 0-15 7.5 7.5 0 0 0 0 15zM21 21l-5.2-5.2M10.5 7.5v6M7.5 10.5h6';

/** A row's judgement buttons, in its group of actions. */
export function RowFeedback({
  page,
  value,
  onJudge,
  onMoreLikeThis,
}: {
  page: PageResult;
  value: JudgementValue;
  onJudge(value: JudgementValue): void;
  onMoreLikeThis(): void;
}) {
  const title = oneLine(displayTitle(page));
  return (
    <span class="row-feedback" data-testid="row-feedback" data-judgement={value}>
      <IconButton
        icon={THUMB_UP}
        extraClass="judge"
        testid="judge-up"
        tip={t('judgeUpShort')}
        pressed={value === 1}
        label={t('judgeUpLabel', title)}
        title={value === 1 ? t('judgeUndoTitle') : t('judgeUpTitle')}
        onClick={() => onJudge(value === 1 ? 0 : 1)}
      />
      <IconButton
        icon={THUMB_DOWN}
        extraClass="judge"
        testid="judge-down"
        tip={t('judgeDownShort')}
        pressed={value === -1}
        label={t('judgeDownLabel', title)}
        title={value === -1 ? t('judgeUndoTitle') : t('judgeDownTitle')}
        onClick={() => onJudge(value === -1 ? 0 : -1)}
      />
      <IconButton
        icon={MORE_LIKE}
        testid="more-like-this"
        tip={t('moreLikeThis')}
        label={t('moreLikeThis')}
        title={t('moreLikeThisTitle')}
        onClick={onMoreLikeThis}
      />
    </span>
  );
}

/** The last feedback action, for the notice's Undo. */
type LastAction =
  | { kind: 'judge'; page: PageResult; value: JudgementValue; previous: JudgementValue }
  | { kind: 'site'; site: string };

/**
 * The judgement state of one crawl's list: `extra` renders a row's buttons, `notice` the line above the list.
 * `onRecord` gets the crawl record each answer carries (the live update follows it); `openStart` opens the start view
 * at a `#/new?...` hash ("More like this").
 */
export function useFeedback(
  record: CrawlRecord | undefined,
  onRecord: (record: CrawlRecord) => void,
  onError: (message: string) => void,
  openStart: (hash: string) => void,
) {
  const [last, setLast] = useState<LastAction | null>(null);
  const verdicts = useMemo(() => judgementMap(record?.judgements), [record?.judgements]);
  const id = record?.id;
  // Requests go out one after another, in the order of the clicks: an Undo clicked before the background answered
  // the judgement it undoes must reach the background after it.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const send = (ask: () => Promise<CrawlRecord>) => {
    queue.current = queue.current.then(ask).then(onRecord, (e: unknown) => {
      setLast(null);
      onError(errorMessage(e));
    });
  };

  // The notice names the action just clicked at once, not when the answer comes: the live update can show its effect
  // first (the row leaves the list), and an Undo must then undo this action, not the one before.
  const judge = (page: PageResult, value: JudgementValue, remember = true) => {
    if (!id) return;
    const previous = verdicts.get(page.url) ?? 0;
    setLast(remember && value !== 0 ? { kind: 'judge', page, value, previous } : null);
    send(() => request({ type: 'forager/judge', id, url: page.url, value }));
  };
  const hideSite = (site: string, hidden: boolean) => {
    if (!id) return;
    setLast(hidden ? { kind: 'site', site } : null);
    send(() => request({ type: 'forager/hideSite', id, site, hidden }));
  };

  const extra = (page: PageResult) => (
    <RowFeedback
      page={page}
      value={verdicts.get(page.url) ?? 0}
      onJudge={(value) => judge(page, value)}
      onMoreLikeThis={() => openStart(startHash(moreLikeThis(page)))}
    />
  );

  let notice = null;
  if (last?.kind === 'judge') {
    const site = siteKey(last.page.url);
    notice = (
      <p class="feedback-notice" role="status" data-testid="feedback-notice" data-url={last.page.url} data-judgement={last.value}>
        <span>
          {last.value === 1 ? t('judgedUp', oneLine(displayTitle(last.page))) : t('judgedDown', oneLine(displayTitle(last.page)))}
        </span>
        <button type="button" class="link" data-testid="judge-undo" onClick={() => judge(last.page, last.previous, false)}>
          {t('undo')}
        </button>
        {last.value === -1 && !record?.hiddenSites?.includes(site) && (
          <button type="button" class="link" data-testid="hide-site" onClick={() => hideSite(site, true)}>
            {t('hideSite', displayLocation(last.page.url).site)}
          </button>
        )}
      </p>
    );
  } else if (last?.kind === 'site') {
    notice = (
      <p class="feedback-notice" role="status" data-testid="feedback-notice">
        <span>{t('siteHidden', displayLocation(last.site).site)}</span>
        <button type="button" class="link" data-testid="site-undo" onClick={() => hideSite(last.site, false)}>
          {t('undo')}
        </button>
      </p>
    );
  }
  return { extra, notice };
}

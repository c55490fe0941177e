/**
 * The popup. Results first: when a crawl runs, belongs to this tab or is recent, its new relevant pages fill the popup
 * and the start form folds under "New crawl"; otherwise the start form (topic and start pages read from the tab) comes
 * first. State comes from the background (snapshot, then throttled deltas over a port); closing the popup changes
 * nothing.
 *
 * `popup.html?tab=<id>` targets a given tab instead of the active one (end-to-end tests open the popup as a page).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  countsOf,
  type CrawlSettings,
  type CrawlSnapshot,
  draftFromSerp,
  draftFromVisibleLinks,
  judgedRows,
  type LiveServerMessage,
  mergeResults,
  mergeScores,
  oneLine,
  type StartDraft,
  type StrategyDescription,
  type TabContext,
  tabReading,
} from '../../lib/app';
import { errorMessage, type PageResult } from '../../lib/engine';
import { allPages, connectLive, openLibrary, openResultsPage, request } from '../ui/api';
import { CrawlPanel } from '../ui/crawl-panel';
import { FailureNotice } from '../ui/failure-notice';
import { fetchedNothing } from '../ui/status-chip';
import { ListActions } from '../ui/list-actions';
import { ListToggles } from '../ui/list-toggles';
import { ResultList } from '../ui/result-list';
import { StartForm } from '../ui/start-form';
import { type SeedChoice, TabReadingNote } from '../ui/tab-reading-note';
import { useFeedback } from '../ui/feedback';
import { useHidden } from '../ui/hidden';
import { t } from '../ui/i18n';
import { isInView } from '../ui/row-keys';
import { loadDefaults } from '../ui/settings';

/** Rows the popup keeps (best first); "All results" opens the results page. */
export const POPUP_TOP = 60;
/** A crawl this recent is shown first on opening. */
const RECENT_MS = 30 * 60_000;

async function currentTabId(): Promise<number | undefined> {
  const fromUrl = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(fromUrl) && fromUrl > 0) return fromUrl;
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

function pageDraft(tab: TabContext): StartDraft | null {
  if (!/^https?:\/\//i.test(tab.url)) return null;
  return { topic: tab.title, seeds: [tab.url], source: { kind: 'page', pageUrl: tab.url }, context: [] };
}

export function applyLive(current: CrawlSnapshot | null, m: LiveServerMessage): CrawlSnapshot | null {
  if (m.type === 'snapshot') return m.snapshot;
  if (m.type !== 'update') return current;
  if (current && current.record.id === m.id) {
    return {
      ...current,
      record: m.record,
      top: mergeResults(current.top, m.pages, POPUP_TOP),
      pageCount: Math.max(current.pageCount, m.record.stats.pagesEvaluated),
      active: m.record.status === 'running',
      scores: mergeScores(current.scores, m.pages),
    };
  }
  // Another crawl started (from the context menu or another window): follow it.
  if (m.record.status === 'running') {
    return {
      record: m.record,
      top: mergeResults([], m.pages, POPUP_TOP),
      pageCount: m.record.stats.pagesEvaluated,
      active: true,
      scores: mergeScores([], m.pages),
    };
  }
  return current;
}

/** Whether the popup opens on the crawl's results rather than on the start form. */
export function resultsFirst(snap: CrawlSnapshot | null, tab: TabContext | null, now = Date.now()): boolean {
  if (!snap) return false;
  const r = snap.record;
  if (r.status === 'running' || r.status === 'paused') return true;
  if (tab && (r.source.pageUrl === tab.url || r.seeds.includes(tab.url))) return true;
  // A results page for another search: the user came for a new crawl.
  if (tab?.serp && tab.serp.results.length > 0) return false;
  return now - r.updatedAt < RECENT_MS;
}

export function App() {
  const [tab, setTab] = useState<TabContext | null | 'loading'>('loading');
  const [snap, setSnap] = useState<CrawlSnapshot | null | 'loading'>('loading');
  // "New crawl" over the results: closed again once its crawl has started.
  const [formOpen, setFormOpen] = useState(false);
  const [strategies, setStrategies] = useState<StrategyDescription[] | null>(null);
  const [defaults, setDefaults] = useState<CrawlSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState({ showSearch: false, showLow: false, showHidden: false });
  const [seedChoice, setSeedChoice] = useState<SeedChoice>('links');
  const current = snap === 'loading' ? null : snap;
  const [hidden, hide] = useHidden(current?.record.id);

  useEffect(() => {
    void (async () => {
      try {
        const [s, d] = await Promise.all([request({ type: 'forager/strategies' }), loadDefaults()]);
        setStrategies(s);
        setDefaults(d);
      } catch (e) {
        setError(errorMessage(e));
      }
    })();
    void (async () => {
      const tabId = await currentTabId().catch(() => undefined);
      if (tabId === undefined) return setTab(null);
      setTab(await request({ type: 'forager/inspectTab', tabId }).catch(() => null));
    })();
    return connectLive({ type: 'subscribe', limit: POPUP_TOP }, (m) =>
      setSnap((cur) => applyLive(cur === 'loading' ? null : cur, m)),
    );
  }, []);

  const tabInfo = tab === 'loading' ? null : tab;
  // Decided once, when both are known, so the layout does not flip under the user while results stream in (a crawl
  // the user starts here switches it to results).
  const [first, setFirst] = useState<'results' | 'start' | null>(null);
  useEffect(() => {
    if (first !== null || snap === 'loading') return;
    // A running or paused crawl is shown at once; otherwise the tab decides (is it this crawl's page?).
    const live = snap?.record.status === 'running' || snap?.record.status === 'paused';
    if (!live && tab === 'loading') return;
    setFirst(resultsFirst(snap, tab === 'loading' ? null : tab) ? 'results' : 'start');
  }, [snap, tab, first]);

  const counts = useMemo(() => countsOf(current?.scores ?? []), [current?.scores]);
  // The live update keeps the best POPUP_TOP pages, above every low-relevance one: those are read from the crawl when
  // the user asks for them.
  const crawlId = current?.record.id;
  const [stored, setStored] = useState<PageResult[] | null>(null);
  useEffect(() => {
    setStored(null);
    if (!view.showLow || !crawlId) return;
    let wanted = true;
    allPages(crawlId).then(
      (pages) => wanted && setStored(pages),
      (e: unknown) => setError(errorMessage(e)),
    );
    return () => {
      wanted = false;
    };
  }, [view.showLow, crawlId]);
  const pages = useMemo(
    () => (current && stored ? mergeResults(current.top, stored) : (current?.top ?? [])),
    [current?.top, stored],
  );
  // Judgements re-rank the list and hide down-voted pages and hidden sites (lib/app/rules/feedback.ts).
  const { rows, hiddenCount } = useMemo(
    () => (current ? judgedRows(pages, current.record, counts.cut, { ...view, hidden }) : { rows: [], hiddenCount: 0 }),
    [pages, current?.record.judgements, current?.record.hiddenSites, counts.cut, view, hidden],
  );
  // What the list shows of the new relevant pages the headline counts (the popup lists the best POPUP_TOP).
  const listedRelevant = rows.filter((p) => !p.isSeed && p.score >= counts.cut).length;
  const feedback = useFeedback(
    current?.record,
    (record) => setSnap((cur) => (cur && cur !== 'loading' && cur.record.id === record.id ? { ...cur, record } : cur)),
    setError,
    (hash) => openResultsPage(hash),
  );
  const running = current?.record.status === 'running';

  // Focus where the user's next action is: the first new page, or the start button.
  // Keyed by the view: the first view may still change while the tab's results page is being read (results of the
  // latest crawl, then the start form for this search), and the focus follows it.
  const focused = useRef<typeof first>(null);
  useEffect(() => {
    if (first === null || focused.current === first) return;
    const target =
      first === 'results'
        ? document.querySelector<HTMLElement>('[data-testid="result-link"]')
        : document.querySelector<HTMLElement>('[data-testid="crawl-button"]');
    if (target) {
      // Never taken from where the user put it, nor given to a row scrolled out of view.
      const free = !document.activeElement || document.activeElement === document.body;
      if (free && isInView(target)) target.focus({ preventScroll: true });
      focused.current = first;
    }
  });

  const startSection = useMemo(() => {
    const serp = tabInfo?.serp ?? null;
    const reading = tabReading(serp);
    const isSerp = reading.kind === 'results' && !!serp;
    const fromLinks =
      reading.kind === 'nothing-read' && seedChoice === 'links' && serp && tabInfo
        ? draftFromVisibleLinks(serp, tabInfo.url, tabInfo.title)
        : null;
    const draft = tabInfo ? (isSerp ? draftFromSerp(serp, tabInfo.url) : (fromLinks ?? pageDraft(tabInfo))) : null;
    const seedNote = isSerp
      ? serp.engineName
        ? t('seedNoteEngine', serp.engineName)
        : undefined
      : fromLinks
        ? undefined
        : draft
          ? t('seedNotePage')
          : undefined;
    const seedTitles = isSerp
      ? Object.fromEntries(serp.results.map((r) => [r.url, r.title]))
      : fromLinks
        ? Object.fromEntries((serp?.visibleLinks ?? []).map((l) => [l.url, l.text]))
        : undefined;
    return (
      <div class="start-box" data-testid="start-section">
        {tab === 'loading' || !strategies || !defaults ? (
          <p class="note">{t('readingTab')}</p>
        ) : draft ? (
          <>
            <TabReadingNote reading={reading} choice={seedChoice} onChoose={setSeedChoice} />
            {reading.kind === 'page' && (
              <p class="note" data-testid="not-serp">
                {t('notSerp')}
              </p>
            )}
            <StartForm
              key={`${draft.source.kind}|${draft.source.pageUrl}|${draft.seeds.length}`}
              draft={draft}
              strategies={strategies}
              defaults={defaults}
              editableSeeds={false}
              seedNote={seedNote}
              seedTitles={seedTitles}
              busyWith={running ? (current?.record.name ?? null) : null}
              onStarted={(record) => {
                setSnap({ record, top: [], pageCount: 0, active: true, scores: [] });
                setFirst('results');
                setFormOpen(false);
              }}
            />
          </>
        ) : (
          <p class="note" data-testid="not-serp">
            {t('noSearchHere')}
          </p>
        )}
      </div>
    );
  }, [tab, strategies, defaults, running, seedChoice]);

  const failed = current ? fetchedNothing(current.record) : false;
  const liveSection = current && (
    <section class="live" data-testid="live-section">
      <CrawlPanel
        snapshot={current}
        counts={counts}
        onError={setError}
        onShowSkips={() => openResultsPage(`#/crawl/${encodeURIComponent(current.record.id)}?skips=1`)}
      />
      {failed ? (
        <FailureNotice record={current.record} onError={setError} />
      ) : (
        <>
          {feedback.notice}
          <div class="list-box">
            <ResultList
              pages={rows}
              topic={current.record.topic.keywords}
              language={current.record.topic.language}
              limit={stored ? rows.length : POPUP_TOP}
              actions={{ onHide: hide, extra: feedback.extra }}
              empty={current.record.stats.pagesEvaluated > 0 ? t('noRelevantYet') : t('noPagesYet')}
            />
          </div>
          {listedRelevant < counts.newRelevant && (
            <p class="muted small-text listed-of" data-testid="listed-of">
              {t('listedOf', listedRelevant, counts.newRelevant)}
            </p>
          )}
          <ListToggles
            counts={counts}
            hiddenCount={hiddenCount}
            showSearch={view.showSearch}
            showLow={view.showLow}
            showHidden={view.showHidden}
            onChange={(next) => setView((v) => ({ ...v, ...next }))}
          />
          <ListActions pages={rows}>
            <button
              type="button"
              data-testid="show-all"
              onClick={() => openResultsPage(`#/crawl/${encodeURIComponent(current.record.id)}`)}
            >
              {t('showAll')}
            </button>
          </ListActions>
        </>
      )}
    </section>
  );

  return (
    <main class="popup" data-testid="popup" data-first={first ?? ''}>
      <header>
        <h1>
          <img src="/icon/32.png" alt="" /> {t('extName')}
        </h1>
        <nav class="header-links">
          <button type="button" class="link" data-testid="open-results" onClick={() => openResultsPage('#/')}>
            {t('allCrawls')}
          </button>
          <button type="button" class="link" data-testid="open-library" onClick={openLibrary}>
            {t('libraryTitle')}
          </button>
        </nav>
      </header>
      {error && (
        <p class="message error" role="alert" data-testid="popup-error">
          {error}
        </p>
      )}
      {first === 'results' && current ? (
        <>
          {liveSection}
          <details class="new-crawl" data-testid="new-crawl" open={formOpen} onToggle={(e) => setFormOpen(e.currentTarget.open)}>
            <summary>{t('newCrawl')}</summary>
            {startSection}
          </details>
        </>
      ) : (
        <>
          {startSection}
          {current && first === 'start' && (
            <p class="last-crawl" data-testid="last-crawl">
              {t('lastCrawl')}{' '}
              <button type="button" class="link" data-testid="open-last-crawl" onClick={() => setFirst('results')}>
                {oneLine(current.record.name)}
              </button>
            </p>
          )}
        </>
      )}
    </main>
  );
}

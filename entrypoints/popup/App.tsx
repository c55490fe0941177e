/**
 * The popup: reads the tab it was opened on (a search results page gives the topic and the seeds), offers the
 * Crawl button, and shows the current crawl live. Its state comes from the background (snapshot, then throttled
 * deltas over a port); closing it changes nothing.
 *
 * `popup.html?tab=<id>` targets a given tab instead of the active one (end-to-end tests open the popup as a page).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { mergeResults } from '../../lib/app/view/results';
import { draftFromSerp, type StartDraft } from '../../lib/app/view/start-draft';
import type { CrawlSnapshot, LiveServerMessage, StrategyDescription, TabContext } from '../../lib/app/protocol';
import type { CrawlSettings } from '../../lib/app/store/types';
import { errorMessage } from '../../lib/engine';
import { connectLive, openResultsPage, request } from '../ui/api';
import { CrawlPanel, ResultList, StartForm } from '../ui/components';

/** Rows the popup shows; "Show all" opens the results page. */
export const POPUP_TOP = 50;

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
    };
  }
  // Another crawl started (from the context menu or another window): follow it.
  if (m.record.status === 'running') {
    return {
      record: m.record,
      top: mergeResults([], m.pages, POPUP_TOP),
      pageCount: m.record.stats.pagesEvaluated,
      active: true,
    };
  }
  return current;
}

export function App() {
  const [tab, setTab] = useState<TabContext | null | 'loading'>('loading');
  const [snap, setSnap] = useState<CrawlSnapshot | null>(null);
  const [strategies, setStrategies] = useState<StrategyDescription[] | null>(null);
  const [defaults, setDefaults] = useState<CrawlSettings | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void (async () => {
      try {
        const [s, d] = await Promise.all([request({ type: 'forager/strategies' }), request({ type: 'forager/defaults' })]);
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
    return connectLive({ type: 'subscribe', limit: POPUP_TOP }, (m) => setSnap((cur) => applyLive(cur, m)));
  }, []);

  const running = snap?.record.status === 'running';
  // The start section depends on the tab and the settings only: kept as is while results stream in (the same vnodes,
  // which Preact skips), not re-rendered with every live update.
  const startSection = useMemo(() => {
    const serp = tab && tab !== 'loading' ? tab.serp : null;
    const draft =
      tab && tab !== 'loading' ? (serp && serp.results.length > 0 ? draftFromSerp(serp, tab.url) : pageDraft(tab)) : null;
    const seedNote =
      serp && serp.results.length > 0
        ? `among ${serp.linkCount} links${serp.engine ? ` on this ${serp.engine} page` : ''}`
        : draft
          ? '(this page: not a search results page)'
          : undefined;
    return (
      <div class="section start-box" data-testid="start-section">
        {tab === 'loading' || !strategies || !defaults ? (
          <p class="note">Reading this tab…</p>
        ) : draft ? (
          <>
            {!(serp && serp.results.length > 0) && (
              <p class="note" data-testid="not-serp">
                No search results found in this tab; you can crawl from the page itself.
              </p>
            )}
            <StartForm
              key={`${draft.source.pageUrl}|${draft.seeds.length}`}
              draft={draft}
              strategies={strategies}
              defaults={defaults}
              editableSeeds={false}
              seedNote={seedNote}
              onStarted={(record) => setSnap({ record, top: [], pageCount: 0, active: true })}
            />
          </>
        ) : (
          <p class="note" data-testid="not-serp">
            Search on Google, Bing, DuckDuckGo, Brave, Startpage or Ecosia, then open Forager; or right-click any page: Crawl from
            here.
          </p>
        )}
      </div>
    );
  }, [tab, strategies, defaults]);

  const liveSection = snap && (
    <div key="live" class="section live" data-testid="live-section">
      <CrawlPanel snapshot={snap} onError={setError} />
      <div class="list-box">
        <ResultList pages={snap.top} topic={snap.record.topic.keywords} language={snap.record.topic.language} limit={POPUP_TOP} />
      </div>
      <div class="controls">
        <button
          type="button"
          data-testid="show-all"
          onClick={() => openResultsPage(`#/crawl/${encodeURIComponent(snap.record.id)}`)}
        >
          Show all {Math.max(snap.pageCount, snap.record.stats.pagesEvaluated)} results
        </button>
      </div>
    </div>
  );

  // While a crawl runs the form folds away under "New crawl"; otherwise it is open, its summary hidden
  // (inline: the UA's `details > summary` display rule beats the `hidden` attribute).
  const startBlock = (
    <details key="start" class={running ? 'collapsed section' : undefined} open={!running}>
      <summary style={running ? undefined : { display: 'none' }}>New crawl</summary>
      {startSection}
    </details>
  );

  return (
    <main class="popup" data-testid="popup">
      <header>
        <h1>
          <img src="/icon/32.png" alt="" /> Forager
        </h1>
        <button type="button" data-testid="open-results" onClick={() => openResultsPage('#/')}>
          All crawls
        </button>
      </header>
      {error ? (
        <p class="message error" role="alert" data-testid="popup-error">
          {error}
        </p>
      ) : (
        <span />
      )}
      {/*
        One tree for both layouts: the start form keeps its place in it (keyed, only reordered), so the settings the
        user typed survive a crawl starting (a form re-created under a new parent would come back with the defaults).
      */}
      <div
        style={{ display: 'grid', gridTemplateRows: running ? '1fr auto' : snap ? 'auto 1fr' : 'auto', gap: '8px', minHeight: 0 }}
      >
        {running ? [liveSection, startBlock] : [startBlock, liveSection]}
      </div>
    </main>
  );
}

/**
 * The full-page view. Routes (in the hash, so the page works from a bookmark and from the context menu):
 * - `#/`            every crawl: open, rename, resume, stop, delete, export
 * - `#/crawl/<id>`  one crawl: status and controls, all its pages (virtualized), exports; live while it runs
 * - `#/new?...`     the start view ("Crawl from here"): topic and seeds editable before the start
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  countsOf,
  type CrawlRecord,
  type CrawlSettings,
  type CrawlSnapshot,
  displayLocation,
  displayTitle,
  EXPORT_FORMATS,
  exportCrawlStream,
  type ExportFormat,
  judgedRows,
  locationText,
  MAX_WINDOW,
  mergeResults,
  oneLine,
  pageDate,
  parseStartHash,
  relativeTime,
  type StrategyDescription,
} from '../../lib/app';
import { errorMessage, type PageResult, type SkipRecord } from '../../lib/engine';
import { allPages, connectLive, request, requestSiteAccess } from '../ui/api';
import { CrawlPanel } from '../ui/crawl-panel';
import { FailureNotice } from '../ui/failure-notice';
import { fetchedNothing, StatusChip } from '../ui/status-chip';
import { ListActions } from '../ui/list-actions';
import { ListToggles } from '../ui/list-toggles';
import { ResultList } from '../ui/result-list';
import { SkipList } from '../ui/skip-list';
import { StartForm } from '../ui/start-form';
import { useFeedback } from '../ui/feedback';
import { useHidden } from '../ui/hidden';
import { type MessageKey, t } from '../ui/i18n';
import { loadDefaults } from '../ui/settings';
import { useWatchDiff, WatchNote, WatchPanel } from './watch';

const FORMAT_LABEL: Record<ExportFormat, MessageKey> = {
  json: 'formatJson',
  csv: 'formatCsv',
  bookmarks: 'formatBookmarks',
  markdown: 'formatMarkdown',
};

function useHash(): string {
  const [hash, setHash] = useState(location.hash || '#/');
  useEffect(() => {
    const on = () => setHash(location.hash || '#/');
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

async function allSkips(id: string): Promise<SkipRecord[]> {
  const out: SkipRecord[] = [];
  for (let offset = 0; ; offset += MAX_WINDOW) {
    const chunk = await request({ type: 'forager/skips', id, offset, limit: MAX_WINDOW });
    out.push(...chunk);
    if (chunk.length < MAX_WINDOW) return out;
  }
}

/**
 * Builds the file in the page, reading the crawl one window per message (a hostile crawl's skips would not fit in one),
 * as a Blob of pieces, and saves it through an <a download> click: no 'downloads' permission needed.
 */
async function exportAndSave(format: ExportFormat, record: CrawlRecord): Promise<string> {
  const file = exportCrawlStream(
    format,
    record,
    {
      pages: (offset, limit) => request({ type: 'forager/pages', id: record.id, offset, limit }),
      skips: (offset, limit) => request({ type: 'forager/skips', id: record.id, offset, limit }),
    },
    { window: MAX_WINDOW },
  );
  const pieces: string[] = [];
  for await (const piece of file.pieces) pieces.push(piece);
  const blob = new Blob(pieces, { type: file.mimeType });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  // For tests and the curious: the last file, as saved.
  (globalThis as { foragerLastExport?: unknown }).foragerLastExport = {
    format,
    filename: file.filename,
    mimeType: file.mimeType,
    content: pieces.join(''),
  };
  return file.filename;
}

function Exports({ record, onError }: { record: CrawlRecord; onError(m: string): void }) {
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <span class="exports" data-testid="exports">
      <span class="muted">{t('exportLabel')}:</span>
      {EXPORT_FORMATS.map((f) => (
        <button
          key={f}
          type="button"
          data-testid={`export-${f}`}
          onClick={() => exportAndSave(f, record).then(setSaved, (e: unknown) => onError(errorMessage(e)))}
        >
          {t(FORMAT_LABEL[f])}
        </button>
      ))}
      {saved && (
        <span class="muted" data-testid="export-saved">
          {t('savedFile', saved)}
        </span>
      )}
    </span>
  );
}

function Rename({ record, onError }: { record: CrawlRecord; onError(m: string): void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(record.name);
  if (!editing)
    return (
      <button
        type="button"
        data-testid="crawl-rename"
        onClick={() => {
          setName(record.name);
          setEditing(true);
        }}
      >
        {t('rename')}
      </button>
    );
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      await request({ type: 'forager/rename', id: record.id, name });
      setEditing(false);
    } catch (err) {
      onError(errorMessage(err));
    }
  };
  return (
    <form class="rename" onSubmit={save}>
      <input
        type="text"
        value={name}
        maxLength={200}
        data-testid="rename-input"
        aria-label={t('newName')}
        onInput={(e) => setName(e.currentTarget.value)}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the user clicked Rename; focus belongs in it
        autoFocus
      />
      <button type="submit" data-testid="rename-save">
        {t('save')}
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        {t('cancel')}
      </button>
    </form>
  );
}

// ---------------------------------------------------------------- #/

/** One crawl as a card: where it came from, its count of new relevant pages, when, its state, and a menu. */
function CrawlCard({ record, count, onError }: { record: CrawlRecord; count: number | undefined; onError(m: string): void }) {
  const [confirming, setConfirming] = useState(false);
  const act = (type: 'forager/resume' | 'forager/pause' | 'forager/stop' | 'forager/delete') => async () => {
    try {
      if (type === 'forager/resume' && !(await requestSiteAccess())) return onError(t('needSiteAccessResume'));
      await request({ type, id: record.id });
      setConfirming(false);
    } catch (e) {
      onError(errorMessage(e));
    }
  };
  const where = record.source.engine ?? (record.source.pageUrl ? displayLocation(record.source.pageUrl).site : '');
  const source = record.source.query
    ? t('startedFromQuery', oneLine(record.source.query), where)
    : record.source.pageUrl
      ? t('startedFrom', locationText(record.source.pageUrl))
      : t('startedFromPage');
  return (
    <li class="crawl-card" data-testid="crawl-item" data-crawl-id={record.id} data-status={record.status}>
      <div class="card-main">
        <a href={`#/crawl/${encodeURIComponent(record.id)}`} data-testid="crawl-open" title={oneLine(record.topic.keywords)}>
          {oneLine(record.name)}
        </a>
        <div class="muted card-meta">
          <span>{source}</span>
          {' · '}
          <time dateTime={new Date(record.createdAt).toISOString()} title={new Date(record.createdAt).toLocaleString()}>
            {relativeTime(record.createdAt)}
          </time>
          <WatchNote record={record} />
        </div>
      </div>
      <span class="card-count" data-testid="crawl-item-count">
        {count === undefined ? '' : t('crawlCardCount', count)}
      </span>
      <span data-testid="crawl-item-status">
        <StatusChip record={record} />
      </span>
      <details class="menu">
        <summary aria-label={t('menu')} title={t('menu')} data-testid="crawl-menu">
          <span aria-hidden="true">⋯</span>
        </summary>
        <div class="menu-items">
          <Rename record={record} onError={onError} />
          {record.status === 'running' && (
            <button type="button" data-testid="crawl-pause" onClick={act('forager/pause')}>
              {t('pause')}
            </button>
          )}
          {(record.status === 'paused' || record.status === 'stopped' || record.status === 'error') && (
            <button type="button" data-testid="crawl-resume" onClick={act('forager/resume')}>
              {t('resume')}
            </button>
          )}
          <Exports record={record} onError={onError} />
          {confirming ? (
            <button type="button" class="danger" data-testid="crawl-delete-confirm" onClick={act('forager/delete')}>
              {t('reallyDelete')}
            </button>
          ) : (
            <button type="button" class="danger" data-testid="crawl-delete" onClick={() => setConfirming(true)}>
              {t('delete')}
            </button>
          )}
        </div>
      </details>
    </li>
  );
}

function CrawlList() {
  const [crawls, setCrawls] = useState<CrawlRecord[] | null>(null);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [error, setError] = useState<string | null>(null);
  const reload = () => request({ type: 'forager/list' }).then(setCrawls, (e: unknown) => setError(errorMessage(e)));
  useEffect(() => {
    void reload();
    return connectLive({ type: 'subscribe', limit: 0 }, (m) => {
      if (m.type === 'crawls-changed') void reload();
      else if (m.type === 'update') setCrawls((list) => list?.map((c) => (c.id === m.id ? m.record : c)) ?? list);
    });
  }, []);
  // Counts of new relevant pages, one snapshot per crawl (their scores), filled in as they come.
  useEffect(() => {
    if (!crawls) return;
    let alive = true;
    void (async () => {
      for (const c of crawls) {
        if (!alive) return;
        const snap = await request({ type: 'forager/snapshot', id: c.id, limit: 0 }).catch(() => null);
        if (snap && alive) setCounts((cur) => ({ ...cur, [c.id]: countsOf(snap.scores).newRelevant }));
      }
    })();
    return () => {
      alive = false;
    };
  }, [crawls?.map((c) => `${c.id}:${c.stats.pagesEvaluated}`).join(',')]);
  if (!crawls) return <p class="muted">{t('loading')}</p>;
  return (
    <section class="column">
      {error && (
        <p class="message error" role="alert" data-testid="list-error">
          {error}
        </p>
      )}
      {crawls.length === 0 ? (
        <p class="muted" data-testid="no-crawls">
          {t('noCrawls')}
        </p>
      ) : (
        <ul class="crawl-cards" data-testid="crawl-list">
          {crawls.map((c) => (
            <CrawlCard key={c.id} record={c} count={counts[c.id]} onError={setError} />
          ))}
        </ul>
      )}
    </section>
  );
}

// ---------------------------------------------------------------- #/crawl/<id>

type SortKey = 'relevance' | 'date' | 'site';

function sortPages(pages: PageResult[], key: SortKey): PageResult[] {
  if (key === 'relevance') return pages;
  const out = [...pages];
  if (key === 'date') {
    const time = (p: PageResult) => pageDate(p)?.time ?? -Infinity;
    out.sort((a, b) => time(b) - time(a) || b.score - a.score);
  } else {
    const site = (p: PageResult) => displayLocation(p.url).site;
    out.sort((a, b) => site(a).localeCompare(site(b)) || b.score - a.score);
  }
  return out;
}

/** Rows rendered at first and added per step as the reader nears the end (rows out of view cost little). */
const PAGE_STEP = 100;

function CrawlView({ id, showSkips }: { id: string; showSkips: boolean }) {
  const [snap, setSnap] = useState<CrawlSnapshot | null | 'loading'>('loading');
  const [pages, setPages] = useState<PageResult[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState({ showSearch: false, showLow: false, showHidden: false });
  const [query, setQuery] = useState('');
  const [site, setSite] = useState('');
  const [sort, setSort] = useState<SortKey>('relevance');
  const [limit, setLimit] = useState(PAGE_STEP);
  const [skips, setSkips] = useState<SkipRecord[] | null>(null);
  const [hidden, hide] = useHidden(id);
  useEffect(() => {
    let alive = true;
    setPages([]);
    void allPages(id).then(
      (all) => alive && setPages((cur) => mergeResults(cur, all)),
      (e: unknown) => alive && setError(errorMessage(e)),
    );
    const stop = connectLive({ type: 'subscribe', id, limit: 0 }, (m) => {
      if (m.type === 'snapshot') setSnap(m.snapshot && m.snapshot.record.id === id ? m.snapshot : null);
      else if (m.type === 'update' && m.id === id) {
        setSnap((cur) => (cur && cur !== 'loading' ? { ...cur, record: m.record, active: m.record.status === 'running' } : cur));
        if (m.pages.length) setPages((cur) => mergeResults(cur, m.pages));
      }
    });
    return () => {
      alive = false;
      stop();
    };
  }, [id]);
  const loadSkips = () => void allSkips(id).then(setSkips, (e: unknown) => setError(errorMessage(e)));
  useEffect(() => {
    if (showSkips) loadSkips();
  }, [id, showSkips]);

  const counts = useMemo(() => countsOf(pages), [pages]);
  const record = snap && snap !== 'loading' ? snap.record : undefined;
  // A watched crawl lists its new and changed pages first (WatchPanel), the rest below.
  const watchDiff = useWatchDiff(record ?? null, pages);
  // Judgements re-rank the list and hide down-voted pages and hidden sites (lib/app/rules/feedback.ts).
  const judged = useMemo(
    () => judgedRows(watchDiff ? watchDiff.rest : pages, record ?? { topic: { keywords: '' } }, counts.cut, { ...view, hidden }),
    [pages, watchDiff, record?.topic, record?.judgements, record?.hiddenSites, counts.cut, view, hidden],
  );
  const feedback = useFeedback(
    record,
    (r) => setSnap((cur) => (cur && cur !== 'loading' && cur.record.id === r.id ? { ...cur, record: r } : cur)),
    setError,
    (hash) => {
      location.hash = hash;
    },
  );
  const filtered = useMemo(() => {
    let list = judged.rows;
    if (site) list = list.filter((p) => displayLocation(p.url).site === site);
    const q = query.trim().toLowerCase();
    if (q) list = list.filter((p) => `${displayTitle(p)} ${p.snippet} ${p.url}`.toLowerCase().includes(q));
    return sortPages(list, sort);
  }, [judged, site, query, sort]);
  const sites = useMemo(() => {
    const bySite = new Map<string, number>();
    for (const p of pages) {
      const s = displayLocation(p.url).site;
      bySite.set(s, (bySite.get(s) ?? 0) + 1);
    }
    return [...bySite.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 100);
  }, [pages]);

  // More rows as the end of the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setLimit((l) => l + PAGE_STEP);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [filtered.length > limit]);

  if (snap === 'loading') return <p class="muted">{t('loading')}</p>;
  if (!snap)
    return (
      <p data-testid="crawl-missing">
        {t('crawlMissing')} <a href="#/">{t('allCrawls')}</a>
      </p>
    );
  const r = snap.record;
  const failed = fetchedNothing(r);
  return (
    <section class="crawl-view" data-testid="crawl-view" data-crawl-id={r.id}>
      <div class="sticky">
        <CrawlPanel snapshot={snap} counts={counts} onError={setError} onShowSkips={loadSkips}>
          <Rename record={r} onError={setError} />
        </CrawlPanel>
        {!failed && (
          <div class="toolbar">
            <input
              type="search"
              placeholder={t('searchWithin')}
              aria-label={t('searchWithin')}
              value={query}
              data-testid="search-within"
              onInput={(e) => {
                setQuery(e.currentTarget.value);
                setLimit(PAGE_STEP);
              }}
            />
            <label class="inline">
              <span>{t('filterSite')}</span>
              <select value={site} data-testid="filter-site" onChange={(e) => setSite(e.currentTarget.value)}>
                <option value="">{t('allSites')}</option>
                {sites.map(([s, n]) => (
                  <option key={s} value={s}>
                    {s} ({n})
                  </option>
                ))}
              </select>
            </label>
            <label class="inline">
              <span>{t('sortBy')}</span>
              <select value={sort} data-testid="sort" onChange={(e) => setSort(e.currentTarget.value as SortKey)}>
                <option value="relevance">{t('sortRelevance')}</option>
                <option value="date">{t('sortDate')}</option>
                <option value="site">{t('sortSite')}</option>
              </select>
            </label>
          </div>
        )}
      </div>
      {error && (
        <p class="message error" role="alert" data-testid="crawl-view-error">
          {error}
        </p>
      )}
      {failed && <FailureNotice record={r} onError={setError} />}
      {skips && (
        <section class="card" data-testid="skips">
          <h3>{t('skipsTitle')}</h3>
          <SkipList skips={skips} />
        </section>
      )}
      {!failed && (
        <WatchPanel
          record={r}
          diff={watchDiff}
          running={r.status === 'running'}
          onError={setError}
          actions={{ onHide: hide, extra: feedback.extra }}
        />
      )}
      {!failed && (
        <>
          <div class="list-head">
            <span class="muted" data-testid="page-count" data-total={pages.length}>
              {t('pageCount', pages.length, counts.newRelevant)}
            </span>
            <ListToggles
              counts={counts}
              hiddenCount={judged.hiddenCount}
              showSearch={view.showSearch}
              showLow={view.showLow}
              showHidden={view.showHidden}
              onChange={(next) => setView((v) => ({ ...v, ...next }))}
            />
          </div>
          <ListActions pages={filtered}>
            <Exports record={r} onError={setError} />
          </ListActions>
          {feedback.notice}
          <ResultList
            pages={filtered}
            topic={r.topic.keywords}
            language={r.topic.language}
            limit={limit}
            actions={{ onHide: hide, extra: feedback.extra }}
            empty={query || site ? t('noMatch') : r.stats.pagesEvaluated > 0 ? t('noRelevantYet') : t('noPagesYet')}
          />
          {filtered.length > limit && <div ref={sentinel} class="sentinel" />}
        </>
      )}
    </section>
  );
}

// ---------------------------------------------------------------- #/new

function NewCrawl({ hash }: { hash: string }) {
  const draft = useMemo(() => parseStartHash(hash), [hash]);
  const [strategies, setStrategies] = useState<StrategyDescription[] | null>(null);
  const [defaults, setDefaults] = useState<CrawlSettings | null>(null);
  const [busyWith, setBusyWith] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([request({ type: 'forager/strategies' }), loadDefaults()]).then(
      ([s, d]) => {
        setStrategies(s);
        setDefaults(d);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
    // A crawl already running: say so before the form is filled, not after.
    void request({ type: 'forager/ping' })
      .then(async ({ activeCrawl }) => {
        if (!activeCrawl) return;
        const snap = await request({ type: 'forager/snapshot', id: activeCrawl, limit: 0 });
        if (snap?.record.status === 'running') setBusyWith(snap.record.name);
      })
      .catch(() => undefined);
  }, []);
  return (
    <section class="card column" data-testid="new-crawl">
      <h2>{t('newCrawl')}</h2>
      <p class="muted">{t('newCrawlHint')}</p>
      {error && (
        <p class="message error" role="alert">
          {error}
        </p>
      )}
      {strategies && defaults && (
        <StartForm
          draft={draft}
          strategies={strategies}
          defaults={defaults}
          editableSeeds
          busyWith={busyWith}
          onStarted={(record) => {
            location.hash = `#/crawl/${encodeURIComponent(record.id)}`;
          }}
        />
      )}
    </section>
  );
}

export function App() {
  const hash = useHash();
  let view: preact.JSX.Element;
  if (hash.startsWith('#/new')) view = <NewCrawl hash={hash} />;
  else if (hash.startsWith('#/crawl/')) {
    const [path, query = ''] = hash.slice('#/crawl/'.length).split('?');
    view = <CrawlView id={decodeURIComponent(path)} showSkips={new URLSearchParams(query).has('skips')} />;
  } else view = <CrawlList />;
  return (
    <main class="page" data-testid="results-page">
      <header class="page-head">
        <h1>
          <img src="/icon/48.png" alt="" /> {t('extName')}
        </h1>
        <nav>
          <a href="#/" data-testid="nav-crawls">
            {t('allCrawls')}
          </a>
          <a href="/library.html" data-testid="nav-library">
            {t('libraryTitle')}
          </a>
        </nav>
      </header>
      {view}
    </main>
  );
}

/**
 * The full-page view. Routes (in the hash, so the page works from a bookmark and from the context menu):
 * - `#/`            every crawl: open, rename, resume, stop, delete, export
 * - `#/crawl/<id>`  one crawl: status and controls, all its pages (virtualized), exports; live while it runs
 * - `#/new?...`     the start view ("Crawl from here"): topic and seeds editable before the start
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { mergeResults } from '../../lib/app/view/results';
import { parseStartHash } from '../../lib/app/view/start-draft';
import { EXPORT_FORMATS, exportCrawlStream, type ExportFormat } from '../../lib/app/export/index';
import { type CrawlSnapshot, MAX_WINDOW, type StrategyDescription } from '../../lib/app/protocol';
import { oneLine } from '../../lib/app/text-safety';
import type { CrawlRecord, CrawlSettings } from '../../lib/app/store/types';
import { errorMessage, type PageResult } from '../../lib/engine';
import { connectLive, formatElapsed, request, requestSiteAccess } from '../ui/api';
import { CrawlPanel, StartForm, VirtualResults } from '../ui/components';

const ROW_HEIGHT = 76;

const FORMAT_LABEL: Record<ExportFormat, string> = { json: 'JSON', csv: 'CSV', bookmarks: 'Bookmarks', markdown: 'Markdown' };

function useHash(): string {
  const [hash, setHash] = useState(location.hash || '#/');
  useEffect(() => {
    const on = () => setHash(location.hash || '#/');
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

async function allPages(id: string): Promise<PageResult[]> {
  const out: PageResult[] = [];
  for (let offset = 0; ; offset += MAX_WINDOW) {
    const chunk = await request({ type: 'forager/pages', id, offset, limit: MAX_WINDOW });
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
      <span class="muted">Export:</span>
      {EXPORT_FORMATS.map((f) => (
        <button
          key={f}
          type="button"
          data-testid={`export-${f}`}
          onClick={() => exportAndSave(f, record).then(setSaved, (e: unknown) => onError(errorMessage(e)))}
        >
          {FORMAT_LABEL[f]}
        </button>
      ))}
      {saved && (
        <span class="muted" data-testid="export-saved">
          Saved {saved}
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
        Rename
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
        aria-label="New name"
        onInput={(e) => setName(e.currentTarget.value)}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the user clicked Rename; focus belongs in it
        autoFocus
      />
      <button type="submit" data-testid="rename-save">
        Save
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  );
}

// ---------------------------------------------------------------- #/

function CrawlList() {
  const [crawls, setCrawls] = useState<CrawlRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const reload = () => request({ type: 'forager/list' }).then(setCrawls, (e: unknown) => setError(errorMessage(e)));
  useEffect(() => {
    void reload();
    return connectLive({ type: 'subscribe', limit: 0 }, (m) => {
      if (m.type === 'crawls-changed') void reload();
      else if (m.type === 'update') setCrawls((list) => list?.map((c) => (c.id === m.id ? m.record : c)) ?? list);
    });
  }, []);
  const act = (type: 'forager/resume' | 'forager/pause' | 'forager/stop' | 'forager/delete', id: string) => async () => {
    try {
      if (type === 'forager/resume' && !(await requestSiteAccess())) {
        setError('Forager needs access to all sites to fetch pages; without it the crawl cannot go on.');
        return;
      }
      await request({ type, id });
      setConfirming(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  if (!crawls) return <p class="muted">Loading…</p>;
  return (
    <section class="card">
      {error && (
        <p class="message error" role="alert" data-testid="list-error">
          {error}
        </p>
      )}
      {crawls.length === 0 ? (
        <p class="muted" data-testid="no-crawls">
          No crawls yet. Search the web, then click Forager in the toolbar; or right-click a page: Crawl from here.
        </p>
      ) : (
        <table class="crawls" data-testid="crawl-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Status</th>
              <th class="num">Pages</th>
              <th>Started</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {crawls.map((c) => (
              <tr key={c.id} data-testid="crawl-item" data-crawl-id={c.id} data-status={c.status}>
                <td class="name">
                  <a href={`#/crawl/${encodeURIComponent(c.id)}`} data-testid="crawl-open" title={oneLine(c.topic.keywords)}>
                    {oneLine(c.name)}
                  </a>
                </td>
                <td data-testid="crawl-item-status">{c.status}</td>
                <td class="num">{c.stats.pagesEvaluated}</td>
                <td>{new Date(c.createdAt).toLocaleString()}</td>
                <td>
                  <div class="actions">
                    <Rename record={c} onError={setError} />
                    {c.status === 'running' && (
                      <button type="button" data-testid="crawl-pause" onClick={act('forager/pause', c.id)}>
                        Pause
                      </button>
                    )}
                    {(c.status === 'paused' || c.status === 'stopped' || c.status === 'error') && (
                      <button type="button" data-testid="crawl-resume" onClick={act('forager/resume', c.id)}>
                        Resume
                      </button>
                    )}
                    {confirming === c.id ? (
                      <button
                        type="button"
                        class="danger"
                        data-testid="crawl-delete-confirm"
                        onClick={act('forager/delete', c.id)}
                      >
                        Really delete
                      </button>
                    ) : (
                      <button type="button" class="danger" data-testid="crawl-delete" onClick={() => setConfirming(c.id)}>
                        Delete
                      </button>
                    )}
                    <Exports record={c} onError={setError} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

// ---------------------------------------------------------------- #/crawl/<id>

function CrawlView({ id }: { id: string }) {
  const [snap, setSnap] = useState<CrawlSnapshot | null | 'loading'>('loading');
  const [pages, setPages] = useState<PageResult[]>([]);
  const [error, setError] = useState<string | null>(null);
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
  if (snap === 'loading') return <p class="muted">Loading…</p>;
  if (!snap)
    return (
      <p data-testid="crawl-missing">
        This crawl no longer exists. <a href="#/">All crawls</a>
      </p>
    );
  const r = snap.record;
  return (
    <section class="crawl-view" data-testid="crawl-view" data-crawl-id={r.id}>
      <div class="card">
        <CrawlPanel snapshot={snap} onError={setError}>
          <Rename record={r} onError={setError} />
        </CrawlPanel>
        <p class="muted">
          Topic: <b>{r.topic.keywords}</b> · {r.seeds.length} start page{r.seeds.length === 1 ? '' : 's'}
          {r.source.engine ? ` from ${r.source.engine}` : ''} · strategy {r.settings.strategy}
          {Object.entries(r.settings.params).map(([k, v]) => ` ${k}=${String(v)}`)} · mean score {r.stats.meanScore.toFixed(3)} ·
          elapsed {formatElapsed(r.stats.elapsedMs)}
        </p>
        <Exports record={r} onError={setError} />
        {error && (
          <p class="message error" role="alert" data-testid="crawl-view-error">
            {error}
          </p>
        )}
      </div>
      <p class="muted" data-testid="page-count">
        {pages.length} page{pages.length === 1 ? '' : 's'}, best first ({pages.filter((p) => !p.isSeed).length} fresh)
      </p>
      <VirtualResults pages={pages} topic={r.topic.keywords} language={r.topic.language} rowHeight={ROW_HEIGHT} />
    </section>
  );
}

// ---------------------------------------------------------------- #/new

function NewCrawl({ hash }: { hash: string }) {
  const draft = useMemo(() => parseStartHash(hash), [hash]);
  const [strategies, setStrategies] = useState<StrategyDescription[] | null>(null);
  const [defaults, setDefaults] = useState<CrawlSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([request({ type: 'forager/strategies' }), request({ type: 'forager/defaults' })]).then(
      ([s, d]) => {
        setStrategies(s);
        setDefaults(d);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  }, []);
  return (
    <section class="card" data-testid="new-crawl">
      <h2>New crawl</h2>
      <p class="muted">Check the topic and the start pages, then Crawl.</p>
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
          onStarted={(record) => (location.hash = `#/crawl/${encodeURIComponent(record.id)}`)}
        />
      )}
    </section>
  );
}

export function App() {
  const hash = useHash();
  let view: preact.JSX.Element;
  if (hash.startsWith('#/new')) view = <NewCrawl hash={hash} />;
  else if (hash.startsWith('#/crawl/')) view = <CrawlView id={decodeURIComponent(hash.slice('#/crawl/'.length))} />;
  else view = <CrawlList />;
  return (
    <main class="page" data-testid="results-page">
      <header>
        <h1>
          <img src="/icon/48.png" alt="" /> Forager
        </h1>
        <nav>
          <a href="#/" data-testid="nav-crawls">
            All crawls
          </a>
        </nav>
      </header>
      {view}
    </main>
  );
}

/**
 * Preact components shared by the popup and the results page. Page content (titles, snippets, URLs) is hostile
 * input: it is only ever rendered as text nodes (Preact escapes strings), without control or bidi-override
 * characters (oneLine, lib/app/text-safety); highlighting builds <mark> elements from segments, never HTML strings. Stable data-testid attributes are the contract with the end-to-end tests
 * (entrypoints/README.md lists them).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { MAX_TOPIC_LENGTH, SETTING_BOUNDS } from '../../lib/app/settings';
import { oneLine } from '../../lib/app/text-safety';
import { highlightSegments, highlightTerms } from '../../lib/app/view/highlight';
import type { StartDraft } from '../../lib/app/view/start-draft';
import type { CrawlSnapshot, StrategyDescription } from '../../lib/app/protocol';
import { privateSeedHosts, type PrivateSeedHost } from '../../lib/app/settings';
import type { CrawlRecord, CrawlSettings } from '../../lib/app/store/types';
import { errorMessage, type PageResult } from '../../lib/engine';
import { formatElapsed, request, requestSiteAccess } from './api';

// ---------------------------------------------------------------- results

/** Text with the topic's words in <mark>. */
export function Highlighted({ text, terms }: { text: string; terms: Set<string> }) {
  const segments = useMemo(() => highlightSegments(text, terms), [text, terms]);
  return <>{segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : s.text))}</>;
}

const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

function shortDate(value: string | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toLocaleDateString() : null;
}

/**
 * One result, fixed height (set by the list), so rows never change size as results stream in. Everything but the rank
 * depends on the page alone and is kept from one render to the next (same page object, same vnodes: Preact skips them),
 * so a list update re-renders only rows whose page changed, plus the rank of rows that moved.
 */
export function ResultRow({ page, terms, rank }: { page: PageResult; terms: Set<string>; rank: number }) {
  const title = useMemo(
    () => (
      <>
        <a
          class="title"
          href={safeHref(page.url)}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="result-link"
          title={oneLine(page.title) || oneLine(page.url)}
        >
          <Highlighted text={page.title || page.url} terms={terms} />
        </a>
        {!page.isSeed && (
          <span class="badge" data-testid="fresh-badge" title="Not among the search results: found by the crawl">
            fresh
          </span>
        )}
      </>
    ),
    [page, terms],
  );
  const body = useMemo(() => {
    const modified = shortDate(page.lastModified);
    const pct = Math.round(Math.max(0, Math.min(1, page.score)) * 100);
    return (
      <>
        <div class="row-meta">
          <span class="score" title={`score ${page.score.toFixed(3)}`}>
            {/* biome-ignore lint/a11y/useSemanticElements: a styled bar; <meter> cannot be styled alike in both browsers */}
            <span
              class="score-bar"
              role="meter"
              aria-label="score"
              aria-valuemin={0}
              aria-valuemax={1}
              aria-valuenow={page.score}
            >
              <span style={{ width: `${pct}%` }} />
            </span>
            <span class="score-num" data-testid="result-score">
              {page.score.toFixed(2)}
            </span>
          </span>
          <span class="url" data-testid="result-url">
            {oneLine(page.url)}
          </span>
          {modified && (
            <span class="modified" data-testid="result-modified" title={`Last-Modified: ${page.lastModified}`}>
              {modified}
            </span>
          )}
        </div>
        <div class="snippet" data-testid="result-snippet">
          <Highlighted text={page.snippet} terms={terms} />
        </div>
      </>
    );
  }, [page, terms]);
  return (
    <div
      class="row"
      data-testid="result-row"
      data-url={page.url}
      data-fresh={page.isSeed ? 'false' : 'true'}
      data-score={page.score.toFixed(4)}
    >
      <div class="row-head">
        <span class="rank">{rank}</span>
        {title}
      </div>
      {body}
    </div>
  );
}

/** A capped list (the popup): the first `limit` rows, no virtualization needed. */
export function ResultList({
  pages,
  topic,
  language,
  limit,
}: {
  pages: PageResult[];
  topic: string;
  language?: string;
  limit: number;
}) {
  const terms = useMemo(() => highlightTerms(topic, language), [topic, language]);
  const shown = pages.length > limit ? pages.slice(0, limit) : pages;
  if (shown.length === 0)
    return (
      <p class="empty" data-testid="results-empty">
        No pages yet.
      </p>
    );
  return (
    <ol class="results" data-testid="results">
      {shown.map((p, i) => (
        <li key={p.url}>
          <ResultRow page={p} terms={terms} rank={i + 1} />
        </li>
      ))}
    </ol>
  );
}

/**
 * A windowed list for thousands of rows: only the rows in view (plus a margin) exist in the DOM; rows have one fixed
 * height, so positions are arithmetic and the scroll height is exact.
 */
export function VirtualResults({
  pages,
  topic,
  language,
  rowHeight,
}: {
  pages: PageResult[];
  topic: string;
  language?: string;
  rowHeight: number;
}) {
  const terms = useMemo(() => highlightTerms(topic, language), [topic, language]);
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight || 800 });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const overscan = 8;
  const first = Math.max(0, Math.floor(view.top / rowHeight) - overscan);
  const last = Math.min(pages.length, Math.ceil((view.top + view.height) / rowHeight) + overscan);
  const rows = [];
  for (let i = first; i < last; i++) {
    const p = pages[i];
    rows.push(
      <li key={p.url} style={{ top: `${i * rowHeight}px`, height: `${rowHeight}px` }}>
        <ResultRow page={p} terms={terms} rank={i + 1} />
      </li>,
    );
  }
  return (
    <div
      class="vlist"
      ref={box}
      data-testid="results-scroller"
      onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
    >
      {pages.length === 0 ? (
        <p class="empty" data-testid="results-empty">
          No pages yet.
        </p>
      ) : (
        <ol
          class="results virtual"
          data-testid="results"
          data-count={pages.length}
          style={{ height: `${pages.length * rowHeight}px` }}
        >
          {rows}
        </ol>
      )}
    </div>
  );
}

// ---------------------------------------------------------------- crawl status and controls

const STATUS_TEXT: Record<CrawlRecord['status'], string> = {
  running: 'Running',
  paused: 'Paused',
  stopped: 'Stopped',
  done: 'Finished',
  error: 'Failed',
};

/** Elapsed time that keeps ticking between updates while the crawl runs. */
function useElapsed(record: CrawlRecord): number {
  const [now, setNow] = useState(Date.now());
  const received = useMemo(() => Date.now(), [record]);
  useEffect(() => {
    if (record.status !== 'running') return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [record.status]);
  return record.stats.elapsedMs + (record.status === 'running' ? Math.max(0, now - received) : 0);
}

/** Progress, counters and Pause / Resume / Stop for one crawl. */
export function CrawlPanel({
  snapshot,
  onError,
  children,
}: {
  snapshot: CrawlSnapshot;
  onError(message: string): void;
  children?: ComponentChildren;
}) {
  const { record } = snapshot;
  const s = record.stats;
  const elapsed = useElapsed(record);
  const [busy, setBusy] = useState(false);
  const pct = s.maxPages > 0 ? Math.min(100, (s.pagesEvaluated / s.maxPages) * 100) : 0;
  const act = (type: 'forager/pause' | 'forager/resume' | 'forager/stop') => async () => {
    setBusy(true);
    try {
      if (type === 'forager/resume' && !(await requestSiteAccess())) {
        onError('Forager needs access to all sites to fetch pages; without it the crawl cannot go on.');
        return;
      }
      await request({ type, id: record.id });
    } catch (error) {
      onError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const running = record.status === 'running';
  const resumable = record.status === 'paused' || record.status === 'stopped' || record.status === 'error';
  return (
    <section class="panel" data-testid="crawl-panel" data-crawl-id={record.id} data-status={record.status}>
      <div class="panel-head">
        <h2 class="crawl-name" data-testid="crawl-name" title={oneLine(record.topic.keywords)}>
          {oneLine(record.name)}
        </h2>
        <span class={`status status-${record.status}`} data-testid="crawl-status">
          {STATUS_TEXT[record.status]}
        </span>
      </div>
      <div
        class="progress"
        role="progressbar"
        aria-label="pages evaluated"
        aria-valuemin={0}
        aria-valuemax={s.maxPages}
        aria-valuenow={s.pagesEvaluated}
        data-testid="progress"
      >
        {/* Scaled, not resized: no layout when it moves. */}
        <span style={{ transform: `scaleX(${pct / 100})` }} />
      </div>
      <dl class="stats">
        <div>
          <dt>Pages</dt>
          <dd data-testid="stat-pages">
            {s.pagesEvaluated} / {s.maxPages}
          </dd>
        </div>
        <div>
          <dt>Frontier</dt>
          <dd data-testid="stat-frontier">{s.frontierSize}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-testid="stat-errors">{s.errors}</dd>
        </div>
        <div>
          <dt>Elapsed</dt>
          <dd data-testid="stat-elapsed">{formatElapsed(elapsed)}</dd>
        </div>
      </dl>
      {record.status === 'error' && record.error && (
        <p class="message error" role="alert" data-testid="crawl-error">
          {record.error}
        </p>
      )}
      <div class="controls">
        <button type="button" data-testid="pause" disabled={busy || !running} onClick={act('forager/pause')}>
          Pause
        </button>
        <button type="button" data-testid="resume" disabled={busy || !resumable} onClick={act('forager/resume')}>
          Resume
        </button>
        <button
          type="button"
          data-testid="stop"
          disabled={busy || !(running || record.status === 'paused')}
          onClick={act('forager/stop')}
        >
          Stop
        </button>
        {children}
      </div>
    </section>
  );
}

// ---------------------------------------------------------------- start form

function NumberField(props: {
  label: string;
  value: number;
  min?: number;
  max?: number;
  step?: number | 'any';
  testid: string;
  title?: string;
  onInput(v: number): void;
}) {
  return (
    <label class="field" title={props.title}>
      <span>{props.label}</span>
      <input
        type="number"
        inputMode="numeric"
        value={props.value}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        data-testid={props.testid}
        onInput={(e) => {
          const v = Number(e.currentTarget.value);
          if (Number.isFinite(v)) props.onInput(v);
        }}
      />
    </label>
  );
}

/**
 * Number fields for a strategy's numeric parameters. Greediness (`n`) stays in reach; the rest sit under Advanced.
 * Non-integer parameters get step "any": with the default step of 1 the browser would refuse to submit 0.5.
 */
function paramFields(
  strategy: StrategyDescription | undefined,
  settings: CrawlSettings,
  setParam: (name: string, value: number) => void,
  which: (p: StrategyDescription['params'][number]) => boolean,
) {
  return strategy?.params
    .filter((p) => typeof p.default === 'number' && which(p))
    .map((p) => (
      <NumberField
        key={p.name}
        label={p.label}
        title={p.description}
        value={Number(settings.params[p.name] ?? p.default)}
        min={p.min}
        max={p.max}
        step={p.integer ? 1 : 'any'}
        testid={`param-${p.name}`}
        onInput={(v) => setParam(p.name, v)}
      />
    ));
}

const PRIVATE_KIND_LABEL: Record<PrivateSeedHost['kind'], string> = {
  loopback: 'this computer',
  private: 'your network',
  'link-local': 'link-local (your network)',
  metadata: 'cloud metadata: never crawled',
};

/**
 * The start pages on the user's own network or computer: listed, unticked, and crawled only when ticked (a results
 * page can list any address, the user's router included). Metadata addresses are shown but cannot be ticked.
 */
function PrivateHostsField(props: { seeds: string[]; ticked: string[]; onChange(hosts: string[]): void }) {
  const hosts = useMemo(() => privateSeedHosts(props.seeds), [props.seeds.join('\n')]);
  if (hosts.length === 0) return null;
  const toggle = (host: string, on: boolean) =>
    props.onChange(on ? [...props.ticked.filter((h) => h !== host), host] : props.ticked.filter((h) => h !== host));
  return (
    <fieldset class="private-hosts" data-testid="private-hosts">
      <legend>Not on the public web</legend>
      <p class="muted">
        {hosts.length === 1 ? 'This start page is' : 'These start pages are'} on your own network or computer. Forager fetches
        only the ones you tick: a web page can list any address, your router's included.
      </p>
      <ul>
        {hosts.map((h) => (
          <li key={h.host}>
            <label class="check">
              <input
                type="checkbox"
                data-testid="private-host"
                data-host={h.host}
                data-kind={h.kind}
                disabled={!h.tickable}
                checked={h.tickable && props.ticked.includes(h.host)}
                onChange={(e) => toggle(h.host, e.currentTarget.checked)}
              />
              <span class="host">{h.host}</span> <span class="muted">({PRIVATE_KIND_LABEL[h.kind]})</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** The settings and the Crawl button. `editableSeeds` shows the seeds as a textarea (start view); else a count and a list. */
export function StartForm(props: {
  draft: StartDraft;
  strategies: StrategyDescription[];
  defaults: CrawlSettings;
  editableSeeds: boolean;
  /** e.g. "10 results among 143 links" */
  seedNote?: string;
  onStarted(record: CrawlRecord): void;
}) {
  const [topic, setTopic] = useState(props.draft.topic);
  const [seedText, setSeedText] = useState(props.draft.seeds.join('\n'));
  const [settings, setSettings] = useState<CrawlSettings>(() => ({ ...props.defaults, params: { ...props.defaults.params } }));
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [allLanguages, setAllLanguages] = useState(false);
  const strategy = props.strategies.find((s) => s.name === settings.strategy) ?? props.strategies[0];
  const seeds = props.editableSeeds
    ? seedText
        .split(/\s+/)
        .map((s) => s.trim())
        .filter(Boolean)
    : props.draft.seeds;
  const set = (patch: Partial<CrawlSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const setParam = (name: string, value: number | string | boolean) =>
    setSettings((s) => ({ ...s, params: { ...s.params, [name]: value } }));

  const start = async (event: Event) => {
    event.preventDefault();
    // First thing in the click: the permission prompt needs the user gesture (an await before it would lose it).
    const access = requestSiteAccess();
    setBusy(true);
    setMessage(null);
    try {
      if (!(await access)) {
        setMessage(
          'Forager needs access to all sites to fetch the pages it crawls. Without it, it cannot crawl. Click Crawl again to allow it.',
        );
        return;
      }
      const record = await request({
        type: 'forager/start',
        start: {
          topic,
          seeds,
          source: props.draft.source,
          settings,
          context: props.draft.context,
          ...(props.draft.pageLang ? { pageLang: props.draft.pageLang } : {}),
          ...(allLanguages ? { allLanguages: true } : {}),
        },
      });
      props.onStarted(record);
    } catch (error) {
      setMessage(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="start" data-testid="start-form" onSubmit={start}>
      <label class="field wide">
        <span>Topic</span>
        <input
          type="text"
          value={topic}
          data-testid="topic"
          required
          maxLength={MAX_TOPIC_LENGTH}
          onInput={(e) => setTopic(e.currentTarget.value)}
        />
      </label>
      {props.editableSeeds ? (
        <label class="field wide">
          <span>Start pages (one URL per line)</span>
          <textarea rows={4} value={seedText} data-testid="seeds" onInput={(e) => setSeedText(e.currentTarget.value)} />
        </label>
      ) : (
        <details class="seeds">
          <summary data-testid="seed-count">
            {seeds.length} result link{seeds.length === 1 ? '' : 's'}
            {props.seedNote ? ` ${props.seedNote}` : ''}
          </summary>
          <ol data-testid="seed-list">
            {seeds.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </details>
      )}
      <PrivateHostsField seeds={seeds} ticked={settings.privateHosts ?? []} onChange={(privateHosts) => set({ privateHosts })} />
      <div class="row-fields">
        {paramFields(strategy, settings, setParam, (p) => p.name === 'n')}
        <NumberField
          label="Page budget"
          value={settings.maxPages}
          min={SETTING_BOUNDS.maxPages.min}
          max={SETTING_BOUNDS.maxPages.max}
          testid="max-pages"
          onInput={(v) => set({ maxPages: v })}
        />
      </div>
      <details class="advanced" data-testid="advanced">
        <summary>Advanced</summary>
        <label class="field">
          <span>Strategy</span>
          <select
            value={settings.strategy}
            data-testid="strategy"
            onChange={(e) => set({ strategy: e.currentTarget.value, params: {} })}
          >
            {props.strategies.map((s) => (
              <option key={s.name} value={s.name} title={s.description}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <div class="row-fields">{paramFields(strategy, settings, setParam, (p) => p.name !== 'n')}</div>
        <div class="row-fields">
          <NumberField
            label="Frontier size"
            value={settings.maxBuffer}
            min={SETTING_BOUNDS.maxBuffer.min}
            max={SETTING_BOUNDS.maxBuffer.max}
            testid="max-buffer"
            onInput={(v) => set({ maxBuffer: v })}
          />
          <NumberField
            label="Politeness delay (ms)"
            value={settings.politenessDelayMs}
            min={SETTING_BOUNDS.politenessDelayMs.min}
            max={SETTING_BOUNDS.politenessDelayMs.max}
            step={100}
            testid="politeness"
            onInput={(v) => set({ politenessDelayMs: v })}
          />
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={settings.stayOnSeedSites}
            data-testid="stay-on-sites"
            onChange={(e) => set({ stayOnSeedSites: e.currentTarget.checked })}
          />
          Stay on the results' sites
        </label>
        <label class="check" title="Otherwise pages in another language than the topic's score low">
          <input
            type="checkbox"
            checked={allLanguages}
            data-testid="all-languages"
            onChange={(e) => setAllLanguages(e.currentTarget.checked)}
          />
          Pages in any language
        </label>
      </details>
      <div class="controls">
        <button type="submit" class="primary" data-testid="crawl-button" disabled={busy || seeds.length === 0 || !topic.trim()}>
          Crawl
        </button>
      </div>
      {message && (
        <p class="message error" role="alert" data-testid="start-message">
          {message}
        </p>
      )}
    </form>
  );
}

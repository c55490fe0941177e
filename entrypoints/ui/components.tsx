/**
 * Preact components shared by the popup and the results page. Page content (titles, snippets, URLs) is hostile
 * input: it is only ever rendered as text nodes (Preact escapes strings), without control or bidi-override
 * characters (oneLine, lib/app/rules/text-safety); highlighting builds <mark> elements from segments, never HTML strings.
 * Stable data-testid attributes are the contract with the end-to-end tests (entrypoints/README.md lists them).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import {
  applyPreset,
  type CrawlRecord,
  type CrawlSettings,
  type CrawlSnapshot,
  displayLocation,
  displayTitle,
  draftFromRecord,
  formatDate,
  highlightSegments,
  highlightTerms,
  markdownList,
  MAX_TOPIC_LENGTH,
  oneLine,
  pageDate,
  PRESET_NAMES,
  type PresetName,
  presetOf,
  PRESETS,
  type PrivateSeedHost,
  privateSeedHosts,
  type ResultCounts,
  SETTING_BOUNDS,
  type StartDraft,
  startHash,
  type StrategyDescription,
  timeLeft,
} from '../../lib/app';
import { errorMessage, type PageResult, type SkipRecord } from '../../lib/engine';
import { copyText, formatElapsed, openInBackground, openInGroup, openResultsPage, request, requestSiteAccess } from './api';
import { type MessageKey, t, tn } from './i18n';

// ---------------------------------------------------------------- results

/** Text with the topic's words in <mark>. */
export function Highlighted({ text, terms }: { text: string; terms: Set<string> }) {
  const segments = useMemo(() => highlightSegments(text, terms), [text, terms]);
  return <>{segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : s.text))}</>;
}

const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

const DATE_LABEL: Record<'published' | 'updated' | 'server', MessageKey> = {
  published: 'datePublished',
  updated: 'dateUpdated',
  server: 'dateServer',
};

/** "site › … › tail" */
export function Location({ url }: { url: string }) {
  const loc = useMemo(() => displayLocation(url), [url]);
  return (
    <span class="loc" data-testid="result-url" title={oneLine(url)}>
      <span class="site">{loc.site}</span>
      {loc.elided && <span class="sep"> › …</span>}
      {loc.tail && (
        <>
          <span class="sep"> › </span>
          <span class="tail">{loc.tail}</span>
        </>
      )}
    </span>
  );
}

/** A 16 px line icon (no icon font: every system draws it alike). */
export function Icon({ path }: { path: string }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={path} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

export interface RowActions {
  /** Hide this page from the list (kept in the crawl; the list offers "show hidden"). */
  onHide?(url: string): void;
  /** More of the row, under its text (the judgement buttons: entrypoints/ui/feedback.tsx). */
  extra?(page: PageResult): ComponentChildren;
}

/**
 * One result: title (two lines at most), location, snippet, date and "found via", and its actions. Everything depends
 * on the page alone and is kept from one render to the next (same page object, same vnodes: Preact skips them), so a
 * list update re-renders only rows whose page changed.
 */
export function ResultRow({
  page,
  terms,
  viaTitle,
  actions,
}: {
  page: PageResult;
  terms: Set<string>;
  /** The title of the page that led to this one, when the list holds it. */
  viaTitle?: string;
  actions?: RowActions;
}) {
  const [copied, setCopied] = useState(false);
  const body = useMemo(() => {
    const title = displayTitle(page);
    const date = pageDate(page);
    const via = page.from && safeHref(page.from) ? page.from : undefined;
    return (
      <>
        <div class="row-head">
          <a
            class="title"
            href={safeHref(page.url)}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="result-link"
            title={title}
          >
            <Highlighted text={title} terms={terms} />
          </a>
          {page.isSeed ? (
            <span class="badge search" data-testid="search-badge" title={t('searchBadgeTitle')}>
              {t('searchBadge')}
            </span>
          ) : (
            <span class="badge" data-testid="fresh-badge" title={t('newBadgeTitle')}>
              {t('newBadge')}
            </span>
          )}
        </div>
        <Location url={page.url} />
        <div class="snippet" data-testid="result-snippet">
          <Highlighted text={page.snippet} terms={terms} />
        </div>
        <div class="row-meta">
          {date && (
            <span class="date" data-testid="result-date" data-kind={date.kind} title={oneLine(date.raw)}>
              {t(DATE_LABEL[date.kind], formatDate(date.time))}
            </span>
          )}
          {via && (
            <span class="via" data-testid="result-via">
              {t('foundVia')}{' '}
              <a href={via} target="_blank" rel="noopener noreferrer" title={oneLine(via)}>
                {viaTitle ? oneLine(viaTitle) : displayLocation(via).site}
              </a>
            </span>
          )}
        </div>
      </>
    );
  }, [page, terms, viaTitle]);
  const href = safeHref(page.url);
  return (
    <div
      class="row"
      data-testid="result-row"
      data-url={page.url}
      data-fresh={page.isSeed ? 'false' : 'true'}
      data-score={page.score.toFixed(4)}
    >
      {body}
      {actions?.extra?.(page)}
      <div class="row-actions">
        <button
          type="button"
          class="icon"
          data-testid="open-background"
          disabled={!href}
          title={t('openInBackground')}
          aria-label={t('openInBackground')}
          onClick={() => href && void openInBackground([href])}
        >
          <Icon path="M14 3h7v7M21 3l-9 9M19 14v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h5" />
        </button>
        <button
          type="button"
          class="icon"
          data-testid="copy-link"
          title={copied ? t('copied') : t('copyLink')}
          aria-label={copied ? t('copied') : t('copyLink')}
          onClick={() =>
            void copyText(page.url).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            })
          }
        >
          <Icon path={copied ? 'M5 12l5 5L20 7' : 'M9 9h11v11H9zM5 15H4V4h11v1'} />
        </button>
        {actions?.onHide && (
          <button
            type="button"
            class="icon"
            data-testid="hide-result"
            title={t('hideResult')}
            aria-label={t('hideResult')}
            onClick={() => actions.onHide?.(page.url)}
          >
            <Icon path="M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c6 0 10 7 10 7a17 17 0 0 1-3.2 3.9M6.6 6.6C3.7 8.5 2 12 2 12s4 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2" />
          </button>
        )}
      </div>
    </div>
  );
}

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

// ---------------------------------------------------------------- crawl status and controls

const STATUS_KEY: Record<CrawlRecord['status'], MessageKey> = {
  running: 'statusRunning',
  paused: 'statusPaused',
  stopped: 'statusStopped',
  done: 'statusDone',
  error: 'statusError',
};

/** A crawl that ended without a single page: it failed, whatever its stored status says. */
export function fetchedNothing(record: CrawlRecord): boolean {
  return record.stats.pagesEvaluated === 0 && record.status !== 'running' && record.status !== 'paused';
}

/** The status chip's words. */
export function statusLabel(record: CrawlRecord): string {
  return fetchedNothing(record) ? t('statusNothing') : t(STATUS_KEY[record.status]);
}

/** The status as a chip. */
export function StatusChip({ record }: { record: CrawlRecord }) {
  const failed = fetchedNothing(record) || record.status === 'error';
  return (
    <span class={`status status-${failed ? 'error' : record.status}`} data-testid="crawl-status">
      {statusLabel(record)}
    </span>
  );
}

/** Elapsed time that keeps ticking between updates while the crawl runs. */
function useElapsed(record: CrawlRecord): number {
  const [now, setNow] = useState(Date.now());
  const received = useMemo(() => Date.now(), [record]);
  useEffect(() => {
    if (record.status !== 'running') return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [record.status]);
  return record.stats.elapsedMs + (record.status === 'running' ? Math.max(0, now - received) : 0);
}

/** "about 2 min left" */
function leftText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes < 1 ? t('lessThanMinuteLeft') : tn(minutes, 'minuteLeft', 'minutesLeft');
}

/**
 * The crawl's headline (new relevant pages, pages checked, time left), progress, and Pause / Resume / Stop. The
 * headline is a polite live region: screen readers hear the count as it grows, and the end.
 */
export function CrawlPanel({
  snapshot,
  counts,
  onError,
  onShowSkips,
  children,
}: {
  snapshot: CrawlSnapshot;
  counts: ResultCounts;
  onError(message: string): void;
  /** Errors opens the list of skipped pages. */
  onShowSkips?(): void;
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
        onError(t('needSiteAccessResume'));
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
  const left = running ? timeLeft({ ...s, elapsedMs: elapsed }) : null;
  return (
    <section class="panel" data-testid="crawl-panel" data-crawl-id={record.id} data-status={record.status}>
      <div class="panel-head">
        <h2 class="crawl-name" data-testid="crawl-name" title={oneLine(record.topic.keywords)}>
          {oneLine(record.name)}
        </h2>
        <StatusChip record={record} />
      </div>
      <p class="headline" aria-live="polite" data-testid="headline">
        <strong data-testid="new-count">{tn(counts.newRelevant, 'newRelevantOne', 'newRelevant')}</strong>
        <span class="muted">
          {' · '}
          <span data-testid="stat-pages">{t('pagesChecked', s.pagesEvaluated, s.maxPages)}</span>
          {left !== null && ` · ${leftText(left)}`}
        </span>
      </p>
      <div
        class="progress"
        role="progressbar"
        aria-label={t('pagesCheckedLabel')}
        aria-valuemin={0}
        aria-valuemax={s.maxPages}
        aria-valuenow={s.pagesEvaluated}
        data-testid="progress"
      >
        {/* Scaled, not resized: no layout when it moves. */}
        <span style={{ transform: `scaleX(${pct / 100})` }} />
      </div>
      {record.status === 'error' && record.error && (
        <p class="message error" role="alert" data-testid="crawl-error">
          {record.error}
        </p>
      )}
      <div class="controls small">
        {/* All three always there, the ones that do not apply hidden and disabled: focus order never shifts. */}
        <button type="button" data-testid="pause" hidden={!running} disabled={busy || !running} onClick={act('forager/pause')}>
          {t('pause')}
        </button>
        <button
          type="button"
          data-testid="resume"
          hidden={!resumable}
          disabled={busy || !resumable}
          onClick={act('forager/resume')}
        >
          {t('resume')}
        </button>
        <button
          type="button"
          data-testid="stop"
          hidden={!(running || record.status === 'paused')}
          disabled={busy || !(running || record.status === 'paused')}
          onClick={act('forager/stop')}
        >
          {t('stop')}
        </button>
        <span class="muted stat">
          <span data-testid="stat-elapsed">{formatElapsed(elapsed)}</span>
          {s.errors > 0 && (
            <>
              {' · '}
              {onShowSkips ? (
                <button type="button" class="link" data-testid="stat-errors" onClick={onShowSkips}>
                  {tn(s.errors, 'skippedOne', 'skipped')}
                </button>
              ) : (
                <span data-testid="stat-errors">{tn(s.errors, 'skippedOne', 'skipped')}</span>
              )}
            </>
          )}
        </span>
        {children}
      </div>
    </section>
  );
}

// ---------------------------------------------------------------- failure and skips

const SKIP_KEY: Record<SkipRecord['reason'], MessageKey> = {
  'url-refused': 'skipUrlRefused',
  robots: 'skipRobots',
  'http-error': 'skipHttpError',
  'not-html': 'skipNotHtml',
  timeout: 'skipTimeout',
  network: 'skipNetwork',
  redirect: 'skipRedirect',
  aborted: 'skipAborted',
  evaluation: 'skipEvaluation',
};

/** A skip in plain words: "could not connect (ECONNREFUSED)". */
export function skipText(skip: SkipRecord): string {
  return `${t(SKIP_KEY[skip.reason] ?? 'skipNetwork')} (${oneLine(skip.detail)})`;
}

/** The skipped pages, oldest first. */
export function SkipList({ skips }: { skips: SkipRecord[] }) {
  if (skips.length === 0) return <p class="muted">{t('noSkips')}</p>;
  return (
    <ul class="skips" data-testid="skip-list">
      {skips.map((s) => (
        <li key={s.url} data-testid="skip-item" data-reason={s.reason}>
          <Location url={s.url} /> <span class="muted">{skipText(s)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The reason per start page of a crawl that fetched nothing, with Retry and Edit. */
export function FailureNotice({ record, onError }: { record: CrawlRecord; onError(message: string): void }) {
  const [skips, setSkips] = useState<SkipRecord[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    request({ type: 'forager/skips', id: record.id, limit: 500 }).then(setSkips, () => setSkips([]));
  }, [record.id, record.updatedAt]);
  const bySeed = useMemo(() => {
    const found = new Map<string, SkipRecord>();
    for (const s of skips ?? []) if (!found.has(s.url)) found.set(s.url, s);
    return record.seeds.map((seed) => ({ seed, skip: found.get(seed) }));
  }, [skips, record.seeds]);
  const retry = async () => {
    const access = requestSiteAccess();
    setBusy(true);
    try {
      if (!(await access)) return onError(t('needSiteAccess'));
      const draft = draftFromRecord(record);
      await request({
        type: 'forager/start',
        start: {
          topic: draft.topic,
          seeds: draft.seeds,
          source: record.source,
          settings: record.settings,
          context: draft.context,
        },
      });
    } catch (error) {
      onError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="failure" role="alert" data-testid="crawl-failure">
      <h3>{t('failureTitle')}</h3>
      <ul class="skips">
        {bySeed.map(({ seed, skip }) => (
          <li key={seed} data-testid="failure-reason" data-reason={skip?.reason ?? ''}>
            <Location url={seed} /> <span class="muted">{skip ? skipText(skip) : t('skipUnknown')}</span>
          </li>
        ))}
      </ul>
      <div class="controls">
        <button type="button" class="primary" data-testid="retry" disabled={busy} onClick={() => void retry()}>
          {t('retry')}
        </button>
        <button type="button" data-testid="edit" onClick={() => openResultsPage(startHash(draftFromRecord(record)))}>
          {t('edit')}
        </button>
      </div>
    </section>
  );
}

// ---------------------------------------------------------------- list actions

/** Open the top 10 in background tabs (in a tab group where the browser has them); copy the list as Markdown. */
export function ListActions({ pages, children }: { pages: PageResult[]; children?: ComponentChildren }) {
  const [copied, setCopied] = useState(false);
  const top = pages.slice(0, 10);
  return (
    <div class="list-actions">
      <button
        type="button"
        data-testid="open-top"
        disabled={top.length === 0}
        onClick={() => void openInGroup(top.map((p) => p.url).filter((u) => safeHref(u)))}
      >
        {t('openTop', top.length)}
      </button>
      <button
        type="button"
        data-testid="copy-markdown"
        disabled={pages.length === 0}
        onClick={() =>
          void copyText(markdownList(pages)).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          })
        }
      >
        {copied ? t('copied') : t('copyMarkdown')}
      </button>
      {children}
    </div>
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

const PRESET_KEY: Record<PresetName, MessageKey> = { quick: 'presetQuick', standard: 'presetStandard', deep: 'presetDeep' };

const PRIVATE_KIND_LABEL: Record<PrivateSeedHost['kind'], MessageKey> = {
  loopback: 'privateKindLoopback',
  private: 'privateKindPrivate',
  'link-local': 'privateKindLinkLocal',
  metadata: 'privateKindMetadata',
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
      <legend>{t('privateHostsLegend')}</legend>
      <p class="muted">{hosts.length === 1 ? t('privateHostsNoteOne') : t('privateHostsNote')}</p>
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
              <span class="host">{h.host}</span> <span class="muted">({t(PRIVATE_KIND_LABEL[h.kind])})</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/**
 * The topic, the start pages, how far (Quick / Standard / Deep) and the main button. The strategy and its parameters
 * are the user's defaults (options page); "More settings" holds the few a crawl may want changed.
 * `editableSeeds` shows the seeds as a textarea (start view); else a summary and a list of titles.
 */
export function StartForm(props: {
  draft: StartDraft;
  strategies: StrategyDescription[];
  defaults: CrawlSettings;
  editableSeeds: boolean;
  /** e.g. "on this Bing page" */
  seedNote?: string;
  /** Titles of the seeds, when known (a results page gives them). */
  seedTitles?: Record<string, string>;
  /** Another crawl runs: starting is refused up front, not after the form is filled. */
  busyWith?: string | null;
  onStarted(record: CrawlRecord): void;
}) {
  const [topic, setTopic] = useState(props.draft.topic);
  const [seedText, setSeedText] = useState(props.draft.seeds.join('\n'));
  const [settings, setSettings] = useState<CrawlSettings>(() => ({ ...props.defaults, params: { ...props.defaults.params } }));
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [allLanguages, setAllLanguages] = useState(false);
  const seeds = props.editableSeeds
    ? seedText
        .split(/\s+/)
        .map((s) => s.trim())
        .filter(Boolean)
    : props.draft.seeds;
  const set = (patch: Partial<CrawlSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const preset = presetOf(settings.maxPages);
  const strategy = props.strategies.find((s) => s.name === settings.strategy);

  const start = async (event: Event) => {
    event.preventDefault();
    // First thing in the click: the permission prompt needs the user gesture (an await before it would lose it).
    const access = requestSiteAccess();
    setBusy(true);
    setMessage(null);
    try {
      if (!(await access)) {
        setMessage(t('needSiteAccess'));
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
        <span>{t('topicLabel')}</span>
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
          <span>{t('seedsLabel')}</span>
          <textarea rows={4} value={seedText} data-testid="seeds" onInput={(e) => setSeedText(e.currentTarget.value)} />
        </label>
      ) : (
        <details class="seeds">
          <summary data-testid="seed-count">
            {tn(seeds.length, 'startPagesOne', 'startPages')}
            {props.seedNote ? ` ${props.seedNote}` : ''}
          </summary>
          <ol data-testid="seed-list">
            {seeds.map((s) => (
              <li key={s} data-url={s}>
                <span class="seed-title">{oneLine(props.seedTitles?.[s] ?? '') || displayLocation(s).site}</span>{' '}
                <Location url={s} />
              </li>
            ))}
          </ol>
        </details>
      )}
      <fieldset class="presets" data-testid="depth">
        <legend>{t('depthLabel')}</legend>
        {PRESET_NAMES.map((p) => (
          <label key={p} class={preset === p ? 'preset on' : 'preset'}>
            <input
              type="radio"
              name="depth"
              value={p}
              checked={preset === p}
              data-testid={`preset-${p}`}
              onChange={() => setSettings((s) => applyPreset(s, p))}
            />
            <span class="preset-name">{t(PRESET_KEY[p])}</span>
            <span class="preset-pages">{t('presetPages', PRESETS[p].maxPages)}</span>
          </label>
        ))}
      </fieldset>
      <PrivateHostsField seeds={seeds} ticked={settings.privateHosts ?? []} onChange={(privateHosts) => set({ privateHosts })} />
      {props.busyWith ? (
        <p class="note" data-testid="crawl-busy">
          {t('crawlBusy', oneLine(props.busyWith))}
        </p>
      ) : null}
      <button
        type="submit"
        class="primary big"
        data-testid="crawl-button"
        disabled={busy || !!props.busyWith || seeds.length === 0 || !topic.trim()}
      >
        {t('findMore')}
      </button>
      {message && (
        <p class="message error" role="alert" data-testid="start-message">
          {message}
        </p>
      )}
      <details class="advanced" data-testid="advanced">
        <summary>{t('moreSettings')}</summary>
        <div class="row-fields">
          <NumberField
            label={t('pageBudget')}
            value={settings.maxPages}
            min={SETTING_BOUNDS.maxPages.min}
            max={SETTING_BOUNDS.maxPages.max}
            testid="max-pages"
            onInput={(v) => set({ maxPages: v })}
          />
          <NumberField
            label={t('politeness')}
            title={t('politenessTitle')}
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
          {t('stayOnSites')}
        </label>
        <label class="check" title={t('allLanguagesTitle')}>
          <input
            type="checkbox"
            checked={allLanguages}
            data-testid="all-languages"
            onChange={(e) => setAllLanguages(e.currentTarget.checked)}
          />
          {t('allLanguages')}
        </label>
        <p class="muted small-text" data-testid="strategy-note">
          {t('strategyNote', strategy?.label ?? settings.strategy)}{' '}
          <button type="button" class="link" data-testid="open-options" onClick={() => void browser.runtime.openOptionsPage()}>
            {t('openOptions')}
          </button>
        </p>
      </details>
    </form>
  );
}

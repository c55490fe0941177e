import { parseHTML } from 'linkedom';
import { h, render } from 'preact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlSnapshot, TabContext } from '../../lib/app/model/protocol';
import type { CrawlRecord } from '../../lib/app/model/records';
import type { PageResult } from '../../lib/engine/types';

// Preact renders through the global document; linkedom provides one under Node.
const { document, window } = parseHTML('<!doctype html><html><body><div id="root"></div></body></html>');
const saved: Record<string, unknown> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries({ document, window, Node: window.Node, Element: window.Element })) {
    saved[k] = (globalThis as Record<string, unknown>)[k];
    (globalThis as Record<string, unknown>)[k] = v;
  }
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) (globalThis as Record<string, unknown>)[k] = v;
});

const hostile: PageResult = {
  url: 'https://evil.example.com/<img src=x onerror=alert(1)>',
  title: '<script>alert("coffee")</script><b>Coffee</b> brewing',
  snippet: '<img src=x onerror="alert(2)"> the best coffee <iframe src="javascript:alert(3)"></iframe>',
  score: 0.73,
  depth: 2,
  fetchedAt: 0,
  isSeed: false,
  lastModified: 'Tue, 01 Apr 2025 10:00:00 GMT',
};

describe('library search hits', () => {
  it('renders hostile hits as text only; a non-web URL is never a link', async () => {
    const { LibraryHits } = await import('../../entrypoints/library/library-hits');
    const root = document.getElementById('root')!;
    const hit = {
      crawlId: 'c1',
      url: hostile.url,
      title: `${hostile.title}\u202Egnp.exe`,
      snippet: hostile.snippet,
      pageScore: 0.5,
      fetchedAt: 0,
      rank: 3,
    };
    render(
      h(LibraryHits, {
        hits: [hit, { ...hit, url: 'javascript:alert(5)' }],
        crawlNames: new Map([['c1', 'Coffee <b>crawl</b>']]),
      }),
      root as unknown as Element,
    );
    expect(root.querySelectorAll('script, img, iframe, b').length).toBe(0);
    const items = root.querySelectorAll('li');
    expect(items.length).toBe(2);
    expect(items[0].querySelector('a')!.textContent).toBe(`${hostile.title}gnp.exe`);
    expect(items[0].querySelector('a')!.getAttribute('rel')).toContain('noopener');
    expect(items[1].querySelector('a')).toBeNull();
    expect(root.textContent).toContain('Coffee <b>crawl</b>');
    render(null, root as unknown as Element);
  });
});

describe('result rendering', () => {
  it('renders hostile titles and snippets as text only, with <mark> for topic words', async () => {
    const { ResultList } = await import('../../entrypoints/ui/result-list');
    const root = document.getElementById('root')!;
    render(
      h(ResultList, {
        pages: [hostile, { ...hostile, url: 'javascript:alert(4)', isSeed: true }],
        topic: 'coffee brewing',
        limit: 50,
      }),
      root as unknown as Element,
    );
    expect(root.querySelectorAll('script, img, iframe, b').length).toBe(0);
    const rows = root.querySelectorAll('[data-testid=result-row]');
    expect(rows.length).toBe(2);
    const title = rows[0].querySelector('[data-testid=result-link]')!;
    expect(title.textContent).toBe(hostile.title);
    expect([...title.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['coffee', 'Coffee', 'brewing']);
    expect(rows[0].querySelector('[data-testid=result-snippet]')!.textContent).toBe(hostile.snippet);
    expect(rows[0].querySelector('[data-testid=fresh-badge]')).not.toBeNull();
    expect(rows[1].querySelector('[data-testid=fresh-badge]')).toBeNull();
    // A non-web URL never becomes a link target.
    expect(rows[1].querySelector('[data-testid=result-link]')!.getAttribute('href')).toBeNull();
    expect(rows[0].querySelector('[data-testid=result-link]')!.getAttribute('rel')).toContain('noopener');
    expect(rows[0].getAttribute('data-fresh')).toBe('true');
    render(null, root as unknown as Element);
  });

  it('shows no bidi override or control character of a title, snippet or URL', async () => {
    const { ResultList } = await import('../../entrypoints/ui/result-list');
    const root = document.getElementById('root')!;
    const spoof: PageResult = {
      ...hostile,
      url: 'https://example.com/\u202Efdp.exe',
      title: 'Coffee x\u202Egnp.exe \u2067iso\u2069 \u001b]0;owned\u0007done',
      snippet: 'best coffee \u202Dforced\u202C\u0000',
    };
    render(h(ResultList, { pages: [spoof], topic: 'coffee', limit: 5 }), root as unknown as Element);
    const text = root.textContent ?? '';
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be there
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u001b\u0007]/);
    const row = root.querySelector('[data-testid=result-row]')!;
    expect(row.querySelector('[data-testid=result-link]')!.textContent).toBe('Coffee xgnp.exe iso done');
    expect(row.querySelector('[data-testid=result-link]')!.getAttribute('title')).toBe('Coffee xgnp.exe iso done');
    expect(row.querySelector('[data-testid=result-snippet]')!.textContent).toBe('best coffee forced');
    render(null, root as unknown as Element);
  });
});

describe('crawl panel', () => {
  it('says which site a running crawl waits for and until when (local time), with Stop at hand', async () => {
    const { CrawlPanel } = await import('../../entrypoints/ui/crawl-panel');
    const { formatClockTime } = await import('../../lib/app/view/page-view');
    const root = document.getElementById('root')!;
    const until = Date.UTC(2030, 0, 7, 14, 5);
    const record = {
      id: 'c',
      name: 'coffee',
      topic: { keywords: 'coffee' },
      status: 'running',
      stats: {
        pagesEvaluated: 3,
        maxPages: 50,
        errors: 0,
        frontierSize: 9,
        fetchesInFlight: 0,
        elapsedMs: 5000,
        meanScore: 0.2,
        waiting: { site: 'https://www.slow.example', until },
      },
    } as unknown as CrawlRecord;
    const counts = { cut: 0.05, newRelevant: 1, lowRelevance: 0, fromSearch: 0 } as never;
    const snapshot: CrawlSnapshot = { record, top: [], pageCount: 3, active: true, scores: [] };
    render(h(CrawlPanel, { snapshot, counts, onError: () => {} }), root as unknown as Element);
    const waiting = root.querySelector('[data-testid="crawl-waiting"]')!;
    expect(waiting.textContent).toBe(`Waiting for slow.example until ${formatClockTime(until)}: the site asked for a pause`);
    expect(formatClockTime(until)).toMatch(/\d{1,2}.\d{2}/);
    expect(root.querySelector('[data-testid="stop"]')!.hasAttribute('hidden')).toBe(false);
    expect(root.querySelector('[data-testid="refused-hosts"]')).toBeNull();
    // Stopped: no wait is shown.
    render(
      h(CrawlPanel, { snapshot: { ...snapshot, record: { ...record, status: 'stopped' } }, counts, onError: () => {} }),
      root as unknown as Element,
    );
    expect(root.querySelector('[data-testid="crawl-waiting"]')).toBeNull();
    render(null, root as unknown as Element);
  });
});

describe('crawl panel: a watched crawl', () => {
  it("after a check the headline says what the check found, not the check's own page count; during one, its progress", async () => {
    const { CrawlPanel } = await import('../../entrypoints/ui/crawl-panel');
    const root = document.getElementById('root')!;
    const since = Date.UTC(2026, 2, 4, 12);
    const check = { startedAt: since + 1000, since, trigger: 'manual' };
    const record = {
      id: 'w',
      name: 'coffee',
      topic: { keywords: 'coffee' },
      status: 'done',
      stats: {
        pagesEvaluated: 40,
        maxPages: 40,
        errors: 0,
        frontierSize: 0,
        fetchesInFlight: 0,
        elapsedMs: 5000,
        meanScore: 0.2,
      },
      watch: { schedule: 'weekly', nextDueAt: 0, check: { ...check, endedAt: since + 2000, outcome: 'done', newPages: 37 } },
    } as unknown as CrawlRecord;
    const counts = { cut: 0.05, newRelevant: 43, lowRelevance: 0, fromSearch: 0 } as never;
    const snapshot: CrawlSnapshot = { record, top: [], pageCount: 80, active: false, scores: [] };
    render(h(CrawlPanel, { snapshot, counts, onError: () => {} }), root as unknown as Element);
    const headline = root.querySelector('[data-testid="headline"]')!;
    expect(headline.querySelector('[data-testid="stat-pages"]')).toBeNull();
    expect(headline.querySelector('[data-testid="watch-since"]')!.textContent).toMatch(/^37 new since /);
    // A check under way: its progress, no "new since" yet.
    const running = { ...record, status: 'running', watch: { ...record.watch!, check } } as CrawlRecord;
    render(h(CrawlPanel, { snapshot: { ...snapshot, record: running }, counts, onError: () => {} }), root as unknown as Element);
    expect(root.querySelector('[data-testid="stat-pages"]')!.textContent).toBe('40 of 40 pages checked');
    expect(root.querySelector('[data-testid="watch-since"]')).toBeNull();
    render(null, root as unknown as Element);
  });
});

describe('crawl panel: refused hosts', () => {
  it('counts them in the status, the hosts (as text) behind a disclosure', async () => {
    const { CrawlPanel } = await import('../../entrypoints/ui/crawl-panel');
    const root = document.getElementById('root')!;
    const record = {
      id: 'c',
      name: 'coffee',
      topic: { keywords: 'coffee' },
      status: 'done',
      stats: { pagesEvaluated: 9, maxPages: 50, errors: 0, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 5000, meanScore: 0.2 },
      refusedHosts: {
        privateAddress: 2,
        notContacted: 3,
        examples: [
          { host: '<b>router</b>.evil.example', detail: 'resolves to 192.168.1.1' },
          { host: 'nas.evil.example', detail: 'resolves to 10.0.0.2' },
        ],
      },
    } as unknown as CrawlRecord;
    const counts = { cut: 0.05, newRelevant: 1, lowRelevance: 0, fromSearch: 0 } as never;
    const snapshot: CrawlSnapshot = { record, top: [], pageCount: 9, active: false, scores: [] };
    render(h(CrawlPanel, { snapshot, counts, onError: () => {} }), root as unknown as Element);
    const details = root.querySelector('details[data-testid="refused-hosts"]')!;
    expect(details.hasAttribute('open')).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('5 hosts refused: they are on private networks');
    const items = [...details.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['<b>router</b>.evil.example resolves to 192.168.1.1', 'nas.evil.example resolves to 10.0.0.2']);
    expect(details.querySelectorAll('b').length).toBe(0);
    render(null, root as unknown as Element);
  });
});

describe('result row parts', () => {
  it("a watch's changed page is badged changed, not new; outside Chrome the site icon is its letter, fetched from nowhere", async () => {
    const { ResultRow } = await import('../../entrypoints/ui/result-row');
    const root = document.getElementById('root')!;
    const page = { ...hostile, url: 'https://www.kaffee.example/a' };
    const terms = new Set(['coffee']);
    render(h(ResultRow, { page, terms, changed: true }), root as unknown as Element);
    expect(root.querySelector('[data-testid=fresh-badge]')).toBeNull();
    expect(root.querySelector('[data-testid=changed-badge]')!.textContent).toBe('changed');
    const icon = root.querySelector('[data-testid=site-icon]')!;
    expect(icon.tagName.toLowerCase()).toBe('span');
    expect(icon.textContent).toBe('K');
    render(h(ResultRow, { page, terms }), root as unknown as Element);
    expect(root.querySelector('[data-testid=changed-badge]')).toBeNull();
    expect(root.querySelector('[data-testid=fresh-badge]')).not.toBeNull();
    render(null, root as unknown as Element);
  });

  it('"N new since <date>" only once a check has ended, with its count of new pages', async () => {
    const { WatchSince } = await import('../../entrypoints/ui/watch-since');
    const root = document.getElementById('root')!;
    const since = Date.UTC(2026, 2, 4, 12);
    const watched = (check: object) => ({ id: 'w', watch: { schedule: 'daily', nextDueAt: 0, check } }) as unknown as CrawlRecord;
    render(h(WatchSince, { record: watched({ startedAt: since + 1, since }) }), root as unknown as Element);
    expect(root.querySelector('[data-testid=watch-since]')).toBeNull();
    render(
      h(WatchSince, { record: watched({ startedAt: since + 1, since, endedAt: since + 2, newPages: 2 }) }),
      root as unknown as Element,
    );
    const text = root.querySelector('[data-testid=watch-since]')!.textContent ?? '';
    expect(text.startsWith('2 new since ')).toBe(true);
    expect(text).toContain('2026');
    // Dated and timed: two checks may fall on one day.
    const { formatDateTime } = await import('../../lib/app/view/page-view');
    expect(text).toBe(`2 new since ${formatDateTime(since)}`);
    expect(formatDateTime(since)).toMatch(/\d{1,2}.\d{2}/);
    render(null, root as unknown as Element);
  });
});

describe('popup: what it opens on', () => {
  const record = (over: Partial<CrawlRecord>): CrawlRecord =>
    ({
      id: 'c',
      status: 'done',
      seeds: ['https://a.example/1'],
      source: { kind: 'serp', pageUrl: 'https://search.example/?q=x' },
      updatedAt: Date.now(),
      ...over,
    }) as CrawlRecord;
  const snap = (r: CrawlRecord): CrawlSnapshot => ({ record: r, top: [], pageCount: 0, active: false, scores: [] });
  const tab = (url: string, serp = false): TabContext => ({
    tabId: 1,
    url,
    title: '',
    serp: serp
      ? {
          engine: null,
          engineName: null,
          query: 'y',
          results: [{ url: 'https://b.example', title: 'b', snippet: '', rank: 1 }],
          linkCount: 1,
        }
      : null,
  });

  it('results first for a running crawl, a crawl of this tab, or a recent one; the form for a new search or no crawl', async () => {
    const { resultsFirst } = await import('../../entrypoints/popup/App');
    expect(resultsFirst(null, tab('https://x.example'))).toBe(false);
    expect(resultsFirst(snap(record({ status: 'running', updatedAt: 0 })), tab('https://other.example/?q=z', true))).toBe(true);
    expect(resultsFirst(snap(record({ updatedAt: 0 })), tab('https://search.example/?q=x', true))).toBe(true);
    expect(resultsFirst(snap(record({})), tab('https://other.example/?q=z', true))).toBe(false);
    expect(resultsFirst(snap(record({})), tab('https://news.example/'))).toBe(true);
    expect(resultsFirst(snap(record({ updatedAt: Date.now() - 3 * 3600_000 })), tab('https://news.example/'))).toBe(false);
  });
});

describe('popup: what it read on the tab', () => {
  it('names the engine and the count, or says why nothing was read and offers the visible links or the page', async () => {
    const { TabReadingNote } = await import('../../entrypoints/ui/tab-reading-note');
    const root = document.getElementById('root')!;
    const chosen: string[] = [];
    const draw = (reading: Parameters<typeof TabReadingNote>[0]['reading']) =>
      render(h(TabReadingNote, { reading, choice: 'links', onChoose: (c) => chosen.push(c) }), root as unknown as Element);
    const line = () => root.querySelector('[data-testid=serp-line]')?.textContent;
    draw({ kind: 'results', engineName: 'Google', count: 9 });
    expect(line()).toBe('Google · 9 results');
    draw({ kind: 'results', engineName: 'Bing', count: 1 });
    expect(line()).toBe('Bing · 1 result');
    draw({ kind: 'results', engineName: null, count: 12 });
    expect(line()).toBe("Search engine not known, results read from the page's layout · 12 results");
    draw({ kind: 'nothing-read', engineName: 'Google', why: 'challenge', links: 3 });
    expect(line()).toBe('Google · no results read');
    expect(root.querySelector('[data-testid=serp-why]')!.textContent).toMatch(/not a robot/);
    expect(root.querySelector('[data-testid=seed-choice]')!.textContent).toContain('the 3 links you can see on this page');
    const pick = root.querySelector('[data-testid=seed-choice-page]')!;
    pick.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('change', { bubbles: true }));
    expect(chosen).toEqual(['page']);
    draw({ kind: 'nothing-read', engineName: null, why: 'consent', links: 0 });
    expect(line()).toBe('No results read');
    expect(root.querySelector('[data-testid=serp-why]')!.textContent).toMatch(/consent notice/);
    expect(root.querySelector('[data-testid=seed-choice]')).toBeNull();
    draw({ kind: 'page' });
    expect(root.textContent).toBe('');
    render(null, root as unknown as Element);
  });
});

describe('result row', () => {
  it('shows the location as "site › … › tail", a labelled date, the linking page and a "new" badge', async () => {
    const { ResultList } = await import('../../entrypoints/ui/result-list');
    const root = document.getElementById('root')!;
    const linking: PageResult = { ...hostile, url: 'https://www.example.org/start', title: 'Start page', isSeed: true };
    const found: PageResult = {
      ...hostile,
      url: 'https://www.example.org/docs/guide/closures.html',
      title: '',
      h1: 'Closures explained',
      published: '2024-03-03T10:00:00Z',
      from: linking.url,
    };
    render(h(ResultList, { pages: [found, linking], topic: 'closures', limit: 10 }), root as unknown as Element);
    const row = root.querySelector('[data-testid=result-row]')!;
    expect(row.querySelector('[data-testid=result-link]')!.textContent).toBe('Closures explained');
    expect(row.querySelector('[data-testid=result-url]')!.textContent).toBe('example.org › … › closures.html');
    expect(row.querySelector('[data-testid=result-date]')!.getAttribute('data-kind')).toBe('published');
    expect(row.querySelector('[data-testid=result-date]')!.textContent).toMatch(/^Published /);
    expect(row.querySelector('[data-testid=result-via]')!.textContent).toBe('via Start page');
    expect(row.querySelector('[data-testid=fresh-badge]')!.textContent).toBe('new');
    expect(root.querySelectorAll('[data-testid=search-badge]').length).toBe(1);
    render(null, root as unknown as Element);
  });
});

describe('judgement buttons', () => {
  it('are buttons with aria-pressed and labels naming the result as text; pressing a pressed one undoes it', async () => {
    const { RowFeedback } = await import('../../entrypoints/ui/feedback');
    const root = document.getElementById('root')!;
    const judged: number[] = [];
    let more = 0;
    const draw = (value: -1 | 0 | 1) =>
      render(
        h(RowFeedback, { page: hostile, value, onJudge: (v: number) => judged.push(v), onMoreLikeThis: () => more++ }),
        root as unknown as Element,
      );
    draw(1);
    const up = root.querySelector('[data-testid="judge-up"]')!;
    const down = root.querySelector('[data-testid="judge-down"]')!;
    expect(up.tagName).toBe('BUTTON');
    expect(up.getAttribute('aria-pressed')).toBe('true');
    expect(down.getAttribute('aria-pressed')).toBe('false');
    // The title goes into the label as text: no markup is made of it.
    expect(up.getAttribute('aria-label')).toBe(`Relevant: ${hostile.title}`);
    expect(root.querySelectorAll('script, b').length).toBe(0);
    (up as unknown as HTMLElement).click();
    (down as unknown as HTMLElement).click();
    (root.querySelector('[data-testid="more-like-this"]') as unknown as HTMLElement).click();
    expect(judged).toEqual([0, -1]);
    expect(more).toBe(1);
    render(null, root as unknown as Element);
  });
});

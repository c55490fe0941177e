import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BADGE_COLORS, badgeText, endNotice, ToolbarBadge, WATCH_COLOR } from '../../lib/app/background/badge';
import type { CrawlSnapshot, LiveServerMessage } from '../../lib/app/model/protocol';
import type { CrawlRecord } from '../../lib/app/model/records';
import {
  displayLocation,
  displayTitle,
  locationText,
  markdownList,
  pageDate,
  relativeTime,
  timeLeft,
} from '../../lib/app/view/page-view';
import { applyPreset, PRESETS, presetOf } from '../../lib/app/view/presets';
import { countsOf, mergeScores, RELEVANCE, relevanceCut, ScoreTally, visiblePages } from '../../lib/app/rules/relevance';
import { DEFAULT_SETTINGS } from '../../lib/app/rules/settings';
import { t } from '../../entrypoints/ui/i18n';
import type { PageResult } from '../../lib/engine/types';

const page = (url: string, score: number, isSeed = false, extra: Partial<PageResult> = {}): PageResult => ({
  url,
  title: `T ${url}`,
  snippet: '',
  score,
  depth: 1,
  fetchedAt: 0,
  isSeed,
  ...extra,
});

describe('relevance: one definition of "new relevant page"', () => {
  it('cuts at a fraction of the best score, never under the floor', () => {
    expect(relevanceCut(0.8)).toBeCloseTo(RELEVANCE.fraction * 0.8);
    expect(relevanceCut(0.1)).toBe(RELEVANCE.floor);
    expect(relevanceCut(Number.NaN)).toBe(RELEVANCE.floor);
  });

  it('counts new relevant, low-relevance and search pages once per URL, noindex never', () => {
    const tally = new ScoreTally([page('s1', 0.9, true), page('a', 0.6), page('b', 0.1)]);
    tally.add([page('a', 0.6), page('c', 0.5), { ...page('n', 0.9), noindex: true }]);
    expect(tally.size).toBe(4);
    expect(tally.counts()).toEqual({ cut: relevanceCut(0.9), newRelevant: 2, lowRelevance: 1, fromSearch: 1 });
    // The best score counts seeds too: a great search result raises the bar for new pages.
    expect(countsOf([page('s', 0.9, true), page('x', 0.3)]).newRelevant).toBe(0);
    expect(mergeScores([], [page('a', 0.5), page('a', 0.7)])).toEqual([{ url: 'a', score: 0.7, isSeed: false }]);
  });

  it('lists new relevant pages by default; search results, low-relevance and hidden pages on request', () => {
    const pages = [page('s', 0.9, true), page('a', 0.6), page('low', 0.05), { ...page('n', 0.8), noindex: true }];
    const cut = countsOf(pages).cut;
    const urls = (f: Parameters<typeof visiblePages>[2]) => visiblePages(pages, cut, f).map((p) => p.url);
    expect(urls({ showSearch: false, showLow: false })).toEqual(['a']);
    expect(urls({ showSearch: true, showLow: false })).toEqual(['s', 'a']);
    expect(urls({ showSearch: false, showLow: true })).toEqual(['a', 'low']);
    expect(urls({ showSearch: true, showLow: true, hidden: new Set(['a']) })).toEqual(['s', 'low']);
  });
});

describe('page view', () => {
  it('shows "site › … › tail": no scheme, no www, the end of the path kept', () => {
    expect(locationText('https://www.example.org/docs/guide/closures.html')).toBe('example.org › … › closures.html');
    expect(locationText('https://example.org/a')).toBe('example.org › a');
    expect(locationText('https://example.org/')).toBe('example.org');
    expect(locationText('http://127.0.0.1:8080/x/y?q=1')).toBe('127.0.0.1:8080 › … › y?q=1');
    expect(displayLocation('https://e.org/%E2%82%AC%20prices').tail).toBe('€ prices');
    expect(displayLocation(`https://e.org/${'a'.repeat(100)}`).tail.length).toBe(60);
    expect(displayLocation('not a url').site).toBe('not a url');
  });

  it('titles fall back to og:title, then <h1>, then the location', () => {
    expect(displayTitle(page('https://e.org/a', 0, false, { title: '', ogTitle: 'OG', h1: 'H' }))).toBe('OG');
    expect(displayTitle(page('https://e.org/a', 0, false, { title: ' ', h1: 'Heading' }))).toBe('Heading');
    expect(displayTitle(page('https://e.org/x/a', 0, false, { title: '' }))).toBe('e.org › a');
  });

  it('dates: published first, then updated, then the server header; nonsense dates ignored', () => {
    const p = page('u', 0, false, {
      published: '2024-03-03',
      modified: '2024-05-01',
      lastModified: 'Tue, 01 Apr 2025 10:00:00 GMT',
    });
    expect(pageDate(p)?.kind).toBe('published');
    expect(pageDate({ ...p, published: 'soon' })?.kind).toBe('updated');
    expect(pageDate({ ...p, published: undefined, modified: '1970-01-01' })?.kind).toBe('server');
    expect(pageDate(page('u', 0))).toBeNull();
    expect(pageDate(page('u', 0, false, { published: '2999-01-01' }))).toBeNull();
  });

  it('relative times, time left, Markdown lists', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(relativeTime(now - 5 * 60_000, now, 'en')).toBe('5 minutes ago');
    expect(relativeTime(now - 86_400_000, now, 'en')).toBe('yesterday');
    expect(timeLeft({ pagesEvaluated: 2, maxPages: 100, elapsedMs: 1000 })).toBeNull();
    expect(timeLeft({ pagesEvaluated: 50, maxPages: 100, elapsedMs: 60_000 })).toBe(60_000);
    expect(markdownList([page('https://e.org/a_(b)', 0, false, { title: 'A [b]' })])).toBe(
      '- [A \\[b\\]](https://e.org/a_%28b%29)',
    );
  });

  it('presets are budgets; a typed budget is no preset', () => {
    expect(presetOf(PRESETS.quick.maxPages)).toBe('quick');
    expect(presetOf(123)).toBeNull();
    expect(applyPreset(DEFAULT_SETTINGS, 'deep').maxPages).toBe(PRESETS.deep.maxPages);
    expect(presetOf(DEFAULT_SETTINGS.maxPages)).toBe('standard');
  });
});

const record = (id: string, status: CrawlRecord['status'], pagesEvaluated: number, createdAt = 0): CrawlRecord =>
  ({
    id,
    createdAt,
    name: `crawl ${id}`,
    status,
    seeds: [],
    stats: { pagesEvaluated, maxPages: 100 },
  }) as unknown as CrawlRecord;

describe('toolbar badge', () => {
  const make = (snapshots: Record<string, CrawlSnapshot | null> = {}) => {
    const shown: [string, string][] = [];
    const ended: string[] = [];
    const badge = new ToolbarBadge({
      surface: { set: (text, color) => shown.push([text, color]) },
      load: async (id) => snapshots[id ?? ''] ?? null,
      onEnded: (n) => ended.push(`${n.title}: ${n.message}`),
      say: t,
    });
    return { badge, shown, ended };
  };
  const update = (
    id: string,
    status: CrawlRecord['status'],
    n: number,
    pages: PageResult[],
    createdAt = 10,
  ): LiveServerMessage => ({
    type: 'update',
    id,
    record: record(id, status, n, createdAt),
    pages,
  });

  it('counts the new relevant pages of the running crawl, coloured by state, and tells when it ends', async () => {
    const { badge, shown, ended } = make();
    badge.receive(update('c1', 'running', 2, [page('s', 0.9, true), page('a', 0.8)]));
    expect(shown.at(-1)).toEqual(['1', BADGE_COLORS.running]);
    badge.receive(update('c1', 'running', 4, [page('b', 0.7), page('low', 0.01)]));
    expect(shown.at(-1)).toEqual(['2', BADGE_COLORS.running]);
    expect(badge.count).toBe(2);
    badge.receive(update('c1', 'done', 4, []));
    expect(shown.at(-1)).toEqual(['2', BADGE_COLORS.done]);
    expect(ended).toEqual(['Forager: crawl finished: “crawl c1”: 2 new relevant pages.']);
    // A rename of an older, finished crawl does not take the badge.
    badge.receive(update('old', 'done', 9, [], 1));
    expect(shown.at(-1)).toEqual(['2', BADGE_COLORS.done]);
    // A newer crawl heard of only once it ended (it failed within one batch) does.
    badge.receive(update('fast', 'done', 0, [], 20));
    expect(shown.at(-1)).toEqual(['!', BADGE_COLORS.error]);
  });

  it('a crawl that fetched nothing shows "!" in red; one heard of mid-way loads its earlier pages', async () => {
    const mid: CrawlSnapshot = {
      record: record('c2', 'running', 3),
      top: [],
      pageCount: 3,
      active: true,
      scores: [page('x', 0.9), page('y', 0.8), page('z', 0.7)],
    };
    const { badge, shown } = make({ c2: mid });
    badge.receive(update('c0', 'running', 0, []));
    badge.receive(update('c0', 'done', 0, []));
    expect(shown.at(-1)).toEqual(['!', BADGE_COLORS.error]);
    badge.receive(update('c2', 'running', 4, [page('w', 0.75)]));
    await new Promise((r) => setTimeout(r, 0));
    expect(badge.count).toBe(4);
    expect(badgeText(12345)).toBe('999+');
    expect(endNotice(record('e', 'error', 0), countsOf([]), t)).toEqual({
      crawlId: 'e',
      title: 'Forager: crawl failed',
      message: '“crawl e”: it stopped with an error',
    });
    expect(endNotice(record('n', 'done', 0), countsOf([]), t).message).toBe('“crawl n”: no page could be fetched.');
    expect(endNotice(record('o', 'done', 1), countsOf([page('a', 0.8)]), t).message).toBe('“crawl o”: 1 new relevant page.');
  });

  it("shows the watches' unseen new relevant pages while no crawl runs; a watch's check is no crawl's end", () => {
    const { badge, shown, ended } = make();
    badge.setWatchCount(3);
    expect(shown.at(-1)).toEqual(['3', WATCH_COLOR]);
    // A crawl that runs takes the badge; once it ends, the watches' count is back.
    badge.receive(update('c1', 'running', 2, [page('s', 0.9, true), page('a', 0.8)]));
    expect(shown.at(-1)).toEqual(['1', BADGE_COLORS.running]);
    badge.receive(update('c1', 'done', 2, []));
    expect(shown.at(-1)).toEqual(['3', WATCH_COLOR]);
    expect(ended).toHaveLength(1);
    // A watch's check running and ending: neither takes the badge nor is announced as a crawl's end.
    const checking = {
      ...record('w', 'running', 1, 30),
      watch: { schedule: 'daily', createdAt: 0, nextDueAt: 1, check: { startedAt: 5, since: 0, trigger: 'manual' } },
    } as CrawlRecord;
    badge.receive({ type: 'update', id: 'w', record: checking, pages: [page('n', 0.9)] });
    badge.receive({ type: 'update', id: 'w', record: { ...checking, status: 'done' }, pages: [] });
    expect(shown.at(-1)).toEqual(['3', WATCH_COLOR]);
    expect(ended).toHaveLength(1);
    // Looked at: the latest crawl's own count again.
    badge.setWatchCount(0);
    expect(shown.at(-1)).toEqual(['1', BADGE_COLORS.done]);
  });
});

describe('i18n', () => {
  const messages = JSON.parse(readFileSync(path.resolve('public/_locales/en/messages.json'), 'utf8')) as Record<
    string,
    { message: string }
  >;
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = path.join(dir, f);
      return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(f) ? [p] : [];
    });

  it('every key the UI asks for is in the English messages', () => {
    const used = new Set<string>();
    for (const f of files('entrypoints')) {
      for (const m of readFileSync(f, 'utf8').matchAll(
        /\bt\('([A-Za-z0-9_]+)'|\btn\([^,]+,\s*'([A-Za-z0-9_]+)',\s*'([A-Za-z0-9_]+)'/g,
      )) {
        for (const k of m.slice(1)) if (k) used.add(k);
      }
    }
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((k) => !messages[k])).toEqual([]);
  });

  it('the manifest name and description come from the messages', () => {
    const config = readFileSync(path.resolve('wxt.config.ts'), 'utf8');
    expect(config).toContain("name: '__MSG_extName__'");
    expect(messages.extName.message).toBe('Forager');
    expect(messages.extDescription.message.length).toBeGreaterThan(20);
  });
});

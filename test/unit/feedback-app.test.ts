/**
 * Relevance feedback in the application layer: the runner's judge and hideSite (running, paused and
 * finished crawls; a restarted worker), the protocol handler, and the list's order and hiding (lib/app/view/feedback.ts).
 */
import { describe, expect, it } from 'vitest';
import { createRequestHandler, type RequestDeps } from '../../lib/app/handlers';
import { CrawlRunner } from '../../lib/app/runner';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import type { CrawlStore } from '../../lib/app/store/types';
import {
  applyJudgement,
  hiddenByFeedback,
  judgedTopic,
  moreLikeThis,
  rankWithFeedback,
  siteKey,
  toggleSite,
} from '../../lib/app/view/feedback';
import { createCrawl, type Crawl, type CrawlOptions } from '../../lib/engine/crawl';
import { localEvaluator } from '../../lib/engine/html/evaluate';
import { measuredTopic, pageProfile } from '../../lib/engine/text/feedback';
import { topicVector } from '../../lib/engine/text/vector';
import type { FetchOutcome, PageFetcher, PageResult } from '../../lib/engine/types';

/** 40 pages on two sites: even ones about coffee brewing, odd ones about espresso machines repair; each links to 3. */
function web(): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < 40; i++) {
    const words = i % 2 === 0 ? 'coffee brewing filter pour over kettle' : 'coffee espresso machine repair gasket pump';
    const links = [1, 2, 3].map((d) => `<a href="https://s${(i + d) % 2}.example/p${(i + d) % 40}">coffee ${(i + d) % 40}</a>`);
    out.set(
      `https://s${i % 2}.example/p${i}`,
      `<!doctype html><html><head><title>Page ${i}</title></head><body><p>${words} ${words}</p>${links.join(' ')}</body></html>`,
    );
  }
  return out;
}

/** Answers from `pages`; with `hangAfter`, fetches from then on never end (a worker that died). */
function fetcher(pages: Map<string, string>, hangAfter = Infinity): PageFetcher & { started: number } {
  const f = {
    started: 0,
    async fetch(url: string, signal?: AbortSignal): Promise<FetchOutcome> {
      f.started++;
      if (f.started > hangAfter) return new Promise<FetchOutcome>(() => undefined);
      await new Promise((r) => setTimeout(r, 1));
      if (signal?.aborted) return { ok: false, url, reason: 'aborted', detail: 'aborted', elapsedMs: 1 };
      const html = pages.get(url);
      if (!html) return { ok: false, url, reason: 'http-error', detail: 'HTTP 404', status: 404, elapsedMs: 1 };
      const body = new TextEncoder().encode(html);
      return { ok: true, url, finalUrl: url, status: 200, contentType: 'text/html', body, truncated: false, elapsedMs: 1 };
    },
  };
  return f;
}

function runner(store: CrawlStore, hangAfter = Infinity) {
  const crawls: Crawl[] = [];
  const r = new CrawlRunner({
    store,
    evaluator: localEvaluator,
    makeFetcher: () => fetcher(web(), hangAfter),
    createCrawl: (o: CrawlOptions) => {
      const c = createCrawl(o);
      crawls.push(c);
      return c;
    },
    flushEveryMs: 0,
  });
  return { runner: r, crawls };
}

const START = {
  topic: 'coffee',
  seeds: ['https://s0.example/p0'],
  source: { kind: 'manual' as const },
  settings: { maxPages: 30, maxBuffer: 64, politenessDelayMs: 0, seed: 3 },
};

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('CrawlRunner.judge', () => {
  it('a running crawl learns a judgement at once; it is stored with the checkpoint and a restarted worker keeps it', async () => {
    const store = createMemoryStore();
    const a = runner(store, 12);
    const record = await a.runner.start(START);
    await until(async () => (await store.countPages(record.id)) >= 6, 'six pages');
    const page = (await store.getPages(record.id)).find((p) => !p.isSeed)!;
    expect(page.profile?.terms.coffe).toBeGreaterThan(0);
    const judged = await a.runner.judge(record.id, page.url, 1);
    expect(judged.judgements).toEqual([expect.objectContaining({ url: page.url, value: 1, terms: page.profile!.terms })]);
    expect(a.crawls[0].currentTopic().feedback).toBeDefined();
    expect((await store.getCrawl(record.id))?.judgements).toEqual(judged.judgements);
    expect((await store.getCheckpoint(record.id))?.judgements).toEqual([expect.objectContaining({ url: page.url, value: 1 })]);
    await until(() => a.crawls[0].stats().fetchesInFlight > 0 && a.crawls[0].stats().pagesEvaluated >= 12, 'A to hang');

    // Worker B on the same storage resumes from the checkpoint: the judgement is there.
    const b = runner(store);
    expect(await b.runner.recover('worker-restart')).toBe(record.id);
    expect(b.crawls[0].judgements()).toEqual([expect.objectContaining({ url: page.url, value: 1 })]);
    expect(b.crawls[0].currentTopic()).toEqual(a.crawls[0].currentTopic());
    await b.runner.whenIdle();
    const done = await store.getCrawl(record.id);
    expect(done?.status).toBe('done');
    expect(done?.judgements).toHaveLength(1);
  });

  it('a paused crawl keeps the judgement in its record and learns it when resumed; undo and a finished crawl work too', async () => {
    const store = createMemoryStore();
    const { runner: r, crawls } = runner(store);
    const record = await r.start(START);
    await until(async () => (await store.countPages(record.id)) >= 4, 'four pages');
    await r.pause(record.id);
    await r.whenIdle();
    const pages = (await store.getPages(record.id)).filter((p) => !p.isSeed);
    await r.judge(record.id, pages[0].url, -1);
    await r.judge(record.id, pages[1].url, 1);
    expect((await store.getCheckpoint(record.id))?.judgements).toBeUndefined();
    await r.resume(record.id);
    const resumed = crawls[crawls.length - 1];
    expect(resumed.judgements().map((j) => [j.url, j.value])).toEqual([
      [pages[0].url, -1],
      [pages[1].url, 1],
    ]);
    await r.whenIdle();
    // Finished: the record alone changes (undo of the down-vote).
    const after = await r.judge(record.id, pages[0].url, 0);
    expect(after.status).toBe('done');
    expect(after.judgements?.map((j) => j.url)).toEqual([pages[1].url]);
    await expect(r.judge(record.id, 'https://nowhere.example/', 1)).rejects.toThrow(/not in this crawl/);
    await expect(r.judge(record.id, pages[1].url, 5 as never)).rejects.toThrow(/up \(1\), down \(-1\)/);
    const hidden = await r.hideSite(record.id, 'https://s1.example', true);
    expect(hidden.hiddenSites).toEqual(['https://s1.example']);
    expect((await r.hideSite(record.id, 'https://s1.example', false)).hiddenSites).toEqual([]);
    await expect(r.hideSite(record.id, 'javascript:alert(1)', true)).rejects.toThrow(/Not a site/);
  });

  it('answers forager/judge and forager/hideSite through the protocol handler', async () => {
    const store = createMemoryStore();
    const { runner: r } = runner(store);
    const record = await r.start(START);
    await r.whenIdle();
    const page = (await store.getPages(record.id)).find((p) => !p.isSeed)!;
    const handle = createRequestHandler({ runner: r, store } as unknown as RequestDeps);
    const reply = await handle({ type: 'forager/judge', id: record.id, url: page.url, value: 1 });
    expect(reply.ok && reply.value.judgements?.[0].url).toBe(page.url);
    const site = await handle({ type: 'forager/hideSite', id: record.id, site: 'https://s0.example', hidden: true });
    expect(site.ok && site.value.hiddenSites).toEqual(['https://s0.example']);
    expect(await handle({ type: 'forager/judge', id: '', url: page.url, value: 1 })).toEqual({
      ok: false,
      error: 'Missing crawl id.',
    });
  });
});

describe('the judged list (view/feedback.ts)', () => {
  const topic = { keywords: 'coffee' };
  const vec = measuredTopic(topic);
  const make = (url: string, score: number, terms: Record<string, number>): PageResult => ({
    url,
    title: url,
    snippet: '',
    score,
    depth: 1,
    fetchedAt: 0,
    isSeed: false,
    profile: pageProfile(terms, vec),
  });
  const brew = make('https://a.example/brew', 0.5, { coffe: 2, brew: 3, filter: 2 });
  const repair = make('https://b.example/repair', 0.6, { coffe: 2, repair: 3, gasket: 2 });
  const kettle = make('https://a.example/kettle', 0.3, { kettl: 3, brew: 2, filter: 1 });

  it('up-voted first, then by the score against the moved topic; without judgements the list as given', () => {
    const list = [repair, brew, kettle];
    expect(rankWithFeedback(list, topic, [])).toBe(list);
    const judgements = applyJudgement([], brew.url, 1, brew.profile!.terms, 1);
    const ranked = rankWithFeedback(list, topic, judgements);
    expect(ranked[0].url).toBe(brew.url);
    // The kettle page shares the up-voted page's words: it rose; the repair page shares only the query's: it sank.
    expect(ranked.find((p) => p.url === kettle.url)!.score).toBeGreaterThan(kettle.score);
    expect(ranked.find((p) => p.url === repair.url)!.score).toBeLessThan(repair.score);
    // A page without a profile is the same object (its row is not redrawn).
    const bare = { ...repair, url: 'https://c.example/', profile: undefined };
    expect(rankWithFeedback([bare], topic, judgements)[0]).toBe(bare);
    expect(topicVector(judgedTopic(topic, judgements)).brew).toBeGreaterThan(0);
  });

  it('a judgement replaces the earlier one on its page, 0 undoes it; down-votes and hidden sites leave the list', () => {
    let j = applyJudgement(undefined, repair.url, -1, repair.profile!.terms, 1);
    j = applyJudgement(j, brew.url, 1, {}, 2);
    j = applyJudgement(j, repair.url, 1, repair.profile!.terms, 3);
    expect(j.map((x) => [x.url, x.value])).toEqual([
      [brew.url, 1],
      [repair.url, 1],
    ]);
    expect(applyJudgement(j, brew.url, 0, {}, 4).map((x) => x.url)).toEqual([repair.url]);
    const down = applyJudgement([], repair.url, -1, {}, 1);
    expect([...hiddenByFeedback([brew, repair, kettle], down, undefined)]).toEqual([repair.url]);
    expect([...hiddenByFeedback([brew, repair, kettle], [], ['https://a.example'])].sort()).toEqual(
      [kettle.url, brew.url].sort(),
    );
    expect(siteKey('https://a.example/x?y')).toBe('https://a.example');
    expect(toggleSite(['https://a.example'], 'https://a.example', false)).toEqual([]);
  });

  it('"More like this" seeds a crawl with the page, its title as the topic and its snippet and main text as context', () => {
    expect(moreLikeThis({ ...brew, title: 'Brewing guide', snippet: 'Pour over', mainText: 'Heat the kettle' })).toEqual({
      topic: 'Brewing guide',
      context: ['Pour over', 'Heat the kettle'],
      seeds: [brew.url],
      source: { kind: 'page', pageUrl: brew.url },
    });
    expect(moreLikeThis({ ...brew, title: '', snippet: 'Only a snippet' }).topic).toBe('Only a snippet');
  });
});

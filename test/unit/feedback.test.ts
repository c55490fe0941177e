/**
 * Relevance feedback in the engine: Rocchio on the topic vector, re-scoring from page profiles,
 * the crawl's judge() (kept in checkpoints), and what the strategies learn from a judgement.
 */
import { describe, expect, it } from 'vitest';
import { createCrawl } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import { BestNFirst } from '../../lib/engine/strategies/best-n-first';
import { ForagerStrategy } from '../../lib/engine/strategies/forager';
import {
  FEEDBACK_TERMS,
  feedbackTerms,
  measuredTopic,
  pageProfile,
  rescore,
  termProfile,
  withFeedback,
} from '../../lib/engine/text/feedback';
import { topicVector } from '../../lib/engine/text/vector';
import type { CrawlEvent, EvaluatedPage, LinkFeature, PageResult, StrategyContext } from '../../lib/engine/types';

describe('Rocchio feedback on the topic vector', () => {
  it('keeps the heaviest terms of a page, ties alphabetically', () => {
    expect(termProfile({ b: 2, a: 2, c: 5, d: 1 }, 3)).toEqual({ c: 5, a: 2, b: 2 });
    expect(Object.keys(termProfile({ x: 0, y: Number.NaN, z: 1 }))).toEqual(['z']);
  });

  it('keeps exactly what sorting every term would keep, in that order, whatever the order of the terms', () => {
    // The selection against the plain definition: filter, sort (heavier first, ties alphabetical), take the first max.
    const bySort = (terms: Record<string, number>, max: number) =>
      Object.entries(terms)
        .filter(([, w]) => w > 0 && Number.isFinite(w))
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, max);
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const terms: Record<string, number> = {};
      const n = Math.floor(rand() * 300);
      for (let i = 0; i < n; i++) {
        const r = rand();
        // Few distinct weights, so ties are common; some zeros, negatives, NaN and numeric keys.
        terms[r < 0.05 ? String(Math.floor(rand() * 50)) : `t${Math.floor(rand() * 400)}`] =
          r < 0.02 ? Number.NaN : r < 0.06 ? 0 : r < 0.08 ? -1 : Math.floor(rand() * 8) / 2;
      }
      for (const max of [1, 5, 40, 500]) {
        const want = bySort(terms, max);
        const got = termProfile(terms, max);
        // The same object, built in the same order (numeric keys come first in any object, in both).
        expect(Object.entries(got)).toEqual(Object.entries(Object.fromEntries(want)));
      }
      // The default profile is remembered per vector: asked again, it is the same, in a new object.
      const first = termProfile(terms);
      for (const k in first) first[k] = -1;
      expect(Object.entries(termProfile(terms))).toEqual(Object.entries(Object.fromEntries(bySort(terms, 40))));
    }
  });

  it('up-voted pages pull their terms in, down-voted push theirs out, and undoing restores the topic', () => {
    const topic = { keywords: 'solar telescope' };
    const up = { value: 1 as const, terms: { mirror: 3, optic: 2, solar: 1 } };
    const down = { value: -1 as const, terms: { panel: 4, roof: 2, solar: 1 } };
    const fb = withFeedback(topic, [up, down]);
    const v = topicVector(fb);
    const base = topicVector(topic);
    expect(v.mirror).toBeGreaterThan(0);
    expect(v.optic).toBeGreaterThan(0);
    // Push-only terms never enter (Rocchio drops negative weights).
    expect(v.panel).toBeUndefined();
    expect(v.roof).toBeUndefined();
    // A query term both sides hold: pulled by 0.75/6 of the mass, pushed by 0.25/7.
    expect(v.solar).toBeGreaterThan(base.solar);
    expect(v.telescop).toBe(base.telescop);
    expect(withFeedback(fb, [])).toEqual(topic);
    // Only push: the query's own words keep their weight; an expansion term the down-voted pages hold weighs less.
    const expanded = { keywords: 'solar', context: ['solar mirror', 'solar mirror', 'solar mirror'] };
    const pushed = topicVector(withFeedback(expanded, [{ value: -1, terms: { solar: 1, mirror: 1 } }]));
    expect(pushed.solar).toBe(topicVector(expanded).solar);
    expect(pushed.mirror).toBeLessThan(topicVector(expanded).mirror);
  });

  it('keeps at most FEEDBACK_TERMS feedback terms and ignores judgements without terms', () => {
    const terms: Record<string, number> = {};
    for (let i = 0; i < 200; i++) terms[`t${i}`] = 200 - i;
    const fb = feedbackTerms([{ value: 1, terms }])!;
    expect(Object.keys(fb)).toHaveLength(FEEDBACK_TERMS);
    expect(fb.t0).toBeGreaterThan(fb.t59);
    expect(feedbackTerms([{ value: 1, terms: {} }])).toBeUndefined();
  });

  it('re-scores a page by the change of its profile cosine, and leaves untouched pages alone', () => {
    const topic = { keywords: 'solar' };
    const before = measuredTopic(topic);
    const mirror = { score: 0.1, profile: pageProfile({ mirror: 5, optic: 2 }, before) };
    const plain = { score: 0.4, profile: pageProfile({ cheese: 5, bread: 2 }, before) };
    expect(mirror.profile.cosine).toBe(0);
    const after = measuredTopic(withFeedback(topic, [{ value: 1, terms: { mirror: 1 } }]));
    expect(rescore(mirror, after)).toBeGreaterThan(0.1);
    expect(rescore(plain, after)).toBe(0.4);
    expect(rescore({ score: 0.3 }, after)).toBe(0.3);
  });
});

const html = (body: string) =>
  new Response(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`, {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  });

/** seed -> /a (mirror words and 'solar') -> /a1 -> /a2 (mirror words, no 'solar'); one fetch at a time. */
function mirrorWeb() {
  const pages: Record<string, string> = {
    '/seed': '<p>solar telescope</p><a href="/a">solar</a>',
    '/a': '<p>solar mirror optics lens mirror optics</p><a href="/a1">next</a>',
    '/a1': '<p>mirror optics lens</p><a href="/a2">next</a>',
    '/a2': '<p>mirror optics lens</p>',
  };
  return async (input: RequestInfo | URL) => {
    const path = new URL(String(input)).pathname;
    return pages[path] ? html(pages[path]) : new Response('', { status: 404 });
  };
}

function mirrorCrawl() {
  return createCrawl({
    topic: { keywords: 'solar' },
    seeds: ['https://mirror.example/seed'],
    strategy: { name: 'best-first', seed: 1 },
    limits: { maxPages: 10 },
    fetcher: createFetcher({ fetch: mirrorWeb(), politenessDelayMs: 0, maxInFlight: 1, respectRobots: false }),
  });
}

async function pagesOf(events: AsyncGenerator<CrawlEvent>, onPage?: (p: PageResult) => void): Promise<PageResult[]> {
  const out: PageResult[] = [];
  for await (const e of events) {
    if (e.type !== 'page') continue;
    out.push(e.page);
    onPage?.(e.page);
  }
  return out;
}

describe('crawl.judge', () => {
  it('scores pages fetched after an up-vote against the moved topic; the judgement is in the checkpoint and a resume keeps it', async () => {
    const plain = await pagesOf(mirrorCrawl().events());
    const a2Plain = plain.find((p) => p.url.endsWith('/a2'))!;
    expect(a2Plain.score).toBe(0);
    expect(a2Plain.profile?.terms.mirror).toBe(1);

    const run = mirrorCrawl();
    const pages = await pagesOf(run.events(), (p) => {
      if (p.url.endsWith('/a')) run.judge(p.url, 1);
    });
    const a2 = pages.find((p) => p.url.endsWith('/a2'))!;
    expect(a2.score).toBeGreaterThan(0);
    // Its profile was measured against the topic it was scored with.
    expect(a2.profile!.cosine).toBeGreaterThan(0);
    expect(run.currentTopic().feedback?.mirror).toBeGreaterThan(0);

    const cp = run.checkpoint();
    expect(cp.topic.feedback).toBeUndefined();
    expect(cp.judgements).toEqual([
      expect.objectContaining({ url: 'https://mirror.example/a', value: 1, terms: expect.objectContaining({ mirror: 2 }) }),
    ]);
    const resumed = createCrawl({
      topic: { keywords: 'ignored' },
      seeds: [],
      strategy: { name: 'best-first' },
      checkpoint: JSON.parse(JSON.stringify(cp)),
      fetcher: createFetcher({ fetch: mirrorWeb(), politenessDelayMs: 0, respectRobots: false }),
    });
    expect(resumed.currentTopic()).toEqual(run.currentTopic());
    // Undo: the topic is the crawl's own again, and the checkpoint holds no judgement.
    resumed.judge('https://mirror.example/a', 0);
    expect(resumed.currentTopic()).toEqual({ keywords: 'solar' });
    expect(resumed.checkpoint().judgements).toBeUndefined();
  });

  it('takes the terms it is given for a page it did not fetch, and refuses a value that is not 1, 0 or -1', () => {
    const run = mirrorCrawl();
    run.judge('https://elsewhere.example/x', 1, { lens: 1 });
    expect(run.judgements()).toEqual([expect.objectContaining({ url: 'https://elsewhere.example/x', value: 1 })]);
    expect(topicVector(run.currentTopic()).lens).toBeGreaterThan(0);
    expect(() => run.judge('https://elsewhere.example/x', 2 as never)).toThrow(/1, 0 or -1/);
  });
});

const ctx = (params: StrategyContext['params'] = {}): StrategyContext => ({
  topic: { keywords: 'solar telescope' },
  maxBuffer: 100,
  seed: 1,
  params,
});

const link = (url: string, anchor: string[] = []): LinkFeature => ({
  url,
  anchorText: anchor.join(' '),
  anchorTerms: anchor,
  contextBefore: [],
  contextAfter: [],
  nofollow: false,
});

function evaluated(url: string, score: number, links: LinkFeature[], depth = 0, requestedUrl = url): EvaluatedPage {
  return {
    url,
    requestedUrl,
    depth,
    isSeed: depth === 0,
    links,
    evaluation: {
      score,
      title: '',
      snippet: '',
      links,
      terms: {},
      length: 0,
      charset: 'utf-8',
      baseUrl: url,
      robots: { noindex: false, nofollow: false },
    },
  };
}

describe('strategies learn from judgements', () => {
  it("best-n-first: queued links follow their page's moved score", () => {
    const s = new BestNFirst(ctx({ n: 1 }));
    s.onPage(evaluated('https://s.example/p', 0.2, [link('https://s.example/x')]));
    s.onPage(evaluated('https://s.example/q', 0.3, [link('https://s.example/y')]));
    s.onJudgement({
      url: 'https://s.example/p',
      value: 1,
      previous: 0,
      topic: ctx().topic,
      moved: new Map([['https://s.example/p', 0.25]]),
    });
    const scores = Object.fromEntries(s.entries().map((e) => [e.url, e.score]));
    expect(scores['https://s.example/x']).toBeCloseTo(0.45);
    expect(scores['https://s.example/y']).toBe(0.3);
  });

  it('forager: a judgement weighs in the section bandit and the classifier; undo takes the bandit part back', () => {
    const s = new ForagerStrategy(ctx());
    s.addSeeds(['https://f.example/']);
    s.next(() => true);
    s.onPage(evaluated('https://f.example/', 0.5, [link('https://f.example/docs/a', ['mirror']), link('https://g.example/b')]));
    s.next(() => true);
    s.onPage(evaluated('https://f.example/docs/a', 0, [link('https://f.example/docs/c', ['mirror'])], 1));
    const pulls = s.bandit.pulls;
    const examples = s.classifier.examples;
    const mean = s.bandit.mean('https://f.example/docs', 'https://f.example');
    const change = { url: 'https://f.example/docs/a', topic: ctx().topic, moved: new Map<string, number>() };
    s.onJudgement({ ...change, value: 1, previous: 0 });
    expect(s.bandit.pulls).toBe(pulls + 3);
    expect(s.classifier.examples).toBe(examples + 3);
    expect(s.bandit.mean('https://f.example/docs', 'https://f.example')).toBeGreaterThan(mean);
    s.onJudgement({ ...change, value: 0, previous: 1 });
    expect(s.bandit.pulls).toBe(pulls);
    expect(s.bandit.mean('https://f.example/docs', 'https://f.example')).toBeCloseTo(mean, 12);
    // A change of mind: the up-vote's pulls go, the down-vote's (one page's worth) come.
    s.onJudgement({ ...change, value: 1, previous: 0 });
    s.onJudgement({ ...change, value: -1, previous: 1 });
    expect(s.bandit.pulls).toBe(pulls + 1);
    expect(s.bandit.mean('https://f.example/docs', 'https://f.example')).toBeLessThan(mean);
    // The state still saves and restores.
    const copy = new ForagerStrategy(ctx());
    copy.restore(JSON.parse(JSON.stringify(s.save())));
    expect(copy.bandit.pulls).toBe(s.bandit.pulls);
  });
});

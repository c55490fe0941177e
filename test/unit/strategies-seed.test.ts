import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdaptiveBestNFirst,
  AnchorTextCrawler,
  createStrategy,
  ForagerClassic,
  ForagerStrategy,
  getStrategyInfo,
  InfoSpiders,
  PageRankCrawler,
  registerStrategy,
  resolveParams,
  SharkSearch,
} from '../../lib/engine/strategies/index';
import {
  Centroid,
  contextProximity,
  termsSimilarity,
  urlSimilarity,
  prepareTopic,
} from '../../lib/engine/strategies/link-scoring';
import { agentValue, cooccurringTerm, linkWords } from '../../lib/engine/strategies/infospiders';
import { Rng } from '../../lib/engine/rng';
import { tokenize } from '../../lib/engine/text/tokenize';
import { urlTerms } from '../../lib/engine/text/url-terms';
import { cosine, termsCosine, termVector } from '../../lib/engine/text/vector';
import { createCrawl } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import type { EvaluatedPage, FrontierEntry, LinkFeature, Strategy, StrategyContext } from '../../lib/engine/types';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';

const SEEDED = ['pagerank', 'infospiders', 'shark-search', 'anchor-text', 'adaptive-bnf', 'forager', 'forager-classic'];
const topic = { keywords: 'solar telescope' };
const ctx = (params: StrategyContext['params'] = {}, seed = 1, maxBuffer = 64): StrategyContext => ({
  topic,
  maxBuffer,
  seed,
  params,
});

function link(url: string, anchor: string[] = [], before: string[] = [], after: string[] = []): LinkFeature {
  return { url, anchorText: anchor.join(' '), anchorTerms: anchor, contextBefore: before, contextAfter: after, nofollow: false };
}

function page(
  url: string,
  score: number,
  links: LinkFeature[],
  opts: { depth?: number; terms?: Record<string, number>; from?: string } = {},
): EvaluatedPage {
  return {
    url,
    requestedUrl: url,
    depth: opts.depth ?? 1,
    from: opts.from,
    isSeed: false,
    links,
    evaluation: {
      score,
      title: url,
      snippet: '',
      links,
      terms: opts.terms ?? {},
      length: 0,
      charset: 'utf-8',
      baseUrl: url,
      robots: { noindex: false, nofollow: false },
    },
  };
}

/**
 * A synthetic web of 2000 pages and 7 home pages: page i has a pseudo-random similarity, words, and 8 links whose
 * anchors and contexts mix topic words ('solar', 'telescop') and others, so every strategy has something to learn from.
 */
const WORDS = ['solar', 'telescop', 'mirror', 'lens', 'garden', 'recip', 'news', 'price', 'orbit', 'comet'];
const synthUrl = (i: number) => `https://w${i % 7}.example/${WORDS[i % WORDS.length]}-${i}.html`;
function synthPage(u: string, depth: number): EvaluatedPage {
  // Each site's home page (forager probes them) is one more page, 2000 + its site's number.
  const m = /-(\d+)\.html$/.exec(u);
  const i = m ? Number(m[1]) : 2000 + Number(/^https:\/\/w(\d+)\.example\/$/.exec(u)![1]);
  const r = new Rng(i + 7);
  const pick = (k: number) => Array.from({ length: k }, () => WORDS[r.int(WORDS.length)]);
  const links = Array.from({ length: 8 }, () => link(synthUrl(r.int(2000)), pick(2), pick(3), pick(3)));
  const terms: Record<string, number> = {};
  for (const w of pick(12)) terms[w] = (terms[w] ?? 0) + 1;
  return page(u, r.int(1000) / 1000, links, { depth, terms });
}

const always = () => true;

/** Takes up to `k` URLs from the strategy, all sites ready. */
function take(strategy: Strategy, k: number): FrontierEntry[] {
  const out: FrontierEntry[] = [];
  for (let i = 0; i < k; i++) {
    const e = strategy.next(always);
    if (!e) break;
    out.push(e);
  }
  return out;
}

/**
 * Mini crawl loop as in lib/engine/crawl.ts: `slots` fetches in flight, the oldest ends first and its page is shown
 * to the strategy at once (fetched URLs filtered out), then its slot is refilled. `steps` pages, then the ones still
 * in flight end too.
 */
function miniCrawl(s: Strategy, steps: number, fetched: Set<string>, log: string[], maxBuffer = 64, slots = 4): void {
  const inFlight: FrontierEntry[] = [];
  const deliver = (e: FrontierEntry) => {
    const p = synthPage(e.url, e.depth);
    p.from = e.from;
    p.links = p.links.filter((l) => !fetched.has(l.url));
    s.onPage(p);
    // forager also keeps a reserve of links the full frontier lost, bounded as the frontier is.
    expect(s.frontierSize()).toBeLessThanOrEqual(s.name === 'forager' ? 2 * maxBuffer : maxBuffer);
  };
  for (let step = 0; step < steps; step++) {
    while (inFlight.length < slots) {
      const e = s.next(always);
      if (!e) break;
      expect(fetched.has(e.url)).toBe(false);
      fetched.add(e.url);
      log.push(e.url);
      inFlight.push(e);
    }
    const e = inFlight.shift();
    if (!e) return;
    deliver(e);
  }
  for (const e of inFlight.splice(0)) deliver(e);
}

describe('seed-paper strategies: registry, determinism, save/restore, maxBuffer', () => {
  it('are registered with label, source and parameter defaults', () => {
    for (const name of SEEDED) {
      const info = getStrategyInfo(name)!;
      expect(info, name).toBeDefined();
      expect(info.label.length).toBeGreaterThan(2);
      expect(info.source.length).toBeGreaterThan(10);
      expect(info.description.length).toBeGreaterThan(20);
      const params = resolveParams(info, {});
      for (const p of info.params) expect(params[p.name]).toBe(p.default);
      expect(() => resolveParams(info, { nonsense: 1 })).toThrow(/no parameter/);
    }
  });

  for (const name of SEEDED) {
    it(`${name}: same seed, same crawl; save mid-crawl, restore into a fresh instance, continue identically`, () => {
      const seeds = [synthUrl(1), synthUrl(2), synthUrl(3)];
      const run = (seed: number) => {
        const s = createStrategy(name, ctx({}, seed));
        s.addSeeds(seeds);
        const fetched = new Set<string>();
        const log: string[] = [];
        miniCrawl(s, 40, fetched, log);
        return { s, fetched, log };
      };
      const a = run(5);
      const b = run(5);
      expect(b.log).toEqual(a.log);
      expect(a.log.length).toBeGreaterThan(30);
      // Mid-crawl checkpoint through JSON, restored into a fresh instance.
      const state = JSON.parse(JSON.stringify(a.s.save()));
      const restored = createStrategy(name, ctx({}, 999));
      restored.restore(state);
      expect(restored.frontierSize()).toBe(a.s.frontierSize());
      const logA: string[] = [];
      const logB: string[] = [];
      miniCrawl(a.s, 40, new Set(a.fetched), logA);
      miniCrawl(restored, 40, new Set(a.fetched), logB);
      expect(logB).toEqual(logA);
      expect(logA.length).toBeGreaterThan(20);
    });

    it(`${name}: rejects malformed state with a TypeError`, () => {
      const s = createStrategy(name, ctx());
      expect(() => s.restore(null)).toThrow(TypeError);
      expect(() => s.restore([1, 2] as never)).toThrow(TypeError);
      expect(() => s.restore({ frontier: 'x' } as never)).toThrow(TypeError);
    });

    it(`${name}: never holds more than maxBuffer links, and survives NaN scores and empty pages`, () => {
      const s = createStrategy(name, ctx({}, 1, 10));
      s.addSeeds(['https://s.example/']);
      const links = Array.from({ length: 50 }, (_, i) => link(`https://x.example/solar-${i}`, ['solar'], ['telescop'], []));
      s.onPage(page('https://s.example/', Number.NaN, links, { depth: 0 }));
      s.onPage(page('https://t.example/', 0.5, [], { depth: 0 }));
      expect(s.frontierSize()).toBeLessThanOrEqual(10);
      const batch = take(s, 100);
      expect(batch.length).toBeGreaterThan(0);
      for (const e of batch) expect(Number.isFinite(e.score)).toBe(true);
    });
  }
});

describe('link scoring helpers', () => {
  it('context proximity: closer topic words weigh more', () => {
    const t = new Set(['solar']);
    const near = contextProximity(link('u', [], ['x', 'y', 'solar'], ['a', 'b', 'c']), t);
    const far = contextProximity(link('u', [], ['solar', 'x', 'y'], ['a', 'b', 'c']), t);
    expect(near).toBeGreaterThan(far);
    expect(far).toBeGreaterThan(0);
    expect(contextProximity(link('u'), t)).toBe(0);
  });

  it('URL words: path split on / - _ . and camelCase; glued words still match topic terms', () => {
    expect(urlTerms('https://h.example/docs/solar-telescope_guide.html')).toEqual(['doc', 'solar', 'telescop', 'guid', 'html']);
    expect(urlTerms('https://h.example/SolarTelescope/')).toEqual(['solar', 'telescop']);
    const tt = prepareTopic({ keywords: 'text search' });
    expect(urlSimilarity(urlTerms('https://h.example/textsearch-intro.html'), tt)).toBe(1);
    expect(urlSimilarity(urlTerms('https://h.example/search.html'), tt)).toBe(0.5);
    expect(urlSimilarity(urlTerms('https://h.example/garden.html'), tt)).toBe(0);
  });

  it('centroid: learns from positive examples only, starting from the prior', () => {
    const c = new Centroid({ solar: 1 }, 1);
    expect(c.score(['mirror'])).toBe(0);
    c.add(['mirror', 'lens']);
    expect(c.score(['mirror'])).toBeGreaterThan(0);
    const d = new Centroid({ solar: 1 }, 1);
    d.load(JSON.parse(JSON.stringify(c.toJSON())));
    expect(d.score(['mirror', 'solar'])).toBeCloseTo(c.score(['mirror', 'solar']), 12);
  });

  it('centroid: its cached norm gives exactly the plain cosine, before and after every retraining', () => {
    const rng = new Rng(7);
    const vocab = Array.from({ length: 300 }, (_, i) => `t${i}`);
    const pick = (n: number) => Array.from({ length: n }, () => vocab[rng.int(vocab.length)]);
    const c = new Centroid({ t1: 2, t2: 1 }, 1);
    // The same lists scored after each retraining (as forager re-scores a queued link's words).
    const kept = [pick(3), pick(40)];
    for (let round = 0; round < 30; round++) {
      // Small and large examples, so the walk is sometimes over the query and sometimes over the centroid.
      for (const terms of [pick(3), pick(40), pick(1), [], pick(200), ...kept]) {
        expect(c.score(terms)).toBe(cosine(termVector(terms), c.vector()));
      }
      c.add(pick(1 + rng.int(60)));
    }
  });

  it('scores terms against a topic measured once exactly as the plain cosine to its vector', () => {
    const rng = new Rng(11);
    const vocab = ['solar', 'lens', '2', '10', 'mirror', '007', 'x1', 'telescop', '3'];
    const topic = prepareTopic({ keywords: 'solar 10 lens telescope', context: ['mirror 2 solar', '007 lens'] });
    expect(topic.measured.vector).toBe(topic.vector);
    for (let i = 0; i < 200; i++) {
      const terms = Array.from({ length: rng.int(25) }, () => vocab[rng.int(vocab.length)]);
      const plain = terms.length ? cosine(termVector(terms), topic.vector) : 0;
      expect(termsCosine(terms, topic.measured)).toBe(plain);
      expect(termsSimilarity(terms, topic.vector)).toBe(plain);
    }
  });
});

describe('PageRank crawler', () => {
  it('recomputes every 25 pages and fetches the frontier URL with the highest PageRank', () => {
    const s = new PageRankCrawler(ctx({}, 1, 256));
    s.addSeeds(['https://seed.example/']);
    expect(take(s, 5).map((e) => e.url)).toEqual(['https://seed.example/']);
    // 24 pages all link to "popular"; each also links to one page of its own.
    for (let i = 0; i < 24; i++) {
      s.onPage(page(`https://p${i}.example/`, 0.1, [link('https://popular.example/'), link(`https://own${i}.example/`)]));
    }
    expect(s.runs.length).toBe(0);
    s.onPage(page('https://p24.example/', 0.1, [link('https://lonely.example/')]));
    expect(s.runs.map((r) => r.atPage)).toEqual([25]);
    expect(s.runs[0].top).toBe('https://popular.example/');
    expect(s.runs[0].edges).toBeGreaterThanOrEqual(49);
    expect(s.next(always)?.url).toBe('https://popular.example/');
    const ranks = s.entries();
    expect(ranks[0].score).toBeGreaterThan(0);
    for (let i = 1; i < ranks.length; i++) expect(ranks[i].score).toBeLessThanOrEqual(ranks[i - 1].score);
    for (let i = 25; i < 50; i++) s.onPage(page(`https://q${i}.example/`, 0.1, []));
    expect(s.runs.map((r) => r.atPage)).toEqual([25, 50]);
  });

  it('when the buffer is full, the page least similar to the topic leaves', () => {
    const s = new PageRankCrawler(ctx({}, 1, 3));
    s.onPage(page('https://a.example/', 0.5, []));
    s.onPage(page('https://b.example/', 0.1, []));
    s.onPage(page('https://c.example/', 0.9, []));
    s.onPage(page('https://d.example/', 0.3, []));
    expect(s.bufferedUrls().sort()).toEqual(['https://a.example/', 'https://c.example/', 'https://d.example/']);
  });
});

describe('InfoSpiders', () => {
  const spiderTopic = { keywords: 'solar telescope' };
  const mk = (params: StrategyContext['params']) => new InfoSpiders({ topic: spiderTopic, maxBuffer: 64, seed: 3, params });

  it('values links by topic words near them, closer words weighing more', () => {
    const agent = { keywords: ['solar', 'telescop'], weights: [1, 1], bias: 0 };
    const near = agentValue(agent, linkWords(link('u', [], ['x', 'solar'], [])));
    const far = agentValue(agent, linkWords(link('u', [], ['solar', 'x', 'y', 'z'], [])));
    const anchor = agentValue(agent, linkWords(link('u', ['solar'], [], [])));
    expect(anchor).toBeGreaterThan(near);
    expect(near).toBeGreaterThan(far);
    expect(far).toBeGreaterThan(0);
  });

  it('energy: gains the page similarity, pays the cost per fetch; dies at zero, reproduces above the threshold with a mutated keyword', () => {
    const s = mk({ population: 2, energy: 1, cost: 0.4, threshold: 1.5 });
    s.addSeeds(['https://a.example/', 'https://b.example/']);
    expect(s.agents.map((a) => a.energy)).toEqual([1, 1]);
    // One fetch per agent: each agent in turn picks from its own frontier.
    const batch = take(s, 10);
    expect(batch.map((e) => e.url)).toEqual(['https://a.example/', 'https://b.example/']);
    // Agent 0 finds a relevant page where "mirror" co-occurs with the keywords; agent 1 an irrelevant one.
    const relevant = page(
      'https://a.example/',
      0.9,
      [link('https://c.example/', ['solar', 'mirror'], ['telescop'], ['mirror']), link('https://d.example/', ['mirror'], [], [])],
      {
        terms: { solar: 3, telescop: 2, mirror: 4, garden: 1 },
      },
    );
    s.onPage(relevant);
    // 1 + 0.9 - 0.4 = 1.5 >= threshold: reproduction, energy split.
    expect(s.agents.length).toBe(3);
    const child = s.agents[2];
    expect(child.parent).toBe(0);
    expect(child.keywords).toEqual(['solar', 'telescop', 'mirror']);
    expect(s.agents[0].keywords).toEqual(['solar', 'telescop']);
    expect(child.energy).toBeCloseTo(0.75, 12);
    expect(s.agents[0].energy).toBeCloseTo(0.75, 12);
    expect(s.events).toEqual([{ kind: 'birth', agent: 2, parent: 0, mutation: 'mirror', atPage: 1 }]);
    s.onPage(page('https://b.example/', 0, [link('https://e.example/', ['garden'])]));
    const agent1 = () => s.agents.find((a) => a.id === 1);
    expect(agent1()!.energy).toBeCloseTo(0.6, 12);
    // Agent 1 follows its only link to another useless page: 0.6 - 0.4 = 0.2.
    let next = take(s, s.agents.length);
    expect(next.map((e) => e.url)).toContain('https://e.example/');
    for (const e of next)
      s.onPage(
        page(
          e.url,
          e.url === 'https://e.example/' ? 0 : 0.1,
          e.url === 'https://e.example/' ? [link('https://f.example/')] : [],
          { from: e.from },
        ),
      );
    expect(agent1()!.energy).toBeCloseTo(0.2, 12);
    // And once more: 0.2 - 0.4 < 0, it dies (its frontier with it).
    next = take(s, s.agents.length);
    expect(next.map((e) => e.url)).toContain('https://f.example/');
    for (const e of next) s.onPage(page(e.url, e.url === 'https://f.example/' ? 0 : 0.1, [], { from: e.from }));
    expect(agent1()).toBeUndefined();
    expect(s.events.at(-1)).toMatchObject({ kind: 'death', agent: 1 });
  });

  it('Q-learning moves the value of the followed link toward reward + discounted next value', () => {
    const s = mk({ population: 1, learningRate: 0.5, cost: 0 });
    s.addSeeds(['https://a.example/']);
    s.next(always);
    s.onPage(page('https://a.example/', 0.5, [link('https://b.example/', ['solar'], [], [])]));
    const agent = s.agents[0];
    const words = linkWords(link('https://b.example/', ['solar'], [], []));
    const before = agentValue(agent, words);
    const e = s.next(always)!;
    expect(e.url).toBe('https://b.example/');
    s.onPage(page('https://b.example/', 1, [], { from: 'https://a.example/' }));
    const after = agentValue(s.agents[0], words);
    expect(after).toBeGreaterThan(before); // reward 1 > predicted value
  });

  it('picks the co-occurring term from windows around keyword-bearing links', () => {
    const p = page(
      'https://a.example/',
      0.5,
      [link('u1', ['solar'], ['filter'], ['filter']), link('u2', ['garden'], ['rose'], ['rose', 'rose'])],
      { terms: { rose: 9, filter: 2, solar: 1 } },
    );
    expect(cooccurringTerm(p, ['solar'])).toBe('filter');
    expect(cooccurringTerm(page('x', 0, [], { terms: { rose: 3 } }), ['solar'])).toBeUndefined();
  });
});

describe('Shark-search', () => {
  it('inherited score decays with distance from the last relevant page; anchor and context add the neighborhood score', () => {
    const s = new SharkSearch(ctx({ decay: 0.5, threshold: 0.3, gamma: 0.8, beta: 0.8 }, 1, 256));
    s.onPage(page('https://rel.example/', 0.8, [link('https://a1.example/')]));
    expect(s.inheritedOf('https://a1.example/')).toBeCloseTo(0.4, 12);
    s.onPage(page('https://a1.example/', 0.1, [link('https://a2.example/')]));
    expect(s.inheritedOf('https://a2.example/')).toBeCloseTo(0.2, 12);
    s.onPage(page('https://a2.example/', 0.0, [link('https://a3.example/'), link('https://a3b.example/', ['solar'])]));
    expect(s.inheritedOf('https://a3.example/')).toBeCloseTo(0.1, 12);
    const byUrl = new Map(s.entries().map((e) => [e.url, e.score]));
    expect(byUrl.get('https://a3.example/')).toBeCloseTo(0.8 * 0.1, 12);
    // Anchor 'solar' has cosine 1/sqrt(2) with the topic; its context then counts 1.
    expect(byUrl.get('https://a3b.example/')).toBeCloseTo(0.8 * 0.1 + 0.2 * (0.8 * Math.SQRT1_2 + 0.2 * 1), 12);
    // A relevant page resets the inheritance.
    s.onPage(page('https://a3.example/', 0.6, [link('https://a4.example/')]));
    expect(s.inheritedOf('https://a4.example/')).toBeCloseTo(0.3, 12);
  });

  it('queues each link with the potential scoreLinks gives it: anchor, words around it, or neither', () => {
    const s = new SharkSearch(ctx({ decay: 0.5, threshold: 0.3, gamma: 0.8, beta: 0.8 }, 1, 256));
    const p = page('https://rel.example/', 0.7, [
      link('https://anchor.example/', ['solar', 'mirror']),
      link('https://context.example/', [], ['garden', 'solar'], ['lens', 'solar']),
      link('https://before.example/', [], ['solar']),
      link('https://none.example/', ['garden'], ['garden']),
    ]);
    const scored = s.scoreLinks(p);
    // The words around an anchorless link count (not 0, not the matched anchor's 1).
    const context = scored.find((x) => x.url === 'https://context.example/')!.score.context;
    expect(context).toBeGreaterThan(0);
    expect(context).toBeLessThan(1);
    s.onPage(p);
    const queued = new Map(s.entries().map((e) => [e.url, e.score]));
    for (const { url, score } of scored) expect(queued.get(url)).toBe(score.potential);
    expect(new Set(scored.map((x) => x.score.potential)).size).toBe(4);
  });

  it('depth bound: irrelevant paths end after D steps', () => {
    const s = new SharkSearch(ctx({ depth: 2, threshold: 0.3 }, 1, 256));
    s.addSeeds(['https://seed.example/']);
    s.next(always);
    s.onPage(page('https://seed.example/', 0.9, [link('https://b1.example/')], { depth: 0 }));
    s.next(always);
    s.onPage(page('https://b1.example/', 0, [link('https://b2.example/')]));
    expect(s.entries().map((e) => e.url)).toEqual(['https://b2.example/']);
    s.next(always);
    s.onPage(page('https://b2.example/', 0, [link('https://b3.example/')]));
    expect(s.frontierSize()).toBe(0);
  });
});

describe('Anchor-text crawler', () => {
  it('retrains its centroid every K pages from anchors that led to relevant pages, and that changes link scores', () => {
    const s = new AnchorTextCrawler(ctx({ interval: 3, threshold: 0.5 }, 1, 256));
    s.onPage(
      page('https://p.example/', 0.1, [
        link('https://hit.example/', ['mirror', 'lens']),
        link('https://miss.example/', ['garden']),
        link('https://q.example/', ['mirror']),
      ]),
    );
    expect(s.entries().find((e) => e.url === 'https://q.example/')!.score).toBe(0);
    expect(s.next(always)?.url).toBe('https://hit.example/'); // all score 0: the first found
    s.onPage(page('https://hit.example/', 0.9, [])); // relevant: its anchor is a positive example
    s.onPage(page('https://miss.example/', 0.0, [link('https://r.example/', ['garden'])])); // irrelevant: no negative example
    expect(s.retrainings).toBe(1);
    expect(s.centroid.size).toBe(1);
    expect(s.scoreAnchor(['garden'])).toBe(0);
    const q = s.entries().find((e) => e.url === 'https://q.example/')!;
    expect(q.score).toBeGreaterThan(0);
    expect(s.entries()[0].url).toBe('https://q.example/');
  });
});

describe('Adaptive Best-N-First', () => {
  it('explores (larger N) when the harvest falls and exploits (smaller N) when it rises', () => {
    const s = new AdaptiveBestNFirst(ctx({ n: 8, window: 5, factor: 2, tolerance: 0.1 }, 1, 256));
    const feed = (score: number, k: number) => {
      for (let i = 0; i < k; i++) s.onPage(page(`https://x${Math.random()}.example/`, score, []));
    };
    feed(0.5, 5);
    expect(s.n).toBe(8);
    feed(0.2, 5);
    expect(s.n).toBe(16);
    feed(0.1, 5);
    expect(s.n).toBe(32);
    feed(0.4, 5);
    expect(s.n).toBe(16);
    feed(0.41, 5); // within tolerance: no change
    expect(s.n).toBe(16);
    expect(s.changes.map((c) => [c.from, c.to])).toEqual([
      [8, 16],
      [16, 32],
      [32, 16],
    ]);
    for (let i = 0; i < 40; i++) s.onPage(page(`https://l${i}.example/`, 0.3 + i / 1000, [link(`https://m${i}.example/`)]));
    // The next link is drawn from the top N, whatever N has become.
    const topN = new Set(
      s
        .entries()
        .slice(0, s.n)
        .map((e) => e.url),
    );
    expect(s.n).toBeLessThan(40);
    expect(topN.has(s.next(always)!.url)).toBe(true);
  });
});

describe('Forager classic', () => {
  it('scores links from page, anchor, context, URL words and learned examples', () => {
    const s = new ForagerClassic(ctx({ interval: 1, n: 1 }, 1, 256));
    const plain = s.scoreLink(link('https://h.example/a.html'), 0.2, 0).score;
    const anchor = s.scoreLink(link('https://h.example/a.html', ['solar']), 0.2, 0).score;
    const context = s.scoreLink(link('https://h.example/a.html', [], ['solar'], []), 0.2, 0).score;
    const url = s.scoreLink(link('https://h.example/solar-telescope.html'), 0.2, 0).score;
    expect(anchor.total).toBeGreaterThan(plain.total);
    expect(context.total).toBeGreaterThan(plain.total);
    expect(url.total).toBeGreaterThan(plain.total);
    expect(url.url).toBe(1);
    expect(s.scoreLink(link('https://h.example/a.html'), 0.6, 0).score.total).toBeGreaterThan(plain.total);
    // Learning: links that led to relevant pages teach their words.
    s.onPage(
      page('https://p.example/', 0.1, [
        link('https://h.example/mirror-1.html', ['mirror']),
        link('https://h.example/mirror-2.html', ['mirror']),
      ]),
    );
    const before = s.entries().find((e) => e.url.endsWith('mirror-2.html'))!.score;
    s.next(always);
    const [first] = s.entries();
    expect(first).toBeDefined();
    s.onPage(page('https://h.example/mirror-1.html', 0.9, []));
    expect(s.centroid.size).toBe(1);
    const after = s.entries().find((e) => e.url.endsWith('mirror-2.html'))!.score;
    expect(after).toBeGreaterThan(before);
  });
});

describe('Forager classic: exploration and URL rarity', () => {
  it('a keyword found in every URL of a site weighs less than a rare one', () => {
    const s = new ForagerClassic({ topic: { keywords: 'libpq library' }, maxBuffer: 256, seed: 1, params: { interval: 1 } });
    expect(s.urlScore(['librari'])).toBeCloseTo(s.urlScore(['libpq']), 12);
    const links = Array.from({ length: 60 }, (_, i) => link(`https://py.example/library/mod${i}.html`));
    links.push(link('https://pg.example/libpq-connect.html'));
    s.onPage(page('https://py.example/library/index.html', 0.3, links));
    expect(s.urlScore(['libpq'])).toBeGreaterThan(4 * s.urlScore(['librari']));
    expect(s.entries()[0].url).toBe('https://pg.example/libpq-connect.html');
  });

  it('explore = 1 of n = 4: a quarter of the links drawn come from outside the best three ready ones', () => {
    let outside = 0;
    const draws = 200;
    for (let seed = 1; seed <= draws; seed++) {
      const s = new ForagerClassic(ctx({ n: 4, explore: 1 }, seed, 256));
      const links = Array.from({ length: 40 }, (_, i) => link(`https://h.example/p${i}.html`));
      s.onPage(page('https://p.example/', 0.5, links));
      for (let i = 0; i < 10; i++)
        s.onPage(page(`https://q${i}.example/`, 0.9 + i / 100, [link(`https://h.example/top${i}.html`, ['solar'])]));
      const top = new Set(
        s
          .entries()
          .slice(0, 3)
          .map((e) => e.url),
      );
      if (!top.has(s.next(always)!.url)) outside++;
    }
    // Expected draws / 4 = 50 (binomial, sd ~6).
    expect(outside).toBeGreaterThan(30);
    expect(outside).toBeLessThan(70);
    const greedy = new ForagerClassic(ctx({ n: 4, explore: 0 }, 1, 256));
    for (let i = 0; i < 10; i++)
      greedy.onPage(page(`https://q${i}.example/`, 0.9, [link(`https://h.example/top${i}.html`, ['solar'])]));
    greedy.onPage(
      page(
        'https://p.example/',
        0.1,
        Array.from({ length: 40 }, (_, i) => link(`https://h.example/p${i}.html`)),
      ),
    );
    // Seven draws from the best four leave at least four top links in the window every time.
    expect(take(greedy, 7).every((e) => e.url.includes('top'))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// On the generated test web, through the real crawl loop and fetcher.

describe('seed-paper strategies on the test web', () => {
  let tw: RunningTestWeb;
  beforeAll(async () => {
    tw = await startTestWeb({ seed: 11 });
  });
  afterAll(async () => {
    await tw?.close();
  });

  /** Registers a probe strategy that builds `make(ctx)` and hands the instance to the test. */
  let probes = 0;
  function probe<T extends Strategy>(make: (c: StrategyContext) => T): { name: string; get: () => T } {
    const name = `probe-${probes++}`;
    let instance: T | undefined;
    registerStrategy({
      name,
      label: name,
      description: 'test probe',
      source: 'test',
      params: [],
      create: (c) => (instance = make(c)),
    });
    return { name, get: () => instance! };
  }

  async function crawlWith(
    name: string,
    maxPages: number,
    params: StrategyContext['params'] = {},
    maxBuffer = 256,
  ): Promise<string[]> {
    const t = tw.web.topics[0];
    const fetcher = createFetcher({ politenessDelayMs: 0, urlPolicy: { allowPrivate: true } });
    const c = createCrawl({
      topic: { keywords: t.keywords },
      seeds: [tw.portalUrl],
      strategy: { name, params, seed: 1 },
      limits: { maxPages, maxBuffer },
      fetcher,
    });
    const urls: string[] = [];
    try {
      for await (const ev of c.events()) if (ev.type === 'page') urls.push(ev.page.url);
    } finally {
      (fetcher as { close?: () => void }).close?.();
    }
    return urls;
  }

  const onTopic = (urls: string[]) => {
    const t = tw.web.topics[0].id;
    const byUrl = new Map([...tw.web.pages.values()].map((p) => [tw.urlOf(p), p]));
    return urls.filter((u) => byUrl.get(u)?.topic === t).length;
  };

  it('PageRank: recomputes every 25 pages and always fetches the top-ranked ready frontier URL', async () => {
    const picks: { best: string; got: string }[] = [];
    class Probe extends PageRankCrawler {
      override next(ready: (url: string) => boolean) {
        const best = this.entries().find((e) => ready(e.url))?.url;
        const got = super.next(ready);
        if (best && got) picks.push({ best, got: got.url });
        return got;
      }
    }
    const p = probe((c) => new Probe(c));
    const urls = await crawlWith(p.name, 110);
    expect(urls.length).toBe(110);
    expect(p.get().runs.map((r) => r.atPage)).toEqual([25, 50, 75, 100]);
    for (const r of p.get().runs) {
      expect(r.nodes).toBeGreaterThan(25);
      expect(r.edges).toBeGreaterThan(25);
    }
    expect(picks.length).toBeGreaterThan(100);
    for (const { best, got } of picks) expect(got).toBe(best);
  });

  it('InfoSpiders: agents reproduce with mutated keywords and die; the shared frontier stays within MAX_BUFFER', async () => {
    const p = probe(
      (c) =>
        new InfoSpiders({
          ...c,
          params: {
            population: 4,
            maxPopulation: 16,
            energy: 1,
            // Cost enough that some agents starve within 150 pages (at 0.15 the population only grows).
            cost: 0.25,
            threshold: 1.3,
            beta: 3,
            learningRate: 0.2,
            gamma: 0.5,
          },
        }),
    );
    const urls = await crawlWith(p.name, 150, {}, 64);
    expect(urls.length).toBeGreaterThan(100);
    const s = p.get();
    const births = s.events.filter((e) => e.kind === 'birth');
    const deaths = s.events.filter((e) => e.kind === 'death');
    expect(births.length).toBeGreaterThan(0);
    expect(deaths.length).toBeGreaterThan(0);
    const mutated = births.filter((b) => b.mutation);
    expect(mutated.length).toBeGreaterThan(0);
    const topicKw = [...new Set(tokenize(tw.web.topics[0].keywords))];
    for (const b of mutated) expect(topicKw).not.toContain(b.mutation);
    expect(s.frontierSize()).toBeLessThanOrEqual(64);
    // Living offspring carry the founders' keywords plus mutations.
    const kids = s.agents.filter((a) => a.parent !== null);
    expect(kids.length).toBeGreaterThan(0);
    for (const kid of kids) {
      expect(kid.keywords.slice(0, topicKw.length)).toEqual(topicKw);
      expect(kid.keywords.length).toBeGreaterThan(topicKw.length);
    }
  });

  it('Shark-search: inherited scores decay with distance from relevant pages in a real crawl', async () => {
    const seen: { sim: number; own: number; child: number; relevant: boolean }[] = [];
    class Probe extends SharkSearch {
      override onPage(page: EvaluatedPage) {
        const own = this.inheritedOf(page.requestedUrl) ?? 0;
        const scored = this.scoreLinks(page);
        if (scored.length)
          seen.push({
            sim: page.evaluation.score,
            own,
            child: scored[0].score.inherited,
            relevant: page.evaluation.score > this.params.threshold,
          });
        super.onPage(page);
      }
    }
    const p = probe((c) => new Probe({ ...c, params: { decay: 0.5, beta: 0.8, gamma: 0.8, threshold: 0.25, depth: 0, n: 1 } }));
    await crawlWith(p.name, 80);
    const irrelevant = seen.filter((x) => !x.relevant);
    expect(seen.some((x) => x.relevant)).toBe(true);
    expect(irrelevant.length).toBeGreaterThan(0);
    for (const x of seen) expect(x.child).toBeCloseTo(x.relevant ? 0.5 * x.sim : 0.5 * x.own, 12);
    // Links two steps from a relevant page: the decayed score decays again.
    expect(irrelevant.some((x) => x.own > 0 && x.child > 0 && x.child < x.own)).toBe(true);
  });

  it('Anchor-text: retrains every K pages from relevant pages, changing queued link scores', async () => {
    const changes: number[] = [];
    class Probe extends AnchorTextCrawler {
      override retrain() {
        const before = new Map(this.entries().map((e) => [e.url, e.score]));
        super.retrain();
        changes.push(this.entries().filter((e) => before.has(e.url) && before.get(e.url) !== e.score).length);
      }
    }
    const p = probe((c) => new Probe({ ...c, params: { interval: 10, threshold: 0.2, prior: 1, n: 1 } }));
    await crawlWith(p.name, 80);
    const s = p.get();
    expect(s.retrainings).toBeGreaterThan(2);
    expect(s.centroid.size).toBeGreaterThan(3);
    expect(changes.some((n) => n > 0)).toBe(true);
  });

  it('Adaptive Best-N-First: N follows the harvest during a real crawl', async () => {
    const p = probe(
      (c) => new AdaptiveBestNFirst({ ...c, params: { n: 8, nMin: 1, nMax: 64, window: 10, factor: 2, tolerance: 0.05 } }),
    );
    await crawlWith(p.name, 150);
    const s = p.get();
    expect(s.changes.length).toBeGreaterThan(0);
    for (const c of s.changes) {
      if (c.after < c.before) expect(c.to).toBeGreaterThan(c.from);
      else expect(c.to).toBeLessThan(c.from);
    }
  });

  it('Forager finds more on-topic pages than Breadth-First, and learns from the links it followed', async () => {
    const p = probe((c) => new ForagerStrategy({ ...c, params: resolveParams(getStrategyInfo('forager')!, {}) }));
    const forager = await crawlWith(p.name, 80);
    const bfs = await crawlWith('breadth-first', 80);
    expect(onTopic(forager)).toBeGreaterThan(onTopic(bfs));
    expect(onTopic(forager)).toBeGreaterThan(40);
    expect(p.get().centroid.size).toBeGreaterThan(5);
  });
});

import { describe, expect, it } from 'vitest';
import {
  bm25Scores,
  documentFrequencies,
  idfWeights,
  mean,
  meanOverCrawl,
  pageRank,
  maxPairedT,
  pairedComparison,
  rankBy,
  setRecall,
  sparseCosine,
  spreadOverSeeds,
  standardError,
  tfidf,
  topK,
  type CrawledPage,
  type RankDoc,
} from '../../lab/metrics';
import type { TermVector } from '../../lib/engine/types';
import {
  compareStrategies,
  corpusBm25,
  corpusIdf,
  DescriptionSimilarity,
  knownSimilarityCrawl,
  reachableThroughTopicWords,
  knownTargetsCrawl,
  type MetricResult,
  missedTargets,
  reachableFrom,
  staticRankings,
} from '../../lab/analysis';
import { CorpusIndex, type CorpusDoc } from '../../lab/corpus';
import { globToRegExp } from '../../lab/sites';
import { corpusDoc } from './corpus-doc';

describe('statistics', () => {
  it('mean and standard error (sample sd / sqrt n)', () => {
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    // sd = sqrt(5/3) = 1.290994; se = sd / 2
    expect(standardError([1, 2, 3, 4])).toBeCloseTo(0.645497, 6);
    expect(Number.isNaN(standardError([3]))).toBe(true);
    expect(Number.isNaN(mean([]))).toBe(true);
  });

  it('paired comparison: mean difference, its standard error, wins/ties/losses', () => {
    const pc = pairedComparison([0.5, 0.6, 0.7, 0.4], [0.4, 0.6, 0.5, 0.5]);
    expect(pc.meanDiff).toBeCloseTo(0.05, 12);
    expect(pc.se).toBeCloseTo(0.0645497, 6);
    expect(pc.t).toBeCloseTo(0.05 / 0.0645497, 4);
    expect([pc.wins, pc.ties, pc.losses, pc.n]).toEqual([2, 1, 1, 4]);
    expect(() => pairedComparison([1], [1, 2])).toThrow(RangeError);
  });
});

describe('BM25', () => {
  // d1 = "a a b" (3 tokens), d2 = "a" (1), d3 = "c c c" (3); N = 3, avgdl = 7/3, df(a) = 2.
  const docs: RankDoc[] = [
    { id: 'd1', tf: { a: 2, b: 1 }, length: 3 },
    { id: 'd2', tf: { a: 1 }, length: 1 },
    { id: 'd3', tf: { c: 3 }, length: 3 },
  ];
  it('matches hand-computed scores (k1 1.2, b 0.75, idf ln(1 + (N - n + .5)/(n + .5)))', () => {
    const s = bm25Scores(docs, ['a']);
    // idf = ln 1.6 = 0.470004; d1: 0.470004 * 4.4 / (2 + 1.457143); d2: 0.470004 * 2.2 / (1 + 0.685714)
    expect(s[0]).toBeCloseTo(0.598187, 5);
    expect(s[1]).toBeCloseTo(0.613394, 5);
    expect(s[2]).toBe(0);
    expect(
      rankBy(
        docs.map((d) => d.id),
        s,
      ),
    ).toEqual(['d2', 'd1', 'd3']);
  });
  it('counts repeated query terms and ranks the rarer term higher', () => {
    const once = bm25Scores(docs, ['a', 'c']);
    const twice = bm25Scores(docs, ['a', 'a', 'c']);
    expect(twice[0]).toBeCloseTo(2 * once[0], 10);
    // c occurs in one document only, so d3 (c x3) beats both a-documents.
    expect(
      rankBy(
        docs.map((d) => d.id),
        once,
      )[0],
    ).toBe('d3');
  });
});

describe('PageRank', () => {
  it('matches the closed-form solution on a 3-page graph (d = 0.85)', () => {
    // A -> B, A -> C, B -> C, C -> A
    const pr = pageRank([[1, 2], [2], [0]]);
    expect(pr[0]).toBeCloseTo(0.38779, 4);
    expect(pr[1]).toBeCloseTo(0.214811, 4);
    expect(pr[2]).toBeCloseTo(0.3974, 4);
    expect(pr.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 9);
  });
  it('spreads the rank of dangling pages uniformly', () => {
    // A -> B, B has no outlinks: A = 0.350877, B = 0.649123
    const pr = pageRank([[1], []]);
    expect(pr[0]).toBeCloseTo(0.350877, 5);
    expect(pr[1]).toBeCloseTo(0.649123, 5);
  });
  it('breaks ties in rankings', () => {
    expect(rankBy(['x', 'y', 'z'], [2, 2, 1], [0.1, 0.5, 0.9])).toEqual(['y', 'x', 'z']);
  });
});

describe('crawl measures', () => {
  const pages: CrawledPage[] = [
    { id: 's1', isSeed: true },
    { id: 't1', isSeed: false },
    { id: 'x', isSeed: false },
    { id: 't2', isSeed: false },
    { id: 't1', isSeed: false },
    { id: undefined, isSeed: false },
  ];
  it('target recall excludes seeds from both sides and counts a page once', () => {
    const targets = ['s1', 't1', 't2', 't3'];
    expect(setRecall(pages, 1, targets, ['s1'])).toBe(0);
    expect(setRecall(pages, 2, targets, ['s1'])).toBeCloseTo(1 / 3, 12);
    expect(setRecall(pages, 4, targets, ['s1'])).toBeCloseTo(2 / 3, 12);
    expect(setRecall(pages, 100, targets, ['s1'])).toBeCloseTo(2 / 3, 12);
    expect(Number.isNaN(setRecall(pages, 5, ['s1'], ['s1']))).toBe(true);
  });
  it('harvest averages over non-seed pages only (pages outside the corpus count 0)', () => {
    const value = (id: string) => ({ s1: 1, t1: 0.5, x: 0.1, t2: 0.3 })[id] ?? 0;
    expect(meanOverCrawl(pages, 3, value)).toBeCloseTo((0.5 + 0.1) / 2, 12);
    expect(meanOverCrawl(pages, 6, value)).toBeCloseTo((0.5 + 0.1 + 0.3 + 0.5 + 0) / 5, 12);
  });
  it('topK skips excluded pages', () => {
    expect(topK(['a', 'b', 'c', 'd', 'e'], 3, new Set(['b', 'd']))).toEqual(['a', 'c', 'e']);
  });
  it('TF-IDF cosine with corpus IDF', () => {
    const df = documentFrequencies([{ tf: { a: 1 } }, { tf: { a: 1, b: 1 } }, { tf: { c: 1 } }, { tf: { b: 1, c: 1 } }]);
    const idf = idfWeights(df, 4); // every term: ln 2
    const v1 = tfidf({ a: 1, b: 1 }, idf);
    const v2 = tfidf({ a: 1, zzz: 5 }, idf); // unknown terms dropped
    expect([...v2.keys()]).toEqual(['a']);
    expect(sparseCosine(v1, v2)).toBeCloseTo(1 / Math.SQRT2, 12);
    expect(sparseCosine(v1, v1)).toBeCloseTo(1, 12);
    expect(sparseCosine(v1, new Map())).toBe(0);
  });
});

describe('static rankings', () => {
  const doc = corpusDoc;

  it('ranks by BM25 against the description and by distinct keywords with PageRank ties', () => {
    // three is linked from every other page, so its PageRank is above one's
    const corpus = CorpusIndex.fromDocs([
      doc('s/one.html', { solar: 3, panel: 1 }, [2]),
      doc('s/two.html', { solar: 1 }, [2]),
      doc('s/three.html', { panel: 1, solar: 1 }),
      doc('s/four.html', { wind: 4 }, [2]),
    ]);
    expect(corpus.pagerank[2]).toBeGreaterThan(corpus.pagerank[0]);
    const r = staticRankings(
      { id: 't', keywords: 'solar panels', description: 'solar', targets: [], examples: [], neighbors: [] },
      corpus,
    );
    expect(r.keywords).toEqual(['solar', 'panel']);
    // both keywords: one and three -> three first (higher PageRank); then two; four has none and is left out
    expect(r.linkage).toEqual(['s/three.html', 's/one.html', 's/two.html']);
    expect(r.lexical).not.toContain('s/four.html');
    expect(r.lexical.length).toBe(3);
  });

  it('BM25 through the inverted index equals BM25 over every page, to the bit', () => {
    let state = 7;
    const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const vocab = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];
    const docs: CorpusDoc[] = Array.from({ length: 60 }, (_, i) => {
      const terms: TermVector = {};
      for (const w of vocab) if (rand() < 0.4) terms[w] = 1 + Math.floor(rand() * 9);
      return doc(`s/p${i}.html`, terms);
    });
    const corpus = CorpusIndex.fromDocs(docs);
    const query = ['beta', 'eta', 'beta', 'nothere', 'alpha'];
    const plain = bm25Scores(
      docs.map((d) => ({ id: d.id, tf: d.terms, length: d.length })),
      query,
    );
    expect([...corpusBm25(corpus, query)]).toEqual(plain);
    // term vectors come back in the evaluator's order, and IDF is ln(N / df)
    expect(Object.keys(corpus.tf(3))).toEqual(Object.keys(docs[3].terms));
    const df = docs.filter((d) => d.terms.beta).length;
    expect(corpus.idf('beta')).toBe(Math.log(60 / df));
    expect(corpus.idf('nothere')).toBeUndefined();
  });

  it("harvest's similarity to a description equals the cosine of the pages' TF-IDF vectors, to the bit", () => {
    let state = 11;
    const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // numeric terms come first in an object's order; 'every' is on every page (IDF 0, left out of the vectors)
    const vocab = [
      'alpha',
      '900',
      'beta',
      '42',
      'gamma',
      '7',
      '13',
      'delta',
      '042',
      'zeta',
      '4294967295',
      '5',
      'theta',
      '1e3',
      'kappa',
      '0',
      '300',
    ];
    const docs: CorpusDoc[] = Array.from({ length: 80 }, (_, i) => {
      const terms: TermVector = {};
      for (const w of vocab) if (rand() < 0.45) terms[w] = 1 + Math.floor(rand() * 9);
      terms.every = 1 + (i % 3);
      return doc(`s/p${i}.html`, terms);
    });
    const corpus = CorpusIndex.fromDocs(docs);
    const idf = corpusIdf(corpus);
    const similarity = new DescriptionSimilarity(corpus);
    const descriptions: TermVector[] = [
      { beta: 2, '42': 1, theta: 1, nothere: 3 }, // smaller than most pages
      // larger than every page, its terms in another order: the sum runs in the page's order
      Object.fromEntries([...vocab].reverse().map((w, i) => [w, 1 + (i % 4)])),
      { every: 1 }, // a zero vector: similarity 0
      { '7': 1, alpha: 1, kappa: 2, eta: 1, zeta: 1 },
    ];
    // every description's measure made first, then used in turn: analyze() keeps one per topic and task
    const measures = descriptions.map((d) => ({ desc: tfidf(d, idf), of: similarity.to(tfidf(d, idf)) }));
    let compared = 0;
    for (let i = 0; i < corpus.size; i++)
      for (const { desc, of } of measures) {
        expect(Object.is(of(i), sparseCosine(tfidf(corpus.tf(i), idf), desc))).toBe(true);
        compared++;
      }
    expect(compared).toBe(320);
    expect(similarity.to(tfidf({ every: 1 }, idf))(0)).toBe(0);
    expect(similarity.to(tfidf({ beta: 1 }, idf))(docs.findIndex((x) => x.terms.beta))).toBeGreaterThan(0);
  });

  it('PageRank over compressed rows equals the plain power iteration', () => {
    const outlinks = [[1, 2], [2], [0], [], [0, 1, 2]];
    const corpus = CorpusIndex.fromDocs(outlinks.map((l, i) => doc(`s/${i}.html`, { x: 1 }, l)));
    expect([...corpus.pagerank]).toEqual(pageRank(outlinks));
    expect([...corpus.outlinks(4)]).toEqual([0, 1, 2]);
    expect(corpus.inlinks().map((x) => [...x])).toEqual([[2, 4], [0, 4], [0, 1, 4], [], []]);
  });

  it('reachable pages: every page some path of links from the seeds leads to, the seeds included', () => {
    const outlinks = [[1], [2], [0], [4], [], [5, 0]];
    const corpus = CorpusIndex.fromDocs(outlinks.map((l, i) => doc(`s/${i}.html`, { x: 1 }, l)));
    expect([...reachableFrom(corpus, ['s/1.html'])]).toEqual([1, 1, 1, 0, 0, 0]);
    expect([...reachableFrom(corpus, ['s/3.html', 's/5.html', 'gone/x.html'])]).toEqual([1, 1, 1, 1, 1, 1]);
    expect([...reachableFrom(corpus, [])]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('missed targets are sorted by their distance in links from the crawled pages', () => {
    // 0 -> 1 -> 2 -> 3 -> 4; 0 -> 5; 6 unreachable from the seed
    const outlinks = [[1, 5], [2], [3], [4], [], [], [0]];
    const corpus = CorpusIndex.fromDocs(outlinks.map((l, i) => doc(`s/${i}.html`, { x: 1 }, l)));
    const t = (...i: number[]) => i.map((k) => `s/${k}.html`);
    // crawled 0 and 1 (then 5, beyond the budget): 2 is one link away, 3 two, 4 three; 5 is one; 6 is not reachable
    const m = missedTargets(corpus, t(0), t(2, 3, 4, 5, 6, 0), t(0, 1, 5), 2);
    expect(m.reachable).toBe(4);
    expect(m.missed).toEqual(t(2, 3, 4, 5));
    expect([m.oneHop, m.twoHops]).toEqual([2, 1]);
    // within the budget every reachable target found: nothing missed
    expect(missedTargets(corpus, t(0), t(1, 5), t(0, 1, 5), 3).missed).toEqual([]);
  });

  it('a crawl that knows the targets takes the path to the nearest one first, within the budget', () => {
    // 0 -> 1 -> 2 -> 3 (target, 3 hops); 0 -> 4 (target, 1 hop) -> 5 -> 6 (target); 7 (target) unreachable
    const outlinks = [[1, 4], [2], [3], [], [5], [6], [], []];
    const corpus = CorpusIndex.fromDocs(outlinks.map((l, i) => doc(`s/${i}.html`, { x: 1 }, l)));
    const t = (...i: number[]) => i.map((k) => `s/${k}.html`);
    // seed 0 is page 1; target 4 at page 2; then 6 (two new pages: 5, 6) at 4; then 3 (1, 2, 3) at 7
    expect(knownTargetsCrawl(corpus, t(0), t(3, 4, 6, 7), 100)).toEqual([2, 4, 7]);
    // the budget cuts a path short: the last target is not reached
    expect(knownTargetsCrawl(corpus, t(0), t(3, 4, 6), 6)).toEqual([2, 4]);
    // seeds that are targets are not found again; a seed missing from the corpus costs nothing
    expect(knownTargetsCrawl(corpus, t(0, 4, 99), t(4, 6), 100)).toEqual([4]);
  });

  it("a crawl that knows each page's similarity fetches the most similar discovered page first, within the budget", () => {
    // 0 -> 1 (off topic) -> 3 (target, on topic); 0 -> 2 (half on topic) -> 4 (target, off topic) and -> 5 (on topic)
    const outlinks = [[1, 2], [3], [4, 5], [], [], []];
    const words: TermVector[] = [{ x: 1 }, { other: 1 }, { solar: 1, other: 1 }, { solar: 2 }, { other: 3 }, { solar: 1 }];
    const corpus = CorpusIndex.fromDocs(outlinks.map((l, i) => doc(`s/${i}.html`, words[i], l)));
    const t = (...i: number[]) => i.map((k) => `s/${k}.html`);
    const topic = { solar: 1 };
    // order: seed 0, then 2 (0.71 > 0), then 5 (1.0), then 1 and 4 (both 0: in the order found), then 3 (1.0, found via 1)
    expect(knownSimilarityCrawl(corpus, t(0), t(3, 4), 100, topic)).toEqual([5, 6]);
    expect(knownSimilarityCrawl(corpus, t(0), t(3, 4), 4, topic)).toEqual([]);
    // a seed that is a target is not counted; a seed missing from the corpus costs nothing
    expect(knownSimilarityCrawl(corpus, t(3, 99), t(3), 100, topic)).toEqual([]);
    expect(knownSimilarityCrawl(corpus, t(2, 99), t(5, 4), 2, topic)).toEqual([2]);
  });

  it('follows only the seeds and pages with a topic word to tell the targets behind a page without one', () => {
    // 0 (seed, off topic: followed all the same) -> 1 (off topic: reached, not followed) -> 2; 0 -> 3 (on topic) -> 4
    // (off topic: reached, not followed) -> 5 (on topic) -> 6; 7 linked from nothing
    const outlinks = [[1, 3], [2], [], [4], [5], [6], [], []];
    const words: TermVector[] = [{ x: 1 }, { x: 1 }, { solar: 1 }, { solar: 1 }, { x: 1 }, { solar: 1 }, { solar: 1 }, {}];
    const corpus = CorpusIndex.fromDocs(outlinks.map((l, i) => doc(`s/${i}.html`, words[i], l)));
    const reached = reachableThroughTopicWords(corpus, ['s/0.html', 's/99.html'], { solar: 1, absent: 1 });
    expect([...reached]).toEqual([1, 1, 0, 1, 1, 0, 0, 0]);
    // a seed is followed even without a topic word; 5 holds one, so 6 is reached
    expect([...reachableThroughTopicWords(corpus, ['s/4.html'], { solar: 1 })]).toEqual([0, 0, 0, 0, 1, 1, 1, 0]);
  });
});

describe('hub globs', () => {
  it('* stays inside a segment, ** crosses them', () => {
    expect(globToRegExp('genindex*.html').test('genindex-A.html')).toBe(true);
    expect(globToRegExp('*/index.html').test('library/index.html')).toBe(true);
    expect(globToRegExp('*/index.html').test('a/b/index.html')).toBe(false);
    expect(globToRegExp('releases/**').test('releases/1.2/x.html')).toBe(true);
    expect(globToRegExp('release*.html').test('release-15-1.html')).toBe(true);
    expect(globToRegExp('index.html').test('xindex.html')).toBe(false);
  });
});

describe('maxPairedT', () => {
  it('is sqrt((n - k)(n - 1) / k) with k of n topics at the maximum', () => {
    expect(maxPairedT([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.35, 0.2])).toBeCloseTo(Math.sqrt((2 * 11) / 10), 12); // 1.48
    expect(maxPairedT([1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0])).toBeCloseTo(Math.sqrt((4 * 11) / 8), 12); // 2.35
    expect(maxPairedT([0.5, 0.9, 0.99])).toBe(Infinity);
    expect(maxPairedT([1, 1, 1])).toBe(0);
    expect(maxPairedT([0.6, 0.5], 0.5)).toBeCloseTo(0, 12); // both at a maximum of 0.5
    expect(maxPairedT([1])).toBeNaN();
  });

  it('bounds the paired t of every strategy A, and the bound is reached', () => {
    // Deterministic pseudo-random search: many B's with some saturated topics, many A's in [0, 1]^n.
    let state = 12345;
    const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 200; trial++) {
      const n = 3 + (trial % 6);
      const b: number[] = Array.from({ length: n }, () => (rand() < 0.5 ? 1 : rand()));
      if (!b.includes(1)) b[0] = 1;
      if (b.every((v) => v >= 1)) b[n - 1] = 0.3;
      const bound = maxPairedT(b);
      for (let i = 0; i < 300; i++) {
        const a = b.map((v) => (rand() < 0.3 ? v : Math.min(1, v + rand() * (1 - v) + (rand() < 0.2 ? -rand() * v : 0))));
        const { t } = pairedComparison(a, b);
        if (Number.isFinite(t)) expect(t).toBeLessThanOrEqual(bound + 1e-9);
      }
      // Reached: A = 1 everywhere beats B by the same margin on every unsaturated topic only when those margins are
      // equal, so take A = B + c on unsaturated topics (c = the smallest headroom).
      const c = Math.min(...b.filter((v) => v < 1).map((v) => 1 - v));
      const best = pairedComparison(
        b.map((v) => (v < 1 ? v + c : v)),
        b,
      );
      expect(best.t).toBeCloseTo(bound, 9);
    }
  });
});

describe('compareStrategies', () => {
  const cell = (perTopic: Record<string, number>) => ({ mean: 0, se: 0, n: Object.keys(perTopic).length, perTopic });
  const result = (strategy: string, perTopic: Record<string, number>): MetricResult => ({
    task: 2,
    strategy,
    metric: 'recall',
    budgets: { '500': cell(perTopic) },
    dynamic: { pages: [], mean: [], se: [], perTopic: {} },
  });

  it('pairs two strategies of one run over the topics both have', () => {
    const run = [result('a', { t1: 0.5, t2: 0.9, t3: 0.4 }), result('b', { t1: 0.4, t2: 0.6, t3: NaN })];
    const [c] = compareStrategies(run, 'a', 'b');
    expect(c).toMatchObject({ a: 'a', b: 'b', task: 2, metric: 'recall', budget: 500, n: 2, wins: 2 });
    expect(c.meanDiff).toBeCloseTo(0.2, 9);
  });

  it('takes B from a baseline run: the same label, paired over the topics the two runs share', () => {
    const now = [result('forager', { t1: 0.5, t2: 0.9, t3: 0.7 })];
    const before = [result('forager', { t1: 0.6, t2: 0.9, t4: 0.1 })];
    const [c] = compareStrategies(now, 'forager', 'forager', before);
    expect(c).toMatchObject({ a: 'forager', b: 'forager [baseline]', n: 2, wins: 0, ties: 1, losses: 1 });
    expect(c.meanDiff).toBeCloseTo(-0.05, 9);
    expect(compareStrategies(now, 'forager', 'other', before)).toEqual([]);
  });
});

describe('spread over RNG seeds', () => {
  it("averages each topic's standard deviation over its seeds and counts the topics whose seeds lie far apart", () => {
    // sds: 0 (all equal), 0.5 (0 and 1 ... n-1 = 1: sqrt(0.5)), 0.1; a topic with one seed is skipped
    const s = spreadOverSeeds([[0.5, 0.5, 0.5], [0, 1], [0.8, 1, 0.9], [0.2]]);
    expect(s.topics).toBe(3);
    expect(s.meanSd).toBeCloseTo((0 + Math.SQRT1_2 + 0.1) / 3, 12);
    expect(s.medianSd).toBeCloseTo(0.1, 12);
    expect(s.wide).toBe(1);
    expect(spreadOverSeeds([[0.1, 0.7]], 0.6).wide).toBe(0);
    expect(spreadOverSeeds([[1]])).toEqual({ topics: 0, meanSd: NaN, medianSd: NaN, wide: 0 });
  });
});

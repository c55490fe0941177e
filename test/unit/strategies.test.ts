import { describe, expect, it } from 'vitest';
import {
  BestNFirst,
  BreadthFirst,
  createStrategy,
  listStrategies,
  registerStrategy,
  strategySpec,
} from '../../lib/engine/strategies/index';
import { Rng } from '../../lib/engine/rng';
import type { EvaluatedPage, FrontierEntry, LinkFeature, Strategy, StrategyContext } from '../../lib/engine/types';

const topic = { keywords: 'topical crawler' };
const ctx = (params: StrategyContext['params'] = {}, seed = 1, maxBuffer = 256): StrategyContext => ({
  topic,
  maxBuffer,
  seed,
  params,
});

function link(url: string, nofollow = false): LinkFeature {
  return { url, anchorText: url, anchorTerms: [], contextBefore: [], contextAfter: [], nofollow };
}

function page(
  url: string,
  score: number,
  links: string[],
  opts: { depth?: number; nofollow?: boolean; relNofollow?: boolean } = {},
): EvaluatedPage {
  return {
    url,
    depth: opts.depth ?? 0,
    isSeed: (opts.depth ?? 0) === 0,
    links: links.map((l) => link(l, opts.relNofollow)),
    evaluation: {
      score,
      title: url,
      snippet: '',
      links: links.map((l) => link(l, opts.relNofollow)),
      terms: {},
      length: 0,
      charset: 'utf-8',
      baseUrl: url,
      robots: { noindex: false, nofollow: opts.nofollow ?? false },
    },
  };
}

/**
 * A synthetic web of 3000 pages: page i links to 6 pseudo-random pages and has a fixed pseudo-random score.
 * Deterministic, so two crawls over it can be compared fetch by fetch.
 */
const WEB = 3000;
const url = (i: number) => `https://web${i % 13}.example/page/${i}`;
const indexOf = (u: string) => Number(u.slice(u.lastIndexOf('/') + 1));
function webPage(u: string, depth: number): EvaluatedPage {
  const i = indexOf(u);
  const r = new Rng(i + 1);
  const links = Array.from({ length: 6 }, () => url(r.int(WEB)));
  return page(u, r.int(1000) / 1000, links, { depth });
}

/** A miniature crawl loop: rounds of nextBatch, every page shown to the strategy, fetched URLs filtered out. */
function crawl(strategy: Strategy, rounds: number, fetched: Set<string>, log: string[]): void {
  for (let round = 0; round < rounds; round++) {
    const batch = strategy.nextBatch(1000);
    if (batch.length === 0) return;
    for (const entry of batch) {
      log.push(entry.url);
      fetched.add(entry.url);
      const p = webPage(entry.url, entry.depth);
      p.links = p.links.filter((l) => !fetched.has(l.url));
      strategy.onPage(p);
    }
  }
}

const seeds = [url(0), url(1), url(2)];

describe('BestNFirst', () => {
  it('BFS1 fetches the single best link each round', () => {
    const s = createStrategy('best-first', ctx());
    s.addSeeds(['https://seed.example/']);
    expect(s.nextBatch(10)).toEqual([{ url: 'https://seed.example/', score: 1, depth: 0 }]);
    s.onPage(page('https://seed.example/', 0.2, ['https://a.example/', 'https://b.example/']));
    s.onPage(page('https://other.example/', 0.7, ['https://c.example/', 'https://d.example/'], { depth: 1 }));
    const first = s.nextBatch(10);
    expect(first).toEqual([{ url: 'https://c.example/', score: 0.7, depth: 2, from: 'https://other.example/' }]);
    expect(s.nextBatch(10).map((e) => e.url)).toEqual(['https://d.example/']);
    expect(s.nextBatch(10).map((e) => e.url)).toEqual(['https://a.example/']);
    expect(s.frontierSize()).toBe(1);
  });

  it('links inherit the parent page score, depth + 1 and from; a sighting from a better page raises the link', () => {
    const s = new BestNFirst(ctx({ n: 100 }));
    s.onPage(page('https://p.example/', 0.25, ['https://x.example/', 'https://y.example/'], { depth: 3 }));
    expect(s.entries()).toEqual([
      { url: 'https://x.example/', score: 0.25, depth: 4, from: 'https://p.example/' },
      { url: 'https://y.example/', score: 0.25, depth: 4, from: 'https://p.example/' },
    ]);
    s.onPage(page('https://q.example/', 0.5, ['https://y.example/'], { depth: 1 }));
    s.onPage(page('https://r.example/', 0.1, ['https://x.example/'], { depth: 1 }));
    expect(s.entries().map((e) => [e.url, e.score])).toEqual([
      ['https://y.example/', 0.5],
      ['https://x.example/', 0.25],
    ]);
  });

  it('takes the top N (capped by max) and shuffles them reproducibly with the seed', () => {
    const make = (seed: number) => {
      const s = createStrategy('bfs8', ctx({}, seed));
      // 40 links from 40 pages with distinct scores: the top 8 are from pages 32..39.
      for (let i = 0; i < 40; i++) s.onPage(page(`https://p${i}.example/`, i / 40, [`https://l${i}.example/`]));
      return s;
    };
    const top8 = Array.from({ length: 8 }, (_, k) => `https://l${39 - k}.example/`);
    const orders: string[] = [];
    let unsorted = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const batch = make(seed)
        .nextBatch(100)
        .map((e) => e.url);
      expect([...batch].sort()).toEqual([...top8].sort());
      expect(
        make(seed)
          .nextBatch(100)
          .map((e) => e.url),
      ).toEqual(batch); // same seed, same order
      if (batch.join() !== top8.join()) unsorted++;
      orders.push(batch.join());
    }
    expect(new Set(orders).size).toBeGreaterThan(1); // different seeds, different orders
    expect(unsorted).toBeGreaterThan(0); // really shuffled, not best-first
    const s = make(1);
    expect(s.nextBatch(3).length).toBe(3); // max < N
    expect(s.nextBatch(0)).toEqual([]);
    expect(s.frontierSize()).toBe(37);
  });

  it('seeds go first; meta robots nofollow pages give no links; rel=nofollow links are followed', () => {
    const s = new BestNFirst(ctx({ n: 2 }));
    s.onPage(page('https://p.example/', 0.99, ['https://a.example/']));
    s.addSeeds(['https://s1.example/', 'https://s2.example/']);
    expect(
      s
        .nextBatch(5)
        .map((e) => e.url)
        .sort(),
    ).toEqual(['https://s1.example/', 'https://s2.example/']);
    s.onPage(page('https://nf.example/', 0.9, ['https://hidden.example/'], { nofollow: true }));
    s.onPage(page('https://rel.example/', 0.8, ['https://relnf.example/'], { relNofollow: true }));
    expect(s.entries().map((e) => e.url)).toEqual(['https://a.example/', 'https://relnf.example/']);
  });

  it('respects MAX_BUFFER: the frontier keeps the best links', () => {
    const s = new BestNFirst(ctx({ n: 1 }, 1, 5));
    for (let i = 0; i < 20; i++) s.onPage(page(`https://p${i}.example/`, (i % 10) / 10, [`https://l${i}.example/`]));
    expect(s.frontierSize()).toBe(5);
    expect(s.entries().map((e) => e.score)).toEqual([0.9, 0.9, 0.8, 0.8, 0.7]);
  });

  it('a NaN page score does not stop the crawl: its links rank last', () => {
    const s = new BestNFirst(ctx({ n: 1 }));
    s.onPage(page('https://bad.example/', Number.NaN, ['https://x.example/']));
    s.onPage(page('https://ok.example/', 0.1, ['https://y.example/']));
    expect(s.nextBatch(1)[0].url).toBe('https://y.example/');
    expect(s.nextBatch(1)[0]).toMatchObject({ url: 'https://x.example/', score: 0 });
  });

  it('save/restore mid-crawl continues identically (through JSON), for several N', () => {
    for (const n of [1, 4, 16]) {
      const straight = createStrategy('best-n-first', ctx({ n }, 77, 64));
      straight.addSeeds(seeds);
      const fetchedA = new Set<string>();
      const logA: string[] = [];
      crawl(straight, 30, fetchedA, logA);

      const first = createStrategy('best-n-first', ctx({ n }, 77, 64));
      first.addSeeds(seeds);
      const fetchedB = new Set<string>();
      const logB: string[] = [];
      crawl(first, 12, fetchedB, logB);
      const saved = JSON.parse(JSON.stringify(first.save()));
      const resumed = createStrategy('best-n-first', ctx({ n }, 77, 64));
      resumed.restore(saved);
      crawl(resumed, 18, fetchedB, logB);

      expect(logA.length).toBeGreaterThanOrEqual(30);
      expect(logB).toEqual(logA);
      expect(new Set(logA).size).toBe(logA.length); // never the same URL twice
    }
  });

  it('different seeds give different crawls for N > 1, identical ones for N = 1', () => {
    const run = (n: number, seed: number) => {
      const s = createStrategy('best-n-first', ctx({ n }, seed, 64));
      s.addSeeds(seeds);
      const log: string[] = [];
      crawl(s, 15, new Set(), log);
      return log.join();
    };
    expect(run(8, 1)).not.toBe(run(8, 2));
    expect(run(8, 3)).toBe(run(8, 3));
    expect(run(1, 1)).toBe(run(1, 2));
  });

  it('restore refuses garbage with a clear error', () => {
    const s = new BestNFirst(ctx());
    expect(() => s.restore(null)).toThrow(/best-n-first state/);
    expect(() => s.restore({ rng: [1, 2, 3, 4], frontier: { kind: 'fifo' } })).toThrow(/priority frontier state/);
  });
});

describe('BreadthFirst', () => {
  it('fetches in discovery order, batches of min(n, max), FIFO within a batch', () => {
    const s = createStrategy('breadth-first', ctx({ n: 3 }));
    s.addSeeds(['https://s.example/']);
    expect(s.nextBatch(10).map((e) => e.url)).toEqual(['https://s.example/']);
    s.onPage(
      page('https://s.example/', 0.9, ['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/']),
    );
    s.onPage(page('https://z.example/', 0.1, ['https://e.example/', 'https://a.example/'], { depth: 1 }));
    const batch = s.nextBatch(10);
    expect(batch.map((e) => e.url)).toEqual(['https://a.example/', 'https://b.example/', 'https://c.example/']);
    expect(batch[0]).toEqual({ url: 'https://a.example/', score: 0.9, depth: 1, from: 'https://s.example/' });
    expect(s.nextBatch(1).map((e) => e.url)).toEqual(['https://d.example/']);
    expect(s.nextBatch(10).map((e) => e.url)).toEqual(['https://e.example/']);
    expect(s.nextBatch(10)).toEqual([]);
  });

  it('save/restore mid-crawl continues identically', () => {
    const a = createStrategy('breadth-first', ctx({}, 1, 50));
    a.addSeeds(seeds);
    const logA: string[] = [];
    crawl(a, 20, new Set(), logA);
    const b = createStrategy('breadth-first', ctx({}, 1, 50));
    b.addSeeds(seeds);
    const fetched = new Set<string>();
    const logB: string[] = [];
    crawl(b, 7, fetched, logB);
    const c = createStrategy('breadth-first', ctx({}, 1, 50));
    c.restore(JSON.parse(JSON.stringify(b.save())));
    crawl(c, 13, fetched, logB);
    expect(logB).toEqual(logA);
    expect(logA.length).toBeGreaterThan(100);
    expect(logA.slice(0, 3)).toEqual(seeds);
  });

  it('depth is non-decreasing in fetch order', () => {
    const s = new BreadthFirst(ctx({ n: 5 }, 1, 100_000));
    s.addSeeds(seeds);
    const depths: number[] = [];
    for (let round = 0; round < 100; round++) {
      const batch: FrontierEntry[] = s.nextBatch(5);
      for (const e of batch) {
        depths.push(e.depth);
        s.onPage(webPage(e.url, e.depth));
      }
    }
    expect(depths.length).toBeGreaterThan(450);
    for (let i = 1; i < depths.length; i++) expect(depths[i]).toBeGreaterThanOrEqual(depths[i - 1]);
    expect(depths[depths.length - 1]).toBeGreaterThan(1);
  });
});

describe('strategy registry', () => {
  it('parses names, aliases and the bfs<N> shorthand', () => {
    expect(strategySpec('best-n-first')).toEqual({ name: 'best-n-first', params: {} });
    expect(strategySpec(' BFS16 ')).toEqual({ name: 'best-n-first', params: { n: 16 } });
    expect(strategySpec('bfs256')).toEqual({ name: 'best-n-first', params: { n: 256 } });
    expect(strategySpec('best-first')).toEqual({ name: 'best-n-first', params: { n: 1 } });
    expect(strategySpec('breadth-first')).toEqual({ name: 'breadth-first', params: {} });
    expect(() => strategySpec('bfs0')).toThrow(/positive/);
    expect(() => strategySpec('depth-first')).toThrow(/unknown strategy "depth-first"; known: .*best-n-first.*breadth-first/);
  });

  it('lists strategies with their parameters and citations', () => {
    const names = listStrategies().map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['best-n-first', 'breadth-first']));
    const bnf = listStrategies().find((s) => s.name === 'best-n-first')!;
    expect(bnf.source).toMatch(/Pant/);
    expect(bnf.params).toEqual([expect.objectContaining({ name: 'n', type: 'number', default: 16, min: 1 })]);
  });

  it('creates strategies with defaults, alias parameters and checked overrides', () => {
    expect((createStrategy('best-n-first', ctx()) as BestNFirst).n).toBe(16);
    expect((createStrategy('best-first', ctx()) as BestNFirst).n).toBe(1);
    expect((createStrategy('bfs64', ctx()) as BestNFirst).n).toBe(64);
    expect((createStrategy('best-n-first', ctx({ n: '32' })) as BestNFirst).n).toBe(32);
    expect(createStrategy('breadth-first', ctx()).name).toBe('breadth-first');
    expect(() => createStrategy('best-n-first', ctx({ n: 0 }))).toThrow(/parameter n of best-n-first must be >= 1/);
    expect(() => createStrategy('best-n-first', ctx({ n: 2.5 }))).toThrow(/whole number/);
    expect(() => createStrategy('best-n-first', ctx({ k: 2 }))).toThrow(/no parameter "k"/);
    expect(() => createStrategy('best-n-first', ctx({}, 1, 0))).toThrow(/capacity/);
  });

  it('stays open: a new strategy registers itself and is created by name; duplicates are refused', () => {
    registerStrategy({
      name: 'test-only-fifo',
      label: 'Test FIFO',
      description: 'breadth-first under another name',
      source: 'test',
      params: [],
      create: (c) => new BreadthFirst({ ...c, params: { n: 2 } }),
    });
    expect(listStrategies().map((s) => s.name)).toContain('test-only-fifo');
    expect(createStrategy('test-only-fifo', ctx()).nextBatch(5)).toEqual([]);
    expect(() =>
      registerStrategy({
        name: 'best-n-first',
        label: '',
        description: '',
        source: '',
        params: [],
        create: (c) => new BestNFirst(c),
      }),
    ).toThrow(/already registered/);
    expect(() =>
      registerStrategy({
        name: 'x',
        label: '',
        description: '',
        source: '',
        params: [],
        aliases: { 'best-first': {} },
        create: (c) => new BestNFirst(c),
      }),
    ).toThrow(/already registered/);
  });
});

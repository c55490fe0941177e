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
    requestedUrl: url,
    depth: opts.depth ?? 0,
    isSeed: (opts.depth ?? 0) === 0,
    // The crawl loop drops the links of a meta robots nofollow page before the strategy sees them.
    links: opts.nofollow ? [] : links.map((l) => link(l, opts.relNofollow)),
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

const always = () => true;

/**
 * A miniature crawl loop with `slots` fetches in flight: every free slot takes the strategy's next URL, the oldest
 * fetch ends first and its page is shown to the strategy (fetched URLs filtered out), then its slot is refilled.
 * Stops after `steps` pages.
 */
function crawl(strategy: Strategy, steps: number, fetched: Set<string>, log: string[], slots = 4): void {
  const inFlight: FrontierEntry[] = [];
  for (let step = 0; step < steps; step++) {
    while (inFlight.length < slots) {
      const entry = strategy.next(always);
      if (!entry) break;
      expect(fetched.has(entry.url)).toBe(false);
      fetched.add(entry.url);
      log.push(entry.url);
      inFlight.push(entry);
    }
    const entry = inFlight.shift();
    if (!entry) return;
    const p = webPage(entry.url, entry.depth);
    p.links = p.links.filter((l) => !fetched.has(l.url));
    strategy.onPage(p);
  }
  // What is still in flight ends too, so that a checkpoint taken after this holds no open fetches.
  for (const entry of inFlight) {
    const p = webPage(entry.url, entry.depth);
    p.links = p.links.filter((l) => !fetched.has(l.url));
    strategy.onPage(p);
  }
}

/** Takes up to `k` URLs from the strategy, all sites ready. */
function take(strategy: Strategy, k: number, ready: (url: string) => boolean = always): FrontierEntry[] {
  const out: FrontierEntry[] = [];
  for (let i = 0; i < k; i++) {
    const e = strategy.next(ready);
    if (!e) break;
    out.push(e);
  }
  return out;
}

const seeds = [url(0), url(1), url(2)];

describe('BestNFirst', () => {
  it('BFS1 fetches the single best ready link each time', () => {
    const s = createStrategy('best-first', ctx());
    s.addSeeds(['https://seed.example/']);
    expect(s.next(always)).toEqual({ url: 'https://seed.example/', score: 1, depth: 0 });
    expect(s.next(always)).toBeNull();
    s.onPage(page('https://seed.example/', 0.2, ['https://a.example/', 'https://b.example/']));
    s.onPage(page('https://other.example/', 0.7, ['https://c.example/', 'https://d.example/'], { depth: 1 }));
    expect(s.next(always)).toEqual({ url: 'https://c.example/', score: 0.7, depth: 2, from: 'https://other.example/' });
    // d's site is busy: the best ready link goes instead, and d waits.
    expect(s.next((u) => u !== 'https://d.example/')?.url).toBe('https://a.example/');
    expect(s.next(always)?.url).toBe('https://d.example/');
    expect(s.frontierSize()).toBe(1);
    expect(s.next(() => false)).toBeNull();
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

  it('draws each link from the top N ready ones, reproducibly with the seed', () => {
    const make = (seed: number) => {
      const s = createStrategy('bfs8', ctx({}, seed));
      // 40 links from 40 pages with distinct scores: the top 8 are from pages 32..39.
      for (let i = 0; i < 40; i++) s.onPage(page(`https://p${i}.example/`, i / 40, [`https://l${i}.example/`]));
      return s;
    };
    const top8 = Array.from({ length: 8 }, (_, k) => `https://l${39 - k}.example/`);
    const firsts = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const first = make(seed).next(always)!.url;
      expect(top8).toContain(first);
      expect(make(seed).next(always)!.url).toBe(first); // same seed, same draw
      firsts.add(first);
    }
    expect(firsts.size).toBeGreaterThan(3); // different seeds, different draws: not best-first
    // Draws come from the top 8 of what is still queued, so the first 8 drawn are never below the top 16.
    const s = make(5);
    const drawn = take(s, 8).map((e) => e.url);
    const top16 = Array.from({ length: 16 }, (_, k) => `https://l${39 - k}.example/`);
    for (const u of drawn) expect(top16).toContain(u);
    // Only ready links count: with the best eight's sites busy, the draw comes from the next eight.
    const t = make(5);
    const busy = new Set(top8);
    const next8 = Array.from({ length: 8 }, (_, k) => `https://l${31 - k}.example/`);
    expect(next8).toContain(t.next((u) => !busy.has(u))!.url);
    for (let i = 0; i < 31; i++) expect(busy.has(t.next((u) => !busy.has(u))!.url)).toBe(false);
    expect(t.next((u) => !busy.has(u))).toBeNull();
    expect(t.frontierSize()).toBe(8);
  });

  it('crawls in rounds without a barrier: a round is the top N when it forms, better links found meanwhile wait for the next', () => {
    const s = createStrategy('bfs4', ctx({}, 3));
    for (let i = 0; i < 8; i++) s.onPage(page(`https://p${i}.example/`, 0.1 + i / 100, [`https://l${i}.example/`]));
    const round1 = new Set(['https://l7.example/', 'https://l6.example/', 'https://l5.example/', 'https://l4.example/']);
    const first = s.next(always)!;
    expect(round1.has(first.url)).toBe(true);
    // A page fetched meanwhile brings links better than all queued: they do not join the round being handed out.
    s.onPage(page('https://hot.example/', 0.9, ['https://h1.example/', 'https://h2.example/']));
    const rest = take(s, 3).map((e) => e.url);
    expect(new Set([first.url, ...rest])).toEqual(round1);
    // The next round starts with the best queued then: the two hot links and l3, l2.
    const round2 = take(s, 4).map((e) => e.url);
    expect(new Set(round2)).toEqual(
      new Set(['https://h1.example/', 'https://h2.example/', 'https://l3.example/', 'https://l2.example/']),
    );
    // A round's link whose site rests waits in the round; the next round joins so the slot is not left empty.
    const t = createStrategy('bfs2', ctx({}, 3));
    for (let i = 0; i < 6; i++) t.onPage(page(`https://p${i}.example/`, 0.1 + i / 100, [`https://l${i}.example/`]));
    const resting = (u: string) => u !== 'https://l5.example/';
    const got = [t.next(resting)!.url, t.next(resting)!.url];
    expect(got[0]).toBe('https://l4.example/');
    expect(['https://l3.example/', 'https://l2.example/']).toContain(got[1]);
    expect((t as BestNFirst).entries().map((e) => e.url)).toContain('https://l5.example/');
    // Its site ready again, l5 is drawn with what is left of the second round before any third round forms.
    const left = ['https://l3.example/', 'https://l2.example/'].find((u) => u !== got[1])!;
    expect(new Set(take(t, 2).map((e) => e.url))).toEqual(new Set(['https://l5.example/', left]));
  });

  it('seeds go first; links of a page the loop passes without links (meta nofollow) give nothing; rel=nofollow links are followed', () => {
    const s = new BestNFirst(ctx({ n: 1 }));
    s.onPage(page('https://p.example/', 0.99, ['https://a.example/']));
    s.addSeeds(['https://s1.example/', 'https://s2.example/']);
    expect(take(s, 2).map((e) => e.url)).toEqual(['https://s1.example/', 'https://s2.example/']);
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
    expect(s.next(always)!.url).toBe('https://y.example/');
    expect(s.next(always)).toMatchObject({ url: 'https://x.example/', score: 0 });
  });

  it('save/restore mid-crawl continues identically (through JSON), for several N', () => {
    for (const n of [1, 4, 16]) {
      const straight = createStrategy('best-n-first', ctx({ n }, 77, 64));
      straight.addSeeds(seeds);
      const fetchedA = new Set<string>();
      const logA: string[] = [];
      crawl(straight, 12, fetchedA, logA);
      crawl(straight, 18, fetchedA, logA);

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
  it('fetches in discovery order, the oldest ready link first', () => {
    const s = createStrategy('breadth-first', ctx());
    s.addSeeds(['https://s.example/']);
    expect(take(s, 10).map((e) => e.url)).toEqual(['https://s.example/']);
    s.onPage(
      page('https://s.example/', 0.9, ['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/']),
    );
    s.onPage(page('https://z.example/', 0.1, ['https://e.example/', 'https://a.example/'], { depth: 1 }));
    expect(s.next(always)).toEqual({ url: 'https://a.example/', score: 0, depth: 1, from: 'https://s.example/' });
    expect(s.next((u) => u !== 'https://b.example/')?.url).toBe('https://c.example/');
    expect(take(s, 10).map((e) => e.url)).toEqual(['https://b.example/', 'https://d.example/', 'https://e.example/']);
    expect(s.next(always)).toBeNull();
  });

  it('drops new links when full, keeping the older (shallower) ones', () => {
    const s = createStrategy('breadth-first', ctx({}, 1, 3));
    s.onPage(page('https://p.example/', 0.1, ['https://a.example/', 'https://b.example/']));
    s.onPage(page('https://q.example/', 0.9, ['https://c.example/', 'https://d.example/']));
    expect(take(s, 5).map((e) => e.url)).toEqual(['https://a.example/', 'https://b.example/', 'https://c.example/']);
  });

  it('save/restore mid-crawl continues identically', () => {
    const a = createStrategy('breadth-first', ctx({}, 1, 50));
    a.addSeeds(seeds);
    const logA: string[] = [];
    const fetchedA = new Set<string>();
    crawl(a, 7, fetchedA, logA);
    crawl(a, 13, fetchedA, logA);
    const b = createStrategy('breadth-first', ctx({}, 1, 50));
    b.addSeeds(seeds);
    const fetched = new Set<string>();
    const logB: string[] = [];
    crawl(b, 7, fetched, logB);
    const c = createStrategy('breadth-first', ctx({}, 1, 50));
    c.restore(JSON.parse(JSON.stringify(b.save())));
    crawl(c, 13, fetched, logB);
    expect(logB).toEqual(logA);
    expect(logA.length).toBeGreaterThan(20);
    expect(logA.slice(0, 3)).toEqual(seeds);
  });

  it('depth is non-decreasing in fetch order', () => {
    const s = new BreadthFirst(ctx({}, 1, 100_000));
    s.addSeeds(seeds);
    const depths: number[] = [];
    for (let i = 0; i < 500; i++) {
      const e = s.next(always)!;
      depths.push(e.depth);
      s.onPage(webPage(e.url, e.depth));
    }
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
      create: (c) => new BreadthFirst(c),
    });
    expect(listStrategies().map((s) => s.name)).toContain('test-only-fifo');
    expect(createStrategy('test-only-fifo', ctx()).next(always)).toBeNull();
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

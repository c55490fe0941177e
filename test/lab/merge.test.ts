import { describe, expect, it } from 'vitest';
import {
  Analysis,
  analyze,
  type Cell,
  compareStrategies,
  medianOf,
  type MetricResult,
  type TimeToTargets,
} from '../../lab/analysis';
import { CorpusIndex, type CorpusDoc } from '../../lab/corpus';
import { mergeResults } from '../../lab/merge';
import { meanSe, setRecall } from '../../lab/metrics';
import { type LabResults, runHeader, textTable } from '../../lab/report';
import type { CrawlRecord } from '../../lab/run';
import type { LabTopic, TaskId } from '../../lab/topics';

const TOPICS = ['t1', 't2', 't3'];

/** A JSON round trip as `run --json` writes and `report --from` reads (Infinity and NaN become null, then NaN). */
function roundTrip(res: LabResults): LabResults {
  const text = JSON.stringify(res, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
  return JSON.parse(text, (_k, v) => (v === null ? NaN : v)) as LabResults;
}

const cellOf = (perTopic: Record<string, number>): Cell => {
  const ms = meanSe(Object.values(perTopic).filter((v) => !Number.isNaN(v)));
  return { mean: ms.mean, se: ms.se, n: ms.n, perTopic };
};
const shift = (perTopic: Record<string, number>, d: number) =>
  Object.fromEntries(Object.entries(perTopic).map(([t, v]) => [t, v + d]));

/**
 * A small results file: per strategy, recall per topic (at budget 100; +0.1 at 200), the dynamic view at 100 and 200
 * pages, recall at 30 simulated seconds (half), and the seconds to the first target.
 */
function fixture(
  seeds: number[],
  values: Record<string, { recall: Record<string, number>; seconds: Record<string, number> }>,
  budgets = [100, 200],
): LabResults {
  const strategies = Object.keys(values);
  const results: MetricResult[] = strategies.map((strategy) => {
    const v = values[strategy].recall;
    const at200 = shift(v, 0.1);
    const half = Object.fromEntries(Object.entries(v).map(([t, x]) => [t, x / 2]));
    return {
      task: 1,
      strategy,
      metric: 'recall',
      budgets: { '100': cellOf(v), '200': cellOf(at200) },
      dynamic: {
        pages: [100, 200],
        mean: [cellOf(v).mean, cellOf(at200).mean],
        se: [cellOf(v).se, cellOf(at200).se],
        perTopic: Object.fromEntries(TOPICS.map((t) => [t, [v[t], at200[t]]])),
      },
      times: { '30': cellOf(half) },
      timeDynamic: {
        pages: [],
        seconds: [30],
        mean: [cellOf(half).mean],
        se: [cellOf(half).se],
        perTopic: Object.fromEntries(TOPICS.map((t) => [t, [half[t]]])),
      },
    };
  });
  const timeToTargets: TimeToTargets[] = strategies.map((strategy) => {
    const perTopic = values[strategy].seconds;
    const vals = Object.values(perTopic);
    return { task: 1, strategy, k: 1, perTopic, median: medianOf(vals), reached: vals.filter(Number.isFinite).length, n: 3 };
  });
  const crawls = strategies.flatMap((strategy) =>
    TOPICS.flatMap((topic) =>
      seeds.map((seed) => ({ topic, task: 1 as TaskId, strategy, seed, pages: 200, errors: 0, done: 'budget', elapsedMs: 5 })),
    ),
  );
  return {
    format: 'forager-lab-results/1',
    meta: {
      createdAt: '2024-01-01T00:00:00.000Z',
      topicsFile: 'topics.json',
      topics: TOPICS,
      strategies: strategies.map((label) => ({ label, name: label, params: {} })),
      tasks: [1],
      budgets,
      seeds,
      maxBuffer: 256,
      ks: [25],
      step: 100,
      corpus: { name: 'docweb-l', sites: { s: 10 }, pages: 10, hubs: 0, description: 'docweb-l (test)' },
      split: { name: 'test', tune: 0, test: 3 },
      network: {
        model: 'wan',
        description: 'wan',
        seed: 1,
        politenessMs: 1000,
        maxInFlight: 8,
        seconds: [30],
        firstTargets: [1],
      },
      wallSeconds: 10 * seeds.length,
      cpuSeconds: 20 * seeds.length,
      crawls: crawls.length,
      pagesFetched: crawls.length * 200,
      evaluations: 7,
      evaluationCacheHits: 3,
    },
    results,
    timeToTargets,
    comparisons: [],
    statics: TOPICS.map((topic) => ({ topic, task: 1, lexical: [], linkage: [], reachable: [], reachableShare: 1 })),
    crawls,
  };
}

// Seed 1 crawled a deterministic strategy (det) and a random one (rand); seeds 2 and 3 crawled rand again.
const runA = () =>
  roundTrip(
    fixture([1], {
      det: { recall: { t1: 0.2, t2: 0.3, t3: 0.4 }, seconds: { t1: 5, t2: Infinity, t3: 7 } },
      rand: { recall: { t1: 0.3, t2: NaN, t3: 0.9 }, seconds: { t1: Infinity, t2: 4, t3: Infinity } },
    }),
  );
const runB = () =>
  roundTrip(fixture([2, 3], { rand: { recall: { t1: 0.6, t2: 0.4, t3: NaN }, seconds: { t1: 10, t2: 10, t3: 2 } } }));

describe('mergeResults', () => {
  it('per topic: the seed-weighted mean (NaN left out with its weight); mean ± SE over topics again', () => {
    const merged = mergeResults([runA(), runB()], ['a.json', 'b.json']);
    const rand = merged.results.find((r) => r.strategy === 'rand')!;
    const want = { t1: (0.3 * 1 + 0.6 * 2) / 3, t2: 0.4, t3: 0.9 };
    for (const t of TOPICS) expect(rand.budgets['100'].perTopic[t]).toBeCloseTo(want[t as keyof typeof want], 12);
    const ms = meanSe(Object.values(rand.budgets['100'].perTopic));
    expect(rand.budgets['100']).toMatchObject({ mean: ms.mean, se: ms.se, n: 3 });
    const at200 = meanSe(Object.values(rand.budgets['200'].perTopic));
    expect(rand.budgets['200'].perTopic.t1).toBeCloseTo(want.t1 + 0.1, 12);
    expect(rand.dynamic.perTopic.t1[1]).toBeCloseTo(want.t1 + 0.1, 12);
    expect(rand.dynamic.mean).toEqual([ms.mean, at200.mean]);
    expect(rand.dynamic.se).toEqual([ms.se, at200.se]);
    expect(rand.dynamic.pages).toEqual([100, 200]);
    // over simulated time
    expect(rand.times!['30'].perTopic.t1).toBeCloseTo(want.t1 / 2, 12);
    expect(rand.timeDynamic!.perTopic.t2).toEqual([0.2]);
    expect(rand.timeDynamic!.seconds).toEqual([30]);
    expect(rand.timeDynamic!.mean[0]).toBe(rand.times!['30'].mean);
  });

  it('time to the first targets: weighted per topic, Infinity (null in the files) stays Infinity; median, reached', () => {
    const merged = mergeResults([runA(), runB()]);
    const ttt = merged.timeToTargets!.find((x) => x.strategy === 'rand')!;
    // t1: Infinity (seed 1) with 10 (seeds 2, 3); t2: (4 + 2 * 10) / 3; t3: Infinity (read back as NaN) with 2
    expect(ttt.perTopic).toEqual({ t1: Infinity, t2: 8, t3: Infinity });
    expect(ttt.median).toBe(Infinity);
    expect([ttt.reached, ttt.n]).toEqual([1, 3]);
    expect(medianOf([3, Infinity, 1, 2])).toBe(2.5);
  });

  it('a strategy in one file is taken as it is; meta adds up', () => {
    const a = runA();
    const merged = mergeResults([a, runB()]);
    expect(merged.results.find((r) => r.strategy === 'det')).toBe(a.results.find((r) => r.strategy === 'det'));
    expect(merged.timeToTargets!.find((r) => r.strategy === 'det')).toBe(a.timeToTargets!.find((r) => r.strategy === 'det'));
    expect(merged.meta.seeds).toEqual([1, 2, 3]);
    expect(merged.meta.strategies.map((s) => s.label)).toEqual(['det', 'rand']);
    expect(merged.meta.crawls).toBe(6 + 6);
    expect(merged.crawls.length).toBe(12);
    expect(merged.meta.wallSeconds).toBe(30);
    expect(merged.meta.cpuSeconds).toBe(60);
    expect(merged.statics).toEqual(a.statics);
  });

  it('recomputes the comparisons: every strategy against the first label', () => {
    const a = runA();
    a.comparisons = compareStrategies(a.results, 'rand', 'det');
    const merged = mergeResults([a, runB()]);
    expect(merged.comparisons).toEqual(compareStrategies(merged.results, 'rand', 'det'));
    expect(merged.comparisons.length).toBe(2); // budgets 100 and 200
    expect(merged.comparisons[0].n).toBe(3); // t2 has a value again
    expect(merged.comparisons).not.toEqual(a.comparisons);
  });

  it('refuses overlapping seeds and different settings, naming the field and the files', () => {
    const overlap = roundTrip(
      fixture([1, 2], { rand: { recall: { t1: 0.6, t2: 0.4, t3: 0.5 }, seconds: { t1: 1, t2: 1, t3: 1 } } }),
    );
    expect(() => mergeResults([runA(), overlap], ['a.json', 'b.json'])).toThrow(
      /rand \(task 1\) was crawled with RNG seed 1 in both a\.json and b\.json/,
    );
    const otherBudgets = fixture(
      [2, 3],
      { rand: { recall: { t1: 0.6, t2: 0.4, t3: 0.5 }, seconds: { t1: 1, t2: 1, t3: 1 } } },
      [100, 500],
    );
    expect(() => mergeResults([runA(), otherBudgets], ['a.json', 'b.json'])).toThrow(/a\.json and b\.json: their budgets differ/);
    const otherNetwork = runB();
    otherNetwork.meta.network!.seed = 2;
    expect(() => mergeResults([runA(), otherNetwork], ['a.json', 'b.json'])).toThrow(/their network differ/);
    const otherTopics = runB();
    otherTopics.meta.topics = ['t1', 't2', 't4'];
    expect(() => mergeResults([runA(), otherTopics], ['a.json', 'b.json'])).toThrow(/their topics differ/);
  });

  it('files with different tasks: seeds added for Task 2 only merge into Task 2, Task 1 stays as it was', () => {
    const asTask2 = (r: LabResults): LabResults => ({
      ...r,
      meta: { ...r.meta, tasks: [2] },
      results: r.results.map((x) => ({ ...x, task: 2 })),
      timeToTargets: r.timeToTargets!.map((x) => ({ ...x, task: 2 })),
      statics: r.statics.map((x) => ({ ...x, task: 2 })),
      crawls: r.crawls.map((x) => ({ ...x, task: 2 })),
    });
    const a1 = runA();
    const a2 = asTask2(runA());
    const both: LabResults = {
      ...a1,
      meta: { ...a1.meta, tasks: [1, 2] },
      results: [...a1.results, ...a2.results],
      timeToTargets: [...a1.timeToTargets!, ...a2.timeToTargets!],
      statics: [...a1.statics, ...a2.statics],
      crawls: [...a1.crawls, ...a2.crawls],
    };
    const m = mergeResults([both, asTask2(runB())]);
    expect(m.meta.tasks).toEqual([1, 2]);
    expect(m.statics).toHaveLength(6);
    const cell = (task: number, strategy: string) =>
      m.results.find((x) => x.task === task && x.strategy === strategy && x.metric === 'recall')!.budgets['100'];
    // Task 1: only the first file has it; Task 2: seed 1 and seeds 2-3 weighted 1:2 (t1: (0.3 + 2 x 0.6) / 3).
    expect(cell(1, 'rand').perTopic.t1).toBeCloseTo(0.3, 12);
    expect(cell(2, 'rand').perTopic.t1).toBeCloseTo(0.5, 12);
    expect(cell(2, 'det')).toEqual(cell(1, 'det'));
    // A (topic, task) the files share must have the same static lists.
    const other = asTask2(runB());
    other.statics[0] = { ...other.statics[0], reachable: ['x'] };
    expect(() => mergeResults([both, other], ['a.json', 'b.json'])).toThrow(/topic t1, task 2/);
  });

  it('merging merged results: each strategy weighted by the seeds its crawls had', () => {
    const c = roundTrip(fixture([4], { rand: { recall: { t1: 0.1, t2: 0.2, t3: 0.3 }, seconds: { t1: 1, t2: 1, t3: 1 } } }));
    const all = mergeResults([runA(), runB(), c]);
    const ab = mergeResults([runA(), runB()]);
    ab.meta.mergedFrom = ['a.json', 'b.json'];
    const twice = mergeResults([roundTrip(ab), c]);
    const pick = (res: LabResults) => res.results.find((r) => r.strategy === 'rand')!.budgets['100'];
    // t1 only: t2 and t3 have NaN in one file but not another, which real files do not have (recall is NaN for every
    // seed of a topic or none); the merged file weighs such a topic by all its seeds.
    expect(pick(twice).perTopic.t1).toBeCloseTo(pick(all).perTopic.t1, 12);
    expect(pick(all).perTopic.t1).toBeCloseTo((0.3 + 2 * 0.6 + 0.1) / 4, 12);
    expect(twice.meta.mergedFrom).toBeUndefined();
  });

  it('the header says the results were merged', () => {
    const merged = mergeResults([runA(), runB()]);
    merged.meta.mergedFrom = ['a.json', 'b.json'];
    expect(runHeader(merged)).toMatch(/merged from 2 runs$/);
    expect(textTable(merged)).toContain('1 to 3 RNG seeds per strategy');
  });
});

describe("targets behind a page without the topic's words", () => {
  it('analyze() counts the reachable targets whose every path passes such a page, and the table prints their share', () => {
    // 0 (solar) -> 1 (wind) -> 2 (solar, target); 0 -> 3 (solar, target): from 0, target 2 lies behind the wind page
    const links = [[1, 3], [2], [], []];
    const terms: Record<string, number>[] = [{ solar: 2 }, { wind: 2 }, { solar: 2 }, { solar: 2 }];
    const docs: CorpusDoc[] = links.map((l, i) => ({
      id: `s/${i}.html`,
      title: `s/${i}.html`,
      heading: '',
      length: 2,
      terms: terms[i],
      links: l,
    }));
    const topic: LabTopic = {
      id: 'sun',
      keywords: 'solar',
      description: 'solar',
      targets: ['s/2.html', 's/3.html'],
      examples: ['s/3.html'],
      neighbors: ['s/0.html'],
    };
    const record = (task: TaskId): CrawlRecord => ({
      topic: 'sun',
      task,
      strategy: 'det',
      seed: 1,
      pages: (task === 1 ? topic.examples : topic.neighbors).map((id) => ({ id, isSeed: true })),
      errors: 0,
      done: 'budget',
      elapsedMs: 1,
    });
    const { statics } = analyze([record(1), record(2)], [topic], CorpusIndex.fromDocs(docs), {
      budgets: [10],
      ks: [1],
      step: 5,
    });
    // task 1: from 3, which links nowhere, no target is reachable
    expect(statics.map((x) => [x.task, x.reachable, x.wordlessShare])).toEqual([
      [1, [], NaN],
      [2, ['s/2.html', 's/3.html'], 0.5],
    ]);
    const res = fixture([1], {});
    res.meta.tasks = [2];
    res.results = [];
    res.statics = res.statics.map((st, i) => ({ ...st, task: 2, wordlessShare: [0.5, 0, NaN][i] }));
    const line = "reachable targets behind a page with none of the topic's words on every path from the seeds";
    expect(textTable(res)).toContain(`${line}: 0.250±0.250 (mean over topics; some on 1 of 2)`);
    expect(textTable(roundTrip(res))).toContain(`${line}: 0.250±0.250 (mean over topics; some on 1 of 2)`);
    // results from before the measure (one topic without it) print no line
    delete res.statics[0].wordlessShare;
    expect(textTable(res)).not.toContain(line);
  });
});

describe('mergeResults against analyze()', () => {
  // A 30-page corpus, three topics (t3's task 1 has no target left once its examples are removed: recall NaN),
  // a deterministic strategy crawled with seed 1 and a random one with seeds 1 (file A) and 2, 3 (file B).
  let state = 11;
  const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const vocab = ['solar', 'panel', 'wind', 'turbine', 'grid', 'storage', 'battery', 'hydro'];
  const N = 30;
  const id = (i: number) => `s/p${i}.html`;
  const docs: CorpusDoc[] = Array.from({ length: N }, (_, i) => {
    const terms: Record<string, number> = {};
    for (const w of vocab) if (rand() < 0.4) terms[w] = 1 + Math.floor(rand() * 5);
    const links = [...new Set([(i + 1) % N, (i * 7) % N])].filter((j) => j !== i).sort((a, b) => a - b);
    return { id: id(i), title: id(i), heading: '', length: Object.values(terms).reduce((a, b) => a + b, 0), terms, links };
  });
  const corpus = CorpusIndex.fromDocs(docs);
  const topics: LabTopic[] = [
    {
      id: 't1',
      keywords: 'solar panel',
      description: 'solar panel grid',
      targets: [3, 5, 8, 13, 21].map(id),
      examples: [3, 5].map(id),
      neighbors: [2, 4].map(id),
    },
    {
      id: 't2',
      keywords: 'wind turbine',
      description: 'wind turbine storage',
      targets: [10, 11, 17, 25, 29].map(id),
      examples: [10, 11].map(id),
      neighbors: [9, 16].map(id),
    },
    {
      id: 't3',
      keywords: 'hydro',
      description: 'hydro battery',
      targets: [6, 7].map(id),
      examples: [6, 7].map(id),
      neighbors: [1].map(id),
    },
  ];
  const crawl = (topic: LabTopic, task: TaskId, strategy: string, seed: number): CrawlRecord => {
    const seeds = task === 1 ? topic.examples : topic.neighbors;
    // det: pages in id order; rand: a permutation drawn from the seed; one short crawl (t1, task 2, seed 2)
    let s = seed * 7919 + topic.id.charCodeAt(1) * 31 + task;
    const r = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const rest = Array.from({ length: N }, (_, i) => id(i)).filter((p) => !seeds.includes(p));
    if (strategy === 'rand')
      for (let i = rest.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [rest[i], rest[j]] = [rest[j], rest[i]];
      }
    const length = strategy === 'rand' && seed === 2 && topic.id === 't1' && task === 2 ? 6 : 20;
    const pages = [...seeds.map((p) => ({ id: p, isSeed: true })), ...rest.map((p) => ({ id: p, isSeed: false }))].slice(
      0,
      length,
    );
    let t = 0;
    const times = pages.map(() => (t += Math.round(100 + r() * 800)));
    return { topic: topic.id, task, strategy, seed, pages, errors: 0, done: 'budget', elapsedMs: 1, times };
  };
  const records = (strategies: string[], seeds: number[]) =>
    topics.flatMap((topic) =>
      ([1, 2] as TaskId[]).flatMap((task) => strategies.flatMap((st) => seeds.map((seed) => crawl(topic, task, st, seed)))),
    );
  // Every crawl has a page that is not a seed by 3 s (a harvest value), so no topic's seeds are part NaN, part not:
  // there a file's value is the mean over fewer seeds than its weight says, and the merge is off (lab/merge.ts).
  const options = { budgets: [10, 20], ks: [5], step: 5, time: { seconds: [3, 6], step: 3, firstTargets: [1, 3] } };
  const asFile = (recs: CrawlRecord[], seeds: number[], strategies: string[]): LabResults => {
    const { results, statics, timeToTargets } = analyze(recs, topics, corpus, options);
    const res = fixture(seeds, {});
    return roundTrip({
      ...res,
      meta: {
        ...res.meta,
        topics: topics.map((t) => t.id),
        tasks: [1, 2],
        strategies: strategies.map((label) => ({ label, name: label, params: {} })),
        budgets: options.budgets,
        ks: options.ks,
        step: options.step,
        network: { ...res.meta.network!, seconds: options.time.seconds, firstTargets: options.time.firstTargets },
      },
      results,
      timeToTargets,
      statics,
      crawls: recs.map((r) => ({ ...r, pages: r.pages.length })),
    });
  };

  it('Analysis, fed one record at a time in any order, gives what analyze() gives for them in index order', () => {
    const all = [...records(['det'], [1]), ...records(['rand'], [1, 2, 3])];
    const order = all.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const incremental = new Analysis(topics, corpus, options);
    for (const i of order) incremental.add(all[i], i);
    const tables = incremental.finish();
    // Recall at each budget against metrics.ts's own measure (analyze() is built on Analysis: not a reference).
    for (const topic of topics)
      for (const task of [1, 2] as TaskId[])
        for (const budget of options.budgets) {
          const own = all
            .filter((r) => r.topic === topic.id && r.task === task && r.strategy === 'rand')
            .map((r) => setRecall(r.pages, budget, topic.targets, task === 1 ? topic.examples : topic.neighbors))
            .filter((v) => !Number.isNaN(v));
          const cell = tables.results.find((x) => x.task === task && x.strategy === 'rand' && x.metric === 'recall')!.budgets[
            String(budget)
          ];
          if (own.length === 0) expect(cell.perTopic[topic.id]).toBeNaN();
          else expect(cell.perTopic[topic.id]).toBe(own.reduce((a, b) => a + b, 0) / own.length);
        }
    const full = analyze(all, topics, corpus, options);
    expect(full.results.length).toBe(2 * 2 * (3 + 2 * options.ks.length + 1));
    expect(tables).toEqual(full);
    // A topic without records still has its static sets; a record of a topic not given is refused.
    const some = all.filter((r) => r.topic !== 't3');
    const partial = new Analysis(topics, corpus, options);
    some.forEach((r, i) => {
      partial.add(r, i);
    });
    expect(partial.finish()).toEqual(analyze(some, topics, corpus, options));
    expect(partial.finish().statics.map((x) => `${x.topic}/${x.task}`)).toEqual(['t1/1', 't1/2', 't2/1', 't2/2', 't3/1', 't3/2']);
    expect(() => partial.add({ ...all[0], topic: 'nope' }, 99)).toThrow(/topic nope/);
  });

  it('equals the analysis of every crawl at once (to rounding)', () => {
    const a = asFile(records(['det', 'rand'], [1]), [1], ['det', 'rand']);
    const b = asFile(records(['rand'], [2, 3]), [2, 3], ['rand']);
    const all = [...records(['det'], [1]), ...records(['rand'], [1, 2, 3])];
    const full = analyze(all, topics, corpus, options);
    const merged = mergeResults([a, b]);

    const same = (x: number, y: number, where: string) => {
      if (Number.isNaN(y) || !Number.isFinite(y)) expect(x, where).toBe(y);
      else expect(Math.abs(x - y), `${where}: ${x} vs ${y}`).toBeLessThan(1e-12);
    };
    const sameCell = (x: Cell, y: Cell, where: string) => {
      same(x.mean, y.mean, `${where} mean`);
      same(x.se, y.se, `${where} se`);
      expect(x.n, where).toBe(y.n);
      for (const t of Object.keys(y.perTopic)) same(x.perTopic[t], y.perTopic[t], `${where} ${t}`);
    };
    expect(merged.results.length).toBe(full.results.length);
    let nanTopics = 0;
    for (const want of full.results.filter((r) => r.strategy === 'rand')) {
      const got = merged.results.find((r) => r.strategy === 'rand' && r.task === want.task && r.metric === want.metric)!;
      const where = `task ${want.task} ${want.metric}`;
      for (const bud of Object.keys(want.budgets)) sameCell(got.budgets[bud], want.budgets[bud], `${where} @${bud}`);
      want.dynamic.mean.forEach((m, j) => {
        same(got.dynamic.mean[j], m, `${where} dynamic ${j}`);
        same(got.dynamic.se[j], want.dynamic.se[j], `${where} dynamic se ${j}`);
      });
      expect(got.dynamic.pages).toEqual(want.dynamic.pages);
      expect(!!got.times).toBe(!!want.times);
      for (const s of Object.keys(want.times ?? {})) sameCell(got.times![s], want.times![s], `${where} ${s} s`);
      want.timeDynamic?.mean.forEach((m, j) => {
        same(got.timeDynamic!.mean[j], m, `${where} time dynamic ${j}`);
        same(got.timeDynamic!.se[j], want.timeDynamic!.se[j], `${where} time dynamic se ${j}`);
      });
      nanTopics += Object.values(want.budgets['10'].perTopic).filter(Number.isNaN).length;
    }
    expect(nanTopics).toBeGreaterThan(0); // the NaN case is covered
    // The deterministic strategy: file A's numbers.
    for (const want of full.results.filter((r) => r.strategy === 'det')) {
      const got = merged.results.find((r) => r.strategy === 'det' && r.task === want.task && r.metric === want.metric)!;
      for (const bud of Object.keys(want.budgets)) sameCell(got.budgets[bud], want.budgets[bud], `det ${want.metric} @${bud}`);
    }
    let never = 0;
    for (const want of full.timeToTargets.filter((x) => x.strategy === 'rand')) {
      const got = merged.timeToTargets!.find((x) => x.strategy === 'rand' && x.task === want.task && x.k === want.k)!;
      for (const t of Object.keys(want.perTopic)) same(got.perTopic[t], want.perTopic[t], `time to ${want.k}, ${t}`);
      same(got.median, want.median, `median time to ${want.k}`);
      expect([got.reached, got.n]).toEqual([want.reached, want.n]);
      never += want.n - want.reached;
    }
    expect(never).toBeGreaterThan(0); // the Infinity case is covered
    const comps = compareStrategies(full.results, 'rand', 'det');
    expect(merged.comparisons.length).toBe(comps.length);
    merged.comparisons.forEach((c, i) => {
      same(c.meanDiff, comps[i].meanDiff, 'comparison mean');
      same(c.se, comps[i].se, 'comparison se');
      expect([c.wins, c.ties, c.losses, c.n]).toEqual([comps[i].wins, comps[i].ties, comps[i].losses, comps[i].n]);
    });
  });
});

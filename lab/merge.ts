/**
 * Merging lab result files (`report --from a.json --from b.json`): runs of the same topics, budgets and network
 * with disjoint RNG seeds (and tasks that may differ) become the results one run over all their seeds would have given. A strategy that
 * several files crawled gets, per topic, the mean of the files' per-topic values weighted by how many seeds each file
 * crawled it with (each file's value is already the mean over its seeds), and its mean ± SE over topics again; a
 * strategy that one file crawled (a deterministic one run with one seed, say) is taken as it is.
 *
 * The seeds behind a file's per-topic value are those of its crawl records for the (task, strategy) (so a merged
 * file merges again correctly); where some of them gave NaN (harvest before a crawl's first page that is not a seed,
 * early over simulated time) the file's value is the mean over fewer seeds than its weight, and the merge is off
 * from one run's number there. Elsewhere it is one run's to rounding.
 *
 * Pure (results in, results out; no files read or written, only createdAt reads the clock), so the command line and
 * the tests merge alike and the merge can be checked against analyze() over all the crawl records at once.
 */
import {
  type Cell,
  type Comparison,
  compareStrategies,
  type MetricResult,
  type Series,
  type TimeToTargets,
  timeToTargetsOf,
} from './analysis';
import { meanSe } from './metrics';
import type { LabResults } from './report';

/** A value and the seeds behind it. */
type Weighted = { value: number; weight: number };

/** The seed-weighted mean; NaN values are left out with their weight (NaN if nothing is left). Infinity stays. */
function weightedMean(values: Weighted[]): number {
  let sum = 0;
  let weight = 0;
  for (const { value, weight: w } of values) {
    if (Number.isNaN(value)) continue;
    sum += value * w;
    weight += w;
  }
  return weight ? sum / weight : NaN;
}

/** Topics in first-seen order over several per-topic records. */
function topicKeys(records: Record<string, unknown>[]): string[] {
  return [...new Set(records.flatMap((r) => Object.keys(r)))];
}

/** Mean ± SE over the non-NaN per-topic values, as analyze() computes a cell. */
function cellOf(perTopic: Record<string, number>): Cell {
  const ms = meanSe(Object.values(perTopic).filter((v) => !Number.isNaN(v)));
  return { mean: ms.mean, se: ms.se, n: ms.n, perTopic };
}

function mergeCells(cells: { cell: Cell; weight: number }[]): Cell {
  const perTopic: Record<string, number> = {};
  for (const t of topicKeys(cells.map((c) => c.cell.perTopic)))
    perTopic[t] = weightedMean(cells.map((c) => ({ value: c.cell.perTopic[t] ?? NaN, weight: c.weight })));
  return cellOf(perTopic);
}

function sameArray(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function mergeSeries<S extends Series>(series: { s: S; weight: number }[], what: string): S {
  const first = series[0].s;
  const axis = (s: Series) => ('seconds' in s ? (s as Series & { seconds: number[] }).seconds : s.pages);
  for (const { s } of series.slice(1))
    if (!sameArray(s.pages, first.pages) || !sameArray(axis(s), axis(first)))
      throw new Error(`cannot merge ${what}: the points of its series differ`);
  const perTopic: Record<string, number[]> = {};
  for (const t of topicKeys(series.map((x) => x.s.perTopic)))
    perTopic[t] = axis(first).map((_, j) =>
      weightedMean(series.map((x) => ({ value: x.s.perTopic[t]?.[j] ?? NaN, weight: x.weight }))),
    );
  const cells = axis(first).map((_, j) => {
    const at: Record<string, number> = {};
    for (const t of Object.keys(perTopic)) at[t] = perTopic[t][j];
    return cellOf(at);
  });
  return { ...first, mean: cells.map((c) => c.mean), se: cells.map((c) => c.se), perTopic };
}

/**
 * The RNG seeds a file crawled a (task, strategy) with: those of its crawl records, or the run's seeds when it has
 * none (a merged file's strategies may have been crawled with different seeds, so its records are what counts).
 */
function seedsOf(run: LabResults, task: number, strategy: string): number[] {
  const seeds = [...new Set(run.crawls.filter((c) => c.task === task && c.strategy === strategy).map((c) => c.seed))];
  return seeds.length ? seeds.sort((a, b) => a - b) : run.meta.seeds;
}

/** What must be the same in every file for the merge to be one run over more seeds. */
function checkSameSetting(runs: LabResults[], names: string[]): void {
  const sorted = (xs: (number | string)[]) => [...xs].sort();
  const fields: [string, (r: LabResults) => unknown][] = [
    ['format', (r) => r.format],
    ['corpus name', (r) => r.meta.corpus.name ?? r.meta.corpus.description.split(' ')[0]],
    ['corpus page count', (r) => r.meta.corpus.pages],
    ['topics', (r) => sorted(r.meta.topics)],
    ['budgets', (r) => r.meta.budgets],
    ['ks', (r) => r.meta.ks],
    ['step', (r) => r.meta.step],
    ['maxBuffer', (r) => r.meta.maxBuffer],
    ['retries', (r) => r.meta.retries ?? 0],
    [
      'network',
      (r) => {
        const n = r.meta.network;
        return n
          ? {
              model: n.model,
              seed: n.seed,
              politenessMs: n.politenessMs,
              maxInFlight: n.maxInFlight,
              seconds: n.seconds,
              firstTargets: n.firstTargets,
            }
          : 'none (HTTP)';
      },
    ],
  ];
  for (const [field, get] of fields) {
    const want = JSON.stringify(get(runs[0]));
    for (let i = 1; i < runs.length; i++) {
      const got = JSON.stringify(get(runs[i]));
      if (got !== want) {
        const shown = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);
        throw new Error(`cannot merge ${names[0]} and ${names[i]}: their ${field} differ (${shown(want)} vs ${shown(got)})`);
      }
    }
  }
  // Files may hold different tasks (seeds added for Task 2 only, say); a (topic, task) two files have must agree.
  const statics = new Map<string, { text: string; file: string }>();
  runs.forEach((r, i) => {
    for (const st of r.statics) {
      const key = `${st.topic}\0${st.task}`;
      const text = JSON.stringify([st.lexical, st.linkage, st.reachable]);
      const seen = statics.get(key);
      if (seen && seen.text !== text)
        throw new Error(
          `cannot merge ${seen.file} and ${names[i]}: their static top-k lists and reachable targets differ (topic ${st.topic}, task ${st.task})`,
        );
      if (!seen) statics.set(key, { text, file: names[i] });
    }
  });
  const labels = new Map<string, { def: string; file: string }>();
  runs.forEach((r, i) => {
    for (const s of r.meta.strategies) {
      const def = JSON.stringify({ name: s.name, params: s.params });
      const seen = labels.get(s.label);
      if (seen && seen.def !== def)
        throw new Error(
          `cannot merge ${seen.file} and ${names[i]}: strategy ${s.label} is ${seen.def} in one, ${def} in the other`,
        );
      if (!seen) labels.set(s.label, { def, file: names[i] });
    }
  });
}

/**
 * Merges the results of runs that differ only in their RNG seeds (and which strategies they crawled) into the
 * results of one run over all the seeds. `names` (the files) are for error messages.
 * @throws Error when the runs' settings differ, or a strategy was crawled with one seed in two files.
 */
export function mergeResults(runs: LabResults[], names: string[] = runs.map((_, i) => `run ${i + 1}`)): LabResults {
  if (runs.length === 0) throw new Error('mergeResults: no results to merge');
  if (runs.length === 1) return runs[0];
  checkSameSetting(runs, names);

  // (task, strategy) -> the files that crawled it, with their seeds.
  const key = (task: number, strategy: string) => `${task}\0${strategy}`;
  const crawledBy = new Map<string, { run: number; seeds: number[] }[]>();
  runs.forEach((r, i) => {
    for (const k of new Set(r.results.map((x) => key(x.task, x.strategy)))) {
      const [task, strategy] = k.split('\0');
      if (!crawledBy.has(k)) crawledBy.set(k, []);
      crawledBy.get(k)!.push({ run: i, seeds: seedsOf(r, Number(task), strategy) });
    }
  });
  const weightOf = new Map<string, number>();
  for (const [k, files] of crawledBy) {
    const [task, strategy] = k.split('\0');
    for (let a = 0; a < files.length; a++) {
      weightOf.set(`${k}\0${files[a].run}`, files[a].seeds.length);
      for (let b = a + 1; b < files.length; b++) {
        const common = files[a].seeds.filter((s) => files[b].seeds.includes(s));
        if (common.length)
          throw new Error(
            `cannot merge: ${strategy} (task ${task}) was crawled with RNG seed${common.length > 1 ? 's' : ''} ${common.join(', ')} in both ${names[files[a].run]} and ${names[files[b].run]}`,
          );
      }
    }
  }
  const weight = (run: number, task: number, strategy: string) => weightOf.get(`${key(task, strategy)}\0${run}`)!;

  // Metric results, in first-seen order.
  const groups = new Map<string, { run: number; r: MetricResult }[]>();
  runs.forEach((run, i) => {
    for (const r of run.results) {
      const k = `${key(r.task, r.strategy)}\0${r.metric}`;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k)!.push({ run: i, r });
    }
  });
  const results: MetricResult[] = [];
  for (const group of groups.values()) {
    const { task, strategy, metric } = group[0].r;
    const files = crawledBy.get(key(task, strategy))!;
    const what = `${metric} of ${strategy} (task ${task})`;
    if (group.length !== files.length) {
      const missing = files.filter((f) => !group.some((g) => g.run === f.run)).map((f) => names[f.run]);
      throw new Error(`cannot merge: ${missing.join(', ')} ha${missing.length > 1 ? 've' : 's'} no ${what}`);
    }
    if (group.length === 1) {
      results.push(group[0].r);
      continue;
    }
    const w = group.map((g) => weight(g.run, task, strategy));
    const budgets: Record<string, Cell> = {};
    for (const b of Object.keys(group[0].r.budgets))
      budgets[b] = mergeCells(group.map((g, i) => ({ cell: g.r.budgets[b] ?? cellOf({}), weight: w[i] })));
    const merged: MetricResult = {
      task,
      strategy,
      metric,
      budgets,
      dynamic: mergeSeries(
        group.map((g, i) => ({ s: g.r.dynamic, weight: w[i] })),
        what,
      ),
    };
    const timed = group.filter((g) => g.r.times).length;
    if (timed && timed !== group.length) throw new Error(`cannot merge ${what}: some files have its values over time, some not`);
    if (timed) {
      merged.times = {};
      for (const t of Object.keys(group[0].r.times!))
        merged.times[t] = mergeCells(group.map((g, i) => ({ cell: g.r.times![t] ?? cellOf({}), weight: w[i] })));
    }
    if (group.every((g) => g.r.timeDynamic))
      merged.timeDynamic = mergeSeries(
        group.map((g, i) => ({ s: g.r.timeDynamic!, weight: w[i] })),
        `${what} over time`,
      );
    results.push(merged);
  }

  // Time to the first k targets. A file read back has null, hence NaN, where a topic never got there (JSON has no
  // Infinity) and analyze() never gives NaN here: NaN is taken as Infinity.
  let timeToTargets: TimeToTargets[] | undefined;
  if (runs.some((r) => r.timeToTargets)) {
    const ttt = new Map<string, { run: number; x: TimeToTargets }[]>();
    runs.forEach((run, i) => {
      for (const x of run.timeToTargets ?? []) {
        const k = `${key(x.task, x.strategy)}\0${x.k}`;
        if (!ttt.has(k)) ttt.set(k, []);
        ttt.get(k)!.push({ run: i, x });
      }
    });
    timeToTargets = [];
    for (const group of ttt.values()) {
      const { task, strategy, k } = group[0].x;
      const files = crawledBy.get(key(task, strategy));
      if (files && group.length !== files.length)
        throw new Error(`cannot merge: not every file that crawled ${strategy} (task ${task}) has its time to ${k} targets`);
      if (group.length === 1) {
        timeToTargets.push(group[0].x);
        continue;
      }
      const perTopic: Record<string, number> = {};
      for (const t of topicKeys(group.map((g) => g.x.perTopic)))
        perTopic[t] = weightedMean(
          group.map((g) => {
            const v = g.x.perTopic[t];
            return { value: v === undefined ? NaN : Number.isNaN(v) ? Infinity : v, weight: weight(g.run, task, strategy) };
          }),
        );
      timeToTargets.push(timeToTargetsOf(task, strategy, k, perTopic));
    }
  }

  const strategies: LabResults['meta']['strategies'] = [];
  for (const r of runs) for (const s of r.meta.strategies) if (!strategies.some((x) => x.label === s.label)) strategies.push(s);
  const labels = strategies.map((s) => s.label);
  const comparisons: Comparison[] = labels.slice(1).flatMap((l) => compareStrategies(results, l, labels[0]));
  const sum = (get: (r: LabResults) => number) => runs.reduce((s, r) => s + get(r), 0);
  const first = runs[0];
  // The first file's corpus, split, network description and topics file; mergedFrom is the caller's to set.
  const { mergedFrom: _files, cpuSeconds: _cpu, ...firstMeta } = first.meta;
  return {
    format: first.format,
    meta: {
      ...firstMeta,
      createdAt: new Date().toISOString(),
      strategies,
      seeds: [...new Set(runs.flatMap((r) => r.meta.seeds))].sort((a, b) => a - b),
      tasks: [...new Set(runs.flatMap((r) => r.meta.tasks))].sort((a, b) => a - b),
      wallSeconds: sum((r) => r.meta.wallSeconds),
      ...(runs.every((r) => r.meta.cpuSeconds !== undefined) ? { cpuSeconds: sum((r) => r.meta.cpuSeconds!) } : {}),
      crawls: sum((r) => r.meta.crawls),
      pagesFetched: sum((r) => r.meta.pagesFetched),
      evaluations: sum((r) => r.meta.evaluations),
      evaluationCacheHits: sum((r) => r.meta.evaluationCacheHits),
    },
    results,
    ...(timeToTargets ? { timeToTargets } : {}),
    comparisons,
    statics: mergedStatics(runs),
    crawls: runs.flatMap((r) => r.crawls),
  };
}

/** Every (topic, task)'s static lists, from the first file that has it (checkSameSetting made sure they agree). */
function mergedStatics(runs: LabResults[]): LabResults['statics'] {
  const seen = new Set<string>();
  const out: LabResults['statics'] = [];
  for (const r of runs)
    for (const st of r.statics) {
      const key = `${st.topic}\0${st.task}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(st);
    }
  return out;
}

/**
 * From crawl records to numbers: per topic (mean over RNG seeds), then mean ± standard error over topics, for every
 * task, strategy, metric and budget, plus the dynamic view (every `step` pages) and paired comparisons.
 *
 * Metrics (see lab/README.md for the reasoning):
 * - recall: target recall, seeds excluded;
 * - recall-area: the recall curve's area up to the budget (mean of recall after every `step` pages and at the budget);
 * - harvest: mean TF-IDF cosine of the crawled non-seed pages to the topic description (IDF over the corpus);
 * - lexical@k: share of the top-k pages of a BM25 ranking of the corpus against the description that were crawled;
 * - linkage@k: the same for the ranking by distinct topic keywords contained, ties broken by corpus PageRank.
 * Static top-k lists leave out hubs and the task's seeds, so k is always the number of pages still to be found.
 */
import { tokenize } from '../lib/engine';
import type { CorpusIndex } from './corpus';
import {
  type Bm25Options,
  mean,
  meanOverCrawl,
  meanSe,
  maxPairedT,
  pairedComparison,
  rankBy,
  setRecall,
  sparseCosine,
  tfidf,
  topK,
  type PairedComparison,
} from './metrics';
import type { CrawlRecord } from './run';
import { seedsOf, type LabTopic, type TaskId } from './topics';

export interface Cell {
  mean: number;
  se: number;
  /** Topics averaged. */
  n: number;
  /** Per topic: mean over RNG seeds. */
  perTopic: Record<string, number>;
}

export interface Series {
  /** Pages crawled at each point. */
  pages: number[];
  mean: number[];
  se: number[];
  perTopic: Record<string, number[]>;
}

export interface MetricResult {
  task: TaskId;
  strategy: string;
  metric: string;
  /** Budget (as a string key) -> cell. */
  budgets: Record<string, Cell>;
  dynamic: Series;
}

export interface Comparison extends PairedComparison {
  a: string;
  b: string;
  task: TaskId;
  metric: string;
  budget: number;
  /**
   * For measures with a maximum (recall, recall-area: 1), the largest t any strategy could reach against B on these
   * topics ({@link maxPairedT}): when it is 2 or less, "better by two standard errors" cannot be shown here at all.
   */
  maxT?: number;
}

/** Measures whose best value is known (and reached when every target is found): the ceiling for {@link maxPairedT}. */
const METRIC_MAX: Record<string, number> = { recall: 1, 'recall-area': 1 };

/** Per-topic static sets, for the JSON (what the coverage metrics compared against). */
export interface TopicStatics {
  topic: string;
  task: TaskId;
  lexical: string[];
  linkage: string[];
}

export interface AnalysisOptions {
  budgets: number[];
  ks: number[];
  /** Dynamic view resolution (pages). Default 50. */
  step?: number;
}

/**
 * BM25 scores of every corpus page for a query, through the inverted index: the same values as {@link bm25Scores}
 * over the whole corpus (same formula, same order of additions per page), without visiting pages that hold no query term.
 */
export function corpusBm25(corpus: CorpusIndex, queryTerms: string[], options: Bm25Options = {}): Float64Array {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const N = corpus.size;
  const avgdl = mean(corpus.length) || 1;
  const qtf = new Map<string, number>();
  for (const t of queryTerms) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const scores = new Float64Array(N);
  for (const [t, q] of qtf) {
    const k = corpus.termId.get(t);
    const n = k === undefined ? 0 : corpus.df[k];
    const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
    const { docs, counts } = corpus.postings(t);
    for (let p = 0; p < docs.length; p++) {
      const d = docs[p];
      const f = counts[p];
      const norm = k1 * (1 - b + (b * corpus.length[d]) / avgdl);
      scores[d] += q * idf * ((f * (k1 + 1)) / (f + norm));
    }
  }
  return scores;
}

/** How many of the distinct terms each corpus page contains. */
export function corpusTermCounts(corpus: CorpusIndex, terms: string[]): Int32Array {
  const counts = new Int32Array(corpus.size);
  for (const t of new Set(terms)) for (const d of corpus.postings(t).docs) counts[d]++;
  return counts;
}

/** The corpus's IDF as a lookup for {@link tfidf}. */
export function corpusIdf(corpus: CorpusIndex): { get(term: string): number | undefined } {
  return { get: (term) => corpus.idf(term) };
}

/** Ranks the corpus for a topic: BM25 against the description, and distinct keywords with PageRank ties. */
export function staticRankings(
  topic: LabTopic,
  corpus: CorpusIndex,
): { lexical: string[]; linkage: string[]; keywords: string[] } {
  const lang = topic.language ?? 'en';
  const bm = corpusBm25(corpus, tokenize(topic.description, lang));
  const keywords = [...new Set(tokenize(topic.keywords, lang))];
  const kwCount = corpusTermCounts(corpus, keywords);
  return {
    lexical: rankBy(corpus.ids, bm).filter((id) => bm[corpus.position.get(id)!] > 0),
    linkage: rankBy(corpus.ids, kwCount, corpus.pagerank).filter((id) => kwCount[corpus.position.get(id)!] > 0),
    keywords,
  };
}

/** Computes every metric of every crawl record. */
export function analyze(
  records: CrawlRecord[],
  topics: LabTopic[],
  corpus: CorpusIndex,
  options: AnalysisOptions,
): { results: MetricResult[]; statics: TopicStatics[] } {
  const step = options.step ?? 50;
  const maxBudget = Math.max(...options.budgets);
  const points: number[] = [];
  for (let p = step; p <= maxBudget; p += step) points.push(p);
  if (points[points.length - 1] !== maxBudget) points.push(maxBudget);

  const hubs = new Set(corpus.ids.filter((_, i) => corpus.hub[i]));
  const idf = corpusIdf(corpus);
  const statics: TopicStatics[] = [];
  /** topic -> task -> metric -> (pages, budget) -> value */
  type Evaluate = (pages: CrawlRecord['pages'], budget: number) => number;
  const metricFns = new Map<string, Map<TaskId, Map<string, Evaluate>>>();
  const metricNames = [
    'recall',
    'recall-area',
    'harvest',
    ...options.ks.map((k) => `lexical@${k}`),
    ...options.ks.map((k) => `linkage@${k}`),
  ];
  const maxK = Math.max(...options.ks);

  for (const topic of topics) {
    const ranks = staticRankings(topic, corpus);
    const lang = topic.language ?? 'en';
    const desc = tfidf(Object.fromEntries(countTerms(tokenize(topic.description, lang))), idf);
    const simCache = new Map<string, number>();
    const sim = (id: string): number => {
      let v = simCache.get(id);
      if (v === undefined) {
        const i = corpus.position.get(id);
        v = i === undefined ? 0 : sparseCosine(tfidf(corpus.tf(i), idf), desc);
        simCache.set(id, v);
      }
      return v;
    };
    const byTask = new Map<TaskId, Map<string, Evaluate>>();
    for (const task of [1, 2] as TaskId[]) {
      const seeds = seedsOf(topic, task);
      const exclude = new Set([...hubs, ...seeds]);
      const lexTop = topK(ranks.lexical, maxK, exclude);
      const linkTop = topK(ranks.linkage, maxK, exclude);
      statics.push({ topic: topic.id, task, lexical: lexTop, linkage: linkTop });
      const fns = new Map<string, Evaluate>();
      fns.set('recall', (pages, b) => setRecall(pages, b, topic.targets, seeds));
      // Area under the recall curve up to the budget, normalised: the mean of recall after every `step` pages.
      // It rewards finding targets early, which recall at the budget alone does not.
      fns.set('recall-area', (pages, b) => {
        let sum = 0;
        let n = 0;
        for (let p = step; p < b; p += step, n++) sum += setRecall(pages, p, topic.targets, seeds);
        return (sum + setRecall(pages, b, topic.targets, seeds)) / (n + 1);
      });
      fns.set('harvest', (pages, b) => meanOverCrawl(pages, b, sim));
      for (const k of options.ks) {
        fns.set(`lexical@${k}`, (pages, b) => setRecall(pages, b, lexTop.slice(0, k), seeds));
        fns.set(`linkage@${k}`, (pages, b) => setRecall(pages, b, linkTop.slice(0, k), seeds));
      }
      byTask.set(task, fns);
    }
    metricFns.set(topic.id, byTask);
  }

  const groups = new Map<string, CrawlRecord[]>();
  for (const r of records) {
    const key = `${r.task}\0${r.strategy}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(r);
  }
  const results: MetricResult[] = [];
  for (const [key, recs] of groups) {
    const [taskText, strategy] = key.split('\0');
    const task = Number(taskText) as TaskId;
    const topicIds = topics.map((t) => t.id).filter((id) => recs.some((r) => r.topic === id));
    for (const metric of metricNames) {
      /** Per topic: value at a number of pages, averaged over the topic's seeds. */
      const perTopicAt = (topicId: string, pagesCrawled: number): number => {
        const fn = metricFns.get(topicId)!.get(task)!.get(metric)!;
        const vals = recs
          .filter((r) => r.topic === topicId)
          .map((r) => fn(r.pages, pagesCrawled))
          .filter((v) => !Number.isNaN(v));
        return vals.length ? vals.reduce((s, v) => s + v, 0) / vals.length : NaN;
      };
      const cellAt = (pagesCrawled: number): Cell => {
        const perTopic: Record<string, number> = {};
        for (const t of topicIds) perTopic[t] = perTopicAt(t, pagesCrawled);
        const ms = meanSe(Object.values(perTopic).filter((v) => !Number.isNaN(v)));
        return { mean: ms.mean, se: ms.se, n: ms.n, perTopic };
      };
      const budgets: Record<string, Cell> = {};
      for (const b of options.budgets) budgets[String(b)] = cellAt(b);
      const cells = points.map(cellAt);
      const perTopic: Record<string, number[]> = {};
      for (const t of topicIds) perTopic[t] = cells.map((c) => c.perTopic[t]);
      results.push({
        task,
        strategy,
        metric,
        budgets,
        dynamic: { pages: points, mean: cells.map((c) => c.mean), se: cells.map((c) => c.se), perTopic },
      });
    }
  }
  return { results, statics };
}

function countTerms(terms: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Paired comparison of strategies `a` and `b` over topics, for every task, metric and budget both were run on. */
export function compareStrategies(results: MetricResult[], a: string, b: string): Comparison[] {
  const out: Comparison[] = [];
  for (const ra of results.filter((r) => r.strategy === a)) {
    const rb = results.find((r) => r.strategy === b && r.task === ra.task && r.metric === ra.metric);
    if (!rb) continue;
    for (const budget of Object.keys(ra.budgets)) {
      const ca = ra.budgets[budget];
      const cb = rb.budgets[budget];
      if (!cb) continue;
      const topicsBoth = Object.keys(ca.perTopic).filter(
        (t) => !Number.isNaN(ca.perTopic[t]) && !Number.isNaN(cb.perTopic[t] ?? NaN),
      );
      if (topicsBoth.length === 0) continue;
      const bValues = topicsBoth.map((t) => cb.perTopic[t]);
      const pc = pairedComparison(
        topicsBoth.map((t) => ca.perTopic[t]),
        bValues,
      );
      const max = METRIC_MAX[ra.metric];
      out.push({
        a,
        b,
        task: ra.task,
        metric: ra.metric,
        budget: Number(budget),
        ...pc,
        ...(max !== undefined ? { maxT: maxPairedT(bValues, max) } : {}),
      });
    }
  }
  return out;
}

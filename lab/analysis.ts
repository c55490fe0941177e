/**
 * From crawl records to numbers: per topic (mean over RNG seeds), then mean ± standard error over topics, for every
 * task, strategy, metric and budget, plus the dynamic view (every `step` pages) and paired comparisons; for crawls on
 * the simulated network, the same over simulated time (recall and harvest at given seconds, time to the first k
 * targets).
 *
 * Metrics (see lab/README.md for the reasoning):
 * - recall: target recall, seeds excluded;
 * - recall-area: the recall curve's area up to the budget (mean of recall after every `step` pages and at the budget);
 * - harvest: mean TF-IDF cosine of the crawled non-seed pages to the topic description (IDF over the corpus);
 * - lexical@k: share of the top-k pages of a BM25 ranking of the corpus against the description that were crawled;
 * - linkage@k: the same for the ranking by distinct topic keywords contained, ties broken by corpus PageRank;
 * - recall-reachable: recall of the targets that a path of links from the task's seeds reaches in the corpus (a crawl
 *   with no budget limit could find no others).
 * Static top-k lists leave out hubs and the task's seeds, so k is always the number of pages still to be found.
 */
import { PriorityFrontier, tokenize, topicVector, type TermVector } from '../lib/engine';
import type { CorpusIndex } from './corpus';
import {
  type Bm25Options,
  type CrawledPage,
  mean,
  meanSe,
  maxPairedT,
  pairedComparison,
  rankBy,
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
  /** Simulated network runs: seconds of simulated time (as a string key) -> cell. */
  times?: Record<string, Cell>;
  /** Simulated network runs: the dynamic view over simulated time (`seconds`, not `pages`). */
  timeDynamic?: Series & { seconds: number[] };
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
const METRIC_MAX: Record<string, number> = { recall: 1, 'recall-reachable': 1, 'recall-area': 1 };

/** Per-topic static sets, for the JSON (what the coverage metrics compared against). */
export interface TopicStatics {
  topic: string;
  task: TaskId;
  lexical: string[];
  linkage: string[];
  /** Targets (seeds excluded) that some path of links from the task's seeds reaches in the corpus. */
  reachable: string[];
  /** Their share of the targets (seeds excluded). */
  reachableShare: number;
  /**
   * Recall of the reachable targets at each budget (in `budgets` order) of a crawl that knows them
   * ({@link knownTargetsCrawl}): the best possible crawl reaches at least this. Absent in older results.
   */
  knownTargetsRecall?: number[];
  /** Pages that crawl needed to find every reachable target; absent when the largest budget was not enough (and in older results). */
  knownTargetsPages?: number;
  /**
   * Recall of the reachable targets at each budget of a crawl that knows every page's similarity to the topic
   * ({@link knownSimilarityCrawl}): what the topic's words alone lead to. Absent in older results.
   */
  knownSimilarityRecall?: number[];
  /**
   * Share of the reachable targets that every path from the seeds reaches through a page with none of the topic's
   * words ({@link reachableThroughTopicWords}). Absent in older results.
   */
  wordlessShare?: number;
}

export interface AnalysisOptions {
  budgets: number[];
  ks: number[];
  /** Dynamic view resolution (pages). Default 50. */
  step?: number;
  /** The view over simulated time (records with `times`). */
  time?: TimeOptions;
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

/**
 * The harvest measure, `sparseCosine(tfidf(corpus.tf(i), idf), description)`, to the bit, without building each
 * page's TF-IDF vector once per topic: a page's squared norm and size are measured once (in the same term order as
 * before, so the same sum), and a topic reads only the page's terms that its description holds. The full comparison
 * measures ~8,000 distinct pages per topic; building their vectors was most of the analysis's time.
 */
export class DescriptionSimilarity {
  private readonly norm2: Float64Array;
  private readonly vectorSize: Int32Array;

  constructor(private readonly corpus: CorpusIndex) {
    this.norm2 = new Float64Array(corpus.size).fill(-1);
    this.vectorSize = new Int32Array(corpus.size);
  }

  /** The similarity of page i to a description (a TF-IDF vector over the corpus's IDF). */
  to(desc: Map<string, number>): (i: number) => number {
    const { corpus } = this;
    /** The description's position of each of its terms the corpus has, by term id. */
    const slot = new Map<number, number>();
    let nb = 0;
    for (const w of desc.values()) nb += w * w;
    const weights: number[] = [];
    for (const [t, w] of desc) {
      const k = corpus.termId.get(t);
      if (k !== undefined) slot.set(k, weights.length);
      weights.push(w);
    }
    const found = new Float64Array(weights.length);
    const has = new Uint8Array(weights.length);
    const { df } = corpus;
    const n = corpus.size;
    return (i) => {
      const na = this.pageNorm2(i);
      if (na === 0 || nb === 0) return 0;
      // sparseCosine sums over the smaller vector, in its order: the page's when it is no larger, else the description's.
      const inPageOrder = this.vectorSize[i] <= desc.size;
      let dot = 0;
      if (!inPageOrder) has.fill(0);
      corpus.forEachTerm(i, (term, count) => {
        const j = slot.get(term);
        if (j === undefined) return;
        const w = Math.log(n / df[term]); // corpus.idf, by term id
        if (w > 0) {
          if (inPageOrder) dot += count * w * weights[j];
          else {
            found[j] = count * w;
            has[j] = 1;
          }
        }
      });
      if (!inPageOrder) for (let j = 0; j < weights.length; j++) if (has[j]) dot += weights[j] * found[j];
      return Math.min(1, dot / Math.sqrt(na * nb));
    };
  }

  /**
   * The squared norm of page i's TF-IDF vector, summed in the order of `tfidf(corpus.tf(i), idf)`: the index keeps a
   * page's terms in its term vector's key order (it was built by iterating that object), which `tf` rebuilds.
   */
  private pageNorm2(i: number): number {
    if (this.norm2[i] >= 0) return this.norm2[i];
    const { df } = this.corpus;
    const n = this.corpus.size;
    let na = 0;
    let size = 0;
    this.corpus.forEachTerm(i, (term, count) => {
      const w = Math.log(n / df[term]);
      if (w > 0) {
        const x = count * w;
        na += x * x;
        size++;
      }
    });
    this.norm2[i] = na;
    this.vectorSize[i] = size;
    return na;
  }
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

/**
 * Values of a measure over a crawl's page sequence at ascending page counts, in one pass: `curve(pages, counts)[j]`
 * is the measure over the first counts[j] pages. Same arithmetic, in the same order, as the one-budget functions
 * of metrics.ts (setRecall, meanOverCrawl), so the numbers are those to the bit.
 */
type Curve = (pages: CrawledPage[], counts: number[]) => number[];

/** The corpus positions of page ids, each once, in order; ids not in the corpus are skipped. */
function positionsOf(corpus: CorpusIndex, ids: readonly string[]): number[] {
  const positions = new Set<number>();
  for (const id of ids) {
    const i = corpus.position.get(id);
    if (i !== undefined) positions.add(i);
  }
  return [...positions];
}

/**
 * Pages (1 = reached) that some path of corpus links from the seeds reaches, the seeds included. With `follows`, only
 * the seeds and the pages it accepts are followed (the rest are reached, not left).
 */
export function reachableFrom(
  corpus: CorpusIndex,
  seeds: readonly string[],
  follows?: (position: number) => boolean,
): Uint8Array {
  const seen = new Uint8Array(corpus.size);
  const queue = positionsOf(corpus, seeds);
  for (const i of queue) seen[i] = 1;
  const seedCount = queue.length;
  for (let q = 0; q < queue.length; q++) {
    if (follows && q >= seedCount && !follows(queue[q])) continue;
    for (const j of corpus.outlinks(queue[q]))
      if (!seen[j]) {
        seen[j] = 1;
        queue.push(j);
      }
  }
  return seen;
}

/**
 * Pages (1 = reached) that some path of corpus links from the seeds reaches when only the seeds and pages holding a word
 * of the topic are followed: what a crawl led by the topic's words alone can reach. A reachable target not among them
 * lies, on every path from the seeds, behind a page with none of the topic's words (similarity 0), which such a crawl
 * ranks last: only exploring finds it.
 */
export function reachableThroughTopicWords(corpus: CorpusIndex, seeds: readonly string[], topic: TermVector): Uint8Array {
  const holds = corpusTermCounts(corpus, Object.keys(topic));
  return reachableFrom(corpus, seeds, (i) => holds[i] > 0);
}

/**
 * A crawl that knows the targets: from the seeds (fetched first, as a crawl does), it fetches the path of unfetched
 * pages to the nearest target not yet found (fewest new pages; one multi-source breadth-first search over the links of
 * what it has fetched), then the next, until `budget` pages. Returns the number of pages at which each target was
 * found, in order. Greedy, so the best possible crawl finds at least as much within a budget: it says whether a
 * recall figure is within reach of a crawl at all, or limited by how far the targets are from the seeds.
 */
export function knownTargetsCrawl(
  corpus: CorpusIndex,
  seeds: readonly string[],
  targets: readonly string[],
  budget: number,
): number[] {
  const n = corpus.size;
  const fetched = new Uint8Array(n);
  const isTarget = new Uint8Array(n);
  /** Fetched pages in fetch order: every round's search starts from all of them. */
  const queue = new Int32Array(n);
  let pages = 0;
  for (const i of positionsOf(corpus, seeds)) {
    fetched[i] = 1;
    queue[pages++] = i;
  }
  let left = 0;
  for (const id of targets) {
    const i = corpus.position.get(id);
    if (i !== undefined && !fetched[i] && !isTarget[i]) {
      isTarget[i] = 1;
      left++;
    }
  }
  const foundAt: number[] = [];
  const parent = new Int32Array(n);
  const stamp = new Int32Array(n);
  let round = 0;
  while (left > 0 && pages < budget) {
    round++;
    // The queue's first `pages` entries are the fetched pages; the search appends after them.
    let head = 0;
    let tail = pages;
    let hit = -1;
    // Breadth-first from every fetched page through unfetched ones; the first target met is a nearest one.
    while (head < tail && hit < 0) {
      const u = queue[head++];
      for (const v of corpus.outlinks(u)) {
        if (fetched[v] || stamp[v] === round) continue;
        stamp[v] = round;
        parent[v] = u;
        if (isTarget[v]) {
          hit = v;
          break;
        }
        queue[tail++] = v;
      }
    }
    if (hit < 0) break;
    const path: number[] = [];
    for (let v = hit; !fetched[v]; v = parent[v]) path.push(v);
    for (let k = path.length - 1; k >= 0 && pages < budget; k--) {
      const v = path[k];
      fetched[v] = 1;
      queue[pages++] = v;
      if (isTarget[v]) {
        isTarget[v] = 0;
        left--;
        foundAt.push(pages);
      }
    }
  }
  return foundAt;
}

/** Each page's term-frequency norm, per corpus (computed once). */
const pageNorms = new WeakMap<CorpusIndex, Float64Array>();

function normsOf(corpus: CorpusIndex): Float64Array {
  let norms = pageNorms.get(corpus);
  if (!norms) {
    norms = new Float64Array(corpus.size);
    for (let i = 0; i < corpus.size; i++) {
      let sum = 0;
      corpus.forEachTerm(i, (_, count) => {
        sum += count * count;
      });
      norms[i] = Math.sqrt(sum);
    }
    pageNorms.set(corpus, norms);
  }
  return norms;
}

/**
 * A crawl that knows how similar every page is to the topic before fetching it: from the seeds (fetched first), it
 * always fetches the discovered page most similar to the topic (cosine of the page's term frequencies, as the corpus
 * index holds them, to the topic's keyword vector: the evaluator's measure without the results page's context and the
 * boilerplate weights), with no bound on its frontier and ties in the order found, until `budget` pages. Returns the number of pages at which each
 * target was found, in order. Not a bound (a crawl may pass through dissimilar pages to reach similar ones, and beat
 * it), but what a perfect judge of the topic's words gets: where it misses, the targets do not stand out by the words
 * of the pages that lead to them, or by their own.
 */
export function knownSimilarityCrawl(
  corpus: CorpusIndex,
  seeds: readonly string[],
  targets: readonly string[],
  budget: number,
  topic: TermVector,
): number[] {
  const norms = normsOf(corpus);
  const weight = new Map<number, number>();
  let topicNorm = 0;
  for (const [term, w] of Object.entries(topic)) {
    topicNorm += w * w;
    const id = corpus.termId.get(term);
    if (id !== undefined) weight.set(id, w);
  }
  topicNorm = Math.sqrt(topicNorm);
  const similarity = (i: number): number => {
    if (norms[i] === 0 || topicNorm === 0) return 0;
    let dot = 0;
    corpus.forEachTerm(i, (term, count) => {
      const w = weight.get(term);
      if (w !== undefined) dot += w * count;
    });
    return dot / (norms[i] * topicNorm);
  };
  const isTarget = new Uint8Array(corpus.size);
  for (const id of targets) {
    const i = corpus.position.get(id);
    if (i !== undefined) isTarget[i] = 1;
  }
  const seen = new Uint8Array(corpus.size);
  // The engine's frontier, unbounded here (each page is queued once): among equal scores the earlier entry goes first.
  const frontier = new PriorityFrontier(Math.max(1, corpus.size));
  const foundAt: number[] = [];
  let pages = 0;
  const fetch = (i: number, isSeed: boolean) => {
    pages++;
    if (isTarget[i] && !isSeed) foundAt.push(pages);
    for (const j of corpus.outlinks(i))
      if (!seen[j]) {
        seen[j] = 1;
        frontier.add({ url: corpus.ids[j], score: similarity(j), depth: 0 });
      }
  };
  const seedPages = positionsOf(corpus, seeds);
  for (const i of seedPages) seen[i] = 1;
  for (const i of seedPages) if (pages < budget) fetch(i, true);
  while (pages < budget) {
    const next = frontier.popMax();
    if (!next) break;
    fetch(corpus.position.get(next.url)!, false);
  }
  return foundAt;
}

/** Where the reachable targets a crawl missed lie, in links from what it crawled ({@link missedTargets}). */
export interface Misses {
  /** Reachable targets, seeds excluded. */
  reachable: number;
  /** Those not crawled within the budget. */
  missed: string[];
  /** Missed targets a crawled page links to: the crawl saw the link and chose others. */
  oneHop: number;
  /** Missed targets two links from a crawled page (and not one). */
  twoHops: number;
}

/**
 * Sorts the reachable targets a crawl missed within `budget` pages by their distance from the pages it crawled:
 * one link (it saw the link and chose others), two, or more (it never came near).
 */
export function missedTargets(
  corpus: CorpusIndex,
  seeds: readonly string[],
  targets: readonly string[],
  pages: readonly string[],
  budget: number,
): Misses {
  const reach = reachableFrom(corpus, seeds);
  const seedSet = new Set(seeds);
  const wanted = targets.filter((t) => !seedSet.has(t) && reach[corpus.position.get(t) ?? -1] === 1);
  const crawled = new Uint8Array(corpus.size);
  for (const id of pages.slice(0, budget)) {
    const i = corpus.position.get(id);
    if (i !== undefined) crawled[i] = 1;
  }
  // Distance 1: linked from a crawled page; distance 2: linked from a page a crawled page links to.
  const near = new Uint8Array(corpus.size);
  for (let i = 0; i < corpus.size; i++) if (crawled[i]) for (const j of corpus.outlinks(i)) if (!crawled[j]) near[j] = 1;
  const nearer = new Uint8Array(corpus.size);
  for (let i = 0; i < corpus.size; i++)
    if (near[i]) for (const j of corpus.outlinks(i)) if (!crawled[j] && !near[j]) nearer[j] = 1;
  const missed = wanted.filter((t) => !crawled[corpus.position.get(t)!]);
  const at = (t: string) => corpus.position.get(t)!;
  return {
    reachable: wanted.length,
    missed,
    oneHop: missed.filter((t) => near[at(t)]).length,
    twoHops: missed.filter((t) => nearer[at(t)]).length,
  };
}

function knownTargets(
  corpus: CorpusIndex,
  seeds: string[],
  reachable: string[],
  budgets: number[],
): Pick<TopicStatics, 'knownTargetsRecall' | 'knownTargetsPages'> {
  if (!reachable.length) return { knownTargetsRecall: budgets.map(() => NaN) };
  const foundAt = knownTargetsCrawl(corpus, seeds, reachable, Math.max(...budgets));
  return {
    knownTargetsRecall: budgets.map((b) => foundAt.filter((p) => p <= b).length / reachable.length),
    ...(foundAt.length === reachable.length ? { knownTargetsPages: foundAt[foundAt.length - 1] } : {}),
  };
}

function knownSimilarity(
  corpus: CorpusIndex,
  seeds: string[],
  reachable: string[],
  budgets: number[],
  topic: TermVector,
): number[] {
  if (!reachable.length) return budgets.map(() => NaN);
  const foundAt = knownSimilarityCrawl(corpus, seeds, reachable, Math.max(...budgets), topic);
  return budgets.map((b) => foundAt.filter((p) => p <= b).length / reachable.length);
}

function wordlessShare(corpus: CorpusIndex, seeds: string[], reachable: string[], topic: TermVector): number {
  if (!reachable.length) return NaN;
  const worded = reachableThroughTopicWords(corpus, seeds, topic);
  return reachable.filter((id) => worded[corpus.position.get(id)!] !== 1).length / reachable.length;
}

function recallCurve(relevant: string[], seeds: string[]): Curve {
  const seedSet = new Set(seeds);
  const want = new Set(relevant.filter((id) => !seedSet.has(id)));
  return (pages, counts) => {
    if (want.size === 0) return counts.map(() => NaN);
    const found = new Set<string>();
    const out: number[] = [];
    let i = 0;
    for (const c of counts) {
      const end = Math.min(c, pages.length);
      for (; i < end; i++) {
        const id = pages[i].id;
        if (id !== undefined && want.has(id)) found.add(id);
      }
      out.push(found.size / want.size);
    }
    return out;
  };
}

function meanCurve(value: (id: string) => number): Curve {
  return (pages, counts) => {
    let s = 0;
    let n = 0;
    let i = 0;
    const out: number[] = [];
    for (const c of counts) {
      const end = Math.min(c, pages.length);
      for (; i < end; i++) {
        const p = pages[i];
        if (p.isSeed) continue;
        s += p.id === undefined ? 0 : value(p.id);
        n++;
      }
      out.push(n ? s / n : NaN);
    }
    return out;
  };
}

/** Simulated seconds at which the time view is read, and its dynamic points. */
export interface TimeOptions {
  /** Seconds at which recall and harvest are tabled (e.g. 30, 60, 300). */
  seconds: number[];
  /** Seconds between points of the dynamic view over time. Default: the largest of `seconds` / 60. */
  step?: number;
  /** Targets found for "time to the first k targets" (e.g. 1, 10, 25). */
  firstTargets: number[];
}

/** Metrics read over simulated time. */
export const TIME_METRICS = ['recall', 'harvest'];

/** "Time to the first k targets" over topics: seconds per topic (mean over seeds), median, and topics that got there. */
export interface TimeToTargets {
  task: TaskId;
  strategy: string;
  /** Targets found (seeds excluded). */
  k: number;
  /** Seconds, Infinity when a crawl (any of the topic's seeds) never found k targets. */
  perTopic: Record<string, number>;
  /** Median over topics (Infinity counts as the largest). */
  median: number;
  /** Topics whose every crawl found k targets. */
  reached: number;
  n: number;
}

/** Computes every metric of every crawl record (all at once; {@link Analysis} takes them one by one). */
export function analyze(
  records: CrawlRecord[],
  topics: LabTopic[],
  corpus: CorpusIndex,
  options: AnalysisOptions,
): { results: MetricResult[]; statics: TopicStatics[]; timeToTargets: TimeToTargets[] } {
  const analysis = new Analysis(topics, corpus, options);
  records.forEach((r, i) => {
    analysis.add(r, i);
  });
  return analysis.finish();
}

/** What one topic's records are measured against: per task, its curves and the targets left to find. */
interface TopicMeasures {
  curves: Map<TaskId, Map<string, Curve>>;
  targetsLeft: Map<TaskId, Set<string>>;
  statics: TopicStatics[];
}

/** One crawl record's numbers: each metric at the page counts, and (simulated network) over time. */
interface RecordValues {
  topic: string;
  task: TaskId;
  strategy: string;
  /** Metric -> values at `budgets` then the dynamic points. */
  atPages: Map<string, number[]>;
  /** Simulated network records: metric (TIME_METRICS) -> values at `time.seconds` then the time points. */
  atTimes?: Map<string, number[]>;
  /** Simulated network records: seconds to the first k targets, for each of `time.firstTargets`. */
  secondsTo?: number[];
}

/**
 * The lab's analysis, one crawl record at a time: a record is measured when it arrives (its topic's static sets and
 * curves are built with the topic's first record) and only its numbers are kept, so a run can measure each crawl as it
 * ends, on the thread that would otherwise wait for the crawl workers, instead of all of them after the last one.
 * {@link finish} gives what {@link analyze} gives for the records in index order, to the bit.
 */
export class Analysis {
  private readonly step: number;
  /** The dynamic view's page counts. */
  private readonly points: number[] = [];
  /** The page counts each record is read at: the budgets, then the dynamic points. */
  private readonly pageCounts: number[];
  /** Every page count any value is read at: the dynamic points, the budgets, and the steps below each budget. */
  private readonly counts: number[];
  private readonly countIndex: Map<number, number>;
  /** The dynamic view's simulated seconds (with a time view). */
  private readonly timePoints: number[] = [];
  private readonly hubs: Set<string>;
  private readonly idf: ReturnType<typeof corpusIdf>;
  private readonly similarity: DescriptionSimilarity;
  private readonly metricNames: string[];
  private readonly maxK: number;
  private readonly topicById: Map<string, LabTopic>;
  private readonly measures = new Map<string, TopicMeasures>();
  /** By record index. */
  private readonly values: RecordValues[] = [];

  constructor(
    private readonly topics: LabTopic[],
    private readonly corpus: CorpusIndex,
    private readonly options: AnalysisOptions,
  ) {
    const step = (this.step = options.step ?? 50);
    const maxBudget = Math.max(...options.budgets);
    const points = this.points;
    for (let p = step; p <= maxBudget; p += step) points.push(p);
    if (points[points.length - 1] !== maxBudget) points.push(maxBudget);
    this.counts = [...new Set([...points, ...options.budgets])].sort((a, b) => a - b);
    this.countIndex = new Map(this.counts.map((c, j) => [c, j]));
    this.pageCounts = [...options.budgets, ...points];
    const time = options.time;
    if (time) {
      const maxT = Math.max(...time.seconds);
      const tStep = time.step ?? maxT / 60;
      for (let t = tStep; t <= maxT + 1e-9; t += tStep) this.timePoints.push(Number(t.toFixed(6)));
      for (const t of time.seconds) if (!this.timePoints.includes(t)) this.timePoints.push(t);
      this.timePoints.sort((a, b) => a - b);
    }
    this.hubs = new Set(corpus.ids.filter((_, i) => corpus.hub[i]));
    this.idf = corpusIdf(corpus);
    this.similarity = new DescriptionSimilarity(corpus);
    this.metricNames = [
      'recall',
      'recall-reachable',
      'recall-area',
      'harvest',
      ...options.ks.map((k) => `lexical@${k}`),
      ...options.ks.map((k) => `linkage@${k}`),
    ];
    this.maxK = Math.max(...options.ks);
    this.topicById = new Map(topics.map((t) => [t.id, t]));
  }

  /** Measures record number `index` (indices give the order of {@link finish}); keeps its numbers, not its pages. */
  add(r: CrawlRecord, index: number): void {
    const m = this.measuresOf(r.topic);
    const fns = m.curves.get(r.task)!;
    const atPages = new Map<string, number[]>();
    for (const metric of this.metricNames) atPages.set(metric, this.valuesAt(r, fns, metric, this.pageCounts));
    const v: RecordValues = { topic: r.topic, task: r.task, strategy: r.strategy, atPages };
    const time = this.options.time;
    if (time && r.times) {
      const times = r.times;
      // The pages crawled by each point in time: the count of pages whose time is at most t.
      const pagesAt = [...time.seconds, ...this.timePoints].map((t) => pagesBy(times, t * 1000));
      v.atTimes = new Map(TIME_METRICS.map((metric) => [metric, this.valuesAt(r, fns, metric, pagesAt)]));
      const left = m.targetsLeft.get(r.task)!;
      v.secondsTo = time.firstTargets.map((k) => secondsToTargets(r, left, k));
    }
    this.values[index] = v;
  }

  /** The tables over every record added, and every topic's static sets (topics without records included). */
  finish(): { results: MetricResult[]; statics: TopicStatics[]; timeToTargets: TimeToTargets[] } {
    const { options, points, topics } = this;
    const time = options.time;
    const statics = topics.flatMap((t) => this.measuresOf(t.id).statics);
    const groups = new Map<string, RecordValues[]>();
    for (const r of this.values) {
      if (!r) continue;
      const key = `${r.task}\0${r.strategy}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(r);
    }
    const results: MetricResult[] = [];
    const timeToTargets: TimeToTargets[] = [];
    for (const [key, recs] of groups) {
      const [taskText, strategy] = key.split('\0');
      const task = Number(taskText) as TaskId;
      const topicIds = topics.map((t) => t.id).filter((id) => recs.some((r) => r.topic === id));
      const byTopic = new Map(topicIds.map((t) => [t, recs.filter((r) => r.topic === t)]));
      /** Per topic, values at each point (mean over the topic's seeds, NaN values left out), then cells over topics. */
      const cellsOf = (valuesOfRecord: (r: RecordValues) => number[], width: number): Cell[] => {
        const perTopicVals = new Map<string, number[]>();
        for (const t of topicIds) {
          const rows = byTopic.get(t)!.map(valuesOfRecord);
          perTopicVals.set(
            t,
            Array.from({ length: width }, (_, j) => {
              const vals = rows.map((row) => row[j]).filter((v) => !Number.isNaN(v));
              return vals.length ? vals.reduce((s, v) => s + v, 0) / vals.length : NaN;
            }),
          );
        }
        return Array.from({ length: width }, (_, j) => {
          const perTopic: Record<string, number> = {};
          for (const t of topicIds) perTopic[t] = perTopicVals.get(t)![j];
          const ms = meanSe(Object.values(perTopic).filter((v) => !Number.isNaN(v)));
          return { mean: ms.mean, se: ms.se, n: ms.n, perTopic };
        });
      };
      const timed = !!time && recs.every((r) => r.atTimes);
      for (const metric of this.metricNames) {
        const cells = cellsOf((r) => r.atPages.get(metric)!, this.pageCounts.length);
        const budgets: Record<string, Cell> = {};
        options.budgets.forEach((b, j) => {
          budgets[String(b)] = cells[j];
        });
        const dyn = cells.slice(options.budgets.length);
        const perTopic: Record<string, number[]> = {};
        for (const t of topicIds) perTopic[t] = dyn.map((c) => c.perTopic[t]);
        const result: MetricResult = {
          task,
          strategy,
          metric,
          budgets,
          dynamic: { pages: points, mean: dyn.map((c) => c.mean), se: dyn.map((c) => c.se), perTopic },
        };
        if (timed && TIME_METRICS.includes(metric)) {
          const tCells = cellsOf((r) => r.atTimes!.get(metric)!, time.seconds.length + this.timePoints.length);
          result.times = {};
          time.seconds.forEach((t, j) => {
            result.times![String(t)] = tCells[j];
          });
          const tDyn = tCells.slice(time.seconds.length);
          const tPerTopic: Record<string, number[]> = {};
          for (const t of topicIds) tPerTopic[t] = tDyn.map((c) => c.perTopic[t]);
          result.timeDynamic = {
            pages: [],
            seconds: this.timePoints,
            mean: tDyn.map((c) => c.mean),
            se: tDyn.map((c) => c.se),
            perTopic: tPerTopic,
          };
        }
        results.push(result);
      }
      if (timed) {
        time.firstTargets.forEach((k, j) => {
          const perTopic: Record<string, number> = {};
          for (const t of topicIds) {
            const secs = byTopic.get(t)!.map((r) => r.secondsTo![j]);
            perTopic[t] = secs.reduce((s, v) => s + v, 0) / secs.length;
          }
          timeToTargets.push(timeToTargetsOf(task, strategy, k, perTopic));
        });
      }
    }
    return { results, statics, timeToTargets };
  }

  /** A topic's static sets and curves, built on first use. */
  private measuresOf(topicId: string): TopicMeasures {
    const known = this.measures.get(topicId);
    if (known) return known;
    const topic = this.topicById.get(topicId);
    if (!topic) throw new Error(`analysis: a crawl record of topic ${topicId}, which is not among the topics`);
    const { corpus, options } = this;
    const ranks = staticRankings(topic, corpus);
    const lang = topic.language ?? 'en';
    const desc = tfidf(Object.fromEntries(countTerms(tokenize(topic.description, lang))), this.idf);
    const descSim = this.similarity.to(desc);
    const keywords = topicVector({ keywords: topic.keywords, language: lang });
    const simCache = new Map<string, number>();
    const sim = (id: string): number => {
      let v = simCache.get(id);
      if (v === undefined) {
        const i = corpus.position.get(id);
        v = i === undefined ? 0 : descSim(i);
        simCache.set(id, v);
      }
      return v;
    };
    const m: TopicMeasures = { curves: new Map(), targetsLeft: new Map(), statics: [] };
    for (const task of [1, 2] as TaskId[]) {
      const seeds = seedsOf(topic, task);
      const exclude = new Set([...this.hubs, ...seeds]);
      const lexTop = topK(ranks.lexical, this.maxK, exclude);
      const linkTop = topK(ranks.linkage, this.maxK, exclude);
      const seedSet = new Set(seeds);
      const reach = reachableFrom(corpus, seeds);
      const wanted = topic.targets.filter((t) => !seedSet.has(t));
      const reachable = wanted.filter((t) => reach[corpus.position.get(t) ?? -1] === 1);
      m.statics.push({
        topic: topic.id,
        task,
        lexical: lexTop,
        linkage: linkTop,
        reachable,
        reachableShare: wanted.length ? reachable.length / wanted.length : NaN,
        ...knownTargets(corpus, seeds, reachable, options.budgets),
        knownSimilarityRecall: knownSimilarity(corpus, seeds, reachable, options.budgets, keywords),
        wordlessShare: wordlessShare(corpus, seeds, reachable, keywords),
      });
      const fns = new Map<string, Curve>();
      fns.set('recall', recallCurve(topic.targets, seeds));
      fns.set('recall-reachable', recallCurve(reachable, seeds));
      fns.set('harvest', meanCurve(sim));
      for (const k of options.ks) {
        fns.set(`lexical@${k}`, recallCurve(lexTop.slice(0, k), seeds));
        fns.set(`linkage@${k}`, recallCurve(linkTop.slice(0, k), seeds));
      }
      m.curves.set(task, fns);
      m.targetsLeft.set(task, new Set(topic.targets.filter((t) => !seedSet.has(t))));
    }
    this.measures.set(topicId, m);
    return m;
  }

  /** A metric's values for one record at page counts in any order (recall-area: the mean of recall at every step and at the budget). */
  private valuesAt(r: CrawlRecord, fns: Map<string, Curve>, metric: string, at: number[]): number[] {
    if (metric !== 'recall-area') {
      const order = at.map((c, j) => [c, j] as const).sort((x, y) => x[0] - y[0]);
      const sorted = fns.get(metric)!(
        r.pages,
        order.map(([c]) => c),
      );
      const out = new Array<number>(at.length);
      order.forEach(([, j], k) => {
        out[j] = sorted[k];
      });
      return out;
    }
    const { step, countIndex } = this;
    const recall = fns.get('recall')!(r.pages, this.counts);
    return at.map((b) => {
      // Area under the recall curve up to the budget, normalised: the mean of recall after every `step` pages.
      // It rewards finding targets early, which recall at the budget alone does not.
      let sum = 0;
      let n = 0;
      for (let p = step; p < b; p += step, n++) sum += recall[countIndex.get(p) ?? -1] ?? recallAtSlow(r, fns, p);
      return (sum + (recall[countIndex.get(b) ?? -1] ?? recallAtSlow(r, fns, b))) / (n + 1);
    });
  }
}

/** Time to the first k targets from its per-topic seconds: the median over topics, and how many got there. */
export function timeToTargetsOf(task: TaskId, strategy: string, k: number, perTopic: Record<string, number>): TimeToTargets {
  const values = Object.values(perTopic);
  return {
    task,
    strategy,
    k,
    perTopic,
    median: medianOf(values),
    reached: values.filter(Number.isFinite).length,
    n: values.length,
  };
}

/** The median of per-topic values (Infinity counts as the largest; NaN when there are none). */
export function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? NaN
    : sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

/** Recall at a page count that is not one of the precomputed ones (a budget off the step grid). */
function recallAtSlow(r: CrawlRecord, fns: Map<string, Curve>, count: number): number {
  return fns.get('recall')!(r.pages, [count])[0];
}

/** How many pages had been crawled by `ms` (times ascend). */
export function pagesBy(times: number[], ms: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Seconds until a crawl had found `k` of the targets left to find (Infinity if it never did; at most all of them). */
export function secondsToTargets(r: CrawlRecord, left: Set<string>, k: number): number {
  if (!r.times) return NaN;
  const need = Math.min(k, left.size);
  if (need === 0) return 0;
  const found = new Set<string>();
  for (let i = 0; i < r.pages.length; i++) {
    const id = r.pages[i].id;
    if (id !== undefined && left.has(id)) {
      found.add(id);
      if (found.size >= need) return r.times[i] / 1000;
    }
  }
  return Infinity;
}

function countTerms(terms: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/**
 * Paired comparison of strategies `a` and `b` over topics, for every task, metric and budget both were run on.
 * With `baseline`, B's values come from another run (the same topics crawled by an older tree, say): the comparison
 * pairs the topics both runs have, and B's label gets " [baseline]".
 */
export function compareStrategies(results: MetricResult[], a: string, b: string, baseline?: MetricResult[]): Comparison[] {
  const out: Comparison[] = [];
  const bResults = baseline ?? results;
  const bLabel = baseline ? `${b} [baseline]` : b;
  for (const ra of results.filter((r) => r.strategy === a)) {
    const rb = bResults.find((r) => r.strategy === b && r.task === ra.task && r.metric === ra.metric);
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
        b: bLabel,
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

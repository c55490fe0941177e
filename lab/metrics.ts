/**
 * The evaluation measures of Menczer, Pant, Srinivasan & Ruiz (SIGIR 2001) and Pant, Srinivasan & Menczer (2002),
 * as pure functions over term vectors, rankings and page sequences. Nothing here knows about HTTP or DocWeb.
 */
import type { TermVector } from '../lib/engine';

// ---------------------------------------------------------------------------------------------- statistics

/** Arithmetic mean; NaN for no values. */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}

/** Standard error of the mean: sample standard deviation (n - 1) / sqrt(n). NaN for fewer than 2 values. */
export function standardError(values: number[]): number {
  const n = values.length;
  if (n < 2) return NaN;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
}

/** How much a per-topic value moves between RNG seeds: see {@link spreadOverSeeds}. */
export interface SeedSpread {
  /** Topics with two seeds or more. */
  topics: number;
  /** Mean and median over those topics of the sample standard deviation (n - 1) of their seeds' values. */
  meanSd: number;
  medianSd: number;
  /** Topics whose best and worst seed differ by more than `wide`. */
  wide: number;
}

/** The spread over RNG seeds of a value per topic (one list of per-seed values per topic; lists of one are skipped). */
export function spreadOverSeeds(perTopic: readonly (readonly number[])[], wide = 0.5): SeedSpread {
  const sds: number[] = [];
  let wideTopics = 0;
  for (const values of perTopic) {
    if (values.length < 2) continue;
    sds.push(standardError([...values]) * Math.sqrt(values.length));
    if (Math.max(...values) - Math.min(...values) > wide) wideTopics++;
  }
  const sorted = [...sds].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const medianSd = sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { topics: sds.length, meanSd: mean(sds), medianSd, wide: wideTopics };
}

export interface MeanSe {
  mean: number;
  se: number;
  n: number;
}

export function meanSe(values: number[]): MeanSe {
  return { mean: mean(values), se: standardError(values), n: values.length };
}

/** Paired comparison of strategy A against B over the same topics. */
export interface PairedComparison {
  /** Mean of (a - b). */
  meanDiff: number;
  /** Standard error of the differences. */
  se: number;
  /** meanDiff / se (a paired t statistic); NaN when se is 0 or undefined. */
  t: number;
  wins: number;
  ties: number;
  losses: number;
  n: number;
}

/**
 * Compares paired values (one per topic): differences a - b, their mean and standard error, and how often A beat,
 * tied (|a - b| <= tolerance) or lost to B.
 * @throws RangeError if the arrays differ in length.
 */
export function pairedComparison(a: number[], b: number[], tolerance = 1e-9): PairedComparison {
  if (a.length !== b.length) throw new RangeError(`paired comparison needs equal lengths (${a.length} vs ${b.length})`);
  const d = a.map((x, i) => x - b[i]);
  let wins = 0;
  let ties = 0;
  let losses = 0;
  for (const x of d) {
    if (Math.abs(x) <= tolerance) ties++;
    else if (x > 0) wins++;
    else losses++;
  }
  const m = mean(d);
  const se = standardError(d);
  return { meanDiff: m, se, t: se > 0 ? m / se : NaN, wins, ties, losses, n: d.length };
}

/**
 * The largest paired t (see {@link pairedComparison}) that any strategy A could reach against B, given B's per-topic
 * values and the measure's maximum (1 for recall and recall-area). Where B already scores the maximum, A can at best
 * tie (d = 0). With k such topics of n, t is largest when A beats B by the same amount on every other topic (for a
 * given mean, equal differences have the least variance; a negative difference on a saturated topic only lowers t),
 * and since t does not change when every difference is scaled, that maximum is
 *   t* = sqrt((n - k) (n - 1) / k),
 * whatever the margins. So with k = 10 of 12 topics saturated no strategy can be 2 standard errors better (t* = 1.48);
 * it takes k <= 8 (t* = 2.03). Infinity when k = 0 (B has room everywhere), 0 when k = n (nothing can beat B).
 */
export function maxPairedT(b: number[], max = 1, tolerance = 1e-9): number {
  const n = b.length;
  const k = b.filter((v) => v >= max - tolerance).length;
  if (n < 2) return NaN;
  if (k === 0) return Infinity;
  if (k === n) return 0;
  return Math.sqrt(((n - k) * (n - 1)) / k);
}

// ---------------------------------------------------------------------------------------------- ranking

/** A document as the static rankings see it. */
export interface RankDoc {
  id: string;
  /** Term frequencies. */
  tf: TermVector;
  /** Number of tokens. */
  length: number;
}

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** Document frequency of every term. */
export function documentFrequencies(docs: { tf: TermVector }[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of docs) for (const t in d.tf) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

/**
 * Okapi BM25 scores of every document for a query (k1 = 1.2, b = 0.75 by default). IDF is
 * ln(1 + (N - n + 0.5) / (n + 0.5)), which never goes negative; a query term repeated q times counts q times
 * (Robertson's k3 -> infinity), so a long description weighs its recurring words more.
 */
export function bm25Scores(
  docs: RankDoc[],
  queryTerms: string[],
  options: Bm25Options = {},
  df: Map<string, number> = documentFrequencies(docs),
): number[] {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const N = docs.length;
  const avgdl = mean(docs.map((d) => d.length)) || 1;
  const qtf = new Map<string, number>();
  for (const t of queryTerms) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const t of qtf.keys()) {
    const n = df.get(t) ?? 0;
    idf.set(t, Math.log(1 + (N - n + 0.5) / (n + 0.5)));
  }
  return docs.map((d) => {
    let s = 0;
    const norm = k1 * (1 - b + (b * d.length) / avgdl);
    for (const [t, q] of qtf) {
      const f = d.tf[t];
      if (!f) continue;
      s += q * idf.get(t)! * ((f * (k1 + 1)) / (f + norm));
    }
    return s;
  });
}

/** Sorts indices by score (descending), ties by id (ascending) so rankings are deterministic. */
export function rankBy(ids: string[], scores: ArrayLike<number>, tieBreak?: ArrayLike<number>): string[] {
  const order = ids.map((_, i) => i);
  order.sort(
    (i, j) =>
      scores[j] - scores[i] || (tieBreak ? tieBreak[j] - tieBreak[i] : 0) || (ids[i] < ids[j] ? -1 : ids[i] > ids[j] ? 1 : 0),
  );
  return order.map((i) => ids[i]);
}

/**
 * PageRank by power iteration: rank flows along links with probability `damping`, teleports uniformly otherwise,
 * and pages without outlinks spread their rank uniformly. Duplicate and self links count as given.
 * Returns a distribution (sums to 1).
 */
export function pageRank(outlinks: number[][], damping = 0.85, tolerance = 1e-10, maxIterations = 200): number[] {
  const start = new Int32Array(outlinks.length + 1);
  outlinks.forEach((out, i) => {
    start[i + 1] = start[i] + out.length;
  });
  return [...pageRankCsr(start, Int32Array.from(outlinks.flat()), damping, tolerance, maxIterations)];
}

/** {@link pageRank} over a graph in compressed sparse rows: page i links to links[start[i] .. start[i + 1]). */
export function pageRankCsr(
  start: Int32Array,
  links: Int32Array,
  damping = 0.85,
  tolerance = 1e-10,
  maxIterations = 200,
): Float64Array {
  const n = start.length - 1;
  if (n <= 0) return new Float64Array(0);
  let pr = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  for (let iter = 0; iter < maxIterations; iter++) {
    next.fill(0);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const a = start[i];
      const b = start[i + 1];
      if (a === b) dangling += pr[i];
      else {
        const share = pr[i] / (b - a);
        for (let k = a; k < b; k++) next[links[k]] += share;
      }
    }
    const base = (1 - damping) / n + (damping * dangling) / n;
    let delta = 0;
    for (let i = 0; i < n; i++) {
      next[i] = base + damping * next[i];
      delta += Math.abs(next[i] - pr[i]);
    }
    [pr, next] = [next, pr];
    if (delta < tolerance) break;
  }
  return pr;
}

// ---------------------------------------------------------------------------------------------- similarity

/** IDF weights ln(N / df) of every term of the corpus. */
export function idfWeights(df: Map<string, number>, N: number): Map<string, number> {
  const idf = new Map<string, number>();
  for (const [t, n] of df) idf.set(t, Math.log(N / n));
  return idf;
}

/** A TF-IDF vector (raw term frequency x IDF); terms unknown to the corpus are dropped. */
export function tfidf(tf: TermVector, idf: { get(term: string): number | undefined }): Map<string, number> {
  const v = new Map<string, number>();
  for (const t in tf) {
    const w = idf.get(t);
    if (w !== undefined && w > 0) v.set(t, tf[t] * w);
  }
  return v;
}

/** Cosine of two sparse vectors, in [0, 1] for non-negative weights; 0 if either is empty. */
export function sparseCosine(a: Map<string, number>, b: Map<string, number>): number {
  let na = 0;
  let nb = 0;
  for (const w of a.values()) na += w * w;
  for (const w of b.values()) nb += w * w;
  if (na === 0 || nb === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, w] of small) {
    const x = large.get(t);
    if (x !== undefined) dot += w * x;
  }
  return Math.min(1, dot / Math.sqrt(na * nb));
}

// ---------------------------------------------------------------------------------------------- crawl measures

/** One crawled page, in crawl order. */
export interface CrawledPage {
  /** Page id (SITE/PATH), or undefined for a page outside the corpus. */
  id: string | undefined;
  isSeed: boolean;
}

/**
 * Share of a relevant set found among the first `budget` crawled pages: |crawled ∩ relevant \ seeds| /
 * |relevant \ seeds|. NaN if nothing relevant is left once seeds are removed.
 */
export function setRecall(pages: CrawledPage[], budget: number, relevant: Iterable<string>, seeds: Iterable<string>): number {
  const seedSet = new Set(seeds);
  const want = new Set([...relevant].filter((id) => !seedSet.has(id)));
  if (want.size === 0) return NaN;
  const found = new Set<string>();
  const end = Math.min(budget, pages.length);
  for (let i = 0; i < end; i++) {
    const id = pages[i].id;
    if (id !== undefined && want.has(id)) found.add(id);
  }
  return found.size / want.size;
}

/** Mean of `value(id)` over the non-seed pages among the first `budget` crawled; NaN if there are none. */
export function meanOverCrawl(pages: CrawledPage[], budget: number, value: (id: string) => number): number {
  let s = 0;
  let n = 0;
  const end = Math.min(budget, pages.length);
  for (let i = 0; i < end; i++) {
    const p = pages[i];
    if (p.isSeed) continue;
    s += p.id === undefined ? 0 : value(p.id);
    n++;
  }
  return n ? s / n : NaN;
}

/** The first `k` ids of a ranking that are neither seeds nor excluded (hubs). */
export function topK(ranking: string[], k: number, exclude: Set<string>): string[] {
  const out: string[] = [];
  for (const id of ranking) {
    if (out.length >= k) break;
    if (!exclude.has(id)) out.push(id);
  }
  return out;
}

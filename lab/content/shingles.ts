/**
 * The article-extraction benchmark's scorer, ported line for line from its `evaluate.py`
 * (scrapinghub/article-extraction-benchmark at 4a3bc979f76c0df73cb95fe272e2fc1b96f9f010, MIT): per page, the
 * multisets of 4-word shingles of the true and the extracted article body give TP, FP and FN, normalised to sum 1 so
 * that long articles weigh no more than short ones; precision is the mean over pages that extracted anything, recall
 * the mean over pages with a true body, F1 their harmonic mean; ± is the standard deviation over bootstrap resamples
 * of the pages. Tokens are Python's `\w+` (Unicode letters, digits and underscore; case kept).
 */
import { Rng } from '../../lib/engine';

/** TP, FP, FN of one page, normalised to sum 1 (all 0 when both texts are empty). */
export type TpFpFn = readonly [number, number, number];

export interface ContentMetrics {
  f1: number;
  precision: number;
  recall: number;
  /** Share of pages whose extracted tokens equal the true ones exactly. */
  accuracy: number;
}

/** Python's `re.compile(r'\w+', re.UNICODE)`: characters for which str.isalnum() holds, and '_'. */
const TOKEN = /[\p{L}\p{N}_]+/gu;

export function tokenizeWords(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** `_ngrams`: every run of `n` tokens; a text of fewer tokens is one shingle of them all (none if it has none). */
function shingles(text: string, n: number): Map<string, number> {
  const tokens = tokenizeWords(text);
  const counts = new Map<string, number>();
  const last = Math.max(1, tokens.length - n + 1);
  for (let i = 0; i < last; i++) {
    const gram = tokens.slice(i, i + n);
    if (gram.length === 0) continue;
    // Tokens hold no spaces, so the joined string is as distinct as Python's tuple.
    const key = gram.join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** `string_shingle_matching`: TP, FP and FN over 4-word shingles, normalised to sum 1. */
export function shingleMatching(truth: string, predicted: string, n = 4): TpFpFn {
  const t = shingles(truth, n);
  const p = shingles(predicted, n);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...t.keys(), ...p.keys()])) {
    const tc = t.get(key) ?? 0;
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fp += Math.max(0, pc - tc);
    fn += Math.max(0, tc - pc);
  }
  const s = tp + fp + fn;
  return s > 0 ? [tp / s, fp / s, fn / s] : [tp, fp, fn];
}

/** `get_accuracy`: 1 when the token lists are equal. */
export function exactMatch(truth: string, predicted: string): number {
  const a = tokenizeWords(truth);
  const b = tokenizeWords(predicted);
  return a.length === b.length && a.every((t, i) => t === b[i]) ? 1 : 0;
}

function precisionScore(tp: number, fp: number, fn: number): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

function recallScore(tp: number, fp: number, fn: number): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** `metrics_from_tp_fp_fns`. */
export function metricsOf(pages: readonly TpFpFn[]): { f1: number; precision: number; recall: number } {
  const precision = mean(pages.filter(([tp, fp]) => tp + fp > 0).map(([tp, fp, fn]) => precisionScore(tp, fp, fn)));
  const recall = mean(pages.filter(([tp, , fn]) => tp + fn > 0).map(([tp, fp, fn]) => recallScore(tp, fp, fn)));
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}

/** Sample standard deviation (Python's statistics.stdev). */
function stdev(xs: number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

export interface Evaluation {
  metrics: ContentMetrics;
  /** Bootstrap standard deviation of each metric. */
  std: ContentMetrics;
  /** Per page, in the order given. */
  pages: TpFpFn[];
}

/**
 * `evaluate`: the metrics of predicted article bodies against the true ones (same keys, same order), with
 * `bootstrap` resamples (evaluate.py's default is 1000) drawn from a seeded generator, so a run repeats exactly.
 */
export function evaluateExtraction(
  truth: readonly string[],
  predicted: readonly string[],
  bootstrap = 1000,
  seed = 1,
): Evaluation {
  if (truth.length !== predicted.length) throw new Error('prediction keys do not match ground truth');
  const pages = truth.map((t, i) => shingleMatching(t, predicted[i]));
  const accuracies = truth.map((t, i) => exactMatch(t, predicted[i]));
  const metrics = { ...metricsOf(pages), accuracy: mean(accuracies) };
  const samples: Record<keyof ContentMetrics, number[]> = { f1: [], precision: [], recall: [], accuracy: [] };
  const rng = new Rng(seed);
  const n = pages.length;
  for (let b = 0; b < bootstrap; b++) {
    const picks = Array.from({ length: n }, () => rng.int(n));
    const m = metricsOf(picks.map((i) => pages[i]));
    samples.f1.push(m.f1);
    samples.precision.push(m.precision);
    samples.recall.push(m.recall);
    samples.accuracy.push(mean(picks.map((i) => accuracies[i])));
  }
  const std = {
    f1: stdev(samples.f1),
    precision: stdev(samples.precision),
    recall: stdev(samples.recall),
    accuracy: stdev(samples.accuracy),
  };
  return { metrics, std, pages };
}

/** One page's F1 from its normalised TP, FP, FN (for listing the worst pages). */
export function pageF1([tp, fp, fn]: TpFpFn): number {
  const p = precisionScore(tp, fp, fn);
  const r = recallScore(tp, fp, fn);
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

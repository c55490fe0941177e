/**
 * The link classifier of forager: an online logistic regression over hashed sparse binary features (the hashing
 * trick), as ACHE's online link classifier learns P(relevant | link) while it crawls. One SGD step per example, so a
 * crawl keeps learning from every page it fetches; features of one example are scaled by 1/sqrt(count) so that long
 * anchors do not dominate, and the rare positives are up-weighted by the running ratio of negatives to positives.
 * The weights are 2^12 buckets, saved sparse with the crawl.
 */
import { fnv1a } from '../text/hash';
import type { Json, LinkFeature } from '../types';
import { asArray, asObject, num } from './state';

/** Feature names whose bucket is kept, per prefix. */
const BUCKETS_KEPT = 8192;

/** Number of hashed feature buckets of the link classifier (2^12). */
export const CLASSIFIER_BUCKETS = 4096;

/**
 * An online logistic regression over hashed sparse binary features (the "hashing trick"), trained by one SGD step
 * per example. Features of one example are scaled by 1/sqrt(count) so long anchors do not dominate.
 */
export class OnlineLogistic {
  private w: Float64Array;
  private bias = 0;
  /** Examples seen, positives among them. */
  examples = 0;
  positives = 0;
  /** Buckets of recent feature names, by prefix (names repeat from link to link); not saved. */
  private readonly bucketsKept = new Map<string, Map<string, number>>();

  constructor(
    readonly buckets = CLASSIFIER_BUCKETS,
    private readonly rate = 0.1,
    private readonly l2 = 1e-4,
  ) {
    this.w = new Float64Array(buckets);
  }

  /** Bucket indices of feature names (duplicates kept once). */
  indices(features: readonly string[]): number[] {
    return this.prefixed([['', features]]);
  }

  /**
   * Bucket indices of features given as groups of names sharing a prefix: the same buckets as {@link indices} of
   * the joined names, in the same order, without building the joined strings (this runs for every link of every page).
   */
  prefixed(groups: readonly (readonly [string, readonly string[]])[]): number[] {
    const out: number[] = [];
    for (let g = 0; g < groups.length; g++) this.addBuckets(out, groups[g][0], groups[g][1]);
    return out;
  }

  /**
   * The buckets of a link's features, as {@link prefixed} gives them, without building the groups: anchor words
   * ('a:'), context words before and after ('c:'), URL words ('u:'), site ('h:') and section ('s:').
   */
  linkIndices(link: LinkFeature, urlWords: readonly string[], site: string, section: string): number[] {
    const out: number[] = [];
    this.addBuckets(out, 'a:', link.anchorTerms);
    this.addBuckets(out, 'c:', link.contextBefore);
    this.addBuckets(out, 'c:', link.contextAfter);
    this.addBuckets(out, 'u:', urlWords);
    this.addBucket(out, 'h:', site);
    this.addBucket(out, 's:', section);
    return out;
  }

  /** Adds the buckets of `names` under `prefix` to `out`, each once. */
  private addBuckets(out: number[], prefix: string, names: readonly string[]): void {
    const kept = this.keptFor(prefix);
    for (let i = 0; i < names.length; i++) this.addKept(out, kept, prefix, names[i]);
  }

  private addBucket(out: number[], prefix: string, name: string): void {
    this.addKept(out, this.keptFor(prefix), prefix, name);
  }

  private keptFor(prefix: string): Map<string, number> {
    let kept = this.bucketsKept.get(prefix);
    if (kept === undefined) this.bucketsKept.set(prefix, (kept = new Map()));
    return kept;
  }

  private addKept(out: number[], kept: Map<string, number>, prefix: string, name: string): void {
    let bucket = kept.get(name);
    if (bucket === undefined) {
      bucket = fnv1a(name, prefix) % this.buckets;
      if (kept.size >= BUCKETS_KEPT) kept.clear();
      kept.set(name, bucket);
    }
    // A few dozen features: a scan is cheaper than a set.
    if (!out.includes(bucket)) out.push(bucket);
  }

  /** P(positive) for hashed feature indices. */
  predict(idx: readonly number[]): number {
    if (idx.length === 0) return 1 / (1 + Math.exp(-this.bias));
    const x = 1 / Math.sqrt(idx.length);
    let z = this.bias;
    for (const i of idx) z += this.w[i] * x;
    return 1 / (1 + Math.exp(-z));
  }

  /**
   * One SGD step on the log loss. Positives are weighted by the running ratio of negatives to positives (at most
   * 20), so a crawl that finds one relevant page in twenty still learns what it looks like.
   */
  learn(idx: readonly number[], positive: boolean): void {
    this.learnWeighted(idx, positive, 1);
  }

  /** {@link learn} with the step scaled by `scale` (an example that counts for less than a whole one). */
  learnWeighted(idx: readonly number[], positive: boolean, scale: number): void {
    this.examples++;
    if (positive) this.positives++;
    const ratio = this.positives > 0 ? (this.examples - this.positives) / this.positives : 1;
    const weight = (positive ? Math.min(20, Math.max(1, ratio)) : 1) * scale;
    const p = this.predict(idx);
    const g = this.rate * weight * ((positive ? 1 : 0) - p);
    const x = idx.length > 0 ? 1 / Math.sqrt(idx.length) : 0;
    for (const i of idx) this.w[i] += g * x - this.rate * this.l2 * this.w[i];
    this.bias += g;
  }

  /** Sparse: only the weights that moved. */
  toJSON(): Json {
    const weights: number[] = [];
    for (let i = 0; i < this.w.length; i++) if (this.w[i] !== 0) weights.push(i, this.w[i]);
    return { buckets: this.buckets, bias: this.bias, examples: this.examples, positives: this.positives, weights };
  }

  /** @throws TypeError if `state` is not the output of {@link toJSON} for this many buckets. */
  load(state: Json): void {
    const s = asObject(state, 'classifier');
    if (num(s.buckets, 'classifier buckets') !== this.buckets)
      throw new TypeError(`invalid classifier state: ${String(s.buckets)} buckets, expected ${this.buckets}`);
    const flat = asArray(s.weights, 'classifier weights');
    if (flat.length % 2 !== 0) throw new TypeError('invalid classifier state: odd weights list');
    const w = new Float64Array(this.buckets);
    for (let k = 0; k < flat.length; k += 2) {
      const i = num(flat[k], 'classifier index');
      if (!Number.isInteger(i) || i < 0 || i >= this.buckets) throw new TypeError(`invalid classifier index ${i}`);
      w[i] = num(flat[k + 1], 'classifier weight');
    }
    this.w = w;
    this.bias = num(s.bias, 'classifier bias');
    this.examples = num(s.examples, 'classifier examples');
    this.positives = num(s.positives, 'classifier positives');
  }
}

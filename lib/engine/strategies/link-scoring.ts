/**
 * Shared pieces of the link-scoring strategies: similarity of a link's anchor, context and URL words to the topic,
 * and a positive-examples centroid learned online.
 *
 * Everything works on stemmed terms as produced by lib/engine/text/tokenize (the evaluator's anchorTerms and context are
 * already stemmed), so topic words and link words meet in one vocabulary.
 */
import type { Json, LinkFeature, TermVector, Topic } from '../types';
import { asObject, num } from './state';
import { keywordVector, measure, termsCosine, termVector, topicVector, type MeasuredVector } from '../text/vector';

/** A topic prepared for link scoring: its term vector and the query's distinct terms. */
export interface PreparedTopic {
  /** The topic vector: the query's terms, and the expansion terms of its context with their smaller weights. */
  vector: TermVector;
  /** The query's own terms (URL words and link context are matched against these, not against expansion terms). */
  terms: string[];
  set: Set<string>;
  language: string;
  /** The topic vector measured once: every anchor of every page is scored against it. */
  measured: MeasuredVector;
}

/** Tokenizes a topic's keywords (and context) once, for the many link scores a crawl computes. */
export function prepareTopic(topic: Topic): PreparedTopic {
  const vector = topicVector(topic);
  const terms = Object.keys(keywordVector(topic));
  return { vector, terms, set: new Set(terms), language: topic.language ?? 'en', measured: measure(vector) };
}

/** Cosine similarity of a list of terms (e.g. an anchor's) to a vector; 0 for an empty list. */
export function termsSimilarity(terms: readonly string[], vector: TermVector): number {
  return termsCosine(terms, measure(vector));
}

/**
 * Topic words near a link, closer words weighing more: each context term at distance d (1 = adjacent to the anchor)
 * weighs 1/d; the result is the weighted share of context terms that are topic terms, in [0, 1].
 * Context is the evaluator's window either side of the anchor (contextBefore is nearest last, contextAfter nearest first).
 */
export function contextProximity(link: LinkFeature, topic: Set<string>): number {
  let hit = 0;
  let total = 0;
  const before = link.contextBefore;
  for (let i = before.length - 1, d = 1; i >= 0; i--, d++) {
    const w = 1 / d;
    total += w;
    if (topic.has(before[i])) hit += w;
  }
  const after = link.contextAfter;
  for (let i = 0; i < after.length; i++) {
    const w = 1 / (i + 1);
    total += w;
    if (topic.has(after[i])) hit += w;
  }
  return total > 0 ? hit / total : 0;
}

/**
 * How much of the topic a URL's words name, in [0, 1]: the share of topic terms found in the URL, where a topic term
 * counts if it equals a URL term or is a prefix-free substring of one (documentation URLs glue words together:
 * "textsearch-intro" names both "text" and "search"). Only topic terms of 3+ characters match inside other words.
 */
export function urlSimilarity(urlWords: readonly string[], topic: PreparedTopic): number {
  if (topic.terms.length === 0) return 0;
  return urlMatches(urlWords, topic).length / topic.terms.length;
}

/** The topic terms a URL's words name (see {@link urlSimilarity} for what counts as naming). */
export function urlMatches(urlWords: readonly string[], topic: PreparedTopic): string[] {
  const out: string[] = [];
  if (urlWords.length === 0) return out;
  for (const t of topic.terms) {
    for (const w of urlWords) {
      if (w === t || (t.length >= 3 && w.length > t.length && w.includes(t))) {
        out.push(t);
        break;
      }
    }
  }
  return out;
}

/**
 * A centroid classifier trained on positive examples only: the mean of the L2-normalized term vectors it has been
 * given, optionally blended with a prior vector (the topic) that keeps it anchored before examples arrive. Scoring
 * is cosine similarity to the centroid. Incremental: add() is O(terms of the example); vector() is cached until the
 * next add.
 */
export class Centroid {
  private sum: TermVector = Object.create(null);
  private count = 0;
  private cached: TermVector | null = null;
  /** The centroid's norm and size, kept between retrainings: every link of every page is scored against it. */
  private measured: MeasuredVector | null = null;

  /**
   * @param prior vector blended in with weight `priorWeight` (as if it were that many examples).
   * @param maxTerms the centroid keeps at most this many heaviest terms (bounded memory and cost).
   */
  constructor(
    private readonly prior: TermVector = {},
    private readonly priorWeight = 1,
    private readonly maxTerms = 2000,
  ) {}

  /** Examples added so far. */
  get size(): number {
    return this.count;
  }

  /** Adds one positive example (its terms, counted). Empty examples are ignored. */
  add(terms: readonly string[]): void {
    if (terms.length === 0) return;
    const v = termVector(terms as string[]);
    let n = 0;
    for (const k in v) n += v[k] * v[k];
    n = Math.sqrt(n);
    for (const k in v) this.sum[k] = (this.sum[k] ?? 0) + v[k] / n;
    this.count++;
    this.cached = null;
    this.measured = null;
    if (Object.keys(this.sum).length > this.maxTerms * 2) this.prune();
  }

  /** The current centroid vector (prior blended in). */
  vector(): TermVector {
    if (this.cached) return this.cached;
    const out: TermVector = Object.create(null);
    let pn = 0;
    for (const k in this.prior) pn += this.prior[k] * this.prior[k];
    pn = Math.sqrt(pn);
    if (pn > 0) for (const k in this.prior) out[k] = (this.priorWeight * this.prior[k]) / pn;
    for (const k in this.sum) out[k] = (out[k] ?? 0) + this.sum[k];
    this.cached = out;
    return out;
  }

  /** Cosine similarity of `terms` to the centroid (the same value as `termsSimilarity(terms, this.vector())`). */
  score(terms: readonly string[]): number {
    if (terms.length === 0) return 0;
    this.measured ??= measure(this.vector());
    return termsCosine(terms, this.measured);
  }

  private prune(): void {
    const kept = Object.entries(this.sum)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, this.maxTerms);
    this.sum = Object.create(null);
    for (const [k, v] of kept) this.sum[k] = v;
  }

  toJSON(): Json {
    return { sum: { ...this.sum }, count: this.count };
  }

  /** Restores the examples saved by {@link toJSON} (the prior comes from the constructor). */
  load(state: Json): void {
    const s = asObject(state, 'centroid');
    const sum = asObject(s.sum, 'centroid.sum');
    this.sum = Object.create(null);
    for (const k of Object.keys(sum)) this.sum[k] = num(sum[k], `centroid term ${k}`);
    this.count = num(s.count, 'centroid.count');
    this.cached = null;
    this.measured = null;
  }
}

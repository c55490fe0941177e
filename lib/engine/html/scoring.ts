/**
 * The score of a page for a topic: the topic's side worked out once (TopicScoring: vector, norm, query, language,
 * boilerplate weight) and the cosine of the topic with the page's term counts, each token weighted by its run
 * (boilerCut: what runs below full weight take from the counts; weightedCosine).
 */
import type { Topic, TermVector } from '../types';
import { baseLanguage } from '../text/language';
import { keywordVector, norm, topicVector } from '../text/vector';
import type { TokenList } from './packed';
import type { RunWeights } from './zones';

/** Weight of boilerplate text (navigation, banners, link lists) in the page score when the topic does not set one. */
export const DEFAULT_BOILERPLATE_WEIGHT = 0.2;

/**
 * A topic's side of the score, worked out once for many pages: its term vector and norm, the query's terms (they
 * pick the snippet), its language and the weight of boilerplate.
 */
export class TopicScoring {
  /** The topic vector (query plus expansion from the context, see text/vector.ts topicVector). */
  readonly vector: TermVector;
  readonly norm: number;
  /** The query's terms alone, and as a key (the snippet depends on nothing else of the topic). */
  readonly query: TermVector;
  readonly queryKey: string;
  /** The topic's language as given, and as an ISO 639-1 base. */
  readonly language: string | undefined;
  readonly baseLanguage: string | undefined;
  readonly allLanguages: boolean;
  readonly boilerplateWeight: number;

  constructor(readonly topic: Topic) {
    const t = topic ?? { keywords: '' };
    this.vector = topicVector(t);
    this.norm = norm(this.vector);
    this.query = keywordVector(t);
    this.queryKey = Object.keys(this.query).join('\0');
    this.language = topic?.language;
    this.baseLanguage = baseLanguage(topic?.language);
    this.allLanguages = !!topic?.allLanguages;
    this.boilerplateWeight = clampWeight(topic?.weights?.boilerplate, DEFAULT_BOILERPLATE_WEIGHT);
  }
}

function clampWeight(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;
}

/** What runs below full weight take from a page's counts: per term, and the resulting sum of squares. */
export interface BoilerCut {
  /** Index of each term with a cut into `amount` (a map of indexes, not of fractions: each of those is a heap object). */
  removed: Map<string, number> | null;
  amount: Float64Array;
  sumOfSquares: number;
}

/**
 * The correction of the plain counts (and of their sum of squares, from the counter) by what runs below full weight
 * take away: only those runs are walked.
 */
export function boilerCut(terms: TermVector, sumOfSquares: number, tokens: TokenList, runs: RunWeights): BoilerCut {
  let removed: Map<string, number> | null = null;
  for (let r = 0; r < runs.weight.length; r++) {
    const cut = 1 - runs.weight[r];
    if (cut <= 0) continue;
    removed ??= new Map();
    for (let i = runs.start[r], e = runs.end[r]; i < e; i++) {
      const t = tokens.at(i);
      removed.set(t, (removed.get(t) ?? 0) + cut);
    }
  }
  let sq = sumOfSquares;
  const amount = new Float64Array(removed?.size ?? 0);
  if (removed) {
    let i = 0;
    for (const [t, d] of removed) {
      const c = terms[t] ?? 0;
      const w = c - d;
      sq -= c * c - w * w;
      amount[i] = d;
      removed.set(t, i++);
    }
  }
  return { removed, amount, sumOfSquares: sq };
}

/** cos(topic, page) with the page's tokens weighted by run (`cut`, see boilerCut); `topicNorm` is norm(topic). */
export function weightedCosine(topic: TermVector, topicNorm: number, terms: TermVector, cut: BoilerCut): number {
  if (topicNorm === 0) return 0;
  const removed = cut.removed;
  let dot = 0;
  for (const k in topic) {
    const c = terms[k];
    if (c === undefined) continue;
    const at = removed?.get(k);
    dot += topic[k] * (c - (at === undefined ? 0 : cut.amount[at]));
  }
  if (dot <= 0) return 0;
  const sq = cut.sumOfSquares;
  if (sq <= 0) return 0;
  return Math.min(1, dot / (Math.sqrt(sq) * topicNorm));
}

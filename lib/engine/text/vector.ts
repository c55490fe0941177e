import type { TermVector, Topic } from '../types';
import { tokenize } from './tokenize';

/** Counts terms into a term-frequency vector. */
export function termVector(terms: string[]): TermVector {
  const v: TermVector = Object.create(null);
  for (const t of terms) v[t] = (v[t] ?? 0) + 1;
  return v;
}

/** Euclidean length of a vector. */
export function norm(v: TermVector): number {
  let sum = 0;
  for (const k in v) sum += v[k] * v[k];
  return Math.sqrt(sum);
}

/** A vector with its norm and number of terms, measured once (a centroid scored against many small vectors). */
export interface MeasuredVector {
  readonly vector: TermVector;
  readonly norm: number;
  readonly size: number;
}

/** Measures `v` (the norm is summed in the same order as {@link norm}, so it is bit-identical). */
export function measure(v: TermVector): MeasuredVector {
  let sum = 0;
  let size = 0;
  for (const k in v) {
    sum += v[k] * v[k];
    size++;
  }
  return { vector: v, norm: Math.sqrt(sum), size };
}

/**
 * Cosine similarity of two vectors, in [0, 1] for non-negative weights; 0 when either is empty (or all zero).
 * Iterates over the smaller vector, since topic vectors are tiny and page vectors are large.
 */
export function cosine(a: TermVector, b: TermVector): number {
  return cosineMeasured(measure(a), measure(b));
}

/** {@link cosine} of two measured vectors: no walk over either beyond the smaller one's terms. */
export function cosineMeasured(a: MeasuredVector, b: MeasuredVector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  let small = a.vector;
  let large = b.vector;
  if (a.size > b.size) {
    small = b.vector;
    large = a.vector;
  }
  let dot = 0;
  for (const k in small) {
    const w = large[k];
    if (w !== undefined && Object.hasOwn(large, k)) dot += small[k] * w;
  }
  // Clamp rounding noise so identical vectors give exactly 1 and never more.
  return Math.min(1, Math.max(0, dot / (a.norm * b.norm)));
}

/** The topic's term vector: its keywords tokenized in the topic's language. */
export function topicVector(topic: Topic): TermVector {
  return termVector(tokenize(topic.keywords ?? '', topic.language ?? 'en'));
}

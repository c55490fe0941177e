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

/**
 * Cosine similarity of two vectors, in [0, 1] for non-negative weights; 0 when either is empty (or all zero).
 * Iterates over the smaller vector, since topic vectors are tiny and page vectors are large.
 */
export function cosine(a: TermVector, b: TermVector): number {
  const na = norm(a);
  const nb = norm(b);
  if (na === 0 || nb === 0) return 0;
  let small = a;
  let large = b;
  if (Object.keys(a).length > Object.keys(b).length) {
    small = b;
    large = a;
  }
  let dot = 0;
  for (const k in small) {
    const w = large[k];
    if (w !== undefined && Object.prototype.hasOwnProperty.call(large, k)) dot += small[k] * w;
  }
  // Clamp rounding noise so identical vectors give exactly 1 and never more.
  return Math.min(1, Math.max(0, dot / (na * nb)));
}

/** The topic's term vector: its keywords tokenized in the topic's language. */
export function topicVector(topic: Topic): TermVector {
  return termVector(tokenize(topic.keywords ?? '', topic.language ?? 'en'));
}

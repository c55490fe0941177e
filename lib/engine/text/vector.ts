import type { TermVector, Topic, TopicAnalysis } from '../types';
import { fnv1a, hashText } from './hash';
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

/**
 * Scratch of {@link termsCosine}: a list's distinct terms in first-seen order, their counts, and an open-addressing
 * table from a term's hash to its position + 1 (0: free), of which a call uses the first power of two >= twice its
 * list and clears them after.
 */
const scratchTerms: string[] = [];
const scratchCounts: number[] = [];
const scratchIndexTerms: number[] = [];
let scratchSlots = new Int32Array(256);
/** The default second list (a default `[]` would be a new array per call). */
const NO_TERMS: readonly string[] = Object.freeze([]);

/** The table slot of `t`: the one holding it, or the free one where it would go (`mask`: the call's table size - 1). */
function scratchSlot(t: string, slots: Int32Array, mask: number): number {
  let i = fnv1a(t) & mask;
  while (slots[i] !== 0 && scratchTerms[slots[i] - 1] !== t) i = (i + 1) & mask;
  return i;
}

/** Whether `k` is an array index ("0", "42"; not "042"): such keys come first, in numeric order, in a for-in. */
function isArrayIndex(k: string): boolean {
  const n = k.length;
  if (n === 0 || n > 10) return false;
  const c0 = k.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || (c0 === 48 && n > 1)) return false;
  for (let i = 1; i < n; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(k) <= 4294967294;
}

/**
 * `cosineMeasured(measure(termVector([...terms, ...more])), b)`, bit for bit, without building the term vector: the
 * crawl measures the anchor and context words of every link it sees, and those short-lived vectors were most of
 * what a crawl allocated. Terms are counted in scratch arrays; the dot product is summed in the order the
 * vector's for-in would take (array-index terms first, in numeric order, then first-seen order), or over `b` when
 * `b` has fewer terms, as {@link cosineMeasured} does.
 */
export function termsCosine(terms: readonly string[], b: MeasuredVector, more: readonly string[] = NO_TERMS): number {
  const n = terms.length + more.length;
  if (n === 0 || b.norm === 0) return 0;
  let m = 32;
  while (m < 2 * n) m *= 2;
  if (scratchSlots.length < m) scratchSlots = new Int32Array(m);
  const slots = scratchSlots;
  const mask = m - 1;
  const names = scratchTerms;
  const counts = scratchCounts;
  let size = 0;
  let indices = 0;
  for (let i = 0; i < n; i++) {
    const t = i < terms.length ? terms[i] : more[i - terms.length];
    const at = scratchSlot(t, slots, mask);
    if (slots[at] !== 0) counts[slots[at] - 1]++;
    else {
      names[size] = t;
      counts[size++] = 1;
      slots[at] = size;
      if (isArrayIndex(t)) indices++;
    }
  }
  // Counts are integers: their squares sum exactly in any order.
  let sum = 0;
  for (let j = 0; j < size; j++) sum += counts[j] * counts[j];
  const norm = Math.sqrt(sum);
  const vector = b.vector;
  let dot = 0;
  if (size > b.size) {
    for (const k in vector) {
      const j = slots[scratchSlot(k, slots, mask)] - 1;
      if (j >= 0) dot += vector[k] * counts[j];
    }
  } else {
    if (indices > 0) {
      // The array-index terms' positions, insertion-sorted by value (a few at most; no array or closure per call).
      const first = scratchIndexTerms;
      let k = 0;
      for (let j = 0; j < size; j++) {
        if (!isArrayIndex(names[j])) continue;
        const value = Number(names[j]);
        let i = k++;
        while (i > 0 && Number(names[first[i - 1]]) > value) {
          first[i] = first[i - 1];
          i--;
        }
        first[i] = j;
      }
      for (let i = 0; i < k; i++) {
        const w = vector[names[first[i]]];
        if (w !== undefined && Object.hasOwn(vector, names[first[i]])) dot += counts[first[i]] * w;
      }
    }
    for (let j = 0; j < size; j++) {
      const k = names[j];
      if (indices > 0 && isArrayIndex(k)) continue;
      const w = vector[k];
      if (w !== undefined && Object.hasOwn(vector, k)) dot += counts[j] * w;
    }
  }
  slots.fill(0, 0, m);
  names.fill('', 0, size); // drop the references (the lists' strings may be large pages' tokens)
  return Math.min(1, Math.max(0, dot / (norm * b.norm)));
}

/** Share of the query terms' mass given to expansion terms when the topic does not set one. */
export const DEFAULT_EXPANSION = 0.4;
/** Most expansion terms taken from a topic's context. */
export const EXPANSION_TERMS = 20;
/** Context read per topic: pieces, and characters per piece. */
const MAX_CONTEXT_PIECES = 50;
const MAX_CONTEXT_CHARS = 1000;
/** Separators of a title's parts ("os — Miscellaneous ... — Python 3.11 documentation", "Espresso | Example Coffee"). */
const TITLE_PARTS = /\s+[—–|·»:-]+\s+/;

/** The query alone: its keywords tokenized in the topic's language, each occurrence counting 1. */
export function keywordVector(topic: Topic): TermVector {
  return analysisOf(topic)?.query ?? termVector(tokenize(topic.keywords ?? '', topic.language ?? 'en'));
}

/** What a topic's analysis depends on, hashed: its keywords, language, context and expansion weight. */
export function analysisKey(topic: Topic): string {
  const parts = [topic.keywords ?? '', topic.language ?? 'en', String(topic.weights?.expansion ?? DEFAULT_EXPANSION)];
  for (const piece of topic.context ?? []) parts.push(typeof piece === 'string' ? piece : '');
  return hashText(parts.join('\u0000'));
}

/** The topic's words analysed once (text/topic-analysis.ts), when the topic carries an analysis of what it says now. */
function analysisOf(topic: Topic): TopicAnalysis | undefined {
  const a = topic.analysis;
  if (!a || a.of !== analysisKey(topic)) return undefined;
  // Vectors that crossed a message or a store are plain objects: looked up by a page's terms, "constructor" would
  // find Object.prototype's. The engine's own vectors have no prototype.
  return { of: a.of, query: ownTerms(a.query), expanded: ownTerms(a.expanded) };
}

function ownTerms(v: TermVector): TermVector {
  if (Object.getPrototypeOf(v) === null) return v;
  const out: TermVector = Object.create(null);
  for (const k of Object.keys(v)) if (Number.isFinite(v[k])) out[k] = v[k];
  return out;
}

/**
 * The topic's term vector: the query's terms (weight 1 per occurrence), plus, when the topic has context (the
 * results page's titles and snippets), pseudo-relevance feedback: the context terms that are not query terms,
 * ranked by how many context pieces hold them (two at least when there are three or more pieces; then by total
 * count, then alphabetically), the top
 * {@link EXPANSION_TERMS} sharing `weights.expansion` (default {@link DEFAULT_EXPANSION}) times the query's mass in
 * proportion to that rank's score. Parts of the pieces repeated across them (a site name after " — " or " | " in
 * every title) are dropped first: they describe the sites, not the topic. Then the user's judgements, when the topic
 * carries them (`topic.feedback`, built by text/feedback.ts from the judged pages' terms): Rocchio's pull and push.
 */
export function topicVector(topic: Topic): TermVector {
  const base = expandedVector(topic);
  return topic.feedback ? withFeedbackTerms(base, topic.feedback, keywordVector(topic)) : base;
}

/**
 * Relevance feedback (Rocchio) on a topic vector: each feedback term's weight is a share of the vector's mass, added
 * (up-voted pages pull) or taken away (down-voted push); weights below 0 are dropped, as Rocchio does. The query's
 * own terms (`query`) are never pushed below their weight: a page the user turned down holds the user's words too
 * (in the lab, pushing them lost the topic: lib/engine/README.md).
 */
function withFeedbackTerms(base: TermVector, feedback: TermVector, query: TermVector): TermVector {
  let mass = 0;
  for (const k in base) mass += base[k];
  if (mass === 0) mass = 1;
  const out: TermVector = Object.create(null);
  for (const k in base) out[k] = base[k];
  for (const k in feedback) {
    const w = feedback[k];
    if (!Number.isFinite(w)) continue;
    let v = (out[k] ?? 0) + w * mass;
    if (Object.hasOwn(query, k)) v = Math.max(v, base[k]);
    if (v > 0) out[k] = v;
    else delete out[k];
  }
  return out;
}

/** The query's vector with the expansion terms of its context (see {@link topicVector}). */
export function expandedVector(topic: Topic): TermVector {
  const analysed = analysisOf(topic);
  if (analysed) return analysed.expanded;
  const query = keywordVector(topic);
  const mass = topic.weights?.expansion ?? DEFAULT_EXPANSION;
  if (!topic.context?.length || !(mass > 0) || !Number.isFinite(mass)) return query;
  const expansion = expansionTerms(topic.context, topic.language ?? 'en', query);
  let queryMass = 0;
  for (const k in query) queryMass += query[k];
  if (queryMass === 0) queryMass = 1; // no query words (a page's title as topic...): the context is the topic
  let total = 0;
  for (const [, salience] of expansion) total += salience;
  const out: TermVector = Object.create(null);
  for (const k in query) out[k] = query[k];
  for (const [term, salience] of expansion) out[term] = (mass * queryMass * salience) / total;
  return out;
}

/** The top expansion terms of a context, with their salience (pieces holding the term, plus a fraction for counts). */
export function expansionTerms(context: readonly string[], language: string, query: TermVector): [string, number][] {
  const pieces = context
    .slice(0, MAX_CONTEXT_PIECES)
    .filter((p) => typeof p === 'string')
    .map((p) => p.slice(0, MAX_CONTEXT_CHARS));
  // Title parts seen in two or more pieces are site names and the like.
  const partCount = new Map<string, number>();
  const split = pieces.map((p) => p.split(TITLE_PARTS).map((x) => x.trim().toLowerCase()));
  for (const parts of split) for (const part of new Set(parts)) if (part) partCount.set(part, (partCount.get(part) ?? 0) + 1);
  const df = new Map<string, number>();
  const tf = new Map<string, number>();
  for (const parts of split) {
    const kept = parts.length > 1 ? parts.filter((x) => (partCount.get(x) ?? 0) < 2) : parts;
    const terms = tokenize(kept.join(' '), language);
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const ranked: [string, number][] = [];
  // With three or more pieces, a term only one of them holds says more about that piece than about the topic.
  const minPieces = split.length >= 3 ? 2 : 1;
  for (const [t, d] of df) {
    if (d < minPieces || Object.hasOwn(query, t)) continue;
    // Counts only break ties between terms held by as many pieces.
    ranked.push([t, d + Math.min(0.99, (tf.get(t)! - d) / 100)]);
  }
  ranked.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return ranked.slice(0, EXPANSION_TERMS);
}

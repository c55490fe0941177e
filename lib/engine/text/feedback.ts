/**
 * Relevance feedback: the user's thumbs up and down change the topic (Rocchio 1971: q' = q + β·mean(up) - γ·mean(down),
 * negative weights dropped), and pages already fetched are re-scored against the new topic from their stored term
 * profile, without fetching or parsing them again.
 *
 * The topic vector itself is still built in one place (text/vector.ts `topicVector`): this file only computes the
 * feedback terms a topic carries (`Topic.feedback`), as shares of the query vector's mass.
 *
 * Why a profile: a page's full term counts (PageEvaluation.terms) are a few hundred to thousands of terms; its
 * `PROFILE_TERMS` heaviest are what Rocchio's centroid keeps anyway, and they cost ~0.5 KB per stored page. A page's
 * evaluator score also weighs boilerplate and language, which the profile cannot redo; re-scoring therefore moves the
 * stored score by the change of the profile's cosine (`rescore`), so a page the new topic does not touch keeps its
 * score exactly.
 */
import type { Judgement, JudgementValue, PageResult, TermProfile, TermVector, Topic } from '../types';
import { cosineMeasured, measure, type MeasuredVector, topicVector } from './vector';

/** Terms kept of a page for feedback (its heaviest, ties alphabetical). */
export const PROFILE_TERMS = 40;
/** Rocchio's β and γ: the pull of the up-voted pages' centroid and the push of the down-voted ones', as shares of the query's mass. */
export const FEEDBACK_UP = 0.75;
export const FEEDBACK_DOWN = 0.25;
/** Feedback terms a topic carries at most (heaviest pull or push first). */
export const FEEDBACK_TERMS = 60;

/**
 * A page's heaviest `max` terms (counts as given; ties alphabetical, so the profile does not depend on key order).
 * The selection of the default {@link PROFILE_TERMS} is remembered per term vector object (evaluations of one page
 * reading share its vector, and the lab scores each reading for many crawls): a term vector must not change after
 * its profile was taken, which evaluations' vectors never do. Each call returns a new object.
 */
export function termProfile(terms: TermVector, max = PROFILE_TERMS): TermVector {
  let kept = max === PROFILE_TERMS ? profiles.get(terms) : undefined;
  if (!kept) {
    kept = heaviest(terms, max);
    if (max === PROFILE_TERMS) profiles.set(terms, kept);
  }
  const out: TermVector = Object.create(null);
  for (let i = 0; i < kept.keys.length; i++) out[kept.keys[i]] = kept.weights[i];
  return out;
}

/** The default profile's terms of each term vector seen (see {@link termProfile}); dropped with the vector. */
const profiles = new WeakMap<TermVector, { keys: string[]; weights: number[] }>();

/** The `max` heaviest positive terms, heavier first, ties alphabetical. */
function heaviest(terms: TermVector, max: number): { keys: string[]; weights: number[] } {
  // A bounded selection instead of sorting every term (a page has hundreds to thousands): `keys`/`weights` hold the
  // best so far, best first, in the order of the full sort (heavier first, ties alphabetical: a total order, so the
  // result does not depend on the order the terms come in).
  const keys: string[] = [];
  const weights: number[] = [];
  const limit = Math.max(0, Math.floor(max));
  if (limit === 0) return { keys, weights };
  for (const k in terms) {
    const w = terms[k];
    if (!(w > 0) || !Number.isFinite(w)) continue;
    let i = keys.length;
    if (i === limit) {
      // Full: only a term that ranks above the worst kept one gets in.
      const lw = weights[i - 1];
      if (w < lw || (w === lw && k > keys[i - 1])) continue;
      keys.pop();
      weights.pop();
      i--;
    }
    while (i > 0 && (weights[i - 1] < w || (weights[i - 1] === w && keys[i - 1] > k))) i--;
    keys.splice(i, 0, k);
    weights.splice(i, 0, w);
  }
  return { keys, weights };
}

/** The profile of a page scored against `topicVec`: its heaviest terms and their cosine to that vector. */
export function pageProfile(terms: TermVector, topicVec: MeasuredVector): TermProfile {
  const profile = termProfile(terms);
  return { terms: profile, cosine: cosineMeasured(measure(profile), topicVec) };
}

/**
 * The feedback terms of a set of judgements (Rocchio): each judged page's profile normalized to unit mass, the mean of
 * the up-voted ones times {@link FEEDBACK_UP} minus the mean of the down-voted ones times {@link FEEDBACK_DOWN}; the
 * {@link FEEDBACK_TERMS} heaviest (by magnitude) kept. Undefined when nothing is judged (or no judged page has terms).
 */
export function feedbackTerms(judgements: Iterable<Pick<Judgement, 'value' | 'terms'>>): TermVector | undefined {
  const sums = { up: new Map<string, number>(), down: new Map<string, number>() };
  const counts = { up: 0, down: 0 };
  for (const j of judgements) {
    let mass = 0;
    for (const k in j.terms) if (j.terms[k] > 0 && Number.isFinite(j.terms[k])) mass += j.terms[k];
    if (mass === 0) continue;
    const side = j.value > 0 ? 'up' : 'down';
    counts[side]++;
    for (const k in j.terms) {
      const w = j.terms[k];
      if (w > 0 && Number.isFinite(w)) sums[side].set(k, (sums[side].get(k) ?? 0) + w / mass);
    }
  }
  if (counts.up + counts.down === 0) return undefined;
  const delta = new Map<string, number>();
  for (const [k, w] of sums.up) delta.set(k, (FEEDBACK_UP * w) / counts.up);
  for (const [k, w] of sums.down) delta.set(k, (delta.get(k) ?? 0) - (FEEDBACK_DOWN * w) / counts.down);
  const kept = [...delta]
    .filter(([, w]) => w !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, FEEDBACK_TERMS);
  const out: TermVector = Object.create(null);
  for (const [k, w] of kept) out[k] = w;
  return out;
}

/** `topic` with the feedback of `judgements` (and without any it carried before); the topic itself when none count. */
export function withFeedback(topic: Topic, judgements: Iterable<Pick<Judgement, 'value' | 'terms'>>): Topic {
  const { feedback: _old, ...base } = topic;
  const feedback = feedbackTerms(judgements);
  return feedback ? { ...base, feedback } : base;
}

/**
 * A page's score against a new topic vector: its stored score moved by the change of its profile's cosine (from the
 * vector it was scored with to `topicVec`), within [0, 1]. A page without a profile keeps its score.
 */
export function rescore(page: Pick<PageResult, 'score' | 'profile'>, topicVec: MeasuredVector): number {
  if (!page.profile) return page.score;
  const now = cosineMeasured(measure(page.profile.terms), topicVec);
  return Math.min(1, Math.max(0, page.score + now - page.profile.cosine));
}

/** The topic's vector, measured once for the many pages {@link rescore} reads. */
export function measuredTopic(topic: Topic): MeasuredVector {
  return measure(topicVector(topic));
}

/** Whether a value is a judgement's value (1, 0 or -1). */
export function isJudgementValue(x: unknown): x is JudgementValue {
  return x === 1 || x === 0 || x === -1;
}

/**
 * The snippet: the ~30-word passage of a page's heaviest text with the most query terms, cut at words with
 * ellipses, read from the visible text around the hits only (long pages stay cheap).
 */
import type { TermVector } from '../types';
import type { TokenList } from './packed';
import { collapse, type TextView } from './visible-text';
import { KIND_BOILER } from './zones';

/** Snippet: ~30 words, at most ~300 characters. */
const SNIPPET_WORDS = 30;
const SNIPPET_CHARS = 300;
/** Width of the window in which topic hits are counted for a snippet candidate (about 30 words of English). */
const SNIPPET_SCAN_CHARS = 200;

/**
 * Cuts `text` from `start` to at most SNIPPET_WORDS words / SNIPPET_CHARS characters, with ellipses where cut, and
 * never past `stop` (where text of lower weight begins).
 */
function cutSnippet(text: TextView, start: number, leadingCut: boolean, stop: number): string {
  const limit = Math.min(stop, text.length);
  const rawEnd = Math.min(start + SNIPPET_CHARS * 4, limit);
  let s = collapse(text.slice(start, rawEnd));
  let cut = rawEnd < limit && /\S/.test(text.slice(rawEnd, Math.min(rawEnd + 1000, limit)));
  if (s.length > SNIPPET_CHARS) {
    const space = s.lastIndexOf(' ', SNIPPET_CHARS);
    s = s.slice(0, space > SNIPPET_CHARS / 2 ? space : SNIPPET_CHARS);
    cut = true;
  }
  const parts = s.split(' ');
  if (parts.length > SNIPPET_WORDS) {
    s = parts.slice(0, SNIPPET_WORDS).join(' ');
    cut = true;
  }
  if (!s) return '';
  return (leadingCut ? '… ' : '') + s + (cut ? ' …' : '');
}

/** The runs of text with their weights, as the snippet reads them (see evaluatePage). */
export interface SnippetRuns {
  /** First token of each run. */
  token: ArrayLike<number>;
  /** Offset of each run in the visible text. */
  text: ArrayLike<number>;
  kind: ArrayLike<number>;
  weight: Float64Array;
}

/**
 * The ~30-word passage with the most query terms (distinct terms first, then occurrences; among equals the one
 * starting closest to its first hit, then the earliest), taken from the heaviest text that has any hit: main content
 * before text beside it, before link lists; boilerplate never. Candidates start at block and sentence boundaries
 * (within the hit's run), and at each hit for sentences too long to show whole; a passage stops where lighter text
 * begins. Without a hit: the start of the heaviest text, up to the next boilerplate.
 */
export function bestSnippet(
  text: TextView,
  tokens: TokenList,
  offsets: Int32Array,
  query: TermVector,
  runs: SnippetRuns,
): string {
  if (!text.hasNonSpace()) return '';
  const n = runs.token.length;
  /**
   * Where the first run after `r` that is boilerplate (or, with `lighter`, of lower weight than r) begins: a passage
   * from run r stops there.
   */
  const stopAfter = (r: number, lighter: boolean): number => {
    for (let k = r + 1; k < n; k++) {
      if (runs.kind[k] === KIND_BOILER || (lighter && runs.weight[k] < runs.weight[r])) return runs.text[k];
    }
    return text.length;
  };
  const usable = (r: number) => runs.kind[r] !== KIND_BOILER;

  const queryTerms = new Set(Object.keys(query));
  const hitTokens: number[] = [];
  if (queryTerms.size > 0) {
    // Asked once per distinct term, not per token.
    const isHit = tokens.vocabulary.map((t) => queryTerms.has(t));
    const ids = tokens.ids;
    for (let i = 0; i < ids.length; i++) if (isHit[ids[i]]) hitTokens.push(i);
  }
  // The run of each hit (runs and hits both in token order), and the heaviest weight among usable runs with a hit.
  const hitRun: number[] = [];
  let best = -1;
  for (let r = 0, h = 0; h < hitTokens.length; h++) {
    while (r + 1 < n && runs.token[r + 1] <= hitTokens[h]) r++;
    hitRun.push(r);
    if (usable(r) && runs.weight[r] > best) best = runs.weight[r];
  }
  const hits: number[] = [];
  const hitTerms: string[] = [];
  const hitFloor: number[] = [];
  const hitStop: number[] = [];
  for (let h = 0; h < hitTokens.length; h++) {
    const r = hitRun[h];
    if (!usable(r) || runs.weight[r] !== best) continue;
    hits.push(offsets[hitTokens[h]]);
    hitTerms.push(tokens.at(hitTokens[h]));
    hitFloor.push(runs.text[r]);
    hitStop.push(r);
  }
  if (hits.length === 0) {
    // No hit in usable text: the start of the heaviest run holding any text.
    let pick = -1;
    for (let r = 0; r < n; r++) {
      if (!usable(r) || (pick >= 0 && runs.weight[r] <= runs.weight[pick])) continue;
      const end = r + 1 < n ? runs.text[r + 1] : text.length;
      if (text.firstNonSpace(runs.text[r]) < end) pick = r;
    }
    if (pick < 0) return '';
    return cutSnippet(text, text.firstNonSpace(runs.text[pick]), false, stopAfter(pick, false));
  }

  // Sentence starts (after . ! ? and block separators) within the scan window before each hit, inside the hit's run:
  // only those can begin a passage holding it, and scanning just there keeps long pages cheap.
  const starts: number[] = [];
  const startStop: number[] = [];
  const re = /[.!?…]["'”’)\]]*\s+|\v\s*/g;
  let scanned = 0;
  let floorPushed = -1;
  for (let h = 0; h < hits.length; h++) {
    const hit = hits[h];
    const from = Math.max(scanned, hit - SNIPPET_SCAN_CHARS, hitFloor[h]);
    if (from === hitFloor[h] && floorPushed !== from) {
      // The run's own start is a passage start (as the text's start is).
      starts.push(from);
      startStop.push(hitStop[h]);
      floorPushed = from;
    }
    if (from >= hit) continue;
    const region = text.slice(from, hit);
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(region)) !== null) {
      starts.push(from + m.index + m[0].length);
      startStop.push(hitStop[h]);
    }
    scanned = hit;
  }
  const candidates: { at: number; sentence: boolean; run: number }[] = starts.map((at, i) => ({
    at,
    sentence: true,
    run: startStop[i],
  }));
  const sentenceStarts = new Set(starts);
  for (let h = 0; h < hits.length; h++) {
    if (!sentenceStarts.has(hits[h])) candidates.push({ at: hits[h], sentence: false, run: hitStop[h] });
  }
  candidates.sort((a, b) => a.at - b.at);

  let chosen = candidates[0];
  let bestScore = -1;
  let bestGap = Infinity;
  let lo = 0;
  const distinct = new Set<string>();
  for (const c of candidates) {
    while (lo < hits.length && hits[lo] < c.at) lo++;
    const end = c.at + SNIPPET_SCAN_CHARS;
    if (lo >= hits.length || hits[lo] >= end) continue;
    distinct.clear();
    let total = 0;
    for (let k = lo; k < hits.length && hits[k] < end; k++) {
      distinct.add(hitTerms[k]);
      total++;
    }
    // Equal hits: prefer the start nearest its first hit (the passage itself rather than text leading up to it),
    // then the earliest.
    const gap = hits[lo] - c.at;
    const score = distinct.size * 1_000_000 + total;
    if (score > bestScore || (score === bestScore && gap < bestGap)) {
      bestScore = score;
      bestGap = gap;
      chosen = c;
    }
  }
  const at = text.firstNonSpace(chosen.at);
  return cutSnippet(text, at, !chosen.sentence && at > 0, stopAfter(chosen.run, true));
}

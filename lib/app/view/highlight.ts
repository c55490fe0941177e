/**
 * Topic-word highlighting for the UIs, as data: a text cut into segments, some marked. The UIs turn segments into
 * text nodes and <mark> elements, so page text is never parsed as HTML; control and bidi-override characters are
 * removed first (lib/app/rules/text-safety), so a title cannot display reversed. Words match when they stem to a topic term
 * (the same tokenizer the evaluator scores with), so "brewing" lights up for the topic "brew".
 */
import { tokenize } from '../../engine';
import { oneLine } from '../rules/text-safety';

export interface Segment {
  text: string;
  mark: boolean;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/** Stemmed topic terms, for repeated use with {@link highlightSegments}. */
export function highlightTerms(keywords: string, language?: string): Set<string> {
  return new Set(tokenize(keywords, language ?? 'en'));
}

/**
 * Splits `raw` into marked (topic word) and unmarked segments; concatenated they give back the text on one line,
 * without control or bidi-override characters ({@link oneLine}), otherwise unchanged.
 */
export function highlightSegments(raw: string, terms: Set<string>, language?: string): Segment[] {
  const text = oneLine(raw);
  if (!text) return [];
  if (terms.size === 0) return [{ text, mark: false }];
  const out: Segment[] = [];
  let last = 0;
  const push = (s: string, mark: boolean) => {
    if (!s) return;
    const prev = out[out.length - 1];
    if (prev && prev.mark === mark && !mark) prev.text += s;
    else out.push({ text: s, mark });
  };
  WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD.exec(text)) !== null) {
    const word = m[0];
    const hit = tokenize(word, language ?? 'en').some((t) => terms.has(t));
    if (!hit) continue;
    push(text.slice(last, m.index), false);
    push(word, true);
    last = m.index + word.length;
  }
  push(text.slice(last), false);
  return out;
}

/**
 * The language a page is read and scored in: its declared `lang`, the share of stop words that settles it without the
 * detector, the pairs the detector confuses, and the factor on a page in another language than the topic's.
 */
import { baseLanguage, stemmerFor } from '../text/language';
import { stopwordLanguage } from '../text/tokenize';

/**
 * Share of a page's words that are stop words of the language it was read in above which it is taken to be in that
 * language without running the detector (about a third in English prose; 2-23% in the handbook's translations read
 * as English, up to 41% where the translation left English paragraphs).
 */
export const OWN_STOP_SHARE = 0.3;

/** Factor on the score of a page in another language than the topic's (unless the topic takes all languages). */
export const OTHER_LANGUAGE_WEIGHT = 0.1;

/** The first `lang` attribute of the page (<html lang>, or the first element that has one), as an ISO 639-1 base. */
const LANG_ATTRIBUTE = /\slang\s*=\s*["']?\s*([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*)/i;
export function declaredLanguage(html: string): string | undefined {
  const m = LANG_ATTRIBUTE.exec(html);
  return m ? baseLanguage(m[1]) : undefined;
}

/** Pairs the detector confuses (Indonesian and Malay; the Serbo-Croatian standards) count as one language. */
const SAME_LANGUAGE: Record<string, string> = { ms: 'id', bs: 'hr', sr: 'hr' };
export function sameLanguage(a: string, b: string): boolean {
  return (SAME_LANGUAGE[a] ?? a) === (SAME_LANGUAGE[b] ?? b);
}

/** Whether text in `language` is tokenized just as in `other` (neither has its own stop list or stemmer). */
export function analysedAlike(language: string, other: string): boolean {
  const own = (l: string) => stopwordLanguage(l) !== 'eng' || stemmerFor(baseLanguage(l) ?? '') !== null;
  return !own(language) && !own(other);
}

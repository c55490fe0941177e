/**
 * Languages: the stemmer of each language, language tags reduced to their ISO 639-1 base, and detection of a text's
 * language when no markup declares it.
 *
 * Stemmers are the Snowball algorithms as published by Orama (`@orama/stemmers`, one module per language, generated
 * from the Snowball sources; identical to Snowball's reference output on its test vocabularies for every language
 * used here). English keeps the Porter stemmer of the `stemmer` package, so English terms are what they were.
 * Detection is `eld` (Nito-ELD, n-gram based, its smallest database: 60 languages); see README "Languages" for why.
 * Both come from ./language-data.ts, which loads them where they are not at hand.
 */
import { hasStemmer, loadedDetector, loadedStemmer, STEMMED_LANGUAGES } from './language-data';

export { STEMMED_LANGUAGES };

/**
 * The stemmer of an ISO 639-1 base code, or null when the language has none. Throws MissingLanguageData when it has
 * one that is not loaded (./language-data.ts).
 */
export function stemmerFor(base: string): ((word: string) => string) | null {
  return hasStemmer(base) ? loadedStemmer(base) : null;
}

/** Old or alternative codes of one language, and Norwegian's two written forms (one stemmer, one stop list). */
const ALIASES: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi', nb: 'no', nn: 'no', mo: 'ro', sh: 'sr' };

/**
 * The ISO 639-1 base of a language tag ('de-DE' -> 'de', 'pt_BR' -> 'pt', 'EN' -> 'en', 'nb' -> 'no', 'iw' -> 'he'),
 * or undefined when it is not one (empty, 'x-klingon', three-letter codes, garbage).
 */
export function baseLanguage(tag: string | undefined | null): string | undefined {
  if (typeof tag !== 'string') return undefined;
  const m = /^\s*([A-Za-z]{2})(?:[-_][A-Za-z0-9]{1,8})*\s*$/.exec(tag);
  if (!m) return undefined;
  const base = m[1].toLowerCase();
  return ALIASES[base] ?? base;
}

/** Characters of a text read for detection: a few sentences are enough, and the cost grows with length. */
export const DETECT_CHARS = 1000;
/**
 * Fewest letters detection is tried on: below a sentence or two, n-gram detectors guess (eld's own reliability
 * check passes "Coffee brewing text." as something else than English), and a wrong guess costs a page its score.
 */
export const MIN_DETECT_LETTERS = 60;
const LETTER = /\p{L}/gu;

/**
 * The language of `text` (ISO 639-1 base), or undefined when it has fewer than {@link MIN_DETECT_LETTERS} letters or
 * the detector is unsure (eld's isReliable: the best score far enough above the second and above the language's
 * usual score). CJK scripts count one letter per character, as they carry a word's worth each.
 */
export function detectLanguage(text: string): string | undefined {
  if (!text) return undefined;
  const sample = text.length > DETECT_CHARS ? text.slice(0, DETECT_CHARS) : text;
  if (countLetters(sample) < MIN_DETECT_LETTERS) return undefined;
  const result = loadedDetector().detect(sample);
  if (!result.language || !result.isReliable()) return undefined;
  return baseLanguage(result.language);
}

function countLetters(text: string): number {
  let n = 0;
  const cjk = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;
  for (const m of text.matchAll(LETTER)) n += cjk.test(m[0]) ? 3 : 1;
  return n;
}

/** What a topic's language is read from. */
export interface TopicLanguageHints {
  keywords: string;
  /** The results page's titles and snippets, or the text a crawl starts from. */
  context?: readonly string[];
  /** The `lang` of the page the topic comes from (results page, or the page of "Crawl from here"). */
  pageLang?: string;
}

/**
 * The language of a topic: detected from the query and its context (titles and snippets: enough text to be sure),
 * else the page's declared `lang`, else detected from the query alone when it is long enough (see
 * {@link MIN_DETECT_LETTERS}: a two-word query is not); undefined when nothing says. The page's lang comes second
 * because a results page declares the language of the engine's interface, not of the query.
 */
export function topicLanguage(hints: TopicLanguageHints): string | undefined {
  const context = (hints.context ?? []).join(' \n');
  if (context.trim()) {
    const detected = detectLanguage(`${hints.keywords}\n${context}`);
    if (detected) return detected;
  }
  return baseLanguage(hints.pageLang) ?? detectLanguage(hints.keywords);
}

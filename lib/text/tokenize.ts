import * as stopword from 'stopword';
import { stemmer } from 'stemmer';

/**
 * Tokenization shared by the evaluator, the strategies and the topic vector.
 *
 * Pipeline: NFKC normalization -> lowercase -> runs of Unicode letters/digits (combining marks kept inside a word)
 * -> stop words removed (`stopword` lists) -> 1-character tokens and numbers of more than 4 digits removed
 * -> Porter stemming (`stemmer`, English only).
 *
 * Han, Hiragana and Katakana are written without spaces, so a "word" there would be a whole sentence. Such runs are cut
 * into overlapping character bigrams (the CJK analyzer approach of full-text engines), and a lone CJK character is kept:
 * there one character can be a word.
 */

type StopLanguage = stopword.LanguageCode;

/** ISO 639-1 code (or regional tag) -> the `stopword` package's list name. */
const ISO_TO_STOPWORD: Record<string, StopLanguage> = {
  af: 'afr', ar: 'ara', bn: 'ben', br: 'bre', bg: 'bul', ca: 'cat', cs: 'ces', da: 'dan', de: 'deu', el: 'ell',
  en: 'eng', eo: 'epo', et: 'est', eu: 'eus', fa: 'fas', fi: 'fin', fr: 'fra', ga: 'gle', gl: 'glg', gu: 'guj',
  ha: 'hau', he: 'heb', iw: 'heb', hi: 'hin', hr: 'hrv', hu: 'hun', hy: 'hye', id: 'ind', in: 'ind', it: 'ita',
  ja: 'jpn', ko: 'kor', ku: 'kur', la: 'lat', lv: 'lav', lt: 'lit', mr: 'mar', ms: 'msa', my: 'mya', nl: 'nld',
  nb: 'nob', no: 'nob', pa: 'panGu', pl: 'pol', pt: 'por', 'pt-br': 'porBr', ro: 'ron', ru: 'rus', sk: 'slk',
  sl: 'slv', so: 'som', st: 'sot', es: 'spa', sw: 'swa', sv: 'swe', tl: 'tgl', th: 'tha', tr: 'tur', uk: 'ukr',
  ur: 'urd', vi: 'vie', yo: 'yor', zh: 'zho', zu: 'zul',
};

/**
 * Fragments left by splitting English contractions at the apostrophe ("don't" -> "don" + "t"). The 1-character ones
 * go anyway; these would otherwise pollute every English page's vector.
 */
const ENGLISH_EXTRA_STOPS = ['don', 'doesn', 'didn', 'isn', 'aren', 'wasn', 'weren', 'won', 'wouldn', 'couldn',
  'shouldn', 'haven', 'hasn', 'hadn', 'ain', 'll', 've', 're'];

const lists = stopword as unknown as Record<string, string[] | undefined>;

/** Resolves a language code ('en', 'en-US', 'pt-BR', 'deu') to a `stopword` list name; unknown -> 'eng'. */
export function stopwordLanguage(language: string | undefined): StopLanguage {
  if (!language) return 'eng';
  const tag = language.trim().toLowerCase().replace(/_/g, '-');
  const mapped = ISO_TO_STOPWORD[tag] ?? ISO_TO_STOPWORD[tag.split('-')[0]];
  if (mapped) return mapped;
  // Accept the package's own three-letter names too ('deu', 'porBr').
  for (const key of Object.keys(ISO_TO_STOPWORD)) {
    const name = ISO_TO_STOPWORD[key];
    if (name.toLowerCase() === tag) return name;
  }
  return 'eng';
}

/** Per-language state: the stop-word set and a cache of token decisions (word -> stem, or null when dropped). */
interface LanguageState {
  stops: Set<string>;
  stem: boolean;
  cache: Map<string, string | null>;
}

/** Bound on cached words per language; cleared wholesale when full (cheap, and vocabularies plateau quickly). */
const CACHE_LIMIT = 100_000;
const states = new Map<StopLanguage, LanguageState>();

function languageState(language: string | undefined): LanguageState {
  const code = stopwordLanguage(language);
  let state = states.get(code);
  if (!state) {
    const stops = new Set<string>((lists[code] ?? lists.eng ?? []).map((w) => w.toLowerCase()));
    if (code === 'eng') for (const w of ENGLISH_EXTRA_STOPS) stops.add(w);
    state = { stops, stem: code === 'eng', cache: new Map() };
    states.set(code, state);
  }
  return state;
}

// A word: a letter or digit, then letters, digits and combining marks.
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const NON_ASCII_RE = /[^\x00-\x7f]/;
const ALL_DIGITS_RE = /^\p{Nd}+$/u;
const CJK_RE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const CJK_SPLIT_RE = /([\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]+)/u;

/** Decides one lowercase, non-CJK word: its stem, or null when it is dropped. */
function decide(word: string, state: LanguageState): string | null {
  if (word.length < 2) return null;
  if (word.length === 2 && word.codePointAt(0)! > 0xffff) return null; // one astral character
  if (word.length > 4 && ALL_DIGITS_RE.test(word)) return null;
  if (state.stops.has(word)) return null;
  return state.stem ? stemmer(word) : word;
}

function emitCjk(word: string, state: LanguageState, emit: (term: string, offset: number) => void, offset: number): void {
  // Rare path (non-ASCII word containing CJK): split into CJK and non-CJK parts.
  const parts = word.split(CJK_SPLIT_RE);
  let at = offset;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    if (!part) continue;
    if (p % 2 === 1) {
      const chars = Array.from(part);
      if (chars.length === 1) emit(chars[0], at);
      else for (let i = 0; i + 1 < chars.length; i++) emit(chars[i] + chars[i + 1], at);
    } else {
      const term = decide(part, state);
      if (term !== null) emit(term, at);
    }
    at += part.length;
  }
}

/**
 * Normalizes text for tokenization: NFKC (skipped for pure ASCII, where it is the identity) and lowercase.
 * Offsets of the result can drift from the input by a few characters where NFKC or lowercasing change length.
 */
function normalize(text: string): { norm: string; ascii: boolean } {
  const ascii = !NON_ASCII_RE.test(text);
  return { norm: (ascii ? text : text.normalize('NFKC')).toLowerCase(), ascii };
}

/**
 * Tokenizes `text` and pushes each term into `terms` (and, when given, its approximate character offset plus
 * `baseOffset` into `offsets`). This is the allocation-light core used by the evaluator; most callers want
 * {@link tokenize}.
 */
export function tokenizeInto(
  text: string,
  language: string | undefined,
  terms: string[],
  offsets?: number[],
  baseOffset = 0,
): void {
  const state = languageState(language);
  const { norm, ascii } = normalize(text);
  const cache = state.cache;
  const emit = (term: string, offset: number) => {
    terms.push(term);
    if (offsets) offsets.push(baseOffset + Math.min(offset, text.length));
  };
  WORD_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD_RE.exec(norm)) !== null) {
    const word = m[0];
    let term = cache.get(word);
    if (term === undefined) {
      if (!ascii && CJK_RE.test(word)) {
        emitCjk(word, state, emit, m.index);
        continue;
      }
      term = decide(word, state);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(word, term);
    }
    if (term !== null) {
      terms.push(term);
      if (offsets) offsets.push(baseOffset + Math.min(m.index, text.length));
    }
  }
}

/**
 * Splits text into index terms: NFKC-normalized, lowercased runs of Unicode letters and digits (marks kept inside
 * words), without stop words of `language` (ISO 639-1 code such as 'en', 'de', 'fr'; unknown codes use English),
 * without 1-character tokens and numbers longer than 4 digits, and Porter-stemmed.
 *
 * Stemming is English only: for any other language the terms are left unstemmed (there is no maintained Snowball
 * port in the dependency set). CJK runs become character bigrams (see the module comment).
 * Decisions are cached per language in a bounded map, so repeated words cost one lookup.
 */
export function tokenize(text: string, language = 'en'): string[] {
  const out: string[] = [];
  if (text) tokenizeInto(text, language, out);
  return out;
}

/**
 * The words of `text` in order, NFKC-normalized and lowercased, unstemmed and with stop words kept: for highlighting
 * and snippets, where the surface form matters.
 */
export function words(text: string): string[] {
  if (!text) return [];
  return normalize(text).norm.match(WORD_RE) ?? [];
}

import * as stopword from 'stopword';
import { stemmer } from 'stemmer';

/**
 * Tokenization shared by the evaluator, the strategies and the topic vector.
 *
 * Pipeline: runs of Unicode letters/digits (combining marks kept inside a word) -> NFKC normalization -> lowercase
 * -> stop words removed (`stopword` lists) -> 1-character tokens and numbers of more than 4 digits removed
 * -> Porter stemming (`stemmer`, English only).
 * Words are found in the text as it is and normalized one distinct word at a time (cached), which is much cheaper
 * than normalizing whole pages; the price is that symbols NFKC would turn into letters (™ -> tm, ㎏ -> kg) are not
 * word characters and are skipped.
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

/**
 * One distinct term of one language, interned: every word with this stem maps to the same object, so a page's
 * term frequencies are counted on the object (see {@link TermCounter}) instead of through a hash lookup per token.
 */
interface TermSlot {
  term: string;
  count: number;
  epoch: number;
}

/** Per-language state: the stop-word set, the interned terms, and a cache of word decisions. */
interface LanguageState {
  stops: Set<string>;
  stem: boolean;
  /** word -> its term; null when dropped; an array for words that yield several terms (CJK bigrams). */
  cache: WordTable;
  slots: Map<string, TermSlot>;
}

/** Bound on cached words per language; cleared wholesale when full (cheap, and vocabularies plateau quickly). */
const CACHE_LIMIT = 50_000;
/** How many times a word cache was cleared (a counter spanning a clear can hold one term in two slots). */
let cacheClears = 0;
const TABLE_BITS = 17; // 131,072 buckets: the load factor stays under 0.4 (about 2.6 MB per language)

type Entry = TermSlot | TermSlot[] | null;

/** Spreads a polynomial string hash over the low bits used as bucket index (murmur3 finalizer). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Word -> decision cache, an open-addressing hash table probed with the word's characters *in place*: a cached word
 * costs no substring allocation and no engine string hashing (the hash is computed while scanning). With a Map the
 * lookup was most of the evaluator's time on text-heavy pages.
 */
class WordTable {
  private readonly mask = (1 << TABLE_BITS) - 1;
  private hashes = new Int32Array(1 << TABLE_BITS);
  private words: (string | undefined)[] = new Array(1 << TABLE_BITS);
  private values: Entry[] = new Array(1 << TABLE_BITS);
  size = 0;

  /** The entry for s[start, end) with hash h, or undefined. */
  get(s: string, start: number, end: number, h: number): Entry | undefined {
    const len = end - start;
    const m = mix(h) | 1; // 0 marks an empty bucket
    const hashes = this.hashes;
    // Probe the packed hash array first: the word itself is only touched when its hash matches.
    for (let i = m & this.mask; ; i = (i + 1) & this.mask) {
      const hv = hashes[i];
      if (hv === 0) return undefined;
      if (hv === m) {
        const w = this.words[i]!;
        if (w.length === len) {
          let j = 0;
          while (j < len && w.charCodeAt(j) === s.charCodeAt(start + j)) j++;
          if (j === len) return this.values[i];
        }
      }
    }
  }

  set(word: string, h: number, value: Entry): void {
    const m = mix(h) | 1;
    let i = m & this.mask;
    while (this.hashes[i] !== 0) i = (i + 1) & this.mask;
    this.words[i] = word;
    this.hashes[i] = m;
    this.values[i] = value;
    this.size++;
  }

  clear(): void {
    this.hashes.fill(0);
    this.words = new Array(1 << TABLE_BITS);
    this.values = new Array(1 << TABLE_BITS);
    this.size = 0;
  }
}
const states = new Map<StopLanguage, LanguageState>();

let lastLanguage: string | undefined;
let lastState: LanguageState | undefined;

function languageState(language: string | undefined): LanguageState {
  // The evaluator calls this per text run with the same language: skip the code mapping.
  if (lastState && language === lastLanguage) return lastState;
  lastLanguage = language;
  lastState = languageStateOf(language);
  return lastState;
}

function languageStateOf(language: string | undefined): LanguageState {
  const code = stopwordLanguage(language);
  let state = states.get(code);
  if (!state) {
    const stops = new Set<string>((lists[code] ?? lists.eng ?? []).map((w) => w.toLowerCase()));
    if (code === 'eng') for (const w of ENGLISH_EXTRA_STOPS) stops.add(w);
    state = { stops, stem: code === 'eng', cache: new WordTable(), slots: new Map() };
    states.set(code, state);
  }
  return state;
}

// A word: a letter or digit, then letters, digits and combining marks.
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const NON_ASCII_RE = /[^\x00-\x7f]/;
const ALL_DIGITS_RE = /^\p{Nd}+$/u;
const CJK_SPLIT_RE = /([\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]+)/u;
const CJK_ANY = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;

// Character classes for the hand-written scanner (a regex with \p{..} and a match object per word was the
// evaluator's main cost). Non-ASCII classes are computed on first sight and remembered.
const C_UNKNOWN = 0;
const C_WORD = 1; // letter or digit: starts or continues a word
const C_MARK = 2; // combining mark: continues a word
const C_OTHER = 3;
const C_CJK = 4; // Han, Hiragana, Katakana letter
const classes = new Uint8Array(0x10000);
for (let c = 0; c < 128; c++) {
  classes[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? C_WORD : C_OTHER;
}
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;
const CJK_CHAR = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]$/u;

function classify(ch: string): number {
  if (CJK_CHAR.test(ch)) return C_CJK;
  if (LETTER_OR_NUMBER.test(ch)) return C_WORD;
  if (MARK.test(ch)) return C_MARK;
  return C_OTHER;
}
const astralClasses = new Map<number, number>();

/** Class of the character at `i` and its length in UTF-16 units (2 for astral characters). */
function classAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) {
    let k = classes[c];
    if (k === C_UNKNOWN) k = classes[c] = classify(String.fromCharCode(c));
    return k;
  }
  const cp = s.codePointAt(i)!;
  if (cp <= 0xffff) return C_OTHER; // a lone high surrogate: one unit, never part of a word
  let k = astralClasses.get(cp);
  if (k === undefined) {
    k = classify(String.fromCodePoint(cp));
    if (astralClasses.size < 10_000) astralClasses.set(cp, k);
  }
  return k + 8; // flag: two units
}

/** Decides one lowercase, non-CJK word: its stem, or null when it is dropped. */
function decide(word: string, state: LanguageState): string | null {
  if (word.length < 2) return null;
  if (word.length === 2 && word.codePointAt(0)! > 0xffff) return null; // one astral character
  if (word.length > 4 && ALL_DIGITS_RE.test(word)) return null;
  if (state.stops.has(word)) return null;
  return state.stem ? stemmer(word) : word;
}

/** Terms of a word holding CJK characters: CJK runs as bigrams (a lone character kept), the rest as usual. */
function cjkTerms(word: string, state: LanguageState): string[] {
  const out: string[] = [];
  for (const [p, part] of word.split(CJK_SPLIT_RE).entries()) {
    if (!part) continue;
    if (p % 2 === 1) {
      const chars = Array.from(part);
      if (chars.length === 1) out.push(chars[0]);
      else for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    } else {
      const term = decide(part, state);
      if (term !== null) out.push(term);
    }
  }
  return out;
}

/** NFKC (skipped for pure ASCII, where it is the identity) and lowercase. */
function normalize(text: string): string {
  return (NON_ASCII_RE.test(text) ? text.normalize('NFKC') : text).toLowerCase();
}

/**
 * Counts term frequencies during tokenization (pass it to {@link tokenizeInto}) and returns them with
 * {@link TermCounter.vector}. Counting happens on interned per-term objects, which is what makes it cheap.
 * A counter serves one synchronous pass (one page): a newer counter takes the shared slots over.
 */
export class TermCounter {
  private static nextEpoch = 1;
  /** @internal */
  readonly epoch = TermCounter.nextEpoch++;
  /** @internal */
  readonly slots: TermSlot[] = [];
  private readonly clearsAtStart = cacheClears;

  /** The counted terms as a TermVector (null-prototype object, so a term like "constructor" is safe). */
  vector(): Record<string, number> {
    const v: Record<string, number> = Object.create(null);
    for (const slot of this.slots) {
      // Two slots can hold one term if the cache was cleared mid-page: merge rather than overwrite.
      if (slot.epoch === this.epoch) v[slot.term] = (v[slot.term] ?? 0) + slot.count;
    }
    return v;
  }

  /** Sum of squared counts: the squared Euclidean norm of {@link vector}, without building it. */
  sumOfSquares(): number {
    if (cacheClears !== this.clearsAtStart) {
      // A term may be split over two slots: square the merged counts.
      let sum = 0;
      for (const c of Object.values(this.vector())) sum += c * c;
      return sum;
    }
    let n = 0;
    for (const slot of this.slots) if (slot.epoch === this.epoch) n += slot.count * slot.count;
    return n;
  }
}

function slotFor(state: LanguageState, term: string): TermSlot {
  let slot = state.slots.get(term);
  if (!slot) state.slots.set(term, (slot = { term, count: 0, epoch: 0 }));
  return slot;
}

/**
 * Decides one raw word as found in the text (any case, not normalized): NFKC and lowercase happen here, on a cache
 * miss, instead of over the whole text. NFKC can split a word (½ -> 1⁄2), hence the re-scan of non-ASCII words.
 */
function analyze(raw: string, state: LanguageState): TermSlot | TermSlot[] | null {
  if (!NON_ASCII_RE.test(raw)) {
    const term = decide(raw.toLowerCase(), state);
    return term === null ? null : slotFor(state, term);
  }
  const list: TermSlot[] = [];
  for (const word of raw.normalize('NFKC').toLowerCase().match(WORD_RE) ?? []) {
    if (CJK_ANY.test(word)) {
      for (const t of cjkTerms(word, state)) list.push(slotFor(state, t));
    } else {
      const term = decide(word, state);
      if (term !== null) list.push(slotFor(state, term));
    }
  }
  return list.length === 0 ? null : list.length === 1 ? list[0] : list;
}

function count(slot: TermSlot, counter: TermCounter): void {
  if (slot.epoch !== counter.epoch) {
    slot.epoch = counter.epoch;
    slot.count = 0;
    counter.slots.push(slot);
  }
  slot.count++;
}

/**
 * Tokenizes `text` (as {@link tokenize} does) and pushes each term into `terms`; when given, pushes each term's
 * approximate character offset plus `baseOffset` into `offsets`, and counts the terms into `counter`.
 * This is the allocation-light core used by the evaluator; most callers want {@link tokenize}.
 */
export function tokenizeInto(
  text: string,
  language: string | undefined,
  terms: string[],
  offsets?: number[],
  baseOffset = 0,
  counter?: TermCounter,
): void {
  const state = languageState(language);
  // Scans the text as it is: case folding and NFKC are per distinct word (see analyze), and offsets are exact.
  const norm = text;
  const cache = state.cache;
  const n = norm.length;
  let i = 0;
  while (i < n) {
    // Skip to the start of a word.
    let c = norm.charCodeAt(i);
    if (c < 128) {
      if (classes[c] !== C_WORD) {
        i++;
        continue;
      }
    } else {
      const k = classAt(norm, i);
      if ((k & 7) !== C_WORD && (k & 7) !== C_CJK) {
        i += k >= 8 ? 2 : 1;
        continue;
      }
    }
    // Extend over letters, digits and marks, hashing the UTF-16 units on the way.
    const start = i;
    let h = 0;
    while (i < n) {
      c = norm.charCodeAt(i);
      if (c < 128) {
        if (classes[c] !== C_WORD) break;
        h = (Math.imul(h, 31) + c) | 0;
        i++;
      } else {
        const k = classAt(norm, i);
        if ((k & 7) === C_OTHER) break;
        h = (Math.imul(h, 31) + c) | 0;
        if (k >= 8) h = (Math.imul(h, 31) + norm.charCodeAt(i + 1)) | 0;
        i += k >= 8 ? 2 : 1;
      }
    }
    let entry = cache.get(norm, start, i, h);
    if (entry === undefined) {
      if (cache.size >= CACHE_LIMIT) {
        cache.clear();
        state.slots.clear();
        cacheClears++;
      }
      const word = norm.slice(start, i);
      entry = analyze(word, state);
      cache.set(word, h, entry);
    }
    if (entry === null) continue;
    const at = baseOffset + start;
    if (Array.isArray(entry)) {
      for (const slot of entry) {
        terms.push(slot.term);
        if (offsets) offsets.push(at);
        if (counter) count(slot, counter);
      }
    } else {
      terms.push(entry.term);
      if (offsets) offsets.push(at);
      if (counter) count(entry, counter);
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
  return normalize(text).match(WORD_RE) ?? [];
}

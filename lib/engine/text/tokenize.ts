import type * as stopword from 'stopword';
import { baseLanguage, stemmerFor } from './language';
import { loadedStopList } from './language-data';

/**
 * Tokenization shared by the evaluator, the strategies and the topic vector.
 *
 * Pipeline: runs of Unicode letters/digits (combining marks kept inside a word) -> NFKC normalization -> lowercase
 * -> stop words removed (`stopword` lists) -> 1-character tokens and numbers of more than 4 digits removed
 * -> stemming in the text's language (see ./language.ts: Porter for English, Snowball for 26 others).
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
  af: 'afr',
  ar: 'ara',
  bn: 'ben',
  br: 'bre',
  bg: 'bul',
  ca: 'cat',
  cs: 'ces',
  da: 'dan',
  de: 'deu',
  el: 'ell',
  en: 'eng',
  eo: 'epo',
  et: 'est',
  eu: 'eus',
  fa: 'fas',
  fi: 'fin',
  fr: 'fra',
  ga: 'gle',
  gl: 'glg',
  gu: 'guj',
  ha: 'hau',
  he: 'heb',
  iw: 'heb',
  hi: 'hin',
  hr: 'hrv',
  hu: 'hun',
  hy: 'hye',
  id: 'ind',
  in: 'ind',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  ku: 'kur',
  la: 'lat',
  lv: 'lav',
  lt: 'lit',
  mr: 'mar',
  ms: 'msa',
  my: 'mya',
  nl: 'nld',
  nb: 'nob',
  no: 'nob',
  pa: 'panGu',
  pl: 'pol',
  pt: 'por',
  'pt-br': 'porBr',
  ro: 'ron',
  ru: 'rus',
  sk: 'slk',
  sl: 'slv',
  so: 'som',
  st: 'sot',
  es: 'spa',
  sw: 'swa',
  sv: 'swe',
  tl: 'tgl',
  th: 'tha',
  tr: 'tur',
  uk: 'ukr',
  ur: 'urd',
  vi: 'vie',
  yo: 'yor',
  zh: 'zho',
  zu: 'zul',
};

/**
 * Fragments left by splitting English contractions at the apostrophe ("don't" -> "don" + "t"). The 1-character ones
 * go anyway; these would otherwise pollute every English page's vector.
 */
const ENGLISH_EXTRA_STOPS = [
  'don',
  'doesn',
  'didn',
  'isn',
  'aren',
  'wasn',
  'weren',
  'won',
  'wouldn',
  'couldn',
  'shouldn',
  'haven',
  'hasn',
  'hadn',
  'ain',
  'll',
  've',
  're',
];

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
  /** Epoch of the counter watching this term (see TermCounter.watch). */
  watched: number;
}

/** Per-language state: the stop-word set, the stemmer, the interned terms, and a cache of word decisions. */
interface LanguageState {
  stops: Set<string>;
  stem: ((word: string) => string) | null;
  /** word -> its term; null when dropped; an array for words that yield several terms (CJK bigrams). */
  cache: WordTable;
  slots: Map<string, TermSlot>;
}

/** Bound on cached words per language; cleared wholesale when full (cheap, and vocabularies plateau quickly). */
const CACHE_LIMIT = 50_000;
/** How many times a word cache was cleared (a counter spanning a clear can hold one term in two slots). */
let cacheClears = 0;
const TABLE_BITS = 17; // 131,072 buckets: the load factor stays under 0.4 (2 MB of buckets per language, plus the pool)

type Entry = TermSlot | TermSlot[] | null;

/** Spreads a polynomial string hash over the low bits used as bucket index (murmur3 finalizer). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Initial size of a word table's character pool (UTF-16 units); it doubles as needed. */
const POOL_UNITS = 1 << 16;
const FRONT_BITS = 12;
const FRONT_MASK = (1 << FRONT_BITS) - 1;
/** Longest word held by the front cache (its bucket has 24 bytes for characters). */
const FRONT_CHARS = 12;

/**
 * Word -> decision cache, an open-addressing hash table probed with the word's characters *in place*: a cached word
 * costs no substring allocation and no engine string hashing (the hash is computed while scanning). With a Map the
 * lookup was most of the evaluator's time on text-heavy pages.
 *
 * Memory layout is what makes it fast: a bucket is four adjacent int32s (hash, offset and length of the word in a
 * shared UTF-16 pool, index of its decision), so a probe touches one cache line, and the words of one page sit
 * together in the pool. Keeping the words as JS strings cost a dependent load per probe (the string object), and
 * words of 13+ characters were sliced strings that kept whole page texts alive.
 */
class WordTable {
  private readonly mask = (1 << TABLE_BITS) - 1;
  /** [mixed hash (0 = empty), pool offset, length, value index] per bucket. */
  private meta = new Int32Array(4 << TABLE_BITS);
  private pool = new Uint16Array(POOL_UNITS);
  private used = 0;
  /** Decisions in insertion order (a packed array). */
  private values: Entry[] = [];
  size = 0;

  /**
   * A small direct-mapped front cache of short words: 32 bytes per bucket (hash, length, up to 12 UTF-16 units) in
   * one buffer, 128 KB in all, so the words a page repeats stay in the CPU cache while the big table (2 MB) does not.
   */
  private front = new ArrayBuffer(32 << FRONT_BITS);
  private frontI32 = new Int32Array(this.front);
  private frontU16 = new Uint16Array(this.front);
  private frontValues: Entry[] = new Array<Entry>(1 << FRONT_BITS).fill(null);

  /** The entry for s[start, end) with hash h, or undefined. */
  get(s: string, start: number, end: number, h: number): Entry | undefined {
    const len = end - start;
    const m = mix(h) | 1; // 0 marks an empty bucket
    const fb = m & FRONT_MASK;
    const fi = fb << 3;
    const front = this.frontI32;
    if (front[fi] === m && front[fi + 1] === len) {
      const chars = this.frontU16;
      const fu = (fb << 4) + 4;
      let j = 0;
      while (j < len && chars[fu + j] === s.charCodeAt(start + j)) j++;
      if (j === len) return this.frontValues[fb];
    }
    const meta = this.meta;
    const pool = this.pool;
    const mask = this.mask;
    for (let i = m & mask; ; i = (i + 1) & mask) {
      const b = i << 2;
      const hv = meta[b];
      if (hv === 0) return undefined;
      if (hv === m && meta[b + 2] === len) {
        const off = meta[b + 1];
        let j = 0;
        while (j < len && pool[off + j] === s.charCodeAt(start + j)) j++;
        if (j === len) {
          const value = this.values[meta[b + 3]];
          if (len <= FRONT_CHARS) this.toFront(s, start, len, m, value);
          return value;
        }
      }
    }
  }

  private toFront(s: string, start: number, len: number, m: number, value: Entry): void {
    const fb = m & FRONT_MASK;
    this.frontI32[fb << 3] = m;
    this.frontI32[(fb << 3) + 1] = len;
    const chars = this.frontU16;
    const fu = (fb << 4) + 4;
    for (let j = 0; j < len; j++) chars[fu + j] = s.charCodeAt(start + j);
    this.frontValues[fb] = value;
  }

  /** Adds s[start, end) (not present) with hash h. */
  set(s: string, start: number, end: number, h: number, value: Entry): void {
    const len = end - start;
    if (this.used + len > this.pool.length) {
      const grown = new Uint16Array(Math.max(this.pool.length * 2, this.used + len));
      grown.set(this.pool.subarray(0, this.used));
      this.pool = grown;
    }
    const pool = this.pool;
    const off = this.used;
    for (let j = 0; j < len; j++) pool[off + j] = s.charCodeAt(start + j);
    this.used += len;
    const m = mix(h) | 1;
    let i = m & this.mask;
    while (this.meta[i << 2] !== 0) i = (i + 1) & this.mask;
    const b = i << 2;
    this.meta[b] = m;
    this.meta[b + 1] = off;
    this.meta[b + 2] = len;
    this.meta[b + 3] = this.values.length;
    this.values.push(value);
    this.size++;
    if (len <= FRONT_CHARS) this.toFront(s, start, len, m, value);
  }

  clear(): void {
    this.meta.fill(0);
    this.frontI32.fill(0);
    this.frontValues.fill(null);
    // A hostile giant word may have grown the pool: give that memory back.
    if (this.pool.length > POOL_UNITS * 16) this.pool = new Uint16Array(POOL_UNITS);
    this.used = 0;
    this.values = [];
    this.size = 0;
  }
}
const states = new Map<string, LanguageState>();

let lastLanguage: string | undefined;
let lastState: LanguageState | undefined;

function languageState(language: string | undefined): LanguageState {
  // The evaluator calls this per text run with the same language: skip the code mapping.
  if (lastState && language === lastLanguage) return lastState;
  const state = languageStateOf(language); // may throw MissingLanguageData: nothing is remembered then
  lastLanguage = language;
  lastState = state;
  return state;
}

/**
 * The state of a language: its stop list (when `stopword` has one) and its stemmer (when there is one). A language
 * with neither, or no language, is English, as are the package's own three-letter names other than its lists.
 */
function languageStateOf(language: string | undefined): LanguageState {
  const base = baseLanguage(language);
  const code = stopwordLanguage(language);
  let key: string = code;
  let stem: ((word: string) => string) | null;
  let stopList: readonly string[];
  if (code !== 'eng' || base === 'en' || base === undefined) {
    // The language's own stop list (English for no language), and its stemmer if it has one.
    stem = stemmerFor(ISO_OF_STOP_LIST.get(code) ?? 'en');
    stopList = loadedStopList(code) ?? loadedStopList('eng') ?? [];
  } else if ((stem = stemmerFor(base)) !== null) {
    // A stemmer but no stop list (Serbian, Tamil, Nepali...): stemmed, nothing dropped but the short words.
    key = `${base}:stem`;
    stopList = [];
  } else {
    // Neither: as English.
    stem = stemmerFor('en');
    stopList = loadedStopList('eng') ?? [];
  }
  let state = states.get(key);
  if (!state) {
    const stops = new Set<string>(stopList.map((w) => w.toLowerCase()));
    if (key === 'eng') for (const w of ENGLISH_EXTRA_STOPS) stops.add(w);
    state = { stops, stem, cache: new WordTable(), slots: new Map() };
    states.set(key, state);
  }
  return state;
}

/** `stopword` list name -> ISO 639-1 base (the first code mapping to it). */
const ISO_OF_STOP_LIST = new Map<string, string>();
for (const [iso, list] of Object.entries(ISO_TO_STOPWORD)) {
  const base = baseLanguage(iso);
  if (base && !ISO_OF_STOP_LIST.has(list)) ISO_OF_STOP_LIST.set(list, base);
}

// A word: a letter or digit, then letters, digits and combining marks.
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is all of ASCII, control characters included
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

/**
 * Class of the character at `i` and its length in UTF-16 units (2 for astral characters); a surrogate pair cut by
 * `end` counts as a lone surrogate, as if the text ended there.
 */
function classAt(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) {
    let k = classes[c];
    if (k === C_UNKNOWN) k = classes[c] = classify(String.fromCharCode(c));
    return k;
  }
  if (i + 1 >= end) return C_OTHER;
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
  return state.stem ? state.stem(word) : word;
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
  /** @internal The terms array whose watched-term positions are recorded, and those positions. */
  watchedIn: string[] | null = null;
  readonly watchHits: number[] = [];
  /** Stop words of the analysed language met while counting (dropped, so not among the terms). */
  stopWords = 0;

  /**
   * Records, for tokens pushed into `into` while counting with this counter, the index of each token that is one of
   * `terms` (already tokenized, in `language`) into {@link TermCounter.watchHits}: cheaper than comparing every token
   * afterwards. The positions are complete only if {@link TermCounter.watchValid} says so.
   */
  watch(terms: Iterable<string>, language: string | undefined, into: string[]): void {
    const state = languageState(language);
    this.watchedIn = into;
    for (const t of terms) {
      const slot = state.slots.get(t);
      if (slot) slot.watched = this.epoch;
    }
  }

  /** Whether {@link TermCounter.watchHits} is complete: no word-cache clear (which re-creates term slots) intervened. */
  watchValid(): boolean {
    return cacheClears === this.clearsAtStart;
  }

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
  if (!slot) state.slots.set(term, (slot = { term, count: 0, epoch: 0, watched: 0 }));
  return slot;
}

/**
 * Decides one raw word as found in the text (any case, not normalized): NFKC and lowercase happen here, on a cache
 * miss, instead of over the whole text. NFKC can split a word (½ -> 1⁄2), hence the re-scan of non-ASCII words.
 */
function analyze(raw: string, state: LanguageState): Entry {
  if (!NON_ASCII_RE.test(raw)) {
    const word = raw.toLowerCase();
    const term = decide(word, state);
    return term !== null ? slotFor(state, term) : state.stops.has(word) ? STOP_WORD : null;
  }
  const list: TermSlot[] = [];
  let stops = 0;
  for (const word of raw.normalize('NFKC').toLowerCase().match(WORD_RE) ?? []) {
    if (CJK_ANY.test(word)) {
      for (const t of cjkTerms(word, state)) list.push(slotFor(state, t));
    } else {
      const term = decide(word, state);
      if (term !== null) list.push(slotFor(state, term));
      else if (state.stops.has(word)) stops++;
    }
  }
  return list.length === 0 ? (stops > 0 ? STOP_WORD : null) : list.length === 1 ? list[0] : list;
}

/**
 * The decision for a stop word: dropped like null, but counted (TermCounter.stopWords), so the evaluator can tell
 * text in the analysed language (a good share of its words are that language's stop words) without a detector.
 */
const STOP_WORD: TermSlot = { term: '', count: 0, epoch: -1, watched: -1 };

function count(slot: TermSlot, counter: TermCounter, terms: string[]): void {
  if (slot.epoch !== counter.epoch) {
    slot.epoch = counter.epoch;
    slot.count = 0;
    counter.slots.push(slot);
  }
  slot.count++;
  if (slot.watched === counter.epoch && terms === counter.watchedIn) counter.watchHits.push(terms.length);
}

/**
 * The scanner behind {@link tokenizeInto} and {@link TermStream}: tokenizes text[from, to) into `terms` / `offsets` /
 * `counter`. When `open`, the text may continue past `to`: a word reaching `to` (or a high surrogate at `to - 1`,
 * which may pair with what follows) is not emitted, and its start is returned; otherwise returns `to`.
 */
function scanWords(
  text: string,
  from: number,
  to: number,
  open: boolean,
  state: LanguageState,
  terms: string[],
  offsets: number[] | undefined,
  baseOffset: number,
  counter: TermCounter | undefined,
): number {
  // Scans the text as it is: case folding and NFKC are per distinct word (see analyze), and offsets are exact.
  const cache = state.cache;
  const n = to;
  let i = from;
  while (i < n) {
    // Skip to the start of a word.
    let c = text.charCodeAt(i);
    if (c < 128) {
      if (classes[c] !== C_WORD) {
        i++;
        continue;
      }
    } else {
      if (open && i === n - 1 && c >= 0xd800 && c <= 0xdbff) return i;
      const k = classAt(text, i, n);
      if ((k & 7) !== C_WORD && (k & 7) !== C_CJK) {
        i += k >= 8 ? 2 : 1;
        continue;
      }
    }
    // Extend over letters, digits and marks, hashing the UTF-16 units on the way.
    const start = i;
    const c0 = c;
    let h = 0;
    while (i < n) {
      c = text.charCodeAt(i);
      if (c < 128) {
        if (classes[c] !== C_WORD) break;
        h = (Math.imul(h, 31) + c) | 0;
        i++;
      } else {
        if (open && i === n - 1 && c >= 0xd800 && c <= 0xdbff) return start;
        const k = classAt(text, i, n);
        if ((k & 7) === C_OTHER) break;
        h = (Math.imul(h, 31) + c) | 0;
        if (k >= 8) h = (Math.imul(h, 31) + text.charCodeAt(i + 1)) | 0;
        i += k >= 8 ? 2 : 1;
      }
    }
    if (open && i === n) return start;
    // A lone ASCII letter or digit is always dropped (1-character token): no lookup.
    if (i - start === 1 && c0 < 128) continue;
    let entry = cache.get(text, start, i, h);
    if (entry === undefined) {
      if (cache.size >= CACHE_LIMIT) {
        cache.clear();
        state.slots.clear();
        cacheClears++;
      }
      entry = analyze(text.slice(start, i), state);
      cache.set(text, start, i, h, entry);
    }
    if (entry === null) continue;
    if (entry === STOP_WORD) {
      if (counter) counter.stopWords++;
      continue;
    }
    const at = baseOffset + start;
    if (Array.isArray(entry)) {
      for (const slot of entry) {
        if (counter) count(slot, counter, terms);
        terms.push(slot.term);
        if (offsets) offsets.push(at);
      }
    } else {
      if (counter) count(entry, counter, terms);
      terms.push(entry.term);
      if (offsets) offsets.push(at);
    }
  }
  return n;
}

/**
 * Tokenizes `text` (as {@link tokenize} does) and pushes each term into `terms`; when given, pushes each term's
 * character offset (its word's start in `text`) plus `baseOffset` into `offsets`, and counts the terms into `counter`.
 * With `from` / `to`, only `text.slice(from, to)` is tokenized, exactly as if it were the whole text (no word
 * crosses the bounds), with offsets still counted from the start of `text`.
 * This is the allocation-light core used by the evaluator; most callers want {@link tokenize}.
 */
export function tokenizeInto(
  text: string,
  language: string | undefined,
  terms: string[],
  offsets?: number[],
  baseOffset = 0,
  counter?: TermCounter,
  from = 0,
  to = text.length,
): void {
  const n = Math.min(to, text.length);
  const i = Math.max(0, from);
  if (i < n) scanWords(text, i, n, false, languageState(language), terms, offsets, baseOffset, counter);
}

/**
 * End of the run of word characters (letters, digits, marks; anything but C_OTHER) in s[i, n); a high surrogate at
 * n - 1 counts as part of the run (it may pair with the next piece).
 */
function runEnd(s: string, i: number, n: number): number {
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (classes[c] !== C_WORD) return i;
      i++;
    } else {
      if (i === n - 1 && c >= 0xd800 && c <= 0xdbff) return n;
      const k = classAt(s, i, n);
      if ((k & 7) === C_OTHER) return i;
      i += k >= 8 ? 2 : 1;
    }
  }
  return n;
}

/**
 * Tokenizes a text that arrives in pieces (a parser's text chunks) without joining it: the terms, offsets and counts
 * are exactly those {@link tokenizeInto} gives for the concatenation of the pieces pushed between two
 * {@link TermStream.end} calls, even where a word runs across pieces ("caf" + "é"). Only such a word is copied.
 */
export class TermStream {
  private readonly state: LanguageState;
  /** The unfinished word at the end of the pieces so far ('' if none), and its offset. */
  private carry = '';
  private carryAt = 0;

  constructor(
    language: string | undefined,
    private readonly terms: string[],
    private readonly offsets?: number[],
    private readonly counter?: TermCounter,
  ) {
    this.state = languageState(language);
  }

  /**
   * Adds the piece source[from, to), which starts at offset `at` of the whole text (offsets reported are `at`-based).
   * Passing a range of a larger string (the page's HTML) instead of a substring spares the copy.
   */
  push(source: string, at: number, from = 0, to = source.length): void {
    if (from >= to) return;
    let i = from;
    if (this.carry !== '') {
      // The carried word goes on through this piece's leading word characters.
      const last = this.carry.charCodeAt(this.carry.length - 1);
      const first = source.charCodeAt(from);
      if (last >= 0xd800 && last <= 0xdbff && first >= 0xdc00 && first <= 0xdfff) {
        // A surrogate pair split between pieces: it continues the word only if it is a word character.
        const k = classAt(String.fromCharCode(last, first), 0, 2);
        i = (k & 7) === C_OTHER ? from + 1 : runEnd(source, from + 1, to);
      } else {
        i = runEnd(source, from, to);
      }
      if (i === to) {
        this.carry += source.slice(from, to);
        return;
      }
      const word = this.carry + source.slice(from, i);
      this.carry = '';
      scanWords(word, 0, word.length, false, this.state, this.terms, this.offsets, this.carryAt, this.counter);
    }
    const base = at - from;
    const tail = scanWords(source, i, to, true, this.state, this.terms, this.offsets, base, this.counter);
    if (tail < to) {
      this.carry = source.slice(tail, to);
      this.carryAt = base + tail;
    }
  }

  /** Ends the text: a word open at the end is emitted, and the next piece starts a new text. */
  end(): void {
    if (this.carry === '') return;
    const word = this.carry;
    this.carry = '';
    scanWords(word, 0, word.length, false, this.state, this.terms, this.offsets, this.carryAt, this.counter);
  }
}

/**
 * Splits text into index terms: NFKC-normalized, lowercased runs of Unicode letters and digits (marks kept inside
 * words), without stop words of `language` (ISO 639-1 code such as 'en', 'de', 'fr'; unknown codes use English),
 * without 1-character tokens and numbers longer than 4 digits, and Porter-stemmed.
 *
 * Stemmed in `language` (Porter for English, Snowball for the languages listed in ./language.ts; others unstemmed).
 * CJK runs become character bigrams (see the module comment).
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

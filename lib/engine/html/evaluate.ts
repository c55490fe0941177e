import { Parser } from 'htmlparser2';
import type { EvaluationInput, Evaluator, LinkFeature, PageEvaluation, TermVector } from '../types';
import { TermCounter, TermStream, tokenize, tokenizeInto } from '../text/tokenize';
import { norm, topicVector } from '../text/vector';
import { canonicalizeUrl } from '../url/canonical';
import { decodeHtml } from './charset';

/** Most distinct outlinks kept per page; later new URLs are dropped (pages with 20,000 links exist). */
export const DEFAULT_MAX_LINKS = 5000;
/** Terms either side of a link kept as its context. */
export const DEFAULT_CONTEXT_WINDOW = 10;
/**
 * Most distinct anchor texts merged into one deduplicated link, and their total length: one anchor is cut there too
 * (a hostile page wrapped 60,671 characters in one link), and no more raw anchor text than a few times that is kept
 * while parsing.
 */
const MAX_ANCHORS = 4;
export const MAX_ANCHOR_CHARS = 300;
const MAX_RAW_ANCHOR_CHARS = 4 * MAX_ANCHOR_CHARS;
const MAX_TITLE_CHARS = 500;
/** Snippet: ~30 words, at most ~300 characters. */
const SNIPPET_WORDS = 30;
const SNIPPET_CHARS = 300;
/** Width of the window in which topic hits are counted for a snippet candidate (about 30 words of English). */
const SNIPPET_SCAN_CHARS = 200;

/**
 * htmlparser2's Parser, noting where the text chunk being reported lies in the source: [rawStart, rawEnd) for raw
 * text, rawStart -1 for a decoded character reference. Tokenizing that range of the page's one flat string is
 * cheaper than reading the chunk, a sliced string, character by character.
 */
class RangeParser extends Parser {
  rawStart = -1;
  rawEnd = -1;

  override ontext(start: number, endIndex: number): void {
    this.rawStart = start;
    this.rawEnd = endIndex;
    super.ontext(start, endIndex);
    this.rawStart = -1;
  }
}

/** Options beyond the shared EvaluationInput. */
export interface EvaluateOptions {
  /** Most distinct outlinks kept (default {@link DEFAULT_MAX_LINKS}). */
  maxLinks?: number;
}

/** Elements whose content is never visible text. */
const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'svg', 'iframe', 'object', 'canvas']);
/** Inline elements: text on both sides belongs to the same run (no word or sentence break). */
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
  'ins',
  'del',
  'big',
  'label',
]);

const F_SKIP = 1;
const F_TITLE = 2;
const F_LINK = 4;

interface RawLink {
  href: string;
  anchor: string[];
  /** Characters in `anchor` (kept below MAX_RAW_ANCHOR_CHARS). */
  anchorChars: number;
  fallback: string;
  tokStart: number;
  tokEnd: number;
  nofollow: boolean;
  depth: number;
}

interface LinkAcc {
  feature: LinkFeature;
  anchors: string[];
  allNofollow: boolean;
}

/**
 * Separator between blocks in the raw visible text: U+000B (vertical tab), whitespace to \s and a boundary to the
 * snippet. It must be ASCII: a single non-Latin-1 character makes V8 store the whole text as two-byte, which made
 * joining and scanning it about ten times slower.
 */
const BLOCK = '\v';

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A collapsed anchor cut to MAX_ANCHOR_CHARS, at a space when there is one in its last fifth. */
function capAnchor(text: string): string {
  if (text.length <= MAX_ANCHOR_CHARS) return text;
  const cut = text.lastIndexOf(' ', MAX_ANCHOR_CHARS);
  return text.slice(0, cut > MAX_ANCHOR_CHARS * 0.8 ? cut : MAX_ANCHOR_CHARS);
}

/** Adds text to a link's raw anchor, up to MAX_RAW_ANCHOR_CHARS in all. */
function addAnchorText(link: RawLink, text: string): void {
  const room = MAX_RAW_ANCHOR_CHARS - link.anchorChars;
  if (room <= 0) return;
  const part = text.length > room ? text.slice(0, room) : text;
  link.anchor.push(part);
  link.anchorChars += part.length;
}

function hasToken(value: string | undefined, token: string): boolean {
  if (!value) return false;
  return value
    .toLowerCase()
    .split(/[\s,]+/)
    .includes(token);
}

function resolveHttp(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * Evaluates one fetched HTML page: decodes it (see decodeHtml), parses it with htmlparser2's streaming Parser
 * (no DOM), and extracts the title, the visible text (script, style, template, noscript, svg, iframe, object,
 * canvas and `hidden` elements skipped), meta robots, <html lang>, the first <base href>, and every <a href> /
 * <area href> with its anchor text (img alt included), rel=nofollow and `contextWindow` stemmed terms either side.
 *
 * Links are resolved against the base, canonicalized, limited to http(s), deduplicated by URL (the first
 * occurrence keeps its context; up to 4 distinct later anchors are appended; nofollow only if every occurrence is)
 * and capped at `options.maxLinks` (5000) distinct URLs, after which the page's remaining links are ignored.
 * Links are returned even under meta robots nofollow: `robots.nofollow` tells the caller not to follow them.
 *
 * score = cosine(TF of visible text + title, topic vector); `terms`/`length` describe the same tokens.
 * Never throws on hostile bytes: truncated, malformed or binary input yields whatever text it holds.
 */
export function evaluatePage(input: EvaluationInput, options: EvaluateOptions = {}): PageEvaluation {
  const language = input.topic?.language ?? 'en';
  const window = Math.max(0, input.contextWindow ?? DEFAULT_CONTEXT_WINDOW);
  const maxLinks = Math.max(0, options.maxLinks ?? DEFAULT_MAX_LINKS);
  // Raw links kept for resolution after parsing (the <base> may come later); bounded against link floods.
  const rawCap = Math.max(maxLinks * 4, 100);
  const { text: html, charset } = decodeHtml(input.body ?? new Uint8Array(0), input.contentType);

  const tokens: string[] = [];
  const tokenOffsets: number[] = [];
  const topic = topicVector(input.topic ?? { keywords: '' });
  const counter = new TermCounter();
  // Positions of topic terms, for the snippet.
  counter.watch(Object.keys(topic), language, tokens);
  // Text is tokenized as the parser hands it over, chunk by chunk, never joined into one string (joining thousands of
  // chunks, twice, was about a tenth of an evaluation on text-heavy pages); a link's start and end are word breaks,
  // as its context counts tokens.
  const stream = new TermStream(language, tokens, tokenOffsets, counter);
  // Visible text, raw (whitespace as in the source), with BLOCK between blocks, kept as the parser's chunks for the
  // snippet (see TextView). Collapsing whitespace is left to the snippet, which needs ~300 characters of it.
  const textParts: string[] = [];
  const partStarts: number[] = [];
  let textLen = 0;
  let lastIsBlock = true;

  const flags: number[] = [];
  let skipDepth = 0;
  let titleDepth = 0;
  let titleDone = false;
  const titleParts: string[] = [];
  const rawLinks: RawLink[] = [];
  let current: RawLink | null = null;
  let baseHref: string | undefined;
  let lang: string | undefined;
  let sawHtml = false;
  const robots = { noindex: false, nofollow: false };

  const boundary = () => {
    if (!lastIsBlock) {
      stream.end(); // BLOCK ends any word
      textParts.push(BLOCK);
      partStarts.push(textLen);
      textLen += BLOCK.length;
      lastIsBlock = true;
    }
  };
  const endLink = () => {
    if (!current) return;
    stream.end();
    current.tokEnd = tokens.length;
    current = null;
  };

  const parser: RangeParser = new RangeParser(
    {
      onopentag(name, attribs) {
        let f = 0;
        if (SKIP_TAGS.has(name) || attribs.hidden !== undefined) {
          f |= F_SKIP;
          skipDepth++;
        }
        switch (name) {
          case 'html':
            if (!sawHtml) {
              sawHtml = true;
              const l = attribs.lang?.trim();
              if (l) lang = l;
            }
            break;
          case 'title':
            if (!titleDone && skipDepth === 0) {
              f |= F_TITLE;
              titleDepth++;
            }
            break;
          case 'base':
            if (baseHref === undefined && attribs.href !== undefined) {
              baseHref = resolveHttp(attribs.href, input.url) ?? undefined;
            }
            break;
          case 'meta':
            if (attribs.name?.trim().toLowerCase() === 'robots' && attribs.content) {
              const c = attribs.content;
              if (hasToken(c, 'noindex') || hasToken(c, 'none')) robots.noindex = true;
              if (hasToken(c, 'nofollow') || hasToken(c, 'none')) robots.nofollow = true;
            }
            break;
          case 'a':
          case 'area':
            if (attribs.href !== undefined) {
              endLink(); // an unclosed <a> ends where the next begins, as in browsers
              stream.end();
              const link: RawLink = {
                href: attribs.href,
                anchor: [],
                anchorChars: 0,
                fallback: attribs['aria-label'] || attribs.title || '',
                tokStart: tokens.length,
                tokEnd: tokens.length,
                nofollow: hasToken(attribs.rel, 'nofollow'),
                depth: flags.length + 1,
              };
              if (name === 'area' && attribs.alt) addAnchorText(link, attribs.alt);
              if (rawLinks.length < rawCap && skipDepth === 0) rawLinks.push(link);
              if (name === 'a') {
                current = link;
                f |= F_LINK;
              }
            }
            break;
          case 'img':
            if (current && skipDepth === 0 && attribs.alt) addAnchorText(current, ` ${attribs.alt} `);
            break;
        }
        flags.push(f);
        if (!INLINE_TAGS.has(name)) boundary();
      },
      ontext(text) {
        if (skipDepth > 0) return;
        if (titleDepth > 0) {
          titleParts.push(text);
          return;
        }
        // The whole page is written at once, so raw text sits at [rawStart, rawEnd) of `html` (checked by length).
        if (parser.rawStart >= 0 && parser.rawEnd - parser.rawStart === text.length) {
          stream.push(html, textLen, parser.rawStart, parser.rawEnd);
        } else {
          stream.push(text, textLen);
        }
        textParts.push(text);
        partStarts.push(textLen);
        textLen += text.length;
        lastIsBlock = false;
        if (current) addAnchorText(current, text);
      },
      onclosetag(name) {
        const f = flags.pop() ?? 0;
        if (f & F_SKIP) skipDepth--;
        if (f & F_TITLE) {
          titleDepth--;
          titleDone = true;
        }
        if (f & F_LINK && current && current.depth === flags.length + 1) endLink();
        if (!INLINE_TAGS.has(name)) boundary();
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  endLink();
  stream.end();

  const visibleText = new TextView(textParts, partStarts, textLen);
  const title = collapse(titleParts.join('')).slice(0, MAX_TITLE_CHARS);
  const titleTerms: string[] = [];
  if (title) tokenizeInto(title, language, titleTerms, undefined, 0, counter);
  const terms: TermVector = counter.vector();
  // cosine(terms, topic), with the page's norm taken from the counter rather than a walk over a large object.
  let dot = 0;
  for (const k in topic) dot += topic[k] * (terms[k] ?? 0);
  const score = dot === 0 ? 0 : Math.min(1, dot / (Math.sqrt(counter.sumOfSquares()) * norm(topic)));
  const baseUrl = baseHref ?? input.url;

  const links = buildLinks(rawLinks, baseUrl, tokens, window, maxLinks, language);
  const snippet = bestSnippet(visibleText, tokens, tokenOffsets, topic, counter.watchValid() ? counter.watchHits : null);

  const evaluation: PageEvaluation = {
    score,
    title,
    snippet,
    links,
    terms,
    length: tokens.length + titleTerms.length,
    charset,
    baseUrl,
    robots,
  };
  if (lang !== undefined) evaluation.lang = lang;
  return evaluation;
}

function buildLinks(
  raws: RawLink[],
  baseUrl: string,
  tokens: string[],
  window: number,
  maxLinks: number,
  language: string,
): LinkFeature[] {
  const byUrl = new Map<string, LinkAcc>();
  const canonicalCache = new Map<string, string | null>();
  for (const raw of raws) {
    const href = raw.href.trim();
    if (href === '' || href.charCodeAt(0) === 35 /* '#': this page */) continue;
    let url = canonicalCache.get(href);
    if (url === undefined) {
      url = canonicalizeUrl(href, baseUrl);
      canonicalCache.set(href, url);
    }
    if (url === null) continue; // unparsable, javascript:, mailto:, data:, tel:, ftp: ...
    let anchorText = capAnchor(collapse(raw.anchor.join('')));
    if (!anchorText) anchorText = capAnchor(collapse(raw.fallback.slice(0, MAX_RAW_ANCHOR_CHARS)));
    const acc = byUrl.get(url);
    if (acc) {
      acc.allNofollow &&= raw.nofollow;
      if (
        anchorText &&
        acc.anchors.length < MAX_ANCHORS &&
        !acc.anchors.includes(anchorText) &&
        acc.feature.anchorText.length + anchorText.length < MAX_ANCHOR_CHARS
      ) {
        acc.anchors.push(anchorText);
        acc.feature.anchorText = acc.feature.anchorText ? `${acc.feature.anchorText} | ${anchorText}` : anchorText;
        tokenizeInto(anchorText, language, acc.feature.anchorTerms);
      }
      continue;
    }
    if (byUrl.size >= maxLinks) break;
    byUrl.set(url, {
      feature: {
        url,
        anchorText,
        anchorTerms: tokenize(anchorText, language),
        contextBefore: tokens.slice(Math.max(0, raw.tokStart - window), raw.tokStart),
        contextAfter: tokens.slice(raw.tokEnd, raw.tokEnd + window),
        nofollow: raw.nofollow,
      },
      anchors: anchorText ? [anchorText] : [],
      allNofollow: raw.nofollow,
    });
  }
  const out: LinkFeature[] = [];
  for (const acc of byUrl.values()) {
    acc.feature.nofollow = acc.allNofollow;
    out.push(acc.feature);
  }
  return out;
}

/**
 * The visible text as the parser's chunks, never joined whole: the snippet reads only windows around topic hits, and
 * joining thousands of chunks into one string was a large part of an evaluation.
 */
class TextView {
  constructor(
    private readonly parts: string[],
    /** Offset of each part in the text. */
    private readonly starts: number[],
    readonly length: number,
  ) {}

  /** Index of the part holding offset `at` (0 <= at < length). */
  private partAt(at: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** As String.prototype.slice with non-negative bounds. */
  slice(from: number, to: number): string {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.min(to, this.length);
    if (a >= b) return '';
    let p = this.partAt(a);
    const first = this.parts[p];
    const firstStart = this.starts[p];
    if (b <= firstStart + first.length) return first.slice(a - firstStart, b - firstStart);
    let out = first.slice(a - firstStart);
    for (p++; p < this.parts.length && this.starts[p] < b; p++) {
      const part = this.parts[p];
      const end = b - this.starts[p];
      out += end >= part.length ? part : part.slice(0, end);
    }
    return out;
  }

  /** Whether the text holds anything but whitespace. */
  hasNonSpace(): boolean {
    for (const part of this.parts) if (/\S/.test(part)) return true;
    return false;
  }

  /** Offset of the first non-whitespace character at or after `from` (the length if none). */
  firstNonSpace(from: number): number {
    if (from >= this.length) return Math.max(from, this.length);
    const re = /\S/g;
    for (let p = this.partAt(Math.max(0, from)); p < this.parts.length; p++) {
      re.lastIndex = Math.max(0, from - this.starts[p]);
      const m = re.exec(this.parts[p]);
      if (m) return this.starts[p] + m.index;
    }
    return this.length;
  }
}

/** Cuts `text` from `start` to at most SNIPPET_WORDS words / SNIPPET_CHARS characters, with ellipses where cut. */
function cutSnippet(text: TextView, start: number, leadingCut: boolean): string {
  const rawEnd = start + SNIPPET_CHARS * 4;
  let s = collapse(text.slice(start, rawEnd));
  let cut = rawEnd < text.length && /\S/.test(text.slice(rawEnd, rawEnd + 1000));
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

/**
 * The ~30-word passage with the most topic terms (distinct terms first, then occurrences; among equals the one
 * starting closest to its first hit, then the earliest). Candidates start at block and sentence boundaries, and at
 * each hit for sentences too long to show whole. Falls back to the start of the text when the topic has no terms
 * or the page has no hit. `topicTokens`, when known, are the indexes of the tokens that are topic terms.
 */
function bestSnippet(
  text: TextView,
  tokens: string[],
  offsets: number[],
  topic: TermVector,
  topicTokens: number[] | null,
): string {
  if (!text.hasNonSpace()) return '';
  const topicTerms = new Set(Object.keys(topic));
  const hits: number[] = [];
  const hitTerms: string[] = [];
  if (topicTokens !== null) {
    for (const i of topicTokens) {
      hits.push(offsets[i]);
      hitTerms.push(tokens[i]);
    }
  } else if (topicTerms.size > 0) {
    for (let i = 0; i < tokens.length; i++) {
      if (topicTerms.has(tokens[i])) {
        hits.push(offsets[i]);
        hitTerms.push(tokens[i]);
      }
    }
  }
  if (hits.length === 0) return cutSnippet(text, text.firstNonSpace(0), false);

  // Sentence starts (after . ! ? and block separators) within the scan window before each hit: only those can
  // begin a passage holding it, and scanning just there keeps long pages cheap.
  const starts: number[] = [];
  const re = /[.!?…]["'”’)\]]*\s+|\v\s*/g;
  let scanned = 0;
  for (const hit of hits) {
    const from = Math.max(scanned, hit - SNIPPET_SCAN_CHARS);
    if (from === 0 && scanned === 0) starts.push(0);
    if (from >= hit) continue;
    const region = text.slice(from, hit);
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(region)) !== null) starts.push(from + m.index + m[0].length);
    scanned = hit;
  }
  const sentenceStarts = new Set(starts);
  const candidates: { at: number; sentence: boolean }[] = starts.map((at) => ({ at, sentence: true }));
  for (const at of hits) if (!sentenceStarts.has(at)) candidates.push({ at, sentence: false });
  candidates.sort((a, b) => a.at - b.at);

  let best = candidates[0];
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
      best = c;
    }
  }
  const at = text.firstNonSpace(best.at);
  return cutSnippet(text, at, !best.sentence && at > 0);
}

/** The in-process evaluator (Node, or inside the Web Worker). */
export const localEvaluator: Evaluator = {
  async evaluate(input: EvaluationInput): Promise<PageEvaluation> {
    return evaluatePage(input);
  },
};

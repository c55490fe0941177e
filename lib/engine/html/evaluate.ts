import { Parser } from 'htmlparser2';
import type { EvaluationInput, Evaluator, LinkFeature, PageEvaluation, TermVector, Topic, TopicHints } from '../types';
import { analyseTopic } from '../text/topic-analysis';
import { baseLanguage, DETECT_CHARS, detectLanguage, stemmerFor } from '../text/language';
import { stopwordLanguage, TermCounter, TermStream, tokenize, tokenizeInto } from '../text/tokenize';
import { keywordVector, norm, topicVector } from '../text/vector';
import { canonicalizeUrl } from '../url/canonical';
import { decodeHtml } from './charset';
import { PackedLinks, TokenList } from './packed';
import { hashText } from '../text/hash';

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
/** Longest date value kept from page metadata; JSON-LD text read per page. */
const MAX_META_CHARS = 80;
const MAX_LD_CHARS = 200_000;

/** Dates and title of a page's metadata, as given (dates unparsed: the UI parses and labels them). */
interface PageMeta {
  published?: string;
  modified?: string;
  ogTitle?: string;
}

const PUBLISHED_META = new Set([
  'article:published_time',
  'og:published_time',
  'datepublished',
  'dc.date.issued',
  'dcterms.issued',
  'dcterms.created',
  'date',
]);
const MODIFIED_META = new Set(['article:modified_time', 'og:updated_time', 'datemodified', 'dcterms.modified', 'last-modified']);

/** <meta property|name|itemprop=... content=...>: published and modified dates, og:title. */
function readMeta(meta: PageMeta, attribs: Record<string, string>): void {
  const key = (attribs.property ?? attribs.name ?? attribs.itemprop ?? '').trim().toLowerCase();
  const content = attribs.content?.trim();
  if (!key || !content) return;
  if (meta.published === undefined && PUBLISHED_META.has(key)) meta.published = content.slice(0, MAX_META_CHARS);
  else if (meta.modified === undefined && MODIFIED_META.has(key)) meta.modified = content.slice(0, MAX_META_CHARS);
  else if (meta.ogTitle === undefined && key === 'og:title') meta.ogTitle = collapse(content).slice(0, MAX_TITLE_CHARS);
}

/** JSON-LD (schema.org): the first datePublished / dateModified anywhere in it (@graph, arrays, nested objects). */
function readJsonLd(meta: PageMeta, text: string): void {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return; // several blocks run together, or broken JSON: metadata is optional
  }
  const stack: unknown[] = [data];
  for (let seen = 0; stack.length > 0 && seen < 2000; seen++) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
    } else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (meta.published === undefined && typeof o.datePublished === 'string' && o.datePublished.trim())
        meta.published = o.datePublished.trim().slice(0, MAX_META_CHARS);
      if (meta.modified === undefined && typeof o.dateModified === 'string' && o.dateModified.trim())
        meta.modified = o.dateModified.trim().slice(0, MAX_META_CHARS);
      for (const v of Object.values(o)) if (v && typeof v === 'object') stack.push(v);
    }
  }
}
/** Snippet: ~30 words, at most ~300 characters. */
const SNIPPET_WORDS = 30;
const SNIPPET_CHARS = 300;
/** Characters of a page's main text kept for the library's full-text index (about 600 words of English). */
export const MAIN_TEXT_CHARS = 4000;
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
const F_BOILER = 8;
const F_MAIN = 16;
const F_SECTION = 32;
const F_H1 = 64;
const F_LD = 128;
/** A boilerplate zone whose names match both word lists: boilerplate only if its content is mostly links. */
const F_MIXED = 256;
/** A block element, followed as a possible item or list of items (see readText's frames). */
const F_FRAME = 512;

/** Weight of boilerplate text (navigation, banners, link lists) in the page score when the topic does not set one. */
export const DEFAULT_BOILERPLATE_WEIGHT = 0.2;
/** A block whose share of tokens inside links exceeds this is a link list (navigation), weighted as boilerplate. */
const LINK_DENSITY = 0.5;
/** A main region counts once it holds this share of the page's tokens (a lone <main> heading does not). */
const MAIN_SHARE = 0.2;

/** Landmark roles that are not the page's own content. */
const BOILER_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'menu',
  'menubar',
  'dialog',
  'alertdialog',
]);
/**
 * class / id words of navigation, site chrome and consent banners, as whole words or as a part of a dashed name
 * ("site-footer", "cookie-banner"). Sphinx: sphinxsidebar, related; DocBook: navheader, navfooter, docnav, #banner; SQLite:
 * menu, tagline and nosearch (its own mark for text its search skips). Sidebar widgets (WordPress, Blogger) and modal
 * windows (sign-in, comment rules).
 * Not "header" (see HEADER_NAMES) or "sidebar": DocBook's .sidebar boxes are content.
 */
const BOILER_NAMES =
  /(?:^|[\s_-])(?:nav|navbar|navheader|navfooter|docnav|navigation|menu|submenu|searchmenu|sphinxsidebar|sphinxsidebarwrapper|related|breadcrumbs?|footer|masthead|banner|tagline|logo|nosearch|skip|cookies?|consent|gdpr|widget|modal)(?=$|[\s_-])/i;
/**
 * class / id names of a page's or an article's header block as a part of a dashed name ("site-header", "full-header",
 * "article-header", "header-wrapper"): the site's banner, the byline, the date and the standfirst, which a reader's
 * article body leaves out. Not the bare word: asciidoc's #header holds the page's name and summary, Javadoc's .header
 * the class's name.
 */
const HEADER_NAMES = /(?:^|\s)(?:[\w-]+[-_]header|header[-_][\w-]+)(?=$|\s)/i;
/**
 * class / id words of what stands beside an article without being it: sharing and follow buttons, newsletter and
 * subscription boxes, bylines and author boxes, tag lists, captions, advertising and sponsored widgets, lists of
 * popular, trending or recommended stories.
 */
const ASIDE_NAMES =
  /(?:^|[\s_-])(?:share|sharing|social|newsletter|subscribe|subscription|signup|byline|author|tags|caption|ad|ads|advert|advertisement|sponsored|promo|outbrain|taboola|popular|trending|recommended|recommendations)(?=$|[\s_-])/i;
/** class / id names of comment threads and their reply forms (WordPress, Disqus and the like): not the page's own text. */
const COMMENT_NAMES = /(?:^|[\s_-])(?:comments?|commentlist|comment-?body|comment-?list|disqus_thread|respond)(?=$|[\s_])/i;
/** class / id names of a page's main region. */
const MAIN_NAMES = /(?:^|\s)(?:main|content|main-?content|doc-?content|article-?body|entry-content|post-content)(?=$|\s)/i;
const CAMEL_HUMP = /[a-z][A-Z]/;
const CAMEL_HUMPS = /([a-z])([A-Z])/g;
/** An inline style that hides the element. */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;
/** Elements whose class and id are read for the names above (text-level elements are not). */
const CONTAINER_TAGS = new Set(['div', 'section', 'ul', 'ol', 'table', 'form', 'span', 'p', 'dl', 'li', 'article']);
/**
 * A boilerplate zone holding more than this share of the page's prose (text outside links, in blocks that are not
 * mostly links) is the page's wrapper, not boilerplate: a wrapper named "nav-below-header" or "cookies-not-set" says
 * how the page is laid out, and an article inside "widget Blog" (Blogger), "article-header" or "modal-enabled" is
 * still the article. Prose, not all text: a site's header of menus can outweigh a short article (a paywall's teaser)
 * without holding it. A page without prose goes by its tokens.
 */
const WRAPPER_SHARE = 0.5;
/**
 * A list of teasers (related stories, cards, "you may like"): an element of TEASER_TAGS with at least TEASER_ITEMS
 * children that hold text, at least TEASER_LED of them opening with a link (a headline or a picture that links to the
 * story), at least TEASER_LINK_SHARE of its tokens in links, and no child of more than TEASER_ITEM_TOKENS tokens
 * (summaries, not the parts of an article).
 */
const TEASER_TAGS = new Set(['ul', 'ol', 'div', 'section']);
const TEASER_ITEMS = 3;
const TEASER_LED = 0.75;
const TEASER_LINK_SHARE = 0.15;
const TEASER_ITEM_TOKENS = 80;
/**
 * A list of teasers holding this share of the page's text outside boilerplate is what the page says (a front page, a
 * news round-up), not teasers: twice as much text as the rest of the page. An article with its related stories below
 * keeps more than a third of the text outside the list.
 */
const ROUNDUP_SHARE = 2 / 3;
/** Blocks a wrapper holds at least. */
const WRAPPER_BLOCKS = 4;

/**
 * Where an element puts its content: F_BOILER (navigation, header and footer outside a sectioning element, asides,
 * landmark roles of site chrome, dialogs, names such as "sphinxsidebar" or "cookie-banner"), F_MAIN (<main>,
 * <article>, role=main, names such as "content"), or neither. `inSection`: inside main/article/section, where a
 * <header> or <footer> is the section's own.
 */
function zoneOf(name: string, attribs: Record<string, string>, inSection: boolean): number {
  // Hidden until a script shows it (a dropdown, a copy of the article for structured data): its links are kept, its
  // text is not what a reader sees. A hidden wrapper of the whole page is settled as a wrapper (settleZones).
  if (attribs['aria-hidden'] === 'true' || (attribs.style !== undefined && HIDDEN_STYLE.test(attribs.style))) return F_BOILER;
  if (
    (name === 'article' || name === 'li' || name === 'div' || name === 'section' || name === 'ol' || name === 'ul') &&
    (attribs.class !== undefined || attribs.id !== undefined)
  ) {
    if (COMMENT_NAMES.test(`${attribs.class ?? ''} ${attribs.id ?? ''}`)) return F_BOILER;
  }
  switch (name) {
    case 'nav':
    case 'aside':
    case 'figcaption':
    // Form controls and their forms (a category picker, a sign-in box): a form wrapping the page is settled as a
    // wrapper (settleZones).
    case 'select':
    case 'button':
    case 'form':
      return F_BOILER;
    case 'header':
    case 'footer':
      return inSection ? 0 : F_BOILER;
    case 'main':
    case 'article':
      return F_MAIN;
  }
  const role = attribs.role;
  if (role !== undefined) {
    const r = role.trim().toLowerCase();
    if (r === 'main') return F_MAIN;
    if (BOILER_ROLES.has(r)) return F_BOILER;
  }
  if (!CONTAINER_TAGS.has(name)) return 0;
  const cls = attribs.class;
  const id = attribs.id;
  if (cls === undefined && id === undefined) return 0;
  const joined = cls === undefined ? id! : id === undefined ? cls : `${cls} ${id}`;
  // camelCase humps read as dashes: "topAd", "shareBar", "leadMediaCaption" name what "top-ad" and "share-bar" do.
  const names = CAMEL_HUMP.test(joined) ? joined.replace(CAMEL_HUMPS, '$1-$2') : joined;
  if (BOILER_NAMES.test(names) || ASIDE_NAMES.test(names) || HEADER_NAMES.test(names))
    return MAIN_NAMES.test(names) ? F_BOILER | F_MIXED : F_BOILER;
  if (MAIN_NAMES.test(names)) return F_MAIN;
  return 0;
}

/** What a run of text is part of: the page's main region, boilerplate, or neither. */
const KIND_NEUTRAL = 0;
const KIND_MAIN = 1;
const KIND_BOILER = 2;

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

/**
 * The same text as a string of its own: a substring of the page (a slice, in V8, from 13 characters) holds the whole
 * page in memory as long as it lives, and a reading keeps titles, anchors and tokens for as long as it is kept.
 */
function own(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

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
 * Main content over boilerplate, in the same pass: each run of text is tagged with where it stands (see zoneOf) and
 * each block (text between block-level tags) counts its tokens and those inside links. Afterwards a run weighs
 * `topic.weights.boilerplate` (default 0.2) when it is in navigation, site chrome or a consent banner or in a block
 * that is mostly links, halfway between that and 1 when the page marks a main region and the run is outside it,
 * else 1 (a boilerplate weight of 1 gives the plain cosine).
 * score = cosine(weighted TF of the visible text + TF of the title, topic vector). `terms` and `length` are the plain,
 * unweighted counts of the same tokens. The snippet comes from full-weight text when the page has any, and never
 * from boilerplate.
 * Never throws on hostile bytes: truncated, malformed or binary input yields whatever text it holds.
 */
export function evaluatePage(input: EvaluationInput, options: EvaluateOptions = {}): PageEvaluation {
  return evaluateReading(readPage(input, options), input.topic);
}

/** What {@link readPage} needs: an EvaluationInput without the topic. */
export type PageInput = Omit<EvaluationInput, 'topic'>;

/**
 * Reads a page once for any number of topics: decodes it and finds its declared language; the passes over its text
 * (parse, tokens with the runs they stand in, links with anchor and context terms, title, metadata) are made when a
 * topic first needs them, one per language the text is analysed in, and kept. {@link evaluateReading} scores it
 * for a topic; `evaluatePage(input)` is `evaluateReading(readPage(input), input.topic)`.
 */
export function readPage(input: PageInput, options: EvaluateOptions = {}): PageReading {
  return new PageReading(input, options);
}

/**
 * A page read before any topic (see {@link readPage}). Evaluations of one reading share its term vector: treat it as
 * read-only (each evaluation gets its own links, unpacked from the pass's PackedLinks, and its own robots object).
 */
export class PageReading {
  /** Charset actually used to decode the bytes. */
  readonly charset: string;
  /** The page's first `lang` attribute as an ISO 639-1 base, if any: its text is analysed in that language. */
  readonly declared: string | undefined;
  private readonly url: string;
  private readonly contextWindow: number | undefined;
  private readonly options: EvaluateOptions;
  /** The decoded page; let go once a page that declares its language is read (it is read in no other). */
  private html: string | undefined;
  private readonly passes = new Map<string, TextPass>();

  constructor(input: PageInput, options: EvaluateOptions = {}) {
    const decoded = decodeHtml(input.body ?? new Uint8Array(0), input.contentType);
    this.charset = decoded.charset;
    this.html = decoded.text;
    this.declared = declaredLanguage(decoded.text);
    this.url = input.url;
    this.contextWindow = input.contextWindow;
    this.options = options;
  }

  /** Passes made so far (one per language the text was analysed in). */
  get passCount(): number {
    return this.passes.size;
  }

  /** @internal The pass over the text analysed in `language` (made once). */
  pass(language: string): TextPass {
    let pass = this.passes.get(language);
    if (!pass) {
      if (this.html === undefined) throw new Error(`page read in ${this.declared}, its declared language, only`);
      pass = readText(this.url, this.contextWindow, this.options, this.html, language);
      this.passes.set(language, pass);
      // A page that declares its language is analysed in it whatever the topic (evaluateReading): readings are kept
      // for many topics (the lab keeps thousands), and the page's text is most of what one would hold.
      if (this.declared !== undefined && language === this.declared) this.html = undefined;
    }
    return pass;
  }
}

/**
 * A topic's side of the score, worked out once for many pages: its term vector and norm, the query's terms (they
 * pick the snippet), its language and the weight of boilerplate.
 */
export class TopicScoring {
  /** The topic vector (query plus expansion from the context, see text/vector.ts topicVector). */
  readonly vector: TermVector;
  readonly norm: number;
  /** The query's terms alone, and as a key (the snippet depends on nothing else of the topic). */
  readonly query: TermVector;
  readonly queryKey: string;
  /** The topic's language as given, and as an ISO 639-1 base. */
  readonly language: string | undefined;
  readonly baseLanguage: string | undefined;
  readonly allLanguages: boolean;
  readonly boilerplateWeight: number;

  constructor(readonly topic: Topic) {
    const t = topic ?? { keywords: '' };
    this.vector = topicVector(t);
    this.norm = norm(this.vector);
    this.query = keywordVector(t);
    this.queryKey = Object.keys(this.query).join('\0');
    this.language = topic?.language;
    this.baseLanguage = baseLanguage(topic?.language);
    this.allLanguages = !!topic?.allLanguages;
    this.boilerplateWeight = clampWeight(topic?.weights?.boilerplate, DEFAULT_BOILERPLATE_WEIGHT);
  }
}

/** The topic's side of scoring, for scoring many readings against one topic with {@link evaluateReading}. */
export function prepareTopic(topic: Topic): TopicScoring {
  return new TopicScoring(topic);
}

/** Scores a page read with {@link readPage} for a topic: the same evaluation as {@link evaluatePage}, bit for bit. */
export function evaluateReading(reading: PageReading, topic: Topic | TopicScoring): PageEvaluation {
  const scoring = topic instanceof TopicScoring ? topic : new TopicScoring(topic);
  const { pass, weighted, language } = weighedFor(reading, scoring);
  const evaluation = pass.evaluate(weighted, scoring, reading.charset);
  if (language !== undefined) {
    evaluation.language = language;
    if (scoring.baseLanguage !== undefined && !scoring.allLanguages && sameLanguage(language, scoring.baseLanguage) === false) {
      evaluation.score *= OTHER_LANGUAGE_WEIGHT;
    }
  }
  return evaluation;
}

/**
 * A page's whole main text (what `mainText` is, not cut; what `contentHash` hashes) and its whole visible text, both
 * whitespace collapsed, as read for a topic (its language and boilerplate weight; default: none, 0.2).
 */
export function pageTexts(
  reading: PageReading,
  topic: Topic | TopicScoring = { keywords: '' },
): { main: string; visible: string } {
  const scoring = topic instanceof TopicScoring ? topic : new TopicScoring(topic);
  const { pass, weighted } = weighedFor(reading, scoring);
  return { main: weighted.wholeMainText(), visible: collapse(pass.text.slice(0, pass.text.length)) };
}

/** The pass a page is scored on for a topic (in its language: declared, else the topic's, else detected) and its weights. */
function weighedFor(
  reading: PageReading,
  scoring: TopicScoring,
): { pass: TextPass; weighted: Weighted; language: string | undefined } {
  const declared = reading.declared;
  // Text is analysed in the page's language when it says one, else in the topic's.
  const textLanguage = declared ?? scoring.language ?? 'en';
  let pass = reading.pass(textLanguage);
  let weighted = pass.weighted(scoring.boilerplateWeight);
  let language = declared;
  const readIn = baseLanguage(textLanguage) ?? 'en';
  const readWithStops = stopwordLanguage(textLanguage) !== 'eng' || readIn === 'en';
  if (language === undefined && readWithStops && pass.stopShare >= OWN_STOP_SHARE) {
    // So many of its words are stop words of the language it was read in that it is in that language: no detector.
    language = readIn;
  } else if (language === undefined) {
    language = weighted.detected();
    // Read in the wrong language: again in its own, so its terms are right (a page in another language than the
    // topic's without any lang attribute: rare, and then it scores low anyway).
    if (language !== undefined && language !== readIn && !analysedAlike(language, textLanguage)) {
      pass = reading.pass(language);
      weighted = pass.weighted(scoring.boilerplateWeight);
    }
  }
  return { pass, weighted, language };
}

/**
 * Share of a page's words that are stop words of the language it was read in above which it is taken to be in that
 * language without running the detector (about a third in English prose; 2-23% in the handbook's translations read
 * as English, up to 41% where the translation left English paragraphs).
 */
const OWN_STOP_SHARE = 0.3;

/** Factor on the score of a page in another language than the topic's (unless the topic takes all languages). */
export const OTHER_LANGUAGE_WEIGHT = 0.1;

/** The first `lang` attribute of the page (<html lang>, or the first element that has one), as an ISO 639-1 base. */
const LANG_ATTRIBUTE = /\slang\s*=\s*["']?\s*([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*)/i;
function declaredLanguage(html: string): string | undefined {
  const m = LANG_ATTRIBUTE.exec(html);
  return m ? baseLanguage(m[1]) : undefined;
}

/** Pairs the detector confuses (Indonesian and Malay; the Serbo-Croatian standards) count as one language. */
const SAME_LANGUAGE: Record<string, string> = { ms: 'id', bs: 'hr', sr: 'hr' };
function sameLanguage(a: string, b: string): boolean {
  return (SAME_LANGUAGE[a] ?? a) === (SAME_LANGUAGE[b] ?? b);
}

/** Whether text in `language` is tokenized just as in `other` (neither has its own stop list or stemmer). */
function analysedAlike(language: string, other: string): boolean {
  const own = (l: string) => stopwordLanguage(l) !== 'eng' || stemmerFor(baseLanguage(l) ?? '') !== null;
  return !own(language) && !own(other);
}

/**
 * One pass over the page, its text analysed in `language`: everything of an evaluation that does not depend on the
 * topic (see {@link TextPass}).
 */
function readText(
  url: string,
  contextWindow: number | undefined,
  options: EvaluateOptions,
  html: string,
  language: string,
): TextPass {
  const window = Math.max(0, contextWindow ?? DEFAULT_CONTEXT_WINDOW);
  const maxLinks = Math.max(0, options.maxLinks ?? DEFAULT_MAX_LINKS);
  // Raw links kept for resolution after parsing (the <base> may come later); bounded against link floods.
  const rawCap = Math.max(maxLinks * 4, 100);

  const tokens: string[] = [];
  const tokenOffsets: number[] = [];
  const counter = new TermCounter();
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

  // Where text stands: runs of one kind within one block (first token, text offset, kind, block), and per block its
  // first token and how many of its tokens are inside links. Weights are decided after the pass.
  const runToken: number[] = [];
  const runText: number[] = [];
  const runKind: number[] = [];
  const runBlock: number[] = [];
  const blockToken: number[] = [0];
  const blockLinkTokens: number[] = [0];
  let block = 0;
  let runOpen = false;
  let boilerDepth = 0;
  let mainDepth = 0;
  // Boilerplate zones (elements zoneOf marks F_BOILER): first token, tokens in links before it, enclosing zone, whether
  // mixed; once closed, their tokens and link tokens. Per run, its innermost zone and whether it is in a main region:
  // after the pass, a zone that is the page's wrapper (or mixed and not mostly links) stops making its runs boilerplate.
  const zoneStart: number[] = [];
  const zoneLinkStart: number[] = [];
  const zoneParent: number[] = [];
  const zoneMixed: boolean[] = [];
  const zoneTokens: number[] = [];
  const zoneLinks: number[] = [];
  const zoneBlockStart: number[] = [];
  const zoneBlocks: number[] = [];
  const openZones: number[] = [];
  let linkTokens = 0;
  const runZone: number[] = [];
  const runInMain: boolean[] = [];
  let sectionDepth = 0;
  // Block elements open now (frames): first token, link tokens before it, children with text, how many of those
  // open with a link, whether it opens with a link, whether it may be a list of teasers. Lists of teasers found: token
  // ranges.
  const frameStart: number[] = [];
  const frameLinkStart: number[] = [];
  const frameChildren: number[] = [];
  const frameLed: number[] = [];
  const frameLargest: number[] = [];
  const frameIsLed: boolean[] = [];
  const frameList: boolean[] = [];
  const teaserStart: number[] = [];
  const teaserEnd: number[] = [];

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
  // Page metadata for the result list: dates and title fallbacks (first of each wins).
  const meta: PageMeta = {};
  let timeInMain: string | undefined;
  let h1Depth = 0;
  let h1Done = false;
  const h1Parts: string[] = [];
  // The runs of the first <h1> with text: [h1FirstRun, h1EndRun).
  let h1FirstRun = -1;
  let h1EndRun = -1;
  let ldDepth = 0;
  const ldParts: string[] = [];
  let ldChars = 0;

  /** Tokens of the open link up to here are counted in their blocks already. */
  let linkCredited = 0;
  const boundary = () => {
    if (!lastIsBlock) {
      stream.end(); // BLOCK ends any word
      if (current) {
        // A link spanning blocks (a whole teaser in one <a>): each block counts the link's tokens it holds.
        blockLinkTokens[block] += tokens.length - linkCredited;
        linkCredited = tokens.length;
      }
      textParts.push(BLOCK);
      partStarts.push(textLen);
      textLen += BLOCK.length;
      lastIsBlock = true;
      block++;
      blockToken.push(tokens.length);
      blockLinkTokens.push(0);
      runOpen = false;
    }
  };
  const closeFrame = () => {
    const start = frameStart.pop()!;
    const links = linkTokens - frameLinkStart.pop()!;
    const children = frameChildren.pop()!;
    const led = frameLed.pop()!;
    const largest = frameLargest.pop()!;
    const isLed = frameIsLed.pop()!;
    const list = frameList.pop()!;
    const inside = tokens.length - start;
    if (
      list &&
      children >= TEASER_ITEMS &&
      led >= TEASER_LED * children &&
      links >= TEASER_LINK_SHARE * inside &&
      largest <= TEASER_ITEM_TOKENS
    ) {
      teaserStart.push(start);
      teaserEnd.push(tokens.length);
    }
    const parent = frameStart.length - 1;
    if (parent >= 0 && inside > 0) {
      frameChildren[parent]++;
      if (inside > frameLargest[parent]) frameLargest[parent] = inside;
      if (isLed) frameLed[parent]++;
    }
  };
  const endLink = () => {
    if (!current) return;
    stream.end();
    current.tokEnd = tokens.length;
    blockLinkTokens[block] += current.tokEnd - Math.max(current.tokStart, linkCredited);
    linkTokens += current.tokEnd - current.tokStart;
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
        const zone = zoneOf(name, attribs, sectionDepth > 0);
        if (zone & F_BOILER) {
          boilerDepth++;
          const id = zoneStart.length;
          zoneStart.push(tokens.length);
          zoneLinkStart.push(linkTokens);
          zoneParent.push(openZones.length ? openZones[openZones.length - 1] : -1);
          zoneMixed.push((zone & F_MIXED) !== 0);
          zoneTokens.push(-1);
          zoneLinks.push(0);
          zoneBlockStart.push(block);
          zoneBlocks.push(0);
          openZones.push(id);
        } else if (zone === F_MAIN) mainDepth++;
        f |= zone;
        if (name === 'main' || name === 'article' || name === 'section' || name === 'aside' || name === 'nav') {
          f |= F_SECTION;
          sectionDepth++;
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
              baseHref = resolveHttp(attribs.href, url) ?? undefined;
            }
            break;
          case 'meta':
            if (attribs.name?.trim().toLowerCase() === 'robots' && attribs.content) {
              const c = attribs.content;
              if (hasToken(c, 'noindex') || hasToken(c, 'none')) robots.noindex = true;
              if (hasToken(c, 'nofollow') || hasToken(c, 'none')) robots.nofollow = true;
            }
            readMeta(meta, attribs);
            break;
          case 'time':
            if (timeInMain === undefined && mainDepth > 0 && boilerDepth === 0 && skipDepth === 0 && attribs.datetime) {
              timeInMain = attribs.datetime.trim().slice(0, MAX_META_CHARS);
            }
            break;
          case 'h1':
            if (!h1Done && skipDepth === 0) {
              f |= F_H1;
              h1Depth++;
            }
            break;
          case 'script':
            if (attribs.type?.trim().toLowerCase() === 'application/ld+json') {
              f |= F_LD;
              ldDepth++;
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
              // Every block that has no text yet opens with this link.
              for (let i = frameStart.length - 1; i >= 0 && frameStart[i] === tokens.length && !frameIsLed[i]; i--) {
                frameIsLed[i] = true;
              }
              if (name === 'a') {
                current = link;
                linkCredited = link.tokStart;
                f |= F_LINK;
              }
            }
            break;
          case 'img':
            if (current && skipDepth === 0 && attribs.alt) addAnchorText(current, ` ${attribs.alt} `);
            break;
        }
        if (!INLINE_TAGS.has(name)) {
          boundary();
          f |= F_FRAME;
          frameStart.push(tokens.length);
          frameLinkStart.push(linkTokens);
          frameChildren.push(0);
          frameLed.push(0);
          frameLargest.push(0);
          frameIsLed.push(false);
          frameList.push(TEASER_TAGS.has(name));
        } else if (zone !== 0) runOpen = false;
        flags.push(f);
      },
      ontext(text) {
        if (ldDepth > 0 && ldChars < MAX_LD_CHARS) {
          ldParts.push(text);
          ldChars += text.length;
        }
        if (skipDepth > 0) return;
        if (h1Depth > 0) h1Parts.push(text);
        if (titleDepth > 0) {
          titleParts.push(text);
          return;
        }
        if (!runOpen) {
          // A new run: its kind is the innermost zone's (boilerplate inside a main region stays boilerplate).
          runOpen = true;
          runToken.push(tokens.length);
          runText.push(textLen);
          runKind.push(boilerDepth > 0 ? KIND_BOILER : mainDepth > 0 ? KIND_MAIN : KIND_NEUTRAL);
          runZone.push(openZones.length ? openZones[openZones.length - 1] : -1);
          runInMain.push(mainDepth > 0);
          runBlock.push(block);
          if (h1Depth > 0) {
            if (h1FirstRun < 0) h1FirstRun = runKind.length - 1;
            h1EndRun = runKind.length;
          }
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
        if (f & F_H1) {
          h1Depth--;
          h1Done = h1Parts.join('').trim() !== '';
          if (!h1Done) h1FirstRun = h1EndRun = -1;
        }
        if (f & F_LD) {
          ldDepth--;
          // Each block on its own: pages often hold several.
          if (ldParts.length) readJsonLd(meta, ldParts.join(''));
          ldParts.length = 0;
        }
        if (f & F_BOILER) {
          boilerDepth--;
          const id = openZones.pop()!;
          zoneTokens[id] = tokens.length - zoneStart[id];
          zoneLinks[id] = linkTokens - zoneLinkStart[id];
          zoneBlocks[id] = block - zoneBlockStart[id];
        } else if (f & F_MAIN) mainDepth--;
        if (f & F_SECTION) sectionDepth--;
        if (f & F_LINK && current && current.depth === flags.length + 1) endLink();
        if (!INLINE_TAGS.has(name)) boundary();
        else if (f & (F_BOILER | F_MAIN)) runOpen = false;
        if (f & F_FRAME) closeFrame();
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  endLink();
  stream.end();
  settleZones(
    tokens.length,
    { start: zoneStart, parent: zoneParent, mixed: zoneMixed, tokens: zoneTokens, links: zoneLinks, blocks: zoneBlocks },
    proseBefore(tokens.length, blockToken, blockLinkTokens),
    blockToken,
    runZone,
    runInMain,
    runKind,
  );
  markTeasers(tokens.length, teaserStart, teaserEnd, runToken, runKind);

  // One string: kept with the reading, the parser's chunks (substrings of the page) would hold the whole page and an
  // object per chunk.
  const visibleText = new TextView([textParts.join('')], [0], textLen);
  for (let i = 0; i < tokens.length; i++) if (tokens[i].length >= 13) tokens[i] = own(tokens[i]);
  const title = own(collapse(titleParts.join('')).slice(0, MAX_TITLE_CHARS));
  const titleTerms: string[] = [];
  if (title) tokenizeInto(title, language, titleTerms, undefined, 0, counter);
  // The counter's slots are shared with the next pass: read them now.
  const terms: TermVector = counter.vector();
  const sumOfSquares = counter.sumOfSquares();
  const baseUrl = baseHref ?? url;
  const links = buildLinks(rawLinks, baseUrl, tokens, window, maxLinks, language);
  const pass = new TextPass(
    TokenList.of(tokens),
    Int32Array.from(tokenOffsets),
    visibleText,
    {
      token: Int32Array.from(runToken),
      text: Int32Array.from(runText),
      kind: Uint8Array.from(runKind),
      block: Int32Array.from(runBlock),
    },
    { token: Int32Array.from(blockToken), linkTokens: Int32Array.from(blockLinkTokens) },
    terms,
    sumOfSquares,
    counter.stopWords / Math.max(1, counter.stopWords + tokens.length),
  );
  pass.title = title;
  pass.length = tokens.length + titleTerms.length;
  pass.links = new PackedLinks(links);
  pass.baseUrl = baseUrl;
  pass.robots = robots;
  if (lang !== undefined) pass.lang = own(lang);
  const published = meta.published ?? timeInMain;
  if (published) pass.published = own(published);
  if (meta.modified) pass.modified = own(meta.modified);
  if (meta.ogTitle) pass.ogTitle = own(meta.ogTitle);
  const h1 = collapse(h1Parts.join('')).slice(0, MAX_TITLE_CHARS);
  if (h1) pass.h1 = own(h1);
  if (h1 && h1FirstRun >= 0 && isHeadline(h1, title, meta.ogTitle)) pass.headline = [h1FirstRun, h1EndRun];
  return pass;
}

/**
 * Whether a page's first <h1> is its headline, the title again: most of its words are in the <title> or og:title.
 * The article's body, as a reader (or schema.org's articleBody) takes it, starts below it.
 */
function isHeadline(h1: string, title: string, ogTitle: string | undefined): boolean {
  const words = h1.toLowerCase().match(WORD) ?? [];
  if (words.length === 0) return false;
  const titled = new Set(`${title} ${ogTitle ?? ''}`.toLowerCase().match(WORD) ?? []);
  let found = 0;
  for (const w of words) if (titled.has(w)) found++;
  return found >= HEADLINE_SHARE * words.length;
}
const WORD = /[\p{L}\p{N}]+/gu;
/** Share of the <h1>'s words found in the title for it to be the headline. */
const HEADLINE_SHARE = 0.75;

/** Boilerplate zones found in a pass (see readText). */
interface Zones {
  start: number[];
  parent: number[];
  mixed: boolean[];
  /** Tokens inside (-1: never closed, runs to the end). */
  tokens: number[];
  links: number[];
  /** Blocks inside (a wrapper holds several: a lone banner paragraph is no wrapper, however much of the page it is). */
  blocks: number[];
}

/**
 * Decides, after the pass, which boilerplate zones are boilerplate: not one that holds most of the page's prose (the
 * page's wrapper, whatever its names say), nor one whose names match both word lists when its text is
 * not mostly links
 * (decided by its content, not by which list is read first). Runs in no zone left standing become main text (in a
 * main region) or neutral text.
 */
function settleZones(
  tokenCount: number,
  zones: Zones,
  prose: Float64Array,
  blockToken: number[],
  runZone: number[],
  runInMain: boolean[],
  runKind: number[],
): void {
  const n = zones.start.length;
  if (n === 0) return;
  const standing = new Uint8Array(n);
  const allProse = prose[prose.length - 1];
  const proseIn = (from: number, to: number) => prose[lowerBound(blockToken, to)] - prose[lowerBound(blockToken, from)];
  for (let z = 0; z < n; z++) {
    const inside = zones.tokens[z] < 0 ? tokenCount - zones.start[z] : zones.tokens[z];
    const links = zones.tokens[z] < 0 ? 0 : zones.links[z];
    const wrapper =
      (zones.tokens[z] < 0 || zones.blocks[z] >= WRAPPER_BLOCKS) &&
      (allProse > 0
        ? proseIn(zones.start[z], zones.start[z] + inside) > WRAPPER_SHARE * allProse
        : inside > WRAPPER_SHARE * tokenCount);
    const content = zones.mixed[z] && links <= LINK_DENSITY * inside;
    const own = !wrapper && !content;
    // Parents come first (a zone opens after the zones around it), so a parent's answer is known.
    standing[z] = own || (zones.parent[z] >= 0 && standing[zones.parent[z]] === 1) ? 1 : 0;
  }
  for (let r = 0; r < runKind.length; r++) {
    const z = runZone[r];
    if (runKind[r] === KIND_BOILER && z >= 0 && standing[z] === 0) runKind[r] = runInMain[r] ? KIND_MAIN : KIND_NEUTRAL;
  }
}

/**
 * Prose per block, summed: before[b] is the text outside links of the blocks before block b that are not mostly
 * links (the last entry: the whole page's).
 */
function proseBefore(tokenCount: number, blockToken: number[], blockLinkTokens: number[]): Float64Array {
  const n = blockToken.length;
  const before = new Float64Array(n + 1);
  for (let b = 0; b < n; b++) {
    const inside = (b + 1 < n ? blockToken[b + 1] : tokenCount) - blockToken[b];
    const links = blockLinkTokens[b];
    before[b + 1] = before[b] + (links <= LINK_DENSITY * inside ? inside - links : 0);
  }
  return before;
}

/**
 * Makes the runs inside lists of teasers boilerplate, except in a list that holds two thirds of the page's text
 * outside boilerplate (a front page of stories, a news round-up: the list is what the page says). Lists are found as
 * they close, inner ones first: sorted by start here.
 */
function markTeasers(tokenCount: number, start: number[], end: number[], runToken: number[], runKind: number[]): void {
  if (start.length === 0) return;
  // Tokens outside boilerplate, before and up to each run (prefix sums over runs).
  const n = runToken.length;
  const before = new Float64Array(n + 1);
  for (let r = 0; r < n; r++) {
    const len = (r + 1 < n ? runToken[r + 1] : tokenCount) - runToken[r];
    before[r + 1] = before[r] + (runKind[r] === KIND_BOILER ? 0 : len);
  }
  // Tokens outside boilerplate in [from, to): whole runs that start there (a list starts and ends at a block).
  const textIn = (from: number, to: number) => before[lowerBound(runToken, to)] - before[lowerBound(runToken, from)];
  const order: number[] = [];
  for (let i = 0; i < start.length; i++) if (textIn(start[i], end[i]) < ROUNDUP_SHARE * before[n]) order.push(i);
  if (order.length === 0) return;
  order.sort((a, b) => start[a] - start[b]);
  let k = 0;
  let reach = -1;
  for (let r = 0; r < runToken.length; r++) {
    const t = runToken[r];
    while (k < order.length && start[order[k]] <= t) reach = Math.max(reach, end[order[k++]]);
    if (t < reach) runKind[r] = KIND_BOILER;
  }
}

/** The first index of the sorted `xs` whose value is at least `x`. */
function lowerBound(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Runs of text (first token, offset in the visible text, kind, block) and blocks (first token, tokens in links), as
 * typed arrays: a reading is kept for many topics, and the collector walks every slot of a plain array.
 */
interface Runs {
  token: Int32Array;
  text: Int32Array;
  kind: Uint8Array;
  block: Int32Array;
}
interface Blocks {
  token: Int32Array;
  linkTokens: Int32Array;
}

const NO_HEADLINE = [-1, -1] as const;

/** The links of a pass that found none (a PackedLinks never changes: each evaluation unpacks its own). */
const EMPTY_LINKS = new PackedLinks([]);

/**
 * What one pass over a page's text (in one language) found, before any topic; per boilerplate weight, the weights
 * of its runs and what they take from the score ({@link Weighted}).
 */
class TextPass {
  title = '';
  length = 0;
  links = EMPTY_LINKS;
  baseUrl = '';
  robots = { noindex: false, nofollow: false };
  lang?: string;
  published?: string;
  modified?: string;
  ogTitle?: string;
  h1?: string;
  /** The runs of the headline (the first <h1>, when it repeats the title): not part of the main text. */
  headline: readonly [number, number] = NO_HEADLINE;
  private readonly byWeight = new Map<number, Weighted>();

  constructor(
    readonly tokens: TokenList,
    readonly tokenOffsets: Int32Array,
    readonly text: TextView,
    readonly runs: Runs,
    readonly blocks: Blocks,
    readonly terms: TermVector,
    readonly sumOfSquares: number,
    /** Share of the words that are stop words of the language the text was read in. */
    readonly stopShare: number,
  ) {}

  /** The runs' weights for a boilerplate weight (made once per weight). */
  weighted(boilerWeight: number): Weighted {
    let w = this.byWeight.get(boilerWeight);
    if (!w) {
      const runs = this.runs;
      const weights = weighRuns(
        runs.token,
        runs.kind,
        runs.block,
        this.blocks.token,
        this.blocks.linkTokens,
        this.tokens.length,
        boilerWeight,
      );
      w = new Weighted(this, weights, boilerCut(this.terms, this.sumOfSquares, this.tokens, weights));
      this.byWeight.set(boilerWeight, w);
    }
    return w;
  }

  /** The evaluation for a topic (the language and its penalty are the caller's). */
  evaluate(weighted: Weighted, topic: TopicScoring, charset: string): PageEvaluation {
    const score = weightedCosine(topic.vector, topic.norm, this.terms, weighted.cut);
    const snippet = weighted.snippet(topic);
    const evaluation: PageEvaluation = {
      score,
      title: this.title,
      snippet,
      mainText: weighted.mainText(),
      contentHash: weighted.contentHash(),
      links: this.links.unpack(topic.language ?? 'en'),
      terms: this.terms,
      length: this.length,
      charset,
      baseUrl: this.baseUrl,
      robots: { ...this.robots },
    };
    if (this.lang !== undefined) evaluation.lang = this.lang;
    if (this.published) evaluation.published = this.published;
    if (this.modified) evaluation.modified = this.modified;
    if (this.ogTitle) evaluation.ogTitle = this.ogTitle;
    if (this.h1) evaluation.h1 = this.h1;
    return evaluation;
  }
}

/** Snippets kept per pass and boilerplate weight (one per query). */
const MAX_SNIPPETS_KEPT = 16;

/** A pass's runs weighed for one boilerplate weight: the weights, the score's correction, main text, language. */
class Weighted {
  private main: string | undefined;
  private hash: string | undefined;
  private language: string | undefined | null = null;
  /** Snippets by the query's terms (the many crawls of one topic ask for the same one). */
  private readonly snippets = new Map<string, string>();

  constructor(
    private readonly pass: TextPass,
    readonly runs: RunWeights,
    readonly cut: BoilerCut,
  ) {}

  /** The passage that best matches the topic's query (expansion terms from the results page do not pick it). */
  snippet(topic: TopicScoring): string {
    const key = topic.queryKey;
    let snippet = this.snippets.get(key);
    if (snippet === undefined) {
      const p = this.pass;
      const runs = { token: p.runs.token, text: p.runs.text, kind: p.runs.kind, weight: this.runs.weight };
      snippet = bestSnippet(p.text, p.tokens, p.tokenOffsets, topic.query, runs);
      if (this.snippets.size >= MAX_SNIPPETS_KEPT) this.snippets.clear();
      this.snippets.set(key, snippet);
    }
    return snippet;
  }

  /** The main text for the library's full-text index: {@link wholeMainText} cut at a word within MAIN_TEXT_CHARS. */
  mainText(): string {
    if (this.main === undefined) this.readMainText();
    return this.main as string;
  }

  contentHash(): string {
    if (this.hash === undefined) this.readMainText();
    return this.hash as string;
  }

  /**
   * The main text and its hash from one reading of the whole main text, which is not kept: a reading cached for
   * many topics (the lab's) keeps the two short results only.
   */
  private readMainText(): void {
    const whole = this.wholeMainText();
    this.main = cutAtWord(whole, MAIN_TEXT_CHARS);
    this.hash = hashText(whole);
  }

  /**
   * The page's whole heaviest text, whitespace collapsed: `mainText` is cut at MAIN_TEXT_CHARS, and a change past the
   * cut is still a change to the content hash. Boilerplate (navigation, banners, footers, link lists) never counts,
   * so a new date in a footer or another advert leaves the hash as it was.
   */
  wholeMainText(): string {
    return collapse(heaviestText(this.pass, this.runs.weight, Number.POSITIVE_INFINITY));
  }

  /** The language detected from the heaviest text (none when most words are stop words of the language read in). */
  detected(): string | undefined {
    if (this.language === null) {
      const p = this.pass;
      // Up to DETECT_CHARS characters of the heaviest text, raw.
      const sample = p.stopShare < OWN_STOP_SHARE ? heaviestText(p, this.runs.weight, DETECT_CHARS) : '';
      this.language = detectLanguage(sample);
    }
    return this.language;
  }
}

/** `s` cut at a word within `max` characters (at `max` when the last word before it starts in the first half). */
function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const space = s.lastIndexOf(' ', max);
  return s.slice(0, space > max / 2 ? space : max);
}

/**
 * Up to `max` characters of the text of the heaviest runs (full weight, else any but boilerplate), in page order,
 * the headline's runs left out unless nothing else is left.
 */
function heaviestText(pass: TextPass, weight: Float64Array, max: number): string {
  const { text } = pass;
  const { text: runText, kind: runKind } = pass.runs;
  let top = -1;
  let [skipFrom, skipTo] = pass.headline;
  for (let r = 0; r < weight.length; r++) if (runKind[r] !== KIND_BOILER && weight[r] > top) top = weight[r];
  let other = false;
  for (let r = 0; r < weight.length && !other; r++)
    other = (r < skipFrom || r >= skipTo) && runKind[r] !== KIND_BOILER && weight[r] === top;
  if (!other) skipFrom = skipTo = -1;
  let out = '';
  for (let r = 0; r < weight.length && out.length < max; r++) {
    if (runKind[r] === KIND_BOILER || weight[r] !== top || (r >= skipFrom && r < skipTo)) continue;
    const end = r + 1 < runText.length ? runText[r + 1] : text.length;
    out += text.slice(runText[r], Math.min(end, runText[r] + max - out.length));
    out += ' ';
  }
  return out;
}

function clampWeight(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;
}

/** The weight of each run of text (see evaluatePage), and the token where each run ends. */
interface RunWeights {
  weight: Float64Array;
  end: Int32Array;
  start: Int32Array;
}

function weighRuns(
  runToken: Int32Array,
  runKind: Uint8Array,
  runBlock: Int32Array,
  blockToken: Int32Array,
  blockLinkTokens: Int32Array,
  tokenCount: number,
  boilerWeight: number,
): RunWeights {
  const n = runToken.length;
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) end[i] = i + 1 < n ? runToken[i + 1] : tokenCount;
  let mainTokens = 0;
  for (let i = 0; i < n; i++) if (runKind[i] === KIND_MAIN) mainTokens += end[i] - runToken[i];
  const hasMain = mainTokens > 0 && mainTokens >= MAIN_SHARE * tokenCount;
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const b = runBlock[i];
    const blockTokens = (b + 1 < blockToken.length ? blockToken[b + 1] : tokenCount) - blockToken[b];
    if (runKind[i] === KIND_BOILER || (blockTokens > 0 && blockLinkTokens[b] > LINK_DENSITY * blockTokens)) {
      weight[i] = boilerWeight;
    } else if (hasMain && runKind[i] === KIND_NEUTRAL) {
      // Halfway: text beside a marked main region is often the page's own (a title block), often not.
      weight[i] = (1 + boilerWeight) / 2;
    } else {
      weight[i] = 1;
    }
  }
  return { weight, end, start: runToken };
}

/** What runs below full weight take from a page's counts: per term, and the resulting sum of squares. */
interface BoilerCut {
  /** Index of each term with a cut into `amount` (a map of indexes, not of fractions: each of those is a heap object). */
  removed: Map<string, number> | null;
  amount: Float64Array;
  sumOfSquares: number;
}

/**
 * The correction of the plain counts (and of their sum of squares, from the counter) by what runs below full weight
 * take away: only those runs are walked.
 */
function boilerCut(terms: TermVector, sumOfSquares: number, tokens: TokenList, runs: RunWeights): BoilerCut {
  let removed: Map<string, number> | null = null;
  for (let r = 0; r < runs.weight.length; r++) {
    const cut = 1 - runs.weight[r];
    if (cut <= 0) continue;
    removed ??= new Map();
    for (let i = runs.start[r], e = runs.end[r]; i < e; i++) {
      const t = tokens.at(i);
      removed.set(t, (removed.get(t) ?? 0) + cut);
    }
  }
  let sq = sumOfSquares;
  const amount = new Float64Array(removed?.size ?? 0);
  if (removed) {
    let i = 0;
    for (const [t, d] of removed) {
      const c = terms[t] ?? 0;
      const w = c - d;
      sq -= c * c - w * w;
      amount[i] = d;
      removed.set(t, i++);
    }
  }
  return { removed, amount, sumOfSquares: sq };
}

/** cos(topic, page) with the page's tokens weighted by run (`cut`, see boilerCut); `topicNorm` is norm(topic). */
function weightedCosine(topic: TermVector, topicNorm: number, terms: TermVector, cut: BoilerCut): number {
  if (topicNorm === 0) return 0;
  const removed = cut.removed;
  let dot = 0;
  for (const k in topic) {
    const c = terms[k];
    if (c === undefined) continue;
    const at = removed?.get(k);
    dot += topic[k] * (c - (at === undefined ? 0 : cut.amount[at]));
  }
  if (dot <= 0) return 0;
  const sq = cut.sumOfSquares;
  if (sq <= 0) return 0;
  return Math.min(1, dot / (Math.sqrt(sq) * topicNorm));
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
    anchorText = own(anchorText);
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
interface SnippetRuns {
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
function bestSnippet(text: TextView, tokens: TokenList, offsets: Int32Array, query: TermVector, runs: SnippetRuns): string {
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

/** The in-process evaluator (Node, or inside the Web Worker). */
export const localEvaluator: Evaluator = {
  async evaluate(input: EvaluationInput): Promise<PageEvaluation> {
    return evaluatePage(input);
  },
  async analyseTopic(topic: Topic, hints?: TopicHints): Promise<Topic> {
    return analyseTopic(topic, hints);
  },
};

/**
 * The evaluator's public side: a page read once (PageReading, readPage) and scored for any number of topics
 * (evaluateReading, evaluatePage), its texts for the library (pageTexts), and the in-process Evaluator. The reading
 * itself is read-text.ts; the parts it is made of are the modules of this folder.
 */
import type { EvaluationInput, Evaluator, PageEvaluation, Topic, TopicHints } from '../types';
import { analyseTopic } from '../text/topic-analysis';
import { baseLanguage } from '../text/language';
import { stopwordLanguage } from '../text/tokenize';
import { decodeHtml } from './charset';
import { analysedAlike, declaredLanguage, OTHER_LANGUAGE_WEIGHT, OWN_STOP_SHARE, sameLanguage } from './page-language';
import { type EvaluateOptions, readText } from './read-text';
import { TopicScoring } from './scoring';
import type { TextPass, Weighted } from './text-pass';
import { collapse } from './visible-text';

export { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_LINKS, MAX_ANCHOR_CHARS } from './links';
export { OTHER_LANGUAGE_WEIGHT } from './page-language';
export type { EvaluateOptions } from './read-text';
export { DEFAULT_BOILERPLATE_WEIGHT, TopicScoring } from './scoring';
export { MAIN_TEXT_CHARS } from './text-pass';

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

/** The in-process evaluator (Node, or inside the Web Worker). */
export const localEvaluator: Evaluator = {
  async evaluate(input: EvaluationInput): Promise<PageEvaluation> {
    return evaluatePage(input);
  },
  async analyseTopic(topic: Topic, hints?: TopicHints): Promise<Topic> {
    return analyseTopic(topic, hints);
  },
};

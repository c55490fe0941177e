/**
 * What one pass over a page's text (in one language) found before any topic (TextPass), and its runs weighed for one
 * boilerplate weight (Weighted): the evaluation for a topic, the snippet, the main text and its hash, the detected
 * language. A reading keeps its passes for many topics, so both keep what they compute.
 */
import type { PageEvaluation, TermVector } from '../types';
import { DETECT_CHARS, detectLanguage } from '../text/language';
import { hashText } from '../text/hash';
import { PackedLinks, type TokenList } from './packed';
import { OWN_STOP_SHARE } from './page-language';
import { boilerCut, type BoilerCut, type TopicScoring, weightedCosine } from './scoring';
import { bestSnippet } from './snippet';
import { collapse, type TextView } from './visible-text';
import { KIND_BOILER, type RunWeights, weighRuns } from './zones';

/** Characters of a page's main text kept for the library's full-text index (about 600 words of English). */
export const MAIN_TEXT_CHARS = 4000;

/**
 * Runs of text (first token, offset in the visible text, kind, block) and blocks (first token, tokens in links), as
 * typed arrays: a reading is kept for many topics, and the collector walks every slot of a plain array.
 */
export interface Runs {
  token: Int32Array;
  text: Int32Array;
  kind: Uint8Array;
  block: Int32Array;
}
export interface Blocks {
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
export class TextPass {
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
export class Weighted {
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

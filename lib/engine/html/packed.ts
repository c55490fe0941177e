import type { LinkFeature } from '../types';
import { urlTerms } from '../text/url-terms';

/**
 * The compact parts of a reading (evaluate.ts PageReading). A reading is kept for many topics (the lab keeps tens of
 * thousands per thread) and every full collection walks what it holds, so it keeps numbers in typed arrays and each
 * distinct term once, not an object or a reference per token and per link.
 */

/** Distinct terms in the order first met, each with its index (the index map is for building only). */
class Vocabulary {
  readonly terms: string[] = [];
  private readonly index = new Map<string, number>();

  id(term: string): number {
    let id = this.index.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.index.set(term, id);
      this.terms.push(term);
    }
    return id;
  }
}

/** A pass's tokens as indexes into its distinct terms. */
export class TokenList {
  private constructor(
    readonly vocabulary: string[],
    readonly ids: Int32Array,
  ) {}

  static of(tokens: readonly string[]): TokenList {
    const vocabulary = new Vocabulary();
    const ids = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) ids[i] = vocabulary.id(tokens[i]);
    return new TokenList(vocabulary.terms, ids);
  }

  get length(): number {
    return this.ids.length;
  }

  at(i: number): string {
    return this.vocabulary[this.ids[i]];
  }
}

/**
 * A page's outlinks kept in a few flat arrays instead of an object and three term arrays per link.
 *
 * As objects, its links were two thirds of the objects a reading holds (78 links and ~15 heap objects each on an
 * average DocWeb-L page): every full collection walks them. Packed, they are a slice per URL and eight objects more
 * (two strings, six arrays), their context terms the page's own token strings; {@link PackedLinks.unpack} gives each
 * evaluation links of its own, equal to the packed ones field for field and in the same key order.
 */
export class PackedLinks {
  /**
   * URLs, each a slice of one string of them all: the canonicalizer builds a URL by concatenation, a tree of several
   * strings, and a crawl keys its sets and frontier by them (kept shared by evaluations, their hashes are worked out once).
   */
  private readonly urls: string[];
  /** Anchor texts, one after the other; link i's ends at anchorEnds[i]. */
  private readonly anchors: string;
  private readonly anchorEnds: Int32Array;
  /** The distinct terms of all links, and each link's anchor, before and after terms as indexes into them. */
  private readonly vocabulary: string[];
  private readonly termIds: Int32Array;
  /** Per link, where its anchor terms, context before and context after end in termIds. */
  private readonly termEnds: Int32Array;
  private readonly nofollow: Uint8Array;

  constructor(links: readonly LinkFeature[]) {
    const n = links.length;
    this.urls = new Array<string>(n);
    this.anchorEnds = new Int32Array(n);
    this.termEnds = new Int32Array(3 * n);
    this.nofollow = new Uint8Array(n);
    const anchorParts: string[] = [];
    let anchorLength = 0;
    let termCount = 0;
    for (const link of links) termCount += link.anchorTerms.length + link.contextBefore.length + link.contextAfter.length;
    this.termIds = new Int32Array(termCount);
    const vocabulary = new Vocabulary();
    this.vocabulary = vocabulary.terms;
    let at = 0;
    const put = (terms: readonly string[]) => {
      for (const t of terms) this.termIds[at++] = vocabulary.id(t);
    };
    const allUrls = links.map((link) => link.url).join('');
    let urlStart = 0;
    for (let i = 0; i < n; i++) {
      const link = links[i];
      const urlEnd = urlStart + link.url.length;
      this.urls[i] = allUrls.slice(urlStart, urlEnd);
      urlStart = urlEnd;
      anchorParts.push(link.anchorText);
      anchorLength += link.anchorText.length;
      this.anchorEnds[i] = anchorLength;
      put(link.anchorTerms);
      this.termEnds[3 * i] = at;
      put(link.contextBefore);
      this.termEnds[3 * i + 1] = at;
      put(link.contextAfter);
      this.termEnds[3 * i + 2] = at;
      this.nofollow[i] = link.nofollow ? 1 : 0;
    }
    this.anchors = anchorParts.join('');
  }

  get length(): number {
    return this.urls.length;
  }

  /**
   * The links as objects, new ones on each call (they may be changed; the packed ones cannot), with their URLs' words
   * in `language` (a topic's: what strategies match against it; those lists are shared and frozen).
   */
  unpack(language: string): LinkFeature[] {
    const n = this.urls.length;
    const out: LinkFeature[] = [];
    let anchorStart = 0;
    let termStart = 0;
    for (let i = 0; i < n; i++) {
      const anchorEnd = this.anchorEnds[i];
      const anchorTermsEnd = this.termEnds[3 * i];
      const beforeEnd = this.termEnds[3 * i + 1];
      const afterEnd = this.termEnds[3 * i + 2];
      // Key order as the evaluator has always built a link (evaluations are compared as JSON text).
      out.push({
        url: this.urls[i],
        anchorText: this.anchors.slice(anchorStart, anchorEnd),
        anchorTerms: this.terms(termStart, anchorTermsEnd),
        contextBefore: this.terms(anchorTermsEnd, beforeEnd),
        contextAfter: this.terms(beforeEnd, afterEnd),
        nofollow: this.nofollow[i] === 1,
        urlTerms: urlTerms(this.urls[i], language),
      });
      anchorStart = anchorEnd;
      termStart = afterEnd;
    }
    return out;
  }

  private terms(start: number, end: number): string[] {
    const out: string[] = [];
    for (let i = start; i < end; i++) out.push(this.vocabulary[this.termIds[i]]);
    return out;
  }
}

import type { LinkFeature } from '../types';

/**
 * A page's outlinks kept in a few flat arrays instead of an object and three term arrays per link.
 *
 * A reading is kept for many topics (the lab keeps tens of thousands per thread), and as objects its links were two
 * thirds of the objects a reading holds (78 links and ~15 heap objects each on an average DocWeb-L page): every full
 * collection walks them. Packed, they are a slice per URL and eight objects more (two strings, six arrays), their
 * context terms the page's own token strings; {@link PackedLinks.unpack} gives each evaluation links of its own, equal
 * to the packed ones field for field and in the same key order.
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
    const index = new Map<string, number>();
    this.vocabulary = [];
    let at = 0;
    const put = (terms: readonly string[]) => {
      for (const t of terms) {
        let id = index.get(t);
        if (id === undefined) {
          id = this.vocabulary.length;
          index.set(t, id);
          this.vocabulary.push(t);
        }
        this.termIds[at++] = id;
      }
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

  /** The links as objects, new ones on each call (they may be changed; the packed ones cannot). */
  unpack(): LinkFeature[] {
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

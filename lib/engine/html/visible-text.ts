/**
 * The visible text of a page as one pass reads it: which elements never show text and which keep text in one run,
 * the separator between blocks, the text itself as the parser's chunks (TextView), and the string helpers every part
 * of the reading shares (collapsing whitespace, copying a slice out of the page).
 */

/** Elements whose content is never visible text. */
export const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'svg', 'iframe', 'object', 'canvas']);
/** Inline elements: text on both sides belongs to the same run (no word or sentence break). */
export const INLINE_TAGS = new Set([
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

/**
 * Separator between blocks in the raw visible text: U+000B (vertical tab), whitespace to \s and a boundary to the
 * snippet. It must be ASCII: a single non-Latin-1 character makes V8 store the whole text as two-byte, which made
 * joining and scanning it about ten times slower.
 */
export const BLOCK = '\v';

export const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The same text as a string of its own: a substring of the page (a slice, in V8, from 13 characters) holds the whole
 * page in memory as long as it lives, and a reading keeps titles, anchors and tokens for as long as it is kept.
 */
export function own(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/**
 * The visible text as the parser's chunks, never joined whole: the snippet reads only windows around topic hits, and
 * joining thousands of chunks into one string was a large part of an evaluation.
 */
export class TextView {
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

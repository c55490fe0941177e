/**
 * The DOM reading the results-page extractor shares: safe queries (bad selectors in engine data match nothing),
 * the text a reader sees, what the markup alone says about visibility, and sets of excluded blocks. Plain DOM on
 * the document passed in, no globals, so it runs in a content script and in Node under linkedom.
 */

/** The part of the DOM the extractor uses; a browser Document or a linkedom one both fit. */
export type QueryRoot = Pick<ParentNode, 'querySelector' | 'querySelectorAll'>;

const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
/** Elements whose text is never visible. */
const INVISIBLE = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT']);
/** Elements that separate words even when the markup has no whitespace between them. */
const BREAKING = new Set([
  'BR',
  'DIV',
  'P',
  'LI',
  'TD',
  'TH',
  'TR',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'UL',
  'OL',
  'TABLE',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'CITE',
  'BLOCKQUOTE',
]);

/**
 * Whether `node` comes after `ref` in document order (a descendant after its ancestor). Read from the tree itself:
 * linkedom's compareDocumentPosition compares depths only, which puts a shallow heading after a deeper title above it,
 * so the extractor and the paint-order check (paint.ts) both ask this instead.
 */
export function follows(node: Node, ref: Node): boolean {
  if (node === ref) return false;
  const pathOf = (n: Node): Node[] => {
    const path: Node[] = [];
    for (let p: Node | null = n; p; p = p.parentNode) path.push(p);
    return path.reverse();
  };
  const a = pathOf(node);
  const b = pathOf(ref);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === 0) return false;
  if (i === b.length) return true;
  if (i === a.length) return false;
  // Where the two paths part: `node`'s branch follows `ref`'s when it is among the siblings after it.
  for (let n = b[i].nextSibling; n; n = n.nextSibling) if (n === a[i]) return true;
  return false;
}

/** A heading's outline level: h1-h6 by tag, an ARIA heading by aria-level (2 without one). */
export function headingLevel(heading: Element): number {
  const tag = /^H([1-6])$/.exec(heading.tagName);
  if (tag) return Number(tag[1]);
  const level = Number(heading.getAttribute('aria-level'));
  return Number.isInteger(level) && level > 0 ? level : 2;
}

/** querySelectorAll that treats an invalid selector (bad engine data) as matching nothing. */
export function queryAll(root: QueryRoot, selector: string): Element[] {
  try {
    return Array.from(root.querySelectorAll(selector));
  } catch {
    return [];
  }
}

export function queryOne(root: QueryRoot, selector: string): Element | null {
  try {
    return root.querySelector(selector);
  } catch {
    return null;
  }
}

export function closest(el: Element, selector: string): Element | null {
  try {
    return el.closest(selector);
  } catch {
    return null;
  }
}

export function matches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function cap(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

/**
 * The text a reader sees: script/style contents skipped, block boundaries kept as spaces, whitespace collapsed.
 * @param skip elements whose text is left out (with everything inside them)
 */
export function visibleText(el: Element, skip?: ReadonlySet<Element>): string {
  const parts: string[] = [];
  const walk = (node: Node, depth: number): void => {
    // Depth bound: hostile pages can nest deeply enough to exhaust the stack.
    if (depth > 200) return;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        parts.push(child.nodeValue ?? '');
      } else if (child.nodeType === ELEMENT_NODE) {
        const tag = (child as Element).tagName.toUpperCase();
        if (INVISIBLE.has(tag) || skip?.has(child as Element)) continue;
        const breaks = BREAKING.has(tag);
        if (breaks) parts.push(' ');
        walk(child, depth + 1);
        if (breaks) parts.push(' ');
      }
    }
  };
  walk(el, 0);
  return collapse(parts.join(''));
}

/** Inline styles that hide an element and everything in it (no descendant can undo them). */
const INLINE_REMOVED = /(?:^|;)\s*display\s*:\s*none\b/i;
/** Inline styles that hide an element itself; its descendants may set visibility:visible again. */
const INLINE_INVISIBLE = /(?:^|;)\s*(?:visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0(?:\.0*)?\s*(?:;|$|!))/i;

/**
 * Whether the markup alone lets the user see `el`: no `hidden` attribute and no inline `display:none` on it or an
 * ancestor, no inline `visibility:hidden` or `opacity:0` on the element itself (on an ancestor they decide
 * nothing: a descendant may be visible again, and real pages do that). What needs stylesheets and layout is the
 * content script's check (ExtractOptions.isVisible, lib/app/serp/visibility.ts).
 */
export function markupVisible(el: Element): boolean {
  const own = el.getAttribute('style');
  if (own && INLINE_INVISIBLE.test(own)) return false;
  for (let p: Element | null = el; p; p = p.parentElement) {
    const hidden = p.getAttribute('hidden');
    if (hidden !== null && hidden !== 'until-found') return false;
    const style = p.getAttribute('style');
    if (style && INLINE_REMOVED.test(style)) return false;
  }
  return true;
}

/**
 * A set of excluded blocks, found once per page (one combined query; per selector when the combination is invalid,
 * so one bad selector in engine data does not disable the others).
 */
export class Exclusions {
  private readonly roots: Set<Element>;

  constructor(doc: QueryRoot, selectors: readonly string[]) {
    let found: Element[] = [];
    if (selectors.length > 0) {
      try {
        found = Array.from(doc.querySelectorAll(selectors.join(', ')));
      } catch {
        found = selectors.flatMap((s) => queryAll(doc, s));
      }
    }
    this.roots = new Set(found);
  }

  add(el: Element): void {
    this.roots.add(el);
  }

  /** Whether `el` is, or sits inside, an excluded block. */
  has(el: Element): boolean {
    if (this.roots.size === 0) return false;
    for (let p: Element | null = el; p; p = p.parentElement) if (this.roots.has(p)) return true;
    return false;
  }
}

/** Drops elements that sit inside another element of the list (keeps the outermost). */
export function outermost(elements: Element[]): Element[] {
  const set = new Set(elements);
  return elements.filter((el) => {
    for (let p = el.parentElement; p; p = p.parentElement) if (set.has(p)) return false;
    return true;
  });
}

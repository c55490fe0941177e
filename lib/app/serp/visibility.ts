/**
 * Whether a person can see an element of a rendered page: the check the results-page reader passes to the extractor
 * (ExtractOptions.isVisible) so that links a page hides from its reader never become seeds. It judges the element's
 * text as it is drawn, not its box: what is rendered at all (display, visibility, content-visibility), how opaque it
 * ends up (opacity and filter opacity multiplied through the ancestors), whether its ink differs from what is behind
 * it, where its text lies and how much of it is left after every clipping ancestor (overflow, clip, clip-path) and
 * the window (for fixed elements), and whether something is painted over it (paint.ts). Needs layout, so it runs in
 * the page (tested in real Chromium and Firefox: test/e2e/serp-reader.test.ts, test/e2e/hostile.test.ts and the
 * catalogue in test/fixtures/hostile); the window is a parameter, not a global, so the module stays importable
 * anywhere. Colour arithmetic lives in colour.ts, paint order in paint.ts.
 */
import { contrastRatio, parseColour, type Rgba } from './colour';
import { type Box, boxHeight, boxWidth, type DocBox, intersect, visibleRegion } from './geometry';
import { covered, effectiveOpacity, type PaintWindow } from './paint';

/** The window features the check uses (a browser Window fits). */
export type RenderedWindow = PaintWindow & { document: Pick<Document, 'createRange'> };

/** Visible text smaller than this (CSS px) in either direction is not something a person reads. */
export const MIN_TEXT = 4;
/** Opacity (through the ancestors and filters) under which text is not seen. */
const MIN_OPACITY = 0.1;
/** Contrast ratio (WCAG) of ink against what is behind it under which text is not seen (the same colour is 1). */
const MIN_CONTRAST = 1.25;

type CheckVisibility = (options?: object) => boolean;

/** display, visibility and content-visibility (itself and the ancestors), by the browser's own check where it has one. */
function styleRendered(el: Element, win: RenderedWindow): boolean {
  const check = (el as Element & { checkVisibility?: CheckVisibility }).checkVisibility;
  if (typeof check === 'function') {
    return check.call(el, { visibilityProperty: true, checkVisibilityCSS: true, contentVisibilityAuto: false });
  }
  for (let p: Element | null = el; p; p = p.parentElement) {
    if (win.getComputedStyle(p).display === 'none') return false;
  }
  const own = win.getComputedStyle(el).visibility;
  return own !== 'hidden' && own !== 'collapse';
}

/** The colour behind `el`: the first ancestor background that is not transparent, or null when an image is behind. */
function backgroundBehind(el: Element, win: RenderedWindow): Rgba | null {
  for (let p: Element | null = el; p; p = p.parentElement) {
    const s = win.getComputedStyle(p);
    if (s.backgroundImage && s.backgroundImage !== 'none') return null;
    const bg = parseColour(s.backgroundColor);
    if (bg === undefined) return null;
    if (bg && bg.a > 0.5) return bg;
  }
  // The canvas (a page that paints none is shown on white).
  return { r: 255, g: 255, b: 255, a: 1 };
}

/** Whether the ink of a text's parent stands out from what is behind it (unknown colours count as seen). */
function inkSeen(parent: Element, win: RenderedWindow): boolean {
  const s = win.getComputedStyle(parent);
  if (s.textShadow && s.textShadow !== 'none') return true;
  const fill = (s as CSSStyleDeclaration & { webkitTextFillColor?: string }).webkitTextFillColor;
  const ink = parseColour(fill || s.color);
  if (ink === undefined) return true;
  if (ink === null || ink.a < MIN_OPACITY) return false;
  const bg = backgroundBehind(parent, win);
  return bg === null || contrastRatio(ink, bg) >= MIN_CONTRAST;
}

/** The element's non-blank text nodes (at most `limit`), or none when it has no text (an image link). */
function textNodes(el: Element, limit = 50): Text[] {
  const out: Text[] = [];
  const walk = (node: Node) => {
    for (let c = node.firstChild; c && out.length < limit; c = c.nextSibling) {
      if (c.nodeType === 3) {
        if ((c.nodeValue ?? '').trim()) out.push(c as Text);
      } else if (c.nodeType === 1) walk(c);
    }
  };
  walk(el);
  return out;
}

/** The parts of `el`'s text (or of its box, when it has no text) a person may see, in viewport coordinates. */
function shownBoxes(el: Element, win: RenderedWindow, texts: Text[]): Box[] {
  const out: Box[] = [];
  const add = (rects: Iterable<DOMRect | Box>, region: Box | null) => {
    for (const rect of rects) {
      const b = region && intersect(region, rect);
      if (b && boxWidth(b) >= MIN_TEXT && boxHeight(b) >= MIN_TEXT) out.push(b);
    }
  };
  if (texts.length === 0) {
    add([el.getBoundingClientRect()], visibleRegion(el, win));
    return out;
  }
  const range = win.document.createRange();
  for (const t of texts) {
    const parent = t.parentElement;
    if (!parent || !inkSeen(parent, win)) continue;
    range.selectNodeContents(t);
    add(Array.from(range.getClientRects()), visibleRegion(parent, win));
  }
  return out;
}

/** Whether a box (document coordinates) lies where the page can be scrolled to: not above, left of or right of it. */
function onThePage(b: DocBox, win: RenderedWindow): boolean {
  const pageWidth = Math.max(win.document.documentElement.clientWidth, win.innerWidth);
  return b.right > 0 && b.bottom > 0 && b.left < pageWidth;
}

/**
 * Where a person can see `el`, in document coordinates (the parts of its text that are drawn, legible, on the page
 * and not painted over), or an empty list when they cannot see it at all. The results-page reader keeps what has
 * a place and compares those places with the results column (rendered.ts).
 */
export function seenBoxes(el: Element, win: RenderedWindow): DocBox[] {
  if (!styleRendered(el, win) || effectiveOpacity(el, win) < MIN_OPACITY) return [];
  const boxes = shownBoxes(el, win, textNodes(el))
    .map((b) => ({
      left: b.left + win.scrollX,
      top: b.top + win.scrollY,
      right: b.right + win.scrollX,
      bottom: b.bottom + win.scrollY,
    }))
    .filter((b) => onThePage(b, win));
  return boxes.filter((b) => !covered(el, b, win));
}

/** Whether a person can see `el` on the rendered page (see {@link seenBoxes}). */
export function isRendered(el: Element, win: RenderedWindow): boolean {
  return seenBoxes(el, win).length > 0;
}

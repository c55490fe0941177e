/**
 * What is painted over what, for the visibility check (visibility.ts): how opaque an element ends up, and whether
 * something is painted over a place of its text. Inside the window the browser answers (`elementFromPoint`, which
 * follows paint order, clip-path and negative z-index); everywhere (also below the fold, where hit testing cannot
 * reach without scrolling the user's page) an approximation of CSS paint order over the page's opaque boxes decides
 * too: positioned boxes above in-flow content, higher z-index above lower, later above earlier, and a negative
 * z-index under the in-flow backgrounds of its stacking context. Overlays that let clicks through
 * (`pointer-events: none`) are invisible to hit testing and caught by the approximation.
 */
import { follows } from './dom';
import { parseColour } from './colour';
import { type Box, type DocBox, type GeometryWindow, intersect, visibleRegion } from './geometry';

/** The window features paint order needs (a browser Window fits). */
export type PaintWindow = GeometryWindow &
  Pick<Window, 'scrollX' | 'scrollY'> & { document: Pick<Document, 'elementFromPoint' | 'querySelectorAll'> };

/** Opacity under which a box covers nothing. */
const MIN_COVER_OPACITY = 0.5;
/** At most this many elements are looked at for opaque boxes (a results page has a few thousand). */
const MAX_PAINTERS_SCANNED = 20_000;

/** The `opacity()` factors of a computed filter (`opacity(0.2) blur(1px)` gives 0.2; none gives 1). */
function filterOpacity(filter: string): number {
  let f = 1;
  for (const m of filter.matchAll(/opacity\(\s*([\d.]+)(%?)\s*\)/g)) f *= Number(m[1]) / (m[2] ? 100 : 1);
  return f;
}

/** Opacity as drawn: the element's and every ancestor's `opacity` and filter `opacity()` multiplied. */
export function effectiveOpacity(el: Element, win: Pick<Window, 'getComputedStyle'>): number {
  let o = 1;
  for (let p: Element | null = el; p; p = p.parentElement) {
    const s = win.getComputedStyle(p);
    o *= Number.parseFloat(s.opacity || '1') * filterOpacity(s.filter || 'none');
  }
  return o;
}

/** Where an element sits in paint order, roughly: its outermost stacking z-index, and whether it is positioned. */
interface Layer {
  z: number;
  positioned: boolean;
  /** The element carrying a negative z-index, when `z` < 0. */
  negativeRoot?: Element;
}

function layerOf(el: Element, win: GeometryWindow): Layer {
  let z = 0;
  let positioned = false;
  let negativeRoot: Element | undefined;
  for (let p: Element | null = el; p && p !== win.document.documentElement; p = p.parentElement) {
    const s = win.getComputedStyle(p);
    if (s.position === 'static') continue;
    positioned = true;
    const n = Number.parseInt(s.zIndex, 10);
    if (!Number.isNaN(n)) {
      z = n;
      negativeRoot = n < 0 ? p : undefined;
    }
  }
  return { z, positioned, negativeRoot };
}

/** An opaque box of the page: something that hides what it is painted over. */
export interface Painter {
  el: Element;
  box: DocBox;
  layer: Layer;
  /** Ignored by hit testing (`pointer-events: none`), so only this approximation sees it. */
  clickThrough: boolean;
}

const REPLACED = new Set(['IMG', 'VIDEO', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'svg']);

/** The page's opaque boxes in document coordinates, in document order (computed once per document). */
const paintersOf = new WeakMap<object, Painter[]>();
export function painters(win: PaintWindow): Painter[] {
  const cached = paintersOf.get(win.document);
  if (cached) return cached;
  const out: Painter[] = [];
  const all = win.document.querySelectorAll('body *');
  for (let i = 0; i < all.length && i < MAX_PAINTERS_SCANNED; i++) {
    const el = all[i];
    const s = win.getComputedStyle(el);
    const bg = parseColour(s.backgroundColor);
    const opaque =
      REPLACED.has(el.tagName) || (s.backgroundImage && s.backgroundImage !== 'none') || (bg && bg.a >= MIN_COVER_OPACITY);
    if (!opaque || s.visibility !== 'visible') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const shown = visibleRegion(el, win);
    const b = shown && intersect(shown, r);
    if (!b || effectiveOpacity(el, win) < MIN_COVER_OPACITY) continue;
    const box = {
      left: b.left + win.scrollX,
      top: b.top + win.scrollY,
      right: b.right + win.scrollX,
      bottom: b.bottom + win.scrollY,
    };
    out.push({ el, box, layer: layerOf(el, win), clickThrough: s.pointerEvents === 'none' });
  }
  paintersOf.set(win.document, out);
  return out;
}

/** Whether an element creates a stacking context of its own (so its background paints under its negative z children). */
function stackingContext(el: Element, win: GeometryWindow): boolean {
  const s = win.getComputedStyle(el);
  return (
    (s.position !== 'static' && s.zIndex !== 'auto') ||
    Number.parseFloat(s.opacity) < 1 ||
    s.transform !== 'none' ||
    s.filter !== 'none' ||
    s.isolation === 'isolate'
  );
}

/** Whether painter `p` is painted over `el`'s text (both laid out on one page; `el` is not inside `p`). */
function paintsOver(p: Painter, el: Element, layer: Layer, win: PaintWindow): boolean {
  if (p.el.contains(el)) {
    // An ancestor's background is under its content, unless the content sits at a negative z-index below it.
    if (!layer.negativeRoot || !p.el.contains(layer.negativeRoot) || p.layer.positioned) return false;
    const html = win.document.documentElement;
    if (p.el === win.document.body && parseColour(win.getComputedStyle(html).backgroundColor) === null) return false;
    for (let a = layer.negativeRoot.parentElement; a && a !== p.el; a = a.parentElement) {
      if (stackingContext(a, win)) return false;
    }
    return !stackingContext(p.el, win);
  }
  if (el.contains(p.el)) return false;
  if (p.layer.z !== layer.z) return p.layer.z > layer.z;
  if (layer.z < 0 && !p.layer.positioned) return false;
  if (p.layer.positioned !== layer.positioned) return p.layer.positioned;
  // Both in flow: backgrounds are painted before all text, and replaced content in order.
  if (!p.layer.positioned) return REPLACED.has(p.el.tagName) && follows(p.el, el);
  return follows(p.el, el);
}

/** The link a shown element belongs to (its own, the one around it, or the one inside it). */
function linkOf(el: Element): Element | null {
  return el.closest('a[href]') ?? el.querySelector('a[href]');
}

/**
 * Whether a hit-tested element is `el`'s own rendering: inside it, the same link (a card-wide overlay link), or the
 * box around it when the link lets clicks through (`pointer-events: none` on it: hit testing passes it by).
 */
function isOwn(hit: Element, el: Element, link: Element | null, win: PaintWindow): boolean {
  if (el.contains(hit) || link?.contains(hit)) return true;
  if (hit.contains(el) && win.getComputedStyle(link ?? el).pointerEvents === 'none') return true;
  const hitLink = hit.closest('a[href]');
  return !!link && !!hitLink && hitLink.getAttribute('href') === link.getAttribute('href');
}

/**
 * Whether a hit-tested element that is not `el`'s paints something opaque at (x, y) (document coordinates): it or
 * an ancestor below the one it shares with `el` is one of the page's opaque boxes there. A transparent layer that
 * only catches clicks (an invisible menu, a click shield) covers nothing a person sees.
 */
const opaqueBoxes = new WeakMap<object, Map<Element, DocBox>>();
function paintsAt(hit: Element, el: Element, x: number, y: number, win: PaintWindow): boolean {
  let opaque = opaqueBoxes.get(win.document);
  if (!opaque) {
    opaque = new Map(painters(win).map((p) => [p.el, p.box]));
    opaqueBoxes.set(win.document, opaque);
  }
  for (let a: Element | null = hit; a && !a.contains(el); a = a.parentElement) {
    const b = opaque.get(a);
    if (b && x >= b.left && x < b.right && y >= b.top && y < b.bottom) return true;
  }
  return false;
}

/** Points spread over a box: its centre and four inner points. */
function samplePoints(b: Box): [number, number][] {
  const x = (f: number) => b.left + (b.right - b.left) * f;
  const y = (f: number) => b.top + (b.bottom - b.top) * f;
  return [
    [x(0.5), y(0.5)],
    [x(0.25), y(0.3)],
    [x(0.75), y(0.3)],
    [x(0.25), y(0.7)],
    [x(0.75), y(0.7)],
  ];
}

/**
 * Whether every sample point of `box` (document coordinates, a place of `el`'s text) has something painted over it:
 * another element where hit testing reaches (the window), or an opaque box above it in paint order anywhere.
 */
export function covered(el: Element, box: DocBox, win: PaintWindow): boolean {
  const link = linkOf(el);
  const layer = layerOf(el, win);
  const over = painters(win).filter((p) => intersect(p.box, box) && paintsOver(p, el, layer, win));
  return samplePoints(box).every(([x, y]) => {
    const vx = x - win.scrollX;
    const vy = y - win.scrollY;
    const inWindow = vx >= 0 && vy >= 0 && vx < win.innerWidth && vy < win.innerHeight;
    const hit = inWindow ? win.document.elementFromPoint(vx, vy) : null;
    if (hit && !isOwn(hit, el, link, win) && (hit.contains(el) || paintsAt(hit, el, x, y, win))) return true;
    const contains = (p: Painter) => x >= p.box.left && x < p.box.right && y >= p.box.top && y < p.box.bottom;
    // Where hit testing saw the text, only what it cannot see (click-through overlays) may still cover it.
    return over.some((p) => contains(p) && (!hit || p.clickThrough));
  });
}

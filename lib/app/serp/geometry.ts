/**
 * Where on a rendered page something can show: boxes in viewport coordinates, and the region left to an element after
 * every clipping ancestor (overflow, `clip`, `clip-path`) and, for fixed elements, the window. Part of the visibility
 * check (visibility.ts); the window is a parameter so the module is importable anywhere.
 */

/** A rectangle: viewport coordinates unless named otherwise. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A rectangle in document coordinates (viewport plus scroll). */
export type DocBox = Box;

/** The window features geometry needs (a browser Window fits). */
export type GeometryWindow = Pick<Window, 'getComputedStyle' | 'innerWidth' | 'innerHeight'> & {
  document: Pick<Document, 'documentElement' | 'body'>;
};

export const boxWidth = (b: Box) => b.right - b.left;
export const boxHeight = (b: Box) => b.bottom - b.top;

/** The overlap of two boxes, or null when they do not overlap. */
export function intersect(a: Box, b: Box): Box | null {
  const out = {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
  return out.right > out.left && out.bottom > out.top ? out : null;
}

/** A CSS length or percentage of `size` (`12px`, `50%`, `0`), or NaN. */
function length(value: string, size: number): number {
  const v = value.trim();
  if (v.endsWith('%')) return (Number.parseFloat(v) / 100) * size;
  if (v === '0' || v.endsWith('px')) return Number.parseFloat(v);
  return Number.NaN;
}

/** The area of a polygon (shoelace formula). */
function polygonArea(points: [number, number][]): number {
  let twice = 0;
  points.forEach(([x1, y1], i) => {
    const [x2, y2] = points[(i + 1) % points.length];
    twice += x1 * y2 - x2 * y1;
  });
  return Math.abs(twice) / 2;
}

const EMPTY: Box = { left: 0, top: 0, right: 0, bottom: 0 };

/**
 * The bounding box (viewport coordinates) of a computed `clip-path` basic shape on an element whose border box is
 * `r`: polygon() (an empty box when its area is under `minArea`), inset(), circle(), ellipse(). Null for what it does
 * not read (url(), path(), shapes in other units): hit testing judges those where it can.
 */
export function clipPathBox(clipPath: string, r: Box, minArea = 16): Box | null {
  const w = boxWidth(r);
  const h = boxHeight(r);
  const m = /^(polygon|inset|circle|ellipse)\((.*)\)/.exec(clipPath.trim());
  if (!m) return null;
  const args = m[2];
  if (m[1] === 'polygon') {
    const points = args
      .replace(/^\s*(nonzero|evenodd)\s*,/, '')
      .split(',')
      .map((p) => p.trim().split(/\s+/))
      .map(([x, y]) => [length(x ?? '', w), length(y ?? '', h)] as [number, number]);
    if (points.some(([x, y]) => Number.isNaN(x) || Number.isNaN(y))) return null;
    if (points.length < 3 || polygonArea(points) < minArea) return EMPTY;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return {
      left: r.left + Math.min(...xs),
      top: r.top + Math.min(...ys),
      right: r.left + Math.max(...xs),
      bottom: r.top + Math.max(...ys),
    };
  }
  if (m[1] === 'inset') {
    const parts = args
      .split(/\s+round\s+/)[0]
      .trim()
      .split(/\s+/);
    const [t, rt = t, b = t, l = rt] = parts;
    const [top, right, bottom, left] = [length(t, h), length(rt, w), length(b, h), length(l, w)];
    if ([top, right, bottom, left].some(Number.isNaN)) return null;
    return { left: r.left + left, top: r.top + top, right: r.right - right, bottom: r.bottom - bottom };
  }
  const [radii, at = ''] = args.split(/\s+at\s+/);
  const rs = radii.trim().split(/\s+/).filter(Boolean);
  const rx = length(rs[0] ?? '50%', m[1] === 'circle' ? Math.hypot(w, h) / Math.SQRT2 : w);
  const ry = m[1] === 'circle' ? rx : length(rs[1] ?? '50%', h);
  const [cx, cy] = at ? at.trim().split(/\s+/) : ['50%', '50%'];
  const x = length(cx ?? '50%', w);
  const y = length(cy ?? '50%', h);
  if ([rx, ry, x, y].some(Number.isNaN)) return null;
  return { left: r.left + x - rx, top: r.top + y - ry, right: r.left + x + rx, bottom: r.top + y + ry };
}

/** Whether an element clips what overflows it (overflow other than visible, or a `clip`). */
function clips(s: CSSStyleDeclaration): boolean {
  return s.overflowX !== 'visible' || s.overflowY !== 'visible' || (s.clip !== '' && s.clip !== 'auto');
}

/** A computed `clip: rect(top, right, bottom, left)` as a box on the element's box `r`, or null when there is none. */
function clipRect(clip: string, r: Box): Box | null {
  const m = /^rect\(\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px\s*\)$/.exec(clip);
  if (!m) return null;
  const [top, right, bottom, left] = m.slice(1).map(Number);
  return { left: r.left + left, top: r.top + top, right: r.left + right, bottom: r.top + bottom };
}

const EVERYWHERE: Box = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };

/**
 * Where `start`'s rendering may show, in viewport coordinates: the intersection of its own and every ancestor's
 * clipping box (overflow, clip, clip-path) below the root; with a fixed ancestor, also the window (a fixed element
 * never scrolls into view). Null when nothing is left.
 */
export function visibleRegion(start: Element, win: GeometryWindow): Box | null {
  let region: Box | null = EVERYWHERE;
  const root = win.document.documentElement;
  for (let p: Element | null = start; p && p !== root && region; p = p.parentElement) {
    const s = win.getComputedStyle(p);
    const clipPath = s.clipPath && s.clipPath !== 'none' ? s.clipPath : null;
    if (!clips(s) && !clipPath && s.position !== 'fixed') continue;
    const r = p.getBoundingClientRect();
    // The body's overflow applies to the viewport (it scrolls), not to the body's box.
    if (clips(s) && p !== win.document.body) region = intersect(region, r);
    const c = region && s.clip && s.clip !== 'auto' ? clipRect(s.clip, r) : null;
    if (region && c) region = intersect(region, c);
    const cp = region && clipPath ? clipPathBox(clipPath, r) : null;
    if (region && cp) region = intersect(region, cp);
    if (region && s.position === 'fixed')
      region = intersect(region, { left: 0, top: 0, right: win.innerWidth, bottom: win.innerHeight });
  }
  return region;
}

/**
 * Reads a rendered results page the way a person sees it: the extractor (extract.ts) with the visibility check
 * (visibility.ts), and then the results column. A result is kept only where it is seen and belongs to the run of
 * results the reader scrolls through from the top: results separated from the rest by more than
 * {@link COLUMN_GAP_SCREENS} screens of page where nothing is drawn (a link parked 60,000 px down) are not part of
 * it. Pictures or text all along the way (an unstyled page's huge logos) keep the column going. Runs in the page (entrypoints/serp-reader.ts); the window is a parameter.
 */
import { extractSerp } from './extract';
import type { DocBox } from './geometry';
import { painters } from './paint';
import type { SerpExtraction } from './types';
import { type RenderedWindow, seenBoxes } from './visibility';

/** Screens (window heights, at least 1,000 px) of empty page that end the results column. */
export const COLUMN_GAP_SCREENS = 2;

/** The span of the seen boxes, top to bottom (document coordinates). */
function span(boxes: DocBox[]): { top: number; bottom: number } {
  return { top: Math.min(...boxes.map((b) => b.top)), bottom: Math.max(...boxes.map((b) => b.bottom)) };
}

/**
 * The longest stretch between `top` and `bottom` (document coordinates) where nothing is drawn beside `el`: no
 * opaque box, picture or text a person sees.
 */
export function longestBlank(top: number, bottom: number, el: Element, win: RenderedWindow): number {
  const between = (b: DocBox) => b.bottom > top && b.top < bottom;
  const drawn: DocBox[] = painters(win)
    .filter((p) => between(p.box) && !p.el.contains(el) && !el.contains(p.el))
    .map((p) => p.box);
  const texts = win.document.createRange();
  for (const p of Array.from(win.document.querySelectorAll('body *'))) {
    if (p.contains(el) || el.contains(p)) continue;
    for (let c = p.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 3 || !(c.nodeValue ?? '').trim()) continue;
      texts.selectNodeContents(c);
      const r = texts.getBoundingClientRect();
      if (r.width > 0 && between({ left: 0, right: 0, top: r.top + win.scrollY, bottom: r.bottom + win.scrollY })) {
        drawn.push(...seenBoxes(p, win).filter(between));
        break;
      }
    }
  }
  drawn.sort((x, y) => x.top - y.top);
  let longest = 0;
  let cursor = top;
  for (const d of drawn) {
    longest = Math.max(longest, d.top - cursor);
    cursor = Math.max(cursor, d.bottom);
  }
  return Math.max(longest, bottom - cursor);
}

/**
 * The results in the column: starting from the topmost seen result, each next one (top to bottom) that starts
 * within `gap` of where the column so far ends, or further with no blank stretch over `gap` in between
 * (`blank(end, top, el)`: {@link longestBlank}). Returns the elements that are outside it.
 */
export function outsideColumn(
  seen: Map<Element, DocBox[]>,
  gap: number,
  blank: (top: number, bottom: number, el: Element) => number,
): Set<Element> {
  const placed = [...seen].filter(([, boxes]) => boxes.length > 0).map(([el, boxes]) => ({ el, ...span(boxes) }));
  placed.sort((a, b) => a.top - b.top);
  const out = new Set<Element>();
  let end = placed.length > 0 ? placed[0].bottom : 0;
  for (const p of placed) {
    if (p.top - end > gap && blank(end, p.top, p.el) > gap) out.add(p.el);
    else end = Math.max(end, p.bottom);
  }
  return out;
}

/** The page's extraction, with only the results a person sees in the results column. */
export function extractRendered(doc: Document, url: string, win: RenderedWindow): SerpExtraction {
  const seen = new Map<Element, DocBox[]>();
  const look = (el: Element): DocBox[] => {
    let boxes = seen.get(el);
    if (!boxes) {
      boxes = seenBoxes(el, win);
      seen.set(el, boxes);
    }
    return boxes;
  };
  // First pass: where each candidate is seen. Second: the same reading, less what lies outside the column.
  extractSerp(doc, url, undefined, { isVisible: (el) => look(el).length > 0 });
  const gap = COLUMN_GAP_SCREENS * Math.max(win.innerHeight, 1000);
  const outside = outsideColumn(seen, gap, (top, bottom, el) => longestBlank(top, bottom, el, win));
  return extractSerp(doc, url, undefined, { isVisible: (el) => look(el).length > 0 && !outside.has(el) });
}

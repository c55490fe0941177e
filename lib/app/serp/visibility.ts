/**
 * Whether the user can see an element of a rendered page: the check the results-page reader passes to the extractor
 * (ExtractOptions.isVisible) so that links a page hides from its reader never become seeds. Needs layout, so it runs
 * in the page (tested in real Chromium and Firefox, test/e2e/serp-reader.test.ts); the window is a parameter, not a
 * global, so the module stays importable anywhere.
 */

/** The window features the check uses (a browser Window fits). */
export type RenderedWindow = Pick<Window, 'getComputedStyle' | 'scrollX' | 'scrollY'> & {
  document: { documentElement: { clientWidth: number } };
};

/** Smaller than this (CSS px) in either direction is not something a reader sees (the "visually hidden" 1px pattern). */
const MIN_SIZE = 2;

/** Whether a computed `clip: rect(top, right, bottom, left)` leaves less than MIN_SIZE in either direction. */
function clipsToNothing(clip: string): boolean {
  const m = /^rect\(\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px,?\s*(-?[\d.]+)px\s*\)$/.exec(clip);
  if (!m) return false;
  const [top, right, bottom, left] = m.slice(1).map(Number);
  return right - left < MIN_SIZE || bottom - top < MIN_SIZE;
}

/**
 * Whether `el` is rendered where the user can see it: not display:none, visibility:hidden or opacity:0 (itself or
 * an ancestor; `checkVisibility` where the browser has it), not smaller than 2 px, not clipped away by a collapsed
 * ancestor (overflow/clip with no size), and not placed off the page (entirely above or left of the document, or
 * right of the page width). Below the fold is fine: results pages scroll.
 */
export function isRendered(el: Element, win: RenderedWindow): boolean {
  const check = (el as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
  if (typeof check === 'function') {
    if (!check.call(el, { opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true }))
      return false;
  } else {
    for (let p: Element | null = el; p; p = p.parentElement) {
      const style = win.getComputedStyle(p);
      if (style.display === 'none' || Number.parseFloat(style.opacity) === 0) return false;
    }
    const own = win.getComputedStyle(el);
    if (own.visibility === 'hidden' || own.visibility === 'collapse') return false;
  }
  const rect = el.getBoundingClientRect();
  if (rect.width < MIN_SIZE || rect.height < MIN_SIZE) return false;
  const left = rect.left + win.scrollX;
  const top = rect.top + win.scrollY;
  if (left + rect.width <= 0 || top + rect.height <= 0) return false;
  if (left >= win.document.documentElement.clientWidth) return false;
  // An ancestor that clips its content (overflow other than visible, a clip or clip-path) and has no size hides it.
  for (let p: Element | null = el; p; p = p.parentElement) {
    const style = win.getComputedStyle(p);
    const clips =
      style.overflow !== 'visible' ||
      style.overflowX !== 'visible' ||
      style.overflowY !== 'visible' ||
      (style.clip !== '' && style.clip !== 'auto') ||
      (style.clipPath !== '' && style.clipPath !== 'none');
    if (!clips) continue;
    const r = p.getBoundingClientRect();
    if (r.width < MIN_SIZE || r.height < MIN_SIZE) return false;
    if (clipsToNothing(style.clip) || /inset\(\s*50%|circle\(\s*0(?:px)?\s*[)a]/.test(style.clipPath)) return false;
  }
  return true;
}

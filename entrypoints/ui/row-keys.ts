/**
 * Keyboard movement in a result list (WAI-ARIA's roving tabindex): each row is one tab stop (its title link, or the
 * action last focused in it); Up / Down move between rows, Left / Right between a row's link and its actions, Home /
 * End to the first and last row. A focused control that a re-render takes out of the document (a judged row re-ranked
 * or removed) hands focus to the row that followed it, or to the row now at its place, if that row is in view: focus
 * never drops to the page's body and never jumps by itself to something out of view. Rows are the list's
 * `[data-row]` elements; their items are its links and enabled buttons, in document order.
 */
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

const ITEMS = 'a[href], button:not([disabled]):not([hidden])';

const rowsOf = (list: HTMLElement): HTMLElement[] => Array.from(list.querySelectorAll<HTMLElement>('[data-row]'));
const itemsOf = (row: HTMLElement | undefined): HTMLElement[] =>
  row ? Array.from(row.querySelectorAll<HTMLElement>(ITEMS)) : [];

/** Whether `el` shows: inside the viewport and inside every box around it that clips. */
export function isInView(el: HTMLElement): boolean {
  const box = el.getBoundingClientRect();
  if (box.height === 0 || box.bottom <= 0 || box.top >= window.innerHeight) return false;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (!/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowY)) continue;
    const outer = p.getBoundingClientRect();
    if (box.bottom <= outer.top || box.top >= outer.bottom) return false;
  }
  return true;
}

interface RowFocus {
  /** The item focused last in each row: the row's tab stop. */
  stops: WeakMap<HTMLElement, HTMLElement>;
  /** Focus is in the list (set on focus, cleared when the user moves it elsewhere). */
  within: boolean;
  /** Where focus was: the row's index and the key of the row after it. */
  index: number;
  nextKey: string | null;
}

function applyTabStops(list: HTMLElement, focus: RowFocus): void {
  for (const row of rowsOf(list)) {
    const items = itemsOf(row);
    const last = focus.stops.get(row);
    const stop = last && items.includes(last) ? last : items[0];
    for (const item of items) {
      const tabIndex = item === stop ? 0 : -1;
      if (item.tabIndex !== tabIndex) item.tabIndex = tabIndex;
    }
  }
}

export function useRowKeys(listRef: RefObject<HTMLElement>): void {
  const focus = useRef<RowFocus>({ stops: new WeakMap(), within: false, index: 0, nextKey: null }).current;
  useLayoutEffect(() => {
    if (listRef.current) applyTabStops(listRef.current, focus);
  });
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onFocusIn = (e: FocusEvent) => {
      const target = e.target as HTMLElement;
      const row = target.closest<HTMLElement>('[data-row]');
      if (!row) return;
      const rows = rowsOf(list);
      focus.stops.set(row, target);
      focus.within = true;
      focus.index = rows.indexOf(row);
      focus.nextKey = rows[focus.index + 1]?.dataset.row ?? null;
      applyTabStops(list, focus);
    };
    const onFocusOut = (e: FocusEvent) => {
      const next = e.relatedTarget as Node | null;
      if (next && !list.contains(next)) focus.within = false;
    };
    const onPointerDown = (e: Event) => {
      if (!list.contains(e.target as Node)) focus.within = false;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const target = e.target as HTMLElement;
      const row = target.closest<HTMLElement>('[data-row]');
      if (!row) return;
      const rows = rowsOf(list);
      const items = itemsOf(row);
      const at = rows.indexOf(row);
      const here = items.indexOf(target);
      const moves: Record<string, () => HTMLElement | undefined> = {
        ArrowDown: () => itemsOf(rows[at + 1])[0],
        ArrowUp: () => itemsOf(rows[at - 1])[0],
        Home: () => itemsOf(rows[0])[0],
        End: () => itemsOf(rows[rows.length - 1])[0],
        ArrowRight: () => items[(here + 1) % items.length],
        ArrowLeft: () => items[(here - 1 + items.length) % items.length],
      };
      const move = moves[e.key];
      if (!move) return;
      e.preventDefault();
      move()?.focus();
    };
    const observer = new MutationObserver(() => {
      applyTabStops(list, focus);
      const active = document.activeElement;
      if (!focus.within || (active && active !== document.body)) return;
      const rows = rowsOf(list);
      const candidates = [rows.find((r) => r.dataset.row === focus.nextKey), rows[Math.min(focus.index, rows.length - 1)]];
      const item = candidates.map((r) => itemsOf(r)[0]).find((i) => i && isInView(i));
      if (item) item.focus({ preventScroll: true });
    });
    observer.observe(list, { childList: true, subtree: true });
    list.addEventListener('focusin', onFocusIn);
    list.addEventListener('focusout', onFocusOut);
    list.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      observer.disconnect();
      list.removeEventListener('focusin', onFocusIn);
      list.removeEventListener('focusout', onFocusOut);
      list.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [listRef.current]);
}

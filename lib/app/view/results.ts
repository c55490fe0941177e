import type { PageResult } from '../../engine';

/**
 * Merges new pages into a best-first list: one entry per URL (the newer wins), best score first, ties by URL so the
 * order is stable, cut to `limit`. Used by the UIs to fold deltas into what they show.
 */
export function mergeResults(current: PageResult[], incoming: PageResult[], limit = Infinity): PageResult[] {
  if (incoming.length === 0 && current.length <= limit) return current;
  const byUrl = new Map<string, PageResult>();
  for (const p of current) byUrl.set(p.url, p);
  for (const p of incoming) byUrl.set(p.url, p);
  const all = [...byUrl.values()].sort((a, b) => b.score - a.score || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return all.length > limit ? all.slice(0, limit) : all;
}

/**
 * What a watch's check makes of a page: new (never seen by the watch), changed (its main content's hash differs
 * from the one stored), or neither. A check stores every page it reads with `firstSeenAt` and `changedAt` carried
 * over from the stored copy or set to the check's start, so the stored pages alone say what the last check found:
 * that survives a worker killed mid-check, a browser restart, and a page fetched twice within one check.
 */
import type { PageResult } from '../../engine';
import type { WatchCheck, WatchState } from '../model/records';
import { relevanceCut } from '../rules/relevance';

/** The page as stored before a check reads it again. */
export type KnownPage = Pick<PageResult, 'contentHash' | 'firstSeenAt' | 'changedAt' | 'depth' | 'from'>;

/** A page a check just read, with what the watch knows of it. */
export function annotatePage(page: PageResult, known: KnownPage | undefined, check: Pick<WatchCheck, 'startedAt'>): PageResult {
  if (!known) return { ...page, firstSeenAt: check.startedAt };
  // Fetched again as a revisited page (depth 0, no referrer): the way it was first found is still the way there.
  const out: PageResult = { ...page, depth: known.depth };
  if (known.from !== undefined) out.from = known.from;
  else delete out.from;
  delete out.firstSeenAt;
  delete out.changedAt;
  if (known.firstSeenAt !== undefined) out.firstSeenAt = known.firstSeenAt;
  // Without both hashes (a page stored before hashes existed) nothing says it changed.
  const changed = known.contentHash !== undefined && page.contentHash !== undefined && known.contentHash !== page.contentHash;
  if (changed) out.changedAt = check.startedAt;
  else if (known.changedAt !== undefined) out.changedAt = known.changedAt;
  return out;
}

/** A watch's pages sorted for its view. */
export interface WatchDiff {
  /** Found by the last check for the first time (best first). */
  added: PageResult[];
  /** Known before, main content changed in the last check (best first). */
  changed: PageResult[];
  /** Everything else (best first). */
  rest: PageResult[];
  /** New pages that are relevant: not seeds, not noindex, at or above the relevance cut of all the watch's pages. */
  newRelevant: number;
}

/** Sorts pages (best first) into new, changed and the rest by the watch's last check. */
export function diffPages(pages: readonly PageResult[], watch: WatchState | undefined): WatchDiff {
  const check = watch?.check;
  const added: PageResult[] = [];
  const changed: PageResult[] = [];
  const rest: PageResult[] = [];
  let best = 0;
  for (const p of pages) if (!p.noindex && p.score > best) best = p.score;
  const cut = relevanceCut(best);
  let newRelevant = 0;
  for (const p of pages) {
    if (check && p.firstSeenAt === check.startedAt) {
      added.push(p);
      if (!p.isSeed && !p.noindex && p.score >= cut) newRelevant++;
    } else if (check && p.changedAt === check.startedAt) changed.push(p);
    else rest.push(p);
  }
  return { added, changed, rest, newRelevant };
}

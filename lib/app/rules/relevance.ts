/**
 * What the UI calls a "new relevant page", defined once for the popup, the results page, the headline counts and the
 * toolbar badge.
 *
 * - new: not among the crawl's seeds (the search's own results or the page the crawl started from).
 * - relevant: a score of at least {@link RELEVANCE.fraction} of the crawl's best score, and never under
 *   {@link RELEVANCE.floor}. Relative to the crawl because cosine scores sit at different heights for different topics
 *   (a short query against long pages scores lower throughout); the floor keeps a crawl that found nothing good from
 *   calling its least bad pages relevant.
 * - pages marked noindex are never listed.
 */
import type { PageResult } from '../../engine';
import type { PageScore } from '../model/views';

export type { PageScore };

export const RELEVANCE = {
  /**
   * Share of the best score a page needs. Checked on the lab's tuning topics (lab/tuning/README.md, "The extension's
   * relevance cut"): F1 for target pages is flat from 0.35 to 0.65, and 0.35 lists 68% of the targets against 43%.
   */
  fraction: 0.35,
  /** Least score a relevant page has, whatever the best. */
  floor: 0.05,
} as const;

/** The score a page needs to count as relevant in a crawl whose best score is `best`. */
export function relevanceCut(best: number): number {
  return Math.max(RELEVANCE.floor, RELEVANCE.fraction * (Number.isFinite(best) ? best : 0));
}

export interface ResultCounts {
  /** Score a relevant page has at least. */
  cut: number;
  /** New pages at or above the cut: the headline and the badge. */
  newRelevant: number;
  /** New pages under the cut (hidden by default). */
  lowRelevance: number;
  /** Pages that were seeds (the search's own results; hidden by default). */
  fromSearch: number;
}

/**
 * Every listed page's score of one crawl, by URL (a page arriving twice, e.g. in the snapshot and again in a delta,
 * counts once). The best score is over all listed pages, seeds included.
 */
export class ScoreTally {
  private readonly byUrl = new Map<string, PageScore>();
  private best = 0;

  constructor(pages: Iterable<PageScore> = []) {
    this.add(pages);
  }

  add(pages: Iterable<PageScore & { noindex?: boolean }>): void {
    for (const p of pages) {
      if (p.noindex) continue;
      this.byUrl.set(p.url, { url: p.url, score: p.score, isSeed: p.isSeed });
      if (p.score > this.best) this.best = p.score;
    }
  }

  get size(): number {
    return this.byUrl.size;
  }

  counts(): ResultCounts {
    const cut = relevanceCut(this.best);
    let newRelevant = 0;
    let lowRelevance = 0;
    let fromSearch = 0;
    for (const p of this.byUrl.values()) {
      if (p.isSeed) fromSearch++;
      else if (p.score >= cut) newRelevant++;
      else lowRelevance++;
    }
    return { cut, newRelevant, lowRelevance, fromSearch };
  }

  /** The scores in the compact form a snapshot carries. */
  toScores(): PageScore[] {
    return [...this.byUrl.values()];
  }
}

/** What a result list shows by default and on request. */
export interface ListFilter {
  /** Show the search's own results too. */
  showSearch: boolean;
  /** Show pages under the cut too. */
  showLow: boolean;
  /** URLs the user hid. */
  hidden?: ReadonlySet<string>;
}

/** The rows a list shows: noindex pages never; seeds, low-relevance and hidden pages only when asked. */
export function visiblePages(pages: readonly PageResult[], cut: number, filter: ListFilter): PageResult[] {
  return pages.filter(
    (p) =>
      !p.noindex &&
      !filter.hidden?.has(p.url) &&
      (filter.showSearch || !p.isSeed) &&
      (filter.showLow || p.isSeed || p.score >= cut),
  );
}

/** Scores with new pages folded in (one entry per URL, the newer wins; noindex pages left out). */
export function mergeScores(scores: readonly PageScore[], pages: readonly (PageScore & { noindex?: boolean })[]): PageScore[] {
  if (pages.length === 0) return scores as PageScore[];
  const tally = new ScoreTally(scores);
  tally.add(pages);
  return tally.toScores();
}

/** The counts of a list of scores. */
export function countsOf(scores: readonly PageScore[]): ResultCounts {
  return new ScoreTally(scores).counts();
}

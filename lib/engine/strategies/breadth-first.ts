/**
 * Breadth-First: the classic baseline of topical crawler evaluations (e.g. Menczer, Pant & Srinivasan, "Topical web
 * crawlers: evaluating adaptive algorithms", ACM TOIT 2004). It ignores the topic when choosing what to fetch.
 */
import type { EvaluatedPage, FrontierEntry, ReadyTest, StrategyContext } from '../types';
import { FrontierStrategy } from './frontier-strategy';
import type { StrategyInfo } from './spec';

/**
 * Breadth-First crawling strategy over the bounded frontier.
 *
 * - Seeds first (depth 0), then links in the order they were found: every link has the same score, and the frontier
 *   keeps equal scores in insertion order, so it is first in, first out. When the frontier is full, new links are
 *   dropped (an equal score never evicts: the queued links are the shallower ones).
 * - `next`: the oldest link whose site may be contacted now. No randomness is involved.
 */
export class BreadthFirst extends FrontierStrategy {
  readonly name = 'breadth-first';

  constructor(ctx: StrategyContext) {
    super(ctx, 1);
  }

  onPage(page: EvaluatedPage): void {
    for (const link of page.links) this.enqueue(link.url, 0, page);
  }

  next(ready: ReadyTest): FrontierEntry | null {
    return this.drawFromBest(1, ready);
  }
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const breadthFirstInfo: StrategyInfo = {
  name: 'breadth-first',
  label: 'Breadth-First',
  description: 'Fetches links in the order they were found (FIFO), ignoring the topic: the usual baseline.',
  source:
    'F. Menczer, G. Pant, P. Srinivasan. Topical web crawlers: evaluating adaptive algorithms. ' +
    'ACM Transactions on Internet Technology 4(4), 2004 (Breadth-First baseline).',
  params: [],
  create: (ctx) => new BreadthFirst(ctx),
};

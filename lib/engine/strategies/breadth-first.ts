/**
 * Breadth-First: the classic baseline of topical crawler evaluations (e.g. Menczer, Pant & Srinivasan, "Topical web
 * crawlers: evaluating adaptive algorithms", ACM TOIT 2004). It ignores the topic when choosing what to fetch.
 */
import type { EvaluatedPage, FrontierEntry, Json, Strategy, StrategyContext } from '../types';
import { FifoFrontier } from '../frontier/fifo-frontier';
import { positiveIntParam, type StrategyInfo } from './spec';

/** Default batch size, the same as Best-N-First's N so the two compare round for round. */
export const DEFAULT_BATCH = 16;

/**
 * Breadth-First crawling strategy over a bounded FIFO frontier.
 *
 * - Seeds first (depth 0), then links in the order they were found. When the frontier is full, new links are
 *   dropped (the queued ones are shallower).
 * - Each link carries its parent's score (for display only; it does not affect the order).
 * - Meta robots nofollow is respected; rel=nofollow links are followed (a ranking hint, not a crawl ban).
 * - `nextBatch(max)` takes up to min(n, max) entries, in FIFO order. No randomness is involved.
 */
export class BreadthFirst implements Strategy {
  readonly name = 'breadth-first';
  /** Links taken per round. */
  readonly n: number;
  private frontier: FifoFrontier;

  /** @param ctx params.n (batch size, default {@link DEFAULT_BATCH}), maxBuffer = frontier capacity. */
  constructor(ctx: StrategyContext) {
    this.n = positiveIntParam(ctx.params, 'n', DEFAULT_BATCH);
    this.frontier = new FifoFrontier(ctx.maxBuffer);
  }

  addSeeds(urls: string[]): void {
    for (const url of urls) this.frontier.add({ url, score: 1, depth: 0 });
  }

  onPage(page: EvaluatedPage): void {
    if (page.evaluation.robots?.nofollow) return;
    const s = page.evaluation.score;
    const score = typeof s === 'number' && Number.isFinite(s) ? s : 0;
    const depth = page.depth + 1;
    for (const link of page.links) this.frontier.add({ url: link.url, score, depth, from: page.url });
  }

  nextBatch(max: number): FrontierEntry[] {
    const k = Math.min(this.n, Math.floor(max));
    return k > 0 ? this.frontier.take(k) : [];
  }

  frontierSize(): number {
    return this.frontier.size;
  }

  /** The queued links, oldest first (for display). */
  entries(): FrontierEntry[] {
    return this.frontier.entries();
  }

  save(): Json {
    return { n: this.n, frontier: this.frontier.toJSON() };
  }

  /** @throws TypeError if `state` is not the output of {@link save}. */
  restore(state: Json): void {
    if (state === null || typeof state !== 'object' || Array.isArray(state)) {
      throw new TypeError('invalid breadth-first state: not an object');
    }
    this.frontier = FifoFrontier.fromJSON(state.frontier);
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
  params: [
    {
      name: 'n',
      label: 'Batch size',
      type: 'number',
      default: DEFAULT_BATCH,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'links handed out per round (fetched concurrently); the order stays first-in, first-out',
    },
  ],
  create: (ctx) => new BreadthFirst(ctx),
};

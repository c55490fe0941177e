/**
 * Best-N-First (BFS<N>), after Pant, Srinivasan & Menczer, "Exploration versus exploitation in topic driven
 * crawlers" (WWW 2002 Workshop on Web Dynamics).
 *
 * The frontier holds at most MAX_BUFFER links; when full, the lowest-scored one is evicted. Every outlink of a fetched
 * page is scored with that page's cosine similarity to the topic. Whenever a fetch slot is free, the next link is
 * drawn at random (seeded) from the top N links whose site may be contacted now: N = 1 is greedy Best-First, larger
 * N explores more, which the paper reports pays off over longer crawls. (The paper fetched the top N as a batch; the
 * crawl loop fills each slot as soon as it frees, and drawing from the top N keeps N's meaning: how greedy the
 * choice is.)
 */
import type { EvaluatedPage, FrontierEntry, Json, JudgementChange, ReadyTest, StrategyContext } from '../types';
import { finite, FrontierStrategy } from './frontier-strategy';
import { numericParams, type StrategyInfo } from './spec';

/** Default N: a moderate setting between greedy BFS1 and strongly exploratory settings such as BFS256. */
export const DEFAULT_N = 16;

/**
 * Best-N-First crawling strategy.
 *
 * - Seeds enter with score 1, the top of the cosine range, so they are fetched first (in their given order when N = 1).
 * - `onPage`: each outlink gets the page's score, depth + 1 and `from` = the page. rel=nofollow links ARE followed:
 *   that attribute tells search engines not to pass ranking credit, it does not ask crawlers to stay away.
 * - `next`: drawn from the top N ready links.
 */
export class BestNFirst extends FrontierStrategy {
  readonly name: string = 'best-n-first';
  /** Links the next one is drawn from. */
  n: number;

  /**
   * @param ctx params.n, maxBuffer = frontier capacity, seed = RNG seed.
   * @param params the resolved parameters (a strategy built on this one passes its own, which include n).
   */
  constructor(ctx: StrategyContext, params: { n: number } = numericParams(bestNFirstInfo, ctx.params)) {
    super(ctx, 1);
    this.n = params.n;
  }

  onPage(page: EvaluatedPage): void {
    const score = finite(page.evaluation.score);
    for (const link of page.links) this.enqueue(link.url, score, page);
  }

  next(ready: ReadyTest): FrontierEntry | null {
    return this.drawFromBest(this.n, ready);
  }

  /** A link's score is its page's score: when a judgement moves the page's score, its links move with it. */
  onJudgement(change: JudgementChange): void {
    this.followParents(change.moved);
  }

  protected override saveState(): Record<string, Json> {
    return { n: this.n };
  }
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const bestNFirstInfo: StrategyInfo = {
  name: 'best-n-first',
  label: 'Best-N-First',
  description:
    'Fetches next a link drawn at random from the N best-scored links of a bounded frontier; links inherit the ' +
    'cosine similarity of the page they were found on. N = 1 is greedy Best-First; larger N explores more.',
  source:
    'G. Pant, P. Srinivasan, F. Menczer. Exploration versus exploitation in topic driven crawlers. ' +
    'WWW 2002 Workshop on Web Dynamics.',
  params: [
    {
      name: 'n',
      label: 'N (greediness)',
      type: 'number',
      default: DEFAULT_N,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'each link fetched is drawn from the N best ready links; 1 = greedy Best-First, larger = more exploration',
    },
  ],
  aliases: { 'best-first': { n: 1 } },
  create: (ctx) => new BestNFirst(ctx),
};

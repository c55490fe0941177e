/**
 * Best-N-First (BFS<N>), after Pant, Srinivasan & Menczer, "Exploration versus exploitation in topic driven
 * crawlers" (WWW 2002 Workshop on Web Dynamics).
 *
 * The frontier holds at most MAX_BUFFER links; when full, the lowest-scored one is evicted. Each round the top N
 * links are taken and fetched in random order, and every outlink of a fetched page is scored with that page's cosine
 * similarity to the topic. N = 1 is greedy Best-First; larger N explores more, which the paper reports pays off
 * over longer crawls.
 */
import type { EvaluatedPage, FrontierEntry, Json, Strategy, StrategyContext } from '../types';
import { PriorityFrontier } from '../frontier/priority-frontier';
import { Rng } from '../rng';
import { positiveIntParam, type StrategyInfo } from './spec';

/** Default N: a moderate setting between greedy BFS1 and strongly exploratory settings such as BFS256. */
export const DEFAULT_N = 16;

/** Saved state of a {@link BestNFirst}. */
export type BestNFirstState = { n: number; rng: number[]; frontier: Json };

/** A score the frontier can order; a broken evaluator (NaN) must not stop the crawl, so such links rank last. */
function usableScore(score: number): number {
  return typeof score === 'number' && Number.isFinite(score) ? score : 0;
}

/**
 * Best-N-First crawling strategy.
 *
 * - Seeds enter with score 1, the top of the cosine range, so they are fetched first (in their given order among
 *   themselves when N = 1).
 * - `onPage`: each outlink gets the page's score, depth + 1 and `from` = the page. A page whose meta robots says
 *   nofollow contributes no links. Links with rel=nofollow ARE followed: that attribute tells search engines not to
 *   pass ranking credit, it does not ask crawlers to stay away.
 * - `nextBatch(max)`: pops the top min(N, max) and shuffles them with the seeded RNG.
 * - `save`/`restore`: frontier (with its memory of seen URLs) and RNG state, so a resumed crawl continues identically.
 */
export class BestNFirst implements Strategy {
  readonly name = 'best-n-first';
  /** Links taken per round. */
  readonly n: number;
  private frontier: PriorityFrontier;
  private readonly rng: Rng;

  /** @param ctx params.n (default {@link DEFAULT_N}), maxBuffer = frontier capacity, seed = RNG seed. */
  constructor(ctx: StrategyContext) {
    this.n = positiveIntParam(ctx.params, 'n', DEFAULT_N);
    this.frontier = new PriorityFrontier(ctx.maxBuffer);
    this.rng = new Rng(ctx.seed);
  }

  addSeeds(urls: string[]): void {
    for (const url of urls) this.frontier.add({ url, score: 1, depth: 0 });
  }

  onPage(page: EvaluatedPage): void {
    if (page.evaluation.robots?.nofollow) return;
    const score = usableScore(page.evaluation.score);
    const depth = page.depth + 1;
    for (const link of page.links) this.frontier.add({ url: link.url, score, depth, from: page.url });
  }

  nextBatch(max: number): FrontierEntry[] {
    const k = Math.min(this.n, Math.floor(max));
    if (!(k > 0)) return [];
    return this.rng.shuffle(this.frontier.popTop(k));
  }

  frontierSize(): number {
    return this.frontier.size;
  }

  /** The queued links, best first (for display). */
  entries(): FrontierEntry[] {
    return this.frontier.entries();
  }

  save(): Json {
    const state: BestNFirstState = { n: this.n, rng: this.rng.getState(), frontier: this.frontier.toJSON() };
    return state;
  }

  /** @throws TypeError if `state` is not the output of {@link save}. */
  restore(state: Json): void {
    if (state === null || typeof state !== 'object' || Array.isArray(state)) {
      throw new TypeError('invalid best-n-first state: not an object');
    }
    this.rng.setState(state.rng);
    this.frontier = PriorityFrontier.fromJSON(state.frontier);
  }
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const bestNFirstInfo: StrategyInfo = {
  name: 'best-n-first',
  label: 'Best-N-First',
  description:
    'Fetches the N best-scored links of a bounded frontier per round, in random order; links inherit the cosine ' +
    'similarity of the page they were found on. N = 1 is greedy Best-First; larger N explores more.',
  source:
    'G. Pant, P. Srinivasan, F. Menczer. Exploration versus exploitation in topic driven crawlers. ' +
    'WWW 2002 Workshop on Web Dynamics.',
  params: [
    {
      name: 'n',
      label: 'N (links per round)',
      type: 'number',
      default: DEFAULT_N,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'links fetched per round; 1 = greedy Best-First, larger = more exploration',
    },
  ],
  aliases: { 'best-first': { n: 1 } },
  create: (ctx) => new BestNFirst(ctx),
};

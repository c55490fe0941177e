/**
 * Adaptive Best-N-First: the future work of Pant, Srinivasan & Menczer, "Exploration versus exploitation in topic
 * driven crawlers" (WWW 2002 Workshop on Web Dynamics): greediness adjusted during the crawl from the harvest it
 * observes.
 *
 * It crawls like Best-N-First (links inherit their parent's similarity; each round the top N of a bounded frontier
 * are fetched in random order), and after every window of `window` pages compares the window's harvest (mean page
 * similarity to the topic) with the previous window's: when the harvest falls by more than `tolerance` (relative),
 * the crawler is stuck in a poor region and explores more (N x factor); when it rises by more than that, it exploits
 * (N / factor); N stays within [nMin, nMax].
 */
import type { EvaluatedPage, FrontierEntry, Json, Strategy, StrategyContext } from '../types';
import { PriorityFrontier } from '../frontier/priority-frontier';
import { Rng } from '../rng';
import { positiveIntParam, type StrategyInfo } from './spec';
import { asArray, asObject, finite, num, numParam } from './link-scoring';

export const ADAPTIVE_DEFAULTS = { n: 16, nMin: 1, nMax: 256, window: 25, factor: 2, tolerance: 0.1 };

/** One change of N: when and why. */
export interface NChange {
  atPage: number;
  from: number;
  to: number;
  /** Harvest of the previous and of the last window (of pages). */
  before: number;
  after: number;
}

export class AdaptiveBestNFirst implements Strategy {
  readonly name = 'adaptive-bnf';
  readonly params: typeof ADAPTIVE_DEFAULTS;
  /** Current N. */
  n: number;
  private frontier: PriorityFrontier;
  private readonly rng: Rng;
  private pages = 0;
  private windowSum = 0;
  private windowCount = 0;
  private lastHarvest: number | null = null;
  /** Every change of N (bounded to the last 1000). */
  changes: NChange[] = [];

  constructor(ctx: StrategyContext) {
    const nMin = positiveIntParam(ctx.params, 'nMin', ADAPTIVE_DEFAULTS.nMin);
    const nMax = Math.max(nMin, positiveIntParam(ctx.params, 'nMax', ADAPTIVE_DEFAULTS.nMax));
    this.params = {
      n: positiveIntParam(ctx.params, 'n', ADAPTIVE_DEFAULTS.n),
      nMin,
      nMax,
      window: positiveIntParam(ctx.params, 'window', ADAPTIVE_DEFAULTS.window),
      factor: numParam(ctx.params, 'factor', ADAPTIVE_DEFAULTS.factor),
      tolerance: numParam(ctx.params, 'tolerance', ADAPTIVE_DEFAULTS.tolerance),
    };
    this.n = Math.min(nMax, Math.max(nMin, this.params.n));
    this.frontier = new PriorityFrontier(ctx.maxBuffer);
    this.rng = new Rng(ctx.seed);
  }

  addSeeds(urls: string[]): void {
    for (const url of urls) this.frontier.add({ url, score: 1, depth: 0 });
  }

  onPage(page: EvaluatedPage): void {
    const score = finite(page.evaluation.score);
    this.pages++;
    this.observe(score);
    if (page.evaluation.robots?.nofollow) return;
    for (const link of page.links) this.frontier.add({ url: link.url, score, depth: page.depth + 1, from: page.url });
  }

  /** Feeds one page's similarity into the harvest window, adapting N at the end of each window of pages. */
  private observe(score: number): void {
    this.windowSum += score;
    this.windowCount++;
    if (this.windowCount < this.params.window) return;
    const harvest = this.windowSum / this.windowCount;
    this.windowSum = 0;
    this.windowCount = 0;
    const before = this.lastHarvest;
    this.lastHarvest = harvest;
    if (before === null) return;
    const { tolerance, factor, nMin, nMax } = this.params;
    let to = this.n;
    if (harvest < before * (1 - tolerance)) to = Math.min(nMax, Math.round(this.n * factor));
    else if (harvest > before * (1 + tolerance)) to = Math.max(nMin, Math.round(this.n / factor));
    if (to !== this.n) {
      this.changes.push({ atPage: this.pages, from: this.n, to, before, after: harvest });
      if (this.changes.length > 1000) this.changes.shift();
      this.n = to;
    }
  }

  nextBatch(max: number): FrontierEntry[] {
    const k = Math.min(this.n, Math.floor(max));
    return k > 0 ? this.rng.shuffle(this.frontier.popTop(k)) : [];
  }

  frontierSize(): number {
    return this.frontier.size;
  }

  entries(): FrontierEntry[] {
    return this.frontier.entries();
  }

  save(): Json {
    return {
      n: this.n,
      rng: this.rng.getState(),
      frontier: this.frontier.toJSON(),
      pages: this.pages,
      windowSum: this.windowSum,
      windowCount: this.windowCount,
      lastHarvest: this.lastHarvest,
      changes: this.changes.map((c) => [c.atPage, c.from, c.to, c.before, c.after]),
    };
  }

  /** @throws TypeError if `state` is not the output of {@link save}. */
  restore(state: Json): void {
    const s = asObject(state, 'adaptive-bnf');
    this.n = num(s.n, 'n');
    this.rng.setState(s.rng);
    this.frontier = PriorityFrontier.fromJSON(s.frontier);
    this.pages = num(s.pages, 'pages');
    this.windowSum = num(s.windowSum, 'windowSum');
    this.windowCount = num(s.windowCount, 'windowCount');
    this.lastHarvest = s.lastHarvest === null ? null : num(s.lastHarvest, 'lastHarvest');
    this.changes = asArray(s.changes, 'changes').map((raw) => {
      const [atPage, from, to, before, after] = asArray(raw, 'change').map((x) => num(x, 'change field'));
      return { atPage, from, to, before, after };
    });
  }
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const adaptiveBnfInfo: StrategyInfo = {
  name: 'adaptive-bnf',
  label: 'Adaptive Best-N-First',
  description:
    'Best-N-First whose N adapts to the harvest: after each window of pages, N grows (explore) when the harvest ' +
    'fell and shrinks (exploit) when it rose.',
  source:
    'Future work of G. Pant, P. Srinivasan, F. Menczer. Exploration versus exploitation in topic driven crawlers. ' +
    'WWW 2002 Workshop on Web Dynamics.',
  params: [
    {
      name: 'n',
      label: 'Initial N',
      type: 'number',
      default: ADAPTIVE_DEFAULTS.n,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'links per round at the start',
    },
    {
      name: 'nMin',
      label: 'Smallest N',
      type: 'number',
      default: ADAPTIVE_DEFAULTS.nMin,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'most greedy setting allowed',
    },
    {
      name: 'nMax',
      label: 'Largest N',
      type: 'number',
      default: ADAPTIVE_DEFAULTS.nMax,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'most exploratory setting allowed',
    },
    {
      name: 'window',
      label: 'Window (pages)',
      type: 'number',
      default: ADAPTIVE_DEFAULTS.window,
      min: 1,
      max: 100_000,
      integer: true,
      description: 'pages per harvest measurement',
    },
    {
      name: 'factor',
      label: 'Factor',
      type: 'number',
      default: ADAPTIVE_DEFAULTS.factor,
      min: 1.01,
      max: 100,
      description: 'N is multiplied or divided by this on a change',
    },
    {
      name: 'tolerance',
      label: 'Tolerance',
      type: 'number',
      default: ADAPTIVE_DEFAULTS.tolerance,
      min: 0,
      max: 1,
      description: 'relative change of harvest that triggers an adjustment',
    },
  ],
  create: (ctx) => new AdaptiveBestNFirst(ctx),
};

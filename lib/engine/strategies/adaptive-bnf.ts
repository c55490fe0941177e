/**
 * Adaptive Best-N-First: the future work of Pant, Srinivasan & Menczer, "Exploration versus exploitation in topic
 * driven crawlers" (WWW 2002 Workshop on Web Dynamics): greediness adjusted during the crawl from the harvest it
 * observes.
 *
 * It is Best-N-First (links inherit their parent's similarity; each link fetched is drawn from the top N ready links
 * of a bounded frontier), and after every window of `window` pages compares the window's harvest (mean page
 * similarity to the topic) with the previous window's: when the harvest falls by more than `tolerance` (relative),
 * the crawler is stuck in a poor region and explores more (N x factor); when it rises by more than that, it exploits
 * (N / factor); N stays within [nMin, nMax].
 */
import type { EvaluatedPage, Json, StrategyContext } from '../types';
import { BestNFirst } from './best-n-first';
import { finite } from './frontier-strategy';
import { numericParams, type StrategyInfo } from './spec';
import { asArray, num } from './state';

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

export class AdaptiveBestNFirst extends BestNFirst {
  override readonly name = 'adaptive-bnf';
  readonly params: typeof ADAPTIVE_DEFAULTS;
  private pages = 0;
  private windowSum = 0;
  private windowCount = 0;
  private lastHarvest: number | null = null;
  /** Every change of N (bounded to the last 1000). */
  changes: NChange[] = [];

  constructor(ctx: StrategyContext) {
    const p = numericParams<keyof typeof ADAPTIVE_DEFAULTS>(adaptiveBnfInfo, ctx.params);
    const nMax = Math.max(p.nMin, p.nMax);
    super(ctx, { n: Math.min(nMax, Math.max(p.nMin, p.n)) });
    this.params = { ...p, nMax };
  }

  override onPage(page: EvaluatedPage): void {
    this.pages++;
    this.observe(finite(page.evaluation.score));
    super.onPage(page);
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

  protected override saveState(): Record<string, Json> {
    return {
      ...super.saveState(),
      n: this.n,
      pages: this.pages,
      windowSum: this.windowSum,
      windowCount: this.windowCount,
      lastHarvest: this.lastHarvest,
      changes: this.changes.map((c) => [c.atPage, c.from, c.to, c.before, c.after]),
    };
  }

  protected override restoreState(s: { [key: string]: Json }): void {
    super.restoreState(s);
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
      description: 'greediness at the start: links per round (each round the N best, fetched in random order)',
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

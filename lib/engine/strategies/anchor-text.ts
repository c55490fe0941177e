/**
 * Anchor-text crawler, after "Incremental Focused Crawling Using Anchor Text" (links scored by their anchor text
 * against a classifier learned online from positive examples only).
 *
 * Each link is scored by the cosine similarity of its pure anchor text (all anchors seen for the URL so far) to a
 * centroid. The centroid starts as the topic's keywords and is retrained every `interval` (K) pages from the anchors
 * of the links that led to relevant pages (similarity to the topic >= `threshold`): positive examples only, no
 * negatives. Retraining re-scores the whole frontier, so links queued earlier move up or down with what was learned.
 */
import type { EvaluatedPage, FrontierEntry, Json, ReadyTest, StrategyContext } from '../types';
import { finite, FrontierStrategy } from './frontier-strategy';
import { Centroid, prepareTopic } from './link-scoring';
import { numericParams, type StrategyInfo } from './spec';
import { asArray, num, str, strings } from './state';

export const ANCHOR_DEFAULTS = { interval: 25, threshold: 0.2, prior: 1, n: 1 };

/** Anchor terms kept per link (all its anchors merged): bounded memory per queued URL. */
const MAX_ANCHOR_TERMS = 50;

export class AnchorTextCrawler extends FrontierStrategy {
  readonly name = 'anchor-text';
  readonly params: typeof ANCHOR_DEFAULTS;
  readonly centroid: Centroid;
  /** Anchor terms seen for each queued (or in-flight) URL. */
  private anchors = new Map<string, string[]>();
  /** Positive examples waiting for the next retraining. */
  private waiting: string[][] = [];
  private pages = 0;
  /** Retrainings so far (for tests and diagnostics). */
  retrainings = 0;

  constructor(ctx: StrategyContext) {
    // Seeds above any cosine score.
    super(ctx, 2);
    this.params = numericParams<keyof typeof ANCHOR_DEFAULTS>(anchorTextInfo, ctx.params);
    this.centroid = new Centroid(prepareTopic(ctx.topic).vector, this.params.prior);
  }

  /** The link score: anchor terms against the current centroid. */
  scoreAnchor(terms: readonly string[]): number {
    return this.centroid.score(terms);
  }

  onPage(page: EvaluatedPage): void {
    this.pages++;
    const led = this.anchors.get(page.requestedUrl);
    this.forget(page.requestedUrl);
    if (led?.length && finite(page.evaluation.score) >= this.params.threshold) this.waiting.push(led);
    for (const link of page.links) {
      const prev = this.anchors.get(link.url);
      // A first anchor is kept as the link's own list when short enough (lists are never changed; merges copy).
      const terms = prev
        ? mergeTerms(prev, link.anchorTerms, MAX_ANCHOR_TERMS)
        : link.anchorTerms.length <= MAX_ANCHOR_TERMS
          ? link.anchorTerms
          : link.anchorTerms.slice(0, MAX_ANCHOR_TERMS);
      const score = this.scoreAnchor(terms);
      if (prev && this.frontier.has(link.url)) {
        // Another anchor for a queued link: score its anchors together.
        this.frontier.setScore(link.url, score);
        this.anchors.set(link.url, terms);
        continue;
      }
      const result = this.enqueue(link.url, score, page);
      if (result === 'added' || result === 'evicted-other') this.anchors.set(link.url, terms);
    }
    if (this.pages % this.params.interval === 0 && this.waiting.length) this.retrain();
  }

  /** Adds the waiting positives to the centroid and re-scores every queued link. Public for tests. */
  retrain(): void {
    for (const terms of this.waiting) this.centroid.add(terms);
    this.waiting = [];
    this.retrainings++;
    for (const e of this.frontier.entries()) {
      if (e.depth === 0) continue;
      this.frontier.setScore(e.url, this.scoreAnchor(this.anchors.get(e.url) ?? []));
    }
  }

  next(ready: ReadyTest): FrontierEntry | null {
    return this.drawFromBest(this.params.n, ready);
  }

  protected override forget(url: string): void {
    this.anchors.delete(url);
  }

  protected override saveState(): Record<string, Json> {
    return {
      anchors: [...this.anchors.entries()].map(([u, t]) => [u, t]),
      waiting: this.waiting,
      centroid: this.centroid.toJSON(),
      pages: this.pages,
      retrainings: this.retrainings,
    };
  }

  protected override resetState(): void {
    this.anchors = new Map();
  }

  protected override restoreState(s: { [key: string]: Json }): void {
    for (const raw of asArray(s.anchors, 'anchors')) {
      const [u, t] = asArray(raw, 'anchor entry');
      this.anchors.set(str(u, 'anchor url'), strings(t, 'anchor terms'));
    }
    this.waiting = asArray(s.waiting, 'waiting').map((w) => strings(w, 'waiting example'));
    this.centroid.load(s.centroid);
    this.pages = num(s.pages, 'pages');
    this.retrainings = num(s.retrainings, 'retrainings');
  }
}

/** Terms of `a` followed by those of `b` it lacks, at most `max`. */
function mergeTerms(a: string[], b: string[], max: number): string[] {
  if (b.length === 0 || a.length >= max) return a;
  const have = new Set(a);
  const out = [...a];
  for (const t of b) {
    if (out.length >= max) break;
    if (!have.has(t)) {
      have.add(t);
      out.push(t);
    }
  }
  return out;
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const anchorTextInfo: StrategyInfo = {
  name: 'anchor-text',
  label: 'Anchor text',
  description:
    'Scores each link by its anchor text against a centroid of the anchors that led to relevant pages (positive ' +
    'examples only), seeded with the topic keywords and retrained every K pages; retraining re-scores the frontier.',
  source: 'Incremental Focused Crawling Using Anchor Text (anchor-text centroid classifier, positive examples only).',
  params: [
    {
      name: 'interval',
      label: 'Retrain every (K)',
      type: 'number',
      default: ANCHOR_DEFAULTS.interval,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'pages between retrainings of the centroid',
    },
    {
      name: 'threshold',
      label: 'Relevance threshold',
      type: 'number',
      default: ANCHOR_DEFAULTS.threshold,
      min: 0,
      max: 1,
      description: 'a page is a positive example when its similarity to the topic reaches this',
    },
    {
      name: 'prior',
      label: 'Topic prior',
      type: 'number',
      default: ANCHOR_DEFAULTS.prior,
      min: 0,
      max: 1000,
      description: 'weight of the topic keywords in the centroid, counted as examples',
    },
    {
      name: 'n',
      label: 'Greediness (n)',
      type: 'number',
      default: ANCHOR_DEFAULTS.n,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'each link fetched is drawn from the n best ready links (1 = always the best)',
    },
  ],
  create: (ctx) => new AnchorTextCrawler(ctx),
};

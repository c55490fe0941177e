/**
 * Shark-search, after M. Hersovici, M. Jacovi, Y. S. Maarek, D. Pelleg, M. Shtalhaim, S. Ur, "The shark-search
 * algorithm. An application: tailored Web site mapping" (WWW7, 1998); parameters as in Menczer, Pant & Srinivasan,
 * "Topical web crawlers: evaluating adaptive algorithms" (ACM TOIT 2004).
 *
 * For a link from parent page P to child c:
 *   inherited(c)    = decay * sim(P)          if P is relevant (sim(P) > threshold)
 *                   = decay * inherited(P)    otherwise        -> decays geometrically with distance from relevant pages
 *   anchor(c)       = sim(topic, anchor text of c)
 *   context(c)      = 1 if anchor(c) > 0, else sim(topic, words around the anchor)
 *   neighborhood(c) = beta * anchor(c) + (1 - beta) * context(c)
 *   potential(c)    = gamma * inherited(c) + (1 - gamma) * neighborhood(c)
 * Fish-search's depth bound is kept: a child of a relevant page gets `depth` steps to live, a child of an irrelevant
 * page one fewer than its parent, and links of a page with none left are not followed (depth = 0: no bound).
 * The frontier (bounded, MAX_BUFFER) is fetched best potential first (among the links whose site may be contacted now).
 */
import type { EvaluatedPage, FrontierEntry, Json, ReadyTest, StrategyContext } from '../types';
import { finite, FrontierStrategy } from './frontier-strategy';
import { termsCosine } from '../text/vector';
import { prepareTopic, type PreparedTopic } from './link-scoring';
import { numericParams, type StrategyInfo } from './spec';
import { asArray, num, str } from './state';

export const SHARK_DEFAULTS = { decay: 0.5, beta: 0.8, gamma: 0.8, threshold: 0, depth: 0, n: 1 };

/** Per queued URL: its inherited score and remaining depth (the best sighting wins). */
type Inheritance = { inherited: number; ttl: number };

/** The score parts of one link, exposed for tests and the popup's "why this link" view. */
export interface SharkScore {
  inherited: number;
  anchor: number;
  context: number;
  neighborhood: number;
  potential: number;
  /** Remaining depth the child gets. */
  ttl: number;
}

export class SharkSearch extends FrontierStrategy {
  readonly name = 'shark-search';
  readonly params: typeof SHARK_DEFAULTS;
  private readonly topic: PreparedTopic;
  /** For queued URLs and fetched-but-not-yet-evaluated URLs. */
  private info = new Map<string, Inheritance>();

  constructor(ctx: StrategyContext) {
    // Seeds: above any potential (potentials are <= 1).
    super(ctx, 2);
    this.params = numericParams<keyof typeof SHARK_DEFAULTS>(sharkSearchInfo, ctx.params);
    this.topic = prepareTopic(ctx.topic);
  }

  override addSeeds(urls: string[]): void {
    super.addSeeds(urls);
    // Seeds inherit nothing and get the full depth.
    for (const url of urls) if (this.frontier.has(url)) this.info.set(url, { inherited: 0, ttl: this.params.depth });
  }

  /** What every link of `page` inherits: the inherited score and depth to live (one object, shared by the links). */
  private inheritance(page: EvaluatedPage): Inheritance {
    const p = this.params;
    const sim = finite(page.evaluation.score);
    const own = this.info.get(page.requestedUrl) ?? { inherited: 0, ttl: p.depth };
    const relevant = sim > p.threshold;
    const inherited = relevant ? p.decay * sim : p.decay * own.inherited;
    const ttl = p.depth > 0 ? (relevant ? p.depth : own.ttl - 1) : 0;
    return { inherited, ttl };
  }

  /** The similarity of a link's anchor text to the topic. */
  private anchor(link: EvaluatedPage['links'][number]): number {
    return termsCosine(link.anchorTerms, this.topic.measured);
  }

  /** The context score: 1 when the anchor matched, else the similarity of the words around the anchor. */
  private context(link: EvaluatedPage['links'][number], anchor: number): number {
    return anchor > 0 ? 1 : termsCosine(link.contextBefore, this.topic.measured, link.contextAfter);
  }

  /** neighborhood = beta * anchor + (1 - beta) * context. */
  private mix(anchor: number, context: number): number {
    return this.params.beta * anchor + (1 - this.params.beta) * context;
  }

  /** potential = gamma * inherited + (1 - gamma) * neighborhood. */
  private potential(inherited: number, neighborhood: number): number {
    return this.params.gamma * inherited + (1 - this.params.gamma) * neighborhood;
  }

  /** Scores the links of `page` (without queuing them). */
  scoreLinks(page: EvaluatedPage): { url: string; score: SharkScore }[] {
    const { inherited, ttl } = this.inheritance(page);
    return page.links.map((link) => {
      const anchor = this.anchor(link);
      const context = this.context(link, anchor);
      const neighborhood = this.mix(anchor, context);
      const potential = this.potential(inherited, neighborhood);
      return { url: link.url, score: { inherited, anchor, context, neighborhood, potential, ttl } };
    });
  }

  onPage(page: EvaluatedPage): void {
    const own = this.info.get(page.requestedUrl);
    const p = this.params;
    const relevant = finite(page.evaluation.score) > p.threshold;
    // Fish-search depth bound: an irrelevant page with no depth left ends its path.
    const follow = !(p.depth > 0 && !relevant && (own?.ttl ?? p.depth) <= 1);
    // The potential as scoreLinks computes it, without its per-link objects (every link of every page comes here).
    const inheritance = follow ? this.inheritance(page) : undefined;
    this.forget(page.requestedUrl);
    if (!inheritance) return;
    for (const link of page.links) {
      const anchor = this.anchor(link);
      const potential = this.potential(inheritance.inherited, this.mix(anchor, this.context(link, anchor)));
      const result = this.enqueue(link.url, potential, page);
      if (result === 'added' || result === 'evicted-other' || result === 'raised') this.info.set(link.url, inheritance);
    }
  }

  next(ready: ReadyTest): FrontierEntry | null {
    return this.drawFromBest(this.params.n, ready);
  }

  protected override forget(url: string): void {
    this.info.delete(url);
  }

  /** Inherited score of a queued (or in-flight) URL. */
  inheritedOf(url: string): number | undefined {
    return this.info.get(url)?.inherited;
  }

  protected override saveState(): Record<string, Json> {
    return { info: [...this.info.entries()].map(([u, i]) => [u, i.inherited, i.ttl]) };
  }

  protected override resetState(): void {
    this.info = new Map();
  }

  protected override restoreState(s: { [key: string]: Json }): void {
    for (const raw of asArray(s.info, 'shark-search info')) {
      const [u, inh, ttl] = asArray(raw, 'shark-search info entry');
      this.info.set(str(u, 'url'), { inherited: num(inh, 'inherited'), ttl: num(ttl, 'ttl') });
    }
  }
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const sharkSearchInfo: StrategyInfo = {
  name: 'shark-search',
  label: 'Shark-search',
  description:
    'Best-first on a potential score: an inherited score that decays with distance from relevant pages, combined ' +
    'with the similarity of the anchor text and of the words around the anchor to the topic.',
  source:
    'M. Hersovici, M. Jacovi, Y. S. Maarek, D. Pelleg, M. Shtalhaim, S. Ur. The shark-search algorithm. An ' +
    'application: tailored Web site mapping. WWW7, 1998.',
  params: [
    {
      name: 'decay',
      label: 'Decay (δ)',
      type: 'number',
      default: SHARK_DEFAULTS.decay,
      min: 0,
      max: 1,
      description: 'inherited score factor per link away from a relevant page',
    },
    {
      name: 'beta',
      label: 'Anchor weight (β)',
      type: 'number',
      default: SHARK_DEFAULTS.beta,
      min: 0,
      max: 1,
      description: 'anchor text versus anchor context in the neighborhood score',
    },
    {
      name: 'gamma',
      label: 'Inherited weight (γ)',
      type: 'number',
      default: SHARK_DEFAULTS.gamma,
      min: 0,
      max: 1,
      description: 'inherited versus neighborhood score in the potential',
    },
    {
      name: 'threshold',
      label: 'Relevance threshold',
      type: 'number',
      default: SHARK_DEFAULTS.threshold,
      min: 0,
      max: 1,
      description: 'a page is relevant when its similarity exceeds this',
    },
    {
      name: 'depth',
      label: 'Depth bound (D)',
      type: 'number',
      default: SHARK_DEFAULTS.depth,
      min: 0,
      max: 1000,
      integer: true,
      description: 'links followed at most this far from a relevant page (0 = no bound)',
    },
    {
      name: 'n',
      label: 'Greediness (n)',
      type: 'number',
      default: SHARK_DEFAULTS.n,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'each link fetched is drawn from the n best ready links (1 = always the best)',
    },
  ],
  create: (ctx) => new SharkSearch(ctx),
};

/**
 * What the crawl's own link graph teaches forager about pages that lead to relevant pages, though they hold none of
 * the topic's words themselves (a site's index, a chapter's table of contents, a page of links to other projects):
 *
 * - Page yields (hubs as a resource, after ACHE's hub and authority links and Kleinberg's hubs): each fetched page
 *   counts the pages fetched through its links and how many of them were relevant. A link found on a page whose
 *   links have paid is worth more than its own words say: its siblings were relevant.
 * - Link levels (after Diligenti et al.'s context graphs, VLDB 2000, ACHE's FORWARD_CLASSIFIER_LEVELS and Rennie &
 *   McCallum's discounted future reward, 1999): when a page is relevant, the links that led to its ancestors, up to
 *   `levels` links back in the crawl's graph, are positive examples of a second online link classifier, the k-th one
 *   back weighted decay^(k-1); every fetched page that is not relevant is a negative example of it. It predicts from
 *   a link's anchor, nearby words, URL words, site and section whether the page it leads to leads on to relevant
 *   pages, so a link into a hub like the ones that paid is worth following.
 *
 * The walk back uses the last FETCHED_KEPT fetched pages (not saved with the crawl); the yields of the last
 * YIELDS_KEPT pages with fetched children and the classifier's weights are saved.
 */
import type { Json } from '../types';
import { OnlineLogistic } from './link-classifier';
import { asArray, asObject, num, str } from './state';

/** Fetched pages remembered for the walk back: the link that led to each, and whether it was relevant. */
const FETCHED_KEPT = 4096;
/** Pages whose yield is kept (those updated last). */
const YIELDS_KEPT = 2048;
/** Pseudo-pages a page's yield starts with, at the crawl's mean. */
const YIELD_PRIOR = 2;

/** How a fetched page was reached. */
interface Fetched {
  parent: string | undefined;
  features: readonly number[] | undefined;
  relevant: boolean;
}

/** Pages fetched through a page's links, and the relevant ones among them. */
interface Yield {
  pulls: number;
  reward: number;
}

export class LeadLearner {
  readonly levelModel = new OnlineLogistic();
  private fetched = new Map<string, Fetched>();
  private yields = new Map<string, Yield>();

  constructor(
    /** Links back from a relevant page that teach the level model (0: it learns nothing). */
    private readonly levels: number,
    /** Weight of the k-th link back: decay^(k-1). */
    private readonly decay: number,
  ) {}

  /**
   * Learns from one fetched page: `url` reached from `parent` through a link with classifier `features` (both
   * undefined for a seed), judged `relevant`.
   */
  onFetched(url: string, parent: string | undefined, features: readonly number[] | undefined, relevant: boolean): void {
    if (parent !== undefined) {
      const y = this.yields.get(parent) ?? { pulls: 0, reward: 0 };
      this.yields.delete(parent);
      y.pulls++;
      if (relevant) y.reward++;
      this.yields.set(parent, y);
      if (this.yields.size > YIELDS_KEPT) this.yields.delete(this.yields.keys().next().value!);
    }
    this.fetched.set(url, { parent, features, relevant });
    if (this.fetched.size > FETCHED_KEPT) this.fetched.delete(this.fetched.keys().next().value!);
    if (this.levels <= 0) return;
    if (!relevant) {
      if (features) this.levelModel.learn(features, false);
      return;
    }
    // The links that led to this page's ancestors lead to a relevant page.
    let at = parent;
    let weight = 1;
    for (let k = 1; k <= this.levels && at !== undefined; k++) {
      const ancestor = this.fetched.get(at);
      if (!ancestor) break;
      if (!ancestor.relevant && ancestor.features) this.levelModel.learnWeighted(ancestor.features, true, weight);
      weight *= this.decay;
      at = ancestor.parent;
    }
  }

  /** P(the page a link leads to leads on to relevant pages), from the link's classifier features; 0 before any positive. */
  level(features: readonly number[]): number {
    return this.levelModel.positives > 0 ? this.levelModel.predict(features) : 0;
  }

  /** A page's yield (relevant share of the pages fetched through its links, shrunk towards `mean`) minus `mean`. */
  yieldAbove(page: string | undefined, mean: number): number {
    const y = page === undefined ? undefined : this.yields.get(page);
    return y ? (y.reward + YIELD_PRIOR * mean) / (y.pulls + YIELD_PRIOR) - mean : 0;
  }

  toJSON(): Json {
    return { yields: [...this.yields].map(([page, y]) => [page, y.pulls, y.reward]), levelModel: this.levelModel.toJSON() };
  }

  /** @throws TypeError if `state` is not the output of {@link toJSON}. */
  load(state: Json): void {
    const s = asObject(state, 'lead learner');
    this.yields.clear();
    for (const raw of asArray(s.yields, 'yields')) {
      const [page, pulls, reward] = asArray(raw, 'yield');
      this.yields.set(str(page, 'yield page'), { pulls: num(pulls, 'yield pulls'), reward: num(reward, 'yield reward') });
    }
    this.levelModel.load(s.levelModel);
    this.fetched.clear();
  }
}

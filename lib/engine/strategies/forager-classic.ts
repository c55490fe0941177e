/**
 * Forager's first default strategy, selectable as `forager-classic`: a best-first crawler whose link score combines
 * what the seed papers found to work. `forager` builds on it; this one stays for comparison and for crawls saved
 * with it.
 *
 * For a link l found on page P:
 *   page     = sim(P), the parent page's similarity to the topic (Best-First);
 *   inherited= max(sim(P), decay x inherited(P)): shark-search's memory of relevant ancestors;
 *   anchor   = cosine(anchor terms of l, topic);
 *   context  = topic words around the anchor, closer words weighing more (InfoSpiders' proximity);
 *   url      = topic terms named in l's URL path (split on / - _ . and glued words), each weighted by its rarity
 *              among the URLs seen so far (a keyword in every URL of a site says nothing);
 *   learned  = cosine(l's anchor + context + URL terms, centroid of the same features of links that led to relevant
 *              pages): online learning from positive examples only, as in the anchor-text crawler, retrained every
 *              `interval` pages (the whole frontier is re-scored then).
 *   score    = weighted sum of the six (weights are parameters).
 * A page is relevant (a positive example) when its similarity reaches `relevance` x the best similarity seen so far,
 * so the bar adapts to how strongly a topic's pages match its keywords. The frontier is bounded (MAX_BUFFER, lowest
 * score evicted). Each link fetched is drawn uniformly from the best n - `explore` ready links (3 of n = 4), except
 * that with probability `explore` / n (1 in 4) it is drawn uniformly from the rest of the ready frontier: a crawl
 * stuck in a region that scores well but holds few relevant pages keeps sampling elsewhere.
 * Why these parts and weights: docs/decisions/0001-forager-classic-link-score.md.
 */
import type { EvaluatedPage, FrontierEntry, Json, LinkFeature, ReadyTest, StrategyContext } from '../types';
import { finite, FrontierStrategy } from './frontier-strategy';
import { Centroid, contextProximity, prepareTopic, urlMatches, type PreparedTopic } from './link-scoring';
import { urlTerms } from '../text/url-terms';
import { termsCosine } from '../text/vector';
import { numericParams, type StrategyInfo } from './spec';
import { asArray, asObject, num, str, strings } from './state';

export const FORAGER_CLASSIC_DEFAULTS = {
  n: 4,
  explore: 1,
  wPage: 1,
  wInherited: 0.5,
  wAnchor: 1,
  wContext: 0.5,
  wUrl: 0.5,
  wLearned: 1,
  decay: 0.5,
  relevance: 0.5,
  interval: 10,
};

/** What the strategy remembers of a queued link. */
interface LinkInfo {
  /** Fixed parts of the score (all but the URL and learned parts, which change as the crawl learns). */
  base: number;
  /** Topic terms the URL names. */
  url: string[];
  /** Terms the learner reads: anchor, context and URL words. */
  words: string[];
  /** Inherited score passed on to this link's page. */
  inherited: number;
}

/** The parts of one link's score, for tests and the popup's "why this link". */
export interface ForagerScore {
  page: number;
  inherited: number;
  anchor: number;
  context: number;
  url: number;
  learned: number;
  total: number;
}

export class ForagerClassic extends FrontierStrategy {
  readonly name = 'forager-classic';
  readonly params: typeof FORAGER_CLASSIC_DEFAULTS;
  private readonly topic: PreparedTopic;
  private info = new Map<string, LinkInfo>();
  readonly centroid = new Centroid({}, 0);
  private waiting: string[][] = [];
  private best = 0;
  private pages = 0;
  /** Link URLs scored so far, and how many of them named each topic term: the URL part's rarity weights. */
  private urlSeen = 0;
  private urlHits: Record<string, number> = Object.create(null);

  constructor(ctx: StrategyContext) {
    // Seeds above any link score, so they go first.
    super(ctx, 1e6);
    this.params = numericParams<keyof typeof FORAGER_CLASSIC_DEFAULTS>(foragerClassicInfo, ctx.params);
    this.topic = prepareTopic(ctx.topic);
  }

  /** Scores one link of a page with similarity `sim` whose own inherited score is `parentInherited`. */
  scoreLink(link: LinkFeature, sim: number, parentInherited: number): { score: ForagerScore; info: LinkInfo } {
    const p = this.params;
    const inherited = Math.max(sim, p.decay * parentInherited);
    const anchor = termsCosine(link.anchorTerms, this.topic.measured);
    const context = contextProximity(link, this.topic.set);
    const uw = link.urlTerms ?? urlTerms(link.url, this.topic.language);
    const matches = urlMatches(uw, this.topic);
    const url = this.urlScore(matches);
    const words = [...link.anchorTerms, ...link.contextBefore, ...link.contextAfter, ...uw];
    const base = p.wPage * sim + p.wInherited * inherited + p.wAnchor * anchor + p.wContext * context;
    const learned = this.learnedScore(words);
    return {
      score: { page: sim, inherited, anchor, context, url, learned, total: base + p.wUrl * url + p.wLearned * learned },
      info: { base, url: matches, words, inherited },
    };
  }

  /**
   * The URL part: the topic terms the URL names, each weighted by its rarity among the link URLs seen so far
   * (idf = ln(1 + (seen + 1) / (hits + 1))), over the total weight of the topic's terms. A keyword that every URL of
   * some site contains ("library" in every python/library/ URL) then stops pulling the crawl into that site, while
   * a rare one ("libpq") keeps its full weight.
   */
  urlScore(matches: readonly string[]): number {
    if (matches.length === 0) return 0;
    const idf = (t: string) => Math.log(1 + (this.urlSeen + 1) / ((this.urlHits[t] ?? 0) + 1));
    let total = 0;
    for (const t of this.topic.terms) total += idf(t);
    let hit = 0;
    for (const t of matches) hit += idf(t);
    return total > 0 ? hit / total : 0;
  }

  /** Counts a link URL's topic terms into the rarity weights. */
  private countUrl(link: LinkFeature): void {
    this.urlSeen++;
    for (const t of urlMatches(link.urlTerms ?? urlTerms(link.url, this.topic.language), this.topic))
      this.urlHits[t] = (this.urlHits[t] ?? 0) + 1;
  }

  private learnedScore(words: readonly string[]): number {
    return this.centroid.size > 0 && this.params.wLearned !== 0 ? this.centroid.score(words) : 0;
  }

  onPage(page: EvaluatedPage): void {
    this.pages++;
    const sim = finite(page.evaluation.score);
    if (sim > this.best) this.best = sim;
    const own = this.info.get(page.requestedUrl);
    this.forget(page.requestedUrl);
    if (own && sim > 0 && sim >= this.params.relevance * this.best) this.waiting.push(own.words);
    const parentInherited = own?.inherited ?? 0;
    for (const link of page.links) this.countUrl(link);
    for (const link of page.links) {
      const { score, info } = this.scoreLink(link, sim, parentInherited);
      const prev = this.info.get(link.url);
      if (prev && this.frontier.has(link.url)) {
        // Seen again from another page: keep the better sighting.
        if (score.total > this.frontier.scoreOf(link.url)!) {
          this.frontier.setScore(link.url, score.total);
          this.info.set(link.url, info);
        }
        continue;
      }
      const result = this.enqueue(link.url, score.total, page);
      if (result === 'added' || result === 'evicted-other') this.info.set(link.url, info);
    }
    if (this.pages % this.params.interval === 0) this.retrain();
  }

  /** Learns the waiting positive examples and re-scores the frontier. Public for tests. */
  retrain(): void {
    for (const w of this.waiting) this.centroid.add(w);
    this.waiting = [];
    const { wLearned, wUrl } = this.params;
    for (const [url, info] of this.info) {
      if (this.frontier.has(url))
        this.frontier.setScore(url, info.base + wUrl * this.urlScore(info.url) + wLearned * this.learnedScore(info.words));
    }
  }

  protected override forget(url: string): void {
    this.info.delete(url);
  }

  /**
   * Drawn uniformly from the best n - explore ready links, or, with probability explore / n, from the other ready
   * links (exploration: a crawl stuck in a region that scores well but holds little keeps sampling elsewhere, as
   * InfoSpiders' stochastic choice did).
   */
  next(ready: ReadyTest): FrontierEntry | null {
    const n = this.params.n;
    const explore = Math.min(n - 1, Math.floor(this.params.explore));
    const top = n - explore;
    if (explore > 0 && this.frontier.size > top && this.rng.next() < explore / n) {
      const best = new Set(this.frontier.best(top, ready).map((e) => e.url));
      const other = this.frontier.sample((url) => !best.has(url) && ready(url), this.rng);
      if (other) {
        this.frontier.remove(other.url);
        return other;
      }
    }
    return this.drawFromBest(top, ready);
  }

  protected override saveState(): Record<string, Json> {
    return {
      info: [...this.info.entries()].map(([u, i]) => [u, i.base, i.inherited, i.words, i.url]),
      urlSeen: this.urlSeen,
      urlHits: { ...this.urlHits },
      centroid: this.centroid.toJSON(),
      waiting: this.waiting,
      best: this.best,
      pages: this.pages,
    };
  }

  protected override resetState(): void {
    this.info = new Map();
  }

  protected override restoreState(s: { [key: string]: Json }): void {
    for (const raw of asArray(s.info, 'forager info')) {
      const [u, base, inh, words, url] = asArray(raw, 'forager info entry');
      this.info.set(str(u, 'url'), {
        base: num(base, 'base'),
        inherited: num(inh, 'inherited'),
        words: strings(words, 'words'),
        url: strings(url, 'url terms'),
      });
    }
    this.urlSeen = num(s.urlSeen, 'urlSeen');
    this.urlHits = Object.create(null);
    const hits = asObject(s.urlHits, 'forager urlHits');
    for (const k of Object.keys(hits)) this.urlHits[k] = num(hits[k], `urlHits ${k}`);
    this.centroid.load(s.centroid);
    this.waiting = asArray(s.waiting, 'waiting').map((w) => strings(w, 'waiting example'));
    this.best = num(s.best, 'best');
    this.pages = num(s.pages, 'pages');
  }
}

const weight = (name: string, label: string, def: number, description: string) => ({
  name,
  label,
  type: 'number' as const,
  default: def,
  min: 0,
  max: 100,
  description,
});

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const foragerClassicInfo: StrategyInfo = {
  name: 'forager-classic',
  label: 'Forager classic',
  description:
    "Forager's first default: best-first on a score combining the parent page's similarity, an inherited score from " +
    'relevant ancestors, anchor text, words near the link (closer weigh more), words of the URL, and a centroid ' +
    'learned online from the links that led to relevant pages.',
  source:
    'Combines Best-N-First (Pant et al. 2002), shark-search (Hersovici et al. 1998), InfoSpiders link context ' +
    '(Menczer & Belew 2000) and incremental anchor-text learning from positive examples.',
  params: [
    {
      name: 'n',
      label: 'Greediness (n)',
      type: 'number',
      default: FORAGER_CLASSIC_DEFAULTS.n,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'each link fetched is drawn from the n best ready links (less the exploring share)',
    },
    {
      name: 'explore',
      label: 'Exploring share (of n)',
      type: 'number',
      default: FORAGER_CLASSIC_DEFAULTS.explore,
      min: 0,
      max: 10_000,
      integer: true,
      description: 'with probability explore / n a link is drawn from the rest of the ready frontier instead of the best',
    },
    weight('wPage', 'Parent page weight', FORAGER_CLASSIC_DEFAULTS.wPage, "weight of the parent page's similarity"),
    weight(
      'wInherited',
      'Inherited weight',
      FORAGER_CLASSIC_DEFAULTS.wInherited,
      'weight of the score inherited from relevant ancestors',
    ),
    weight('wAnchor', 'Anchor weight', FORAGER_CLASSIC_DEFAULTS.wAnchor, 'weight of the anchor text similarity'),
    weight('wContext', 'Context weight', FORAGER_CLASSIC_DEFAULTS.wContext, 'weight of topic words near the link'),
    weight('wUrl', 'URL weight', FORAGER_CLASSIC_DEFAULTS.wUrl, 'weight of topic words in the URL'),
    weight(
      'wLearned',
      'Learned weight',
      FORAGER_CLASSIC_DEFAULTS.wLearned,
      'weight of the similarity to links that led to relevant pages',
    ),
    {
      name: 'decay',
      label: 'Inheritance decay',
      type: 'number',
      default: FORAGER_CLASSIC_DEFAULTS.decay,
      min: 0,
      max: 1,
      description: 'factor per link away from a relevant page',
    },
    {
      name: 'relevance',
      label: 'Relevance bar',
      type: 'number',
      default: FORAGER_CLASSIC_DEFAULTS.relevance,
      min: 0,
      max: 1,
      description: 'a page is a positive example when its similarity reaches this share of the best seen',
    },
    {
      name: 'interval',
      label: 'Retrain every',
      type: 'number',
      default: FORAGER_CLASSIC_DEFAULTS.interval,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'pages between retrainings (the frontier is re-scored then)',
    },
  ],
  create: (ctx) => new ForagerClassic(ctx),
};

/**
 * Forager's default strategy: best-first on a link score that keeps learning where relevant pages are, with a
 * bandit over site sections for the exploring fetches.
 *
 * Per link l found on page P:
 *   classic    = forager-classic's score: P's similarity, the score inherited from relevant ancestors
 *                (shark-search), anchor, topic words near the link, topic words of the URL weighted by their rarity,
 *                and the cosine to a centroid of the links that led to relevant pages;
 *   classifier = P(relevant | l) from an online logistic regression over hashed features of l's anchor, nearby
 *                words, URL words, site and section (link-classifier.ts), one SGD step per fetched page;
 *   section    = the mean reward of l's site section minus the crawl's, from the section bandit (section-bandit.ts);
 *   share      = the share of all fetched pages that l's site took: a soft cap on one site taking the crawl.
 *   score      = classic + wClassifier x classifier + wSection x section - wShare x share.
 * A page is relevant (a positive example) when its similarity reaches `relevance` x the best seen so far. The
 * bounded frontier (MAX_BUFFER) is re-scored every `interval` pages.
 *
 * Each fetch takes a link drawn uniformly from the best n - `explore` ready links (3 of n = 4); with probability
 * `explore` / n the bandit instead picks, among the sections with other ready links, the one with the highest upper
 * confidence bound, and takes its best link. Section means are shrunk towards their site's and the site's towards
 * the crawl's, so exploring goes where exploring has paid. While seeds are queued nobody explores.
 *
 * Two parts are for topics whose relevant pages are spread over sites, and gated on seeds spanning `reserveSites`
 * (`rootProbeSites`) sites or more so that one-site topics crawl without them:
 * - the reserve (site-reserve.ts): links the full frontier evicts or turns away, the best `reserve` of each site,
 *   which only the exploring slot may take, and only once the recent harvest has fallen to `reserveHarvest`: a site
 *   flooded out of the frontier can still be entered;
 * - the home page probe: a site's first relevant page queues the site's home page at `rootProbe` x the page's best
 *   link score, once per site: a documentation site's home is its table of contents.
 *
 * Relevance feedback: a judgement counts as several (up) or one (down) fetched pages in the bandit and the
 * classifier, and an up-voted page's link words join the centroid.
 *
 * Deterministic for an RNG seed. State is small: 2^12 hashed classifier weights (saved sparse), two counters per
 * section and site, the queued links' features. Why these parts and weights: docs/decisions/0001-0003.
 * `forager-no-reserve` and `forager-no-probe` are this strategy without the reserve and without the probe.
 * Strategies built on this one add a part through {@link ForagerStrategy.leadScore} and learn through
 * {@link ForagerStrategy.learnFromPage}.
 */
import type { EvaluatedPage, FrontierEntry, Json, JudgementChange, LinkFeature, ReadyTest, StrategyContext } from '../types';
import { finite, FrontierStrategy } from './frontier-strategy';
import { Centroid, contextProximity, prepareTopic, urlMatches, type PreparedTopic } from './link-scoring';
import { urlTerms } from '../text/url-terms';
import { termsCosine } from '../text/vector';
import { OnlineLogistic } from './link-classifier';
import { SectionBandit, siteOf } from './section-bandit';
import { SiteReserve } from './site-reserve';
import { numericParams, type StrategyInfo } from './spec';
import { asArray, asObject, num, str, strings } from './state';

export const FORAGER_DEFAULTS = {
  n: 4,
  explore: 1,
  wPage: 1,
  wInherited: 0.5,
  wAnchor: 1,
  wContext: 0.5,
  wUrl: 0.5,
  wLearned: 1,
  wClassifier: 1,
  wSection: 1,
  wShare: 0.5,
  ucb: 0.5,
  decay: 0.5,
  relevance: 0.5,
  reserve: 4,
  reserveGate: 0,
  reserveSites: 3,
  reserveHarvest: 0.1,
  rootProbe: 3,
  rootProbeSites: 3,
  interval: 10,
};

const SEED_SCORE = 1e6;
/**
 * What one judgement weighs in the bandit and the classifier, in fetched pages: an up-vote several, a down-vote one (a
 * result the user turns down is most often a near miss in the right section: weighing it as much sent the crawl away
 * from the targets' sections in the lab).
 */
const UP_WEIGHT = 3;
const DOWN_WEIGHT = 1;
/** Links whose URL parts are kept (a few hundred KB: pages repeat their site's navigation links). */
const URL_PARTS_KEPT = 4096;
/** Fetched pages whose link features are kept for judgements. */
const JUDGEABLE_PAGES = 2000;

/** What a link's URL says: its words (urlTerms), the topic terms they name (urlMatches), its site and section. */
interface UrlParts {
  words: readonly string[];
  matches: string[];
  site: string;
  section: string;
}

/** What the strategy remembers of a queued link. */
export interface LinkInfo {
  /** Fixed parts of the score (parent, inherited, anchor, context). */
  base: number;
  /** Topic terms the URL names. */
  url: string[];
  /** Terms the centroid reads: anchor, context and URL words. */
  words: string[];
  /** Hashed classifier features. */
  features: number[];
  inherited: number;
  site: string;
  section: string;
  /** The page the link was found on (the one whose score it carries). */
  parent: string | undefined;
}

/** The parts of one link's score, for tests and the popup's "why this link". */
export interface ForagerScore {
  page: number;
  inherited: number;
  anchor: number;
  context: number;
  url: number;
  learned: number;
  classifier: number;
  section: number;
  share: number;
  /** What a strategy built on this one adds (0 here). */
  lead: number;
  total: number;
}

export class ForagerStrategy extends FrontierStrategy {
  readonly name: string = 'forager';
  readonly params: typeof FORAGER_DEFAULTS;
  private topic: PreparedTopic;
  private info = new Map<string, LinkInfo>();
  readonly centroid = new Centroid({}, 0);
  readonly classifier = new OnlineLogistic();
  readonly bandit = new SectionBandit();
  private waiting: string[][] = [];
  private best = 0;
  /** Sites whose home page was queued (see {@link probeRoot}). */
  private probed = new Set<string>();
  private pages = 0;
  private urlSeen = 0;
  private urlHits: Record<string, number> = Object.create(null);
  /**
   * Links the full frontier evicted or turned away, the best `reserve` per site, with what the strategy knows of them:
   * only the bandit's exploring slot takes from here, so a site flooded out of the frontier can still be tried.
   */
  private reserved: SiteReserve<LinkInfo>;
  /** The seeds' sites: the reserve is kept only when they are `reserveSites` or more (see {@link reserve}). */
  private seedSites = new Set<string>();
  /** Share of relevant pages among the recent ones (a moving average over about HARVEST_PAGES pages). */
  private recentHarvest = 1;
  /** What the URLs of recent links say (pages of one site repeat their navigation links); not saved. */
  private urlPartsKept = new Map<string, UrlParts>();

  /** @param info the registry entry whose parameters `ctx.params` sets (a strategy built on this one has more). */
  constructor(ctx: StrategyContext, info: StrategyInfo = foragerInfo) {
    // Seeds above any link score, so they go first.
    super(ctx, SEED_SCORE);
    this.params = numericParams<keyof typeof FORAGER_DEFAULTS>(info, ctx.params);
    this.topic = prepareTopic(ctx.topic);
    this.reserved = this.newReserve();
  }

  private newReserve(): SiteReserve<LinkInfo> {
    return new SiteReserve(this.params.reserve, () => this.frontier.capacity);
  }

  /** Scores one link of a page with similarity `sim` whose own inherited score is `parentInherited`. */
  scoreLink(link: LinkFeature, sim: number, parentInherited: number): { score: ForagerScore; info: LinkInfo } {
    const { info, anchor, context } = this.linkInfo(link, sim, parentInherited, this.urlPartsOf(link));
    return { score: this.parts(info, { page: sim, inherited: info.inherited, anchor, context }), info };
  }

  /** What the strategy keeps of a link, with the fixed parts of its score. */
  private linkInfo(
    link: LinkFeature,
    sim: number,
    parentInherited: number,
    { words: uw, matches, site, section }: UrlParts,
    parent?: string,
  ): { info: LinkInfo; anchor: number; context: number } {
    const p = this.params;
    const inherited = Math.max(sim, p.decay * parentInherited);
    const anchor = termsCosine(link.anchorTerms, this.topic.measured);
    const context = contextProximity(link, this.topic.set);
    const words = [...link.anchorTerms, ...link.contextBefore, ...link.contextAfter, ...uw];
    const features = this.classifier.linkIndices(link, uw, site, section);
    const base = p.wPage * sim + p.wInherited * inherited + p.wAnchor * anchor + p.wContext * context;
    return { info: { base, url: matches, words, features, inherited, site, section, parent }, anchor, context };
  }

  /**
   * The centroid's part of a link's score. The words are counted anew at each re-scoring (termsCosine: scratch space,
   * nothing allocated) instead of a counted vector being kept for each queued link.
   */
  private learnedScore(info: LinkInfo): number {
    if (this.centroid.size === 0 || this.params.wLearned === 0) return 0;
    return this.centroid.score(info.words);
  }

  /** The parts that change as the crawl learns, and the total. */
  private parts(info: LinkInfo, fixed: Pick<ForagerScore, 'page' | 'inherited' | 'anchor' | 'context'>): ForagerScore {
    const p = this.params;
    const url = this.urlScore(info.url);
    const learned = this.learnedScore(info);
    const classifier = this.classifier.examples > 0 && p.wClassifier !== 0 ? this.classifier.predict(info.features) : 0;
    const section = this.bandit.mean(info.section, info.site) - this.bandit.overall();
    const share = this.bandit.share(info.site);
    const lead = this.leadScore(info);
    const total =
      info.base +
      p.wUrl * url +
      p.wLearned * learned +
      p.wClassifier * classifier +
      p.wSection * section -
      p.wShare * share +
      lead;
    return { ...fixed, url, learned, classifier, section, share, lead, total };
  }

  /** Whether saved links keep the page they were found on (forager does not read it back; leadScore may). */
  protected readonly savesParents: boolean = false;

  /** What a strategy built on this one adds to a link's score (weighted already); forager adds nothing. */
  protected leadScore(_info: LinkInfo): number {
    return 0;
  }

  /**
   * What a strategy built on this one learns from a fetched page (after the classifier and the bandit): `own` is what
   * was known of the link that led to it (undefined for a seed), `relevant` the page's label.
   */
  protected learnFromPage(_page: EvaluatedPage, _own: LinkInfo | undefined, _relevant: boolean): void {}

  /** The same total as {@link parts}, without building the parts (the whole frontier is re-scored every interval). */
  private total(info: LinkInfo): number {
    const p = this.params;
    const learned = this.learnedScore(info);
    const classifier = this.classifier.examples > 0 && p.wClassifier !== 0 ? this.classifier.predict(info.features) : 0;
    const section = this.bandit.mean(info.section, info.site) - this.bandit.overall();
    return (
      info.base +
      p.wUrl * this.urlScore(info.url) +
      p.wLearned * learned +
      p.wClassifier * classifier +
      p.wSection * section -
      p.wShare * this.bandit.share(info.site) +
      this.leadScore(info)
    );
  }

  /** What a link's URL says (its words, the topic terms they name, its site), kept for the next pages that link to it. */
  private urlPartsOf({ url, urlTerms: evaluated }: LinkFeature): UrlParts {
    let parts = this.urlPartsKept.get(url);
    if (parts === undefined) {
      const words = evaluated ?? urlTerms(url, this.topic.language);
      parts = { words, matches: urlMatches(words, this.topic), ...siteOf(url) };
      if (this.urlPartsKept.size >= URL_PARTS_KEPT) this.urlPartsKept.clear();
      this.urlPartsKept.set(url, parts);
    }
    return parts;
  }

  /** The URL part: topic terms in the URL weighted by their rarity among link URLs seen (as in forager-classic). */
  urlScore(matches: readonly string[]): number {
    if (matches.length === 0) return 0;
    const idf = (t: string) => Math.log(1 + (this.urlSeen + 1) / ((this.urlHits[t] ?? 0) + 1));
    let total = 0;
    for (const t of this.topic.terms) total += idf(t);
    let hit = 0;
    for (const t of matches) hit += idf(t);
    return total > 0 ? hit / total : 0;
  }

  onPage(page: EvaluatedPage): void {
    this.pages++;
    const sim = finite(page.evaluation.score);
    if (sim > this.best) this.best = sim;
    const relevant = sim > 0 && sim >= this.params.relevance * this.best;
    const own = this.info.get(page.requestedUrl);
    if (own) this.rememberJudgeable(page.url, own);
    this.forget(page.requestedUrl);
    this.bandit.record(page.url, relevant ? 1 : 0);
    this.recentHarvest += ((relevant ? 1 : 0) - this.recentHarvest) / HARVEST_PAGES;
    if (own) {
      this.classifier.learn(own.features, relevant);
      if (relevant) this.waiting.push(own.words);
    }
    this.learnFromPage(page, own, relevant);
    const parentInherited = own?.inherited ?? 0;
    // Every link's URL counts into the rarity weights before any link of the page is scored.
    const urlParts = page.links.map((link) => this.urlPartsOf(link));
    for (const { matches } of urlParts) {
      this.urlSeen++;
      for (const t of matches) this.urlHits[t] = (this.urlHits[t] ?? 0) + 1;
    }
    let bestLink = -Infinity;
    for (let i = 0; i < page.links.length; i++) {
      const link = page.links[i];
      const { info } = this.linkInfo(link, sim, parentInherited, urlParts[i], page.url);
      const total = this.total(info);
      if (total > bestLink) bestLink = total;
      if (this.info.has(link.url) && this.frontier.has(link.url)) {
        if (total > this.frontier.scoreOf(link.url)!) {
          this.frontier.setScore(link.url, total);
          this.info.set(link.url, info);
        }
        continue;
      }
      if (this.reserved.has(link.url)) this.reserved.take(link.url);
      const result = this.enqueue(link.url, total, page);
      if (result === 'added' || result === 'evicted-other') this.info.set(link.url, info);
      else if (result === 'rejected') this.reserve({ url: link.url, score: total, depth: page.depth + 1, from: page.url }, info);
    }
    if (relevant && page.links.length > 0) this.probeRoot(page, bestLink);
    if (this.pages % this.params.interval === 0) this.retrain();
  }

  /**
   * The first relevant page of a site queues the site's home page (its origin's "/") at `rootProbe` x the page's best
   * link score: a home page is the site's table of contents, and its anchors name the pages a crawl entering the site
   * through one relevant page would otherwise not see. Once per site; a home page fetched already is dropped by the
   * loop when handed out, so the probe costs at most one fetch per site. Gated as the reserve is, on seeds that span
   * `rootProbeSites` sites: where the relevant pages are on one site its home page only takes budget.
   */
  private probeRoot(page: EvaluatedPage, bestLink: number): void {
    if (this.params.rootProbe <= 0 || this.seedSites.size < this.params.rootProbeSites) return;
    const { site } = siteOf(page.url);
    if (this.probed.has(site)) return;
    this.probed.add(site);
    const home = `${site}/`;
    if (home !== page.url && !this.info.has(home)) this.enqueue(home, bestLink * this.params.rootProbe, page);
  }

  /** Learns the waiting positive examples into the centroid and re-scores the frontier. Public for tests. */
  retrain(): void {
    for (const w of this.waiting) this.centroid.add(w);
    this.waiting = [];
    for (const [url, info] of this.info) if (this.frontier.has(url)) this.frontier.setScore(url, this.total(info));
    if (this.reserved.size > 0) this.rescoreReserve();
  }

  /** Re-scores the reserve; a link now above the frontier's worst goes back into the frontier. */
  private rescoreReserve(): void {
    for (const r of this.reserved.drain()) {
      const score = this.total(r.info);
      const entry = { ...r.entry, score };
      const worst = this.frontier.size >= this.frontier.capacity ? this.frontier.peekMin()?.score : undefined;
      if (worst === undefined || score > worst) {
        const result = this.frontier.add(entry);
        if (result === 'added' || result === 'evicted-other' || result === 'raised') {
          this.info.set(entry.url, r.info);
          continue;
        }
      }
      this.reserve(entry, r.info);
    }
  }

  override addSeeds(urls: string[]): void {
    super.addSeeds(urls);
    for (const url of urls) this.seedSites.add(siteOf(url).site);
  }

  /**
   * Keeps a link out of the frontier in its site's reserve (the best `reserve` of each site), when the seeds span
   * `reserveSites` sites or more: seeds near relevant pages on many sites say the relevant pages are on many sites.
   */
  private reserve(entry: FrontierEntry, info: LinkInfo): void {
    if (this.seedSites.size < this.params.reserveSites) return;
    this.reserved.add(info.site, entry, info);
  }

  protected override evicted(entry: FrontierEntry): void {
    const info = this.info.get(entry.url);
    this.forget(entry.url);
    if (info) this.reserve(entry, info);
  }

  override frontierSize(): number {
    return this.frontier.size + this.reserved.size;
  }

  protected override forget(url: string): void {
    this.info.delete(url);
  }

  // --- Relevance feedback: the user's judgements teach the classifier, the bandit and the centroid. ---

  /** The link features of recently fetched pages (not saved: after a resume, older pages teach the bandit only). */
  private judgeable = new Map<string, LinkInfo>();

  private rememberJudgeable(url: string, info: LinkInfo): void {
    this.judgeable.set(url, info);
    if (this.judgeable.size > JUDGEABLE_PAGES) this.judgeable.delete(this.judgeable.keys().next().value!);
  }

  /**
   * A judgement counts as fetched pages of its section in the bandit ({@link UP_WEIGHT} or {@link DOWN_WEIGHT}; taken
   * back on undo or a change of mind) and as as many SGD steps of the link classifier on the link that led to it; an
   * up-voted page's link words join the centroid. The topic vector moves (anchors are scored against the new one),
   * links follow their parents' new scores, and the whole frontier is re-scored.
   */
  onJudgement(change: JudgementChange): void {
    const weight = (v: number) => (v > 0 ? UP_WEIGHT : DOWN_WEIGHT);
    if (change.previous !== 0) this.bandit.record(change.url, change.previous > 0 ? 1 : 0, -weight(change.previous));
    if (change.value !== 0) {
      this.bandit.record(change.url, change.value > 0 ? 1 : 0, weight(change.value));
      const own = this.judgeable.get(change.url);
      if (own) {
        for (let i = 0; i < weight(change.value); i++) this.classifier.learn(own.features, change.value > 0);
        if (change.value > 0) this.waiting.push(own.words);
      }
    }
    this.topic = prepareTopic(change.topic);
    this.urlPartsKept.clear(); // the topic's terms and language may have changed
    if (change.moved.size > 0) {
      // A link's fixed parts count its parent's similarity once directly and once through what it inherits.
      const factor = this.params.wPage + this.params.wInherited;
      for (const e of this.frontier.entries()) {
        const d = e.from === undefined ? undefined : change.moved.get(e.from);
        const info = d === undefined ? undefined : this.info.get(e.url);
        if (info) info.base += factor * d!;
      }
    }
    this.retrain();
  }

  /**
   * The link the bandit explores next: among the sections that have queued links `accept` takes, the one with the
   * highest upper confidence bound gives its best link; ties go to the section whose best link scores higher, then
   * to the link queued earlier. Undefined if no queued link is accepted. Walks the per-link map (queued links in the
   * order they were queued) rather than sorting the frontier: this runs for one fetch in n.
   */
  private banditPick(accept: (url: string) => boolean, anyReserved = false): FrontierEntry | undefined {
    const gate = anyReserved ? 0 : this.params.reserveGate;
    // Section -> its best ready link; one record per section, updated in place (this runs for many fetches).
    const bestOf = new Map<string, { url: string; score: number; site: string }>();
    const consider = (section: string, url: string, score: number, site: string) => {
      const cur = bestOf.get(section);
      if (!cur) bestOf.set(section, { url, score, site });
      else if (score > cur.score) {
        cur.url = url;
        cur.score = score;
        cur.site = site;
      }
    };
    // forEach, not for-of: no entry pair per queued link.
    this.info.forEach((info, url) => {
      const score = this.frontier.scoreOf(url);
      if (score !== undefined && accept(url)) consider(info.section, url, score, info.site);
    });
    // Reserved links only once the seeds' neighbourhood has stopped paying (reserveHarvest), or when nothing else is left.
    const reserveOpen = anyReserved || this.recentHarvest <= this.params.reserveHarvest;
    for (const [site, list] of reserveOpen ? this.reserved.sites() : []) {
      // Only sites where relevance has turned up: elsewhere the reserve would spend the budget of one-site topics.
      if ((this.bandit.sites.get(site)?.reward ?? 0) < gate) continue;
      for (const { entry, info } of list) {
        if (accept(entry.url)) consider(info.section, entry.url, entry.score, info.site);
      }
    }
    let chosen: { url: string; score: number } | undefined;
    let chosenValue = -Infinity;
    for (const [section, e] of bestOf) {
      const v = this.bandit.ucb(section, e.site, this.params.ucb);
      if (v > chosenValue || (v === chosenValue && chosen && e.score > chosen.score)) {
        chosen = e;
        chosenValue = v;
      }
    }
    if (!chosen) return undefined;
    const fromReserve = this.reserved.take(chosen.url);
    if (!fromReserve) return this.frontier.entryOf(chosen.url);
    // Known again as a queued link would be, so the page it leads to trains the classifier.
    this.info.set(chosen.url, fromReserve.info);
    return fromReserve.entry;
  }

  /**
   * Drawn uniformly from the best n - explore ready links, or, with probability explore / n, chosen by the section
   * bandit among the other ready links (per fetch slot, what was one bandit link in every round of n). Seeds go
   * first, before any exploring.
   */
  next(ready: ReadyTest): FrontierEntry | null {
    const n = this.params.n;
    const explore = Math.min(n - 1, Math.floor(this.params.explore));
    const top = n - explore;
    if (
      explore > 0 &&
      (this.frontier.size > top || this.reserved.size > 0) &&
      (this.frontier.peekMax()?.score ?? 0) < SEED_SCORE &&
      this.rng.next() < explore / n
    ) {
      const best = new Set(this.frontier.best(top, ready).map((e) => e.url));
      const other = this.banditPick((url) => !best.has(url) && ready(url));
      if (other) {
        this.frontier.remove(other.url);
        return other;
      }
    }
    const drawn = this.drawFromBest(top, ready);
    // With nothing queued the reserve is all there is, gated or not (else the crawl would end with links left).
    if (!drawn && this.frontier.size === 0 && this.reserved.size > 0) return this.banditPick(ready, true) ?? null;
    return drawn;
  }

  protected override saveState(): Record<string, Json> {
    return {
      info: [...this.info.entries()].map(([u, i]) => infoJson(u, i, this.savesParents)),
      reserved: [...this.reserved.sites()]
        .flatMap(([, list]) => list)
        .map(({ entry: e, info }) => [e.score, e.depth, e.from ?? null, infoJson(e.url, info, this.savesParents)]),
      seedSites: [...this.seedSites],
      probed: [...this.probed],
      recentHarvest: this.recentHarvest,
      urlSeen: this.urlSeen,
      urlHits: { ...this.urlHits },
      centroid: this.centroid.toJSON(),
      classifier: this.classifier.toJSON(),
      bandit: this.bandit.toJSON(),
      waiting: this.waiting,
      best: this.best,
      pages: this.pages,
    };
  }

  protected override resetState(): void {
    this.info = new Map();
    this.reserved = this.newReserve();
    this.seedSites = new Set();
    this.probed = new Set();
    this.recentHarvest = 1;
  }

  /** A queued link's saved info (see infoJson); without features (saved by forager-classic) they are its words. */
  private infoOf(raw: Json): [string, LinkInfo] {
    const [u, base, inh, words, url, features, parent] = asArray(raw, 'forager info entry');
    const link = str(u, 'url');
    const terms = strings(words, 'words');
    return [
      link,
      {
        base: num(base, 'base'),
        inherited: num(inh, 'inherited'),
        words: terms,
        url: strings(url, 'url terms'),
        features:
          features === undefined
            ? this.classifier.prefixed([['w:', terms]])
            : asArray(features, 'features').map((f) => num(f, 'feature')),
        ...siteOf(link),
        parent: parent === undefined || parent === null ? undefined : str(parent, 'parent'),
      },
    ];
  }

  /**
   * Restores {@link saveState}'s output, and also the state of forager-classic, which was saved under the name
   * `forager` when it was the default (crawls paused then resume here): the classic parts carry over, the classifier and the
   * bandit start empty, and queued links get their words as classifier features.
   */
  protected override restoreState(s: { [key: string]: Json }): void {
    for (const site of strings(s.seedSites ?? [], 'seedSites')) this.seedSites.add(site);
    for (const site of strings(s.probed ?? [], 'probed')) this.probed.add(site);
    if (s.recentHarvest !== undefined) this.recentHarvest = num(s.recentHarvest, 'recentHarvest');
    for (const raw of asArray(s.info, 'forager info')) {
      const [url, info] = this.infoOf(raw);
      this.info.set(url, info);
    }
    for (const raw of asArray(s.reserved ?? [], 'forager reserve')) {
      const [score, depth, from, rawInfo] = asArray(raw, 'forager reserve entry');
      const [url, info] = this.infoOf(rawInfo);
      const entry: FrontierEntry = { url, score: num(score, 'reserve score'), depth: num(depth, 'reserve depth') };
      if (from !== null) entry.from = str(from, 'reserve from');
      this.reserve(entry, info);
    }
    this.urlSeen = num(s.urlSeen, 'urlSeen');
    this.urlHits = Object.create(null);
    const hits = asObject(s.urlHits, 'forager urlHits');
    for (const k of Object.keys(hits)) this.urlHits[k] = num(hits[k], `urlHits ${k}`);
    this.centroid.load(s.centroid);
    if (s.classifier !== undefined) this.classifier.load(s.classifier);
    if (s.bandit !== undefined) this.bandit.load(s.bandit);
    this.waiting = asArray(s.waiting, 'waiting').map((w) => strings(w, 'waiting example'));
    this.best = num(s.best, 'best');
    this.pages = num(s.pages, 'pages');
  }
}

/** Pages over which the recent harvest is averaged (its moving average's window). */
const HARVEST_PAGES = 50;

/** A link's info as saved: URL, fixed score, inherited score, centroid words, URL terms, classifier features. */
function infoJson(url: string, i: LinkInfo, withParent: boolean): Json {
  const saved: Json[] = [url, i.base, i.inherited, i.words, i.url, i.features];
  if (withParent) saved.push(i.parent ?? null);
  return saved;
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
export const foragerInfo: StrategyInfo = {
  name: 'forager',
  label: 'Forager',
  description:
    "Forager's default: best-first on the classic link score (parent similarity, inherited score, anchor, nearby " +
    'words, URL words, a centroid of links that led to relevant pages) plus an online link classifier and a bandit ' +
    'over site sections that spends exploration where relevance keeps turning up and caps what one site may take; ' +
    'when the seeds span several sites it fetches the home page of each site where relevance turns up and, once the ' +
    'neighbourhood stops paying, explores links other sites lost from the full frontier.',
  aliases: { 'forager-no-probe': { rootProbe: 0 }, 'forager-no-reserve': { reserve: 0, rootProbe: 0 } },
  source:
    'Best-N-First (Pant et al. 2002), shark-search (Hersovici et al. 1998), InfoSpiders (Menczer & Belew 2000), ' +
    "ACHE's online link classifier (Barbosa & Freire 2007), incremental anchor-text learning, UCB1 (Auer et al. 2002).",
  params: [
    {
      name: 'n',
      label: 'Links per round',
      type: 'number',
      default: FORAGER_DEFAULTS.n,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'links fetched per round, in random order',
    },
    {
      name: 'explore',
      label: 'Bandit links per round',
      type: 'number',
      default: FORAGER_DEFAULTS.explore,
      min: 0,
      max: 10_000,
      integer: true,
      description: 'of the n links per round, how many the section bandit chooses instead of the top of the frontier',
    },
    weight('wPage', 'Parent page weight', FORAGER_DEFAULTS.wPage, "weight of the parent page's similarity"),
    weight('wInherited', 'Inherited weight', FORAGER_DEFAULTS.wInherited, 'weight of the score inherited from ancestors'),
    weight('wAnchor', 'Anchor weight', FORAGER_DEFAULTS.wAnchor, 'weight of the anchor text similarity'),
    weight('wContext', 'Context weight', FORAGER_DEFAULTS.wContext, 'weight of topic words near the link'),
    weight('wUrl', 'URL weight', FORAGER_DEFAULTS.wUrl, 'weight of topic words in the URL'),
    weight('wLearned', 'Centroid weight', FORAGER_DEFAULTS.wLearned, 'weight of the similarity to links that paid'),
    weight('wClassifier', 'Classifier weight', FORAGER_DEFAULTS.wClassifier, "weight of the online classifier's P(relevant)"),
    weight('wSection', 'Section weight', FORAGER_DEFAULTS.wSection, "weight of the link's section mean minus the crawl's"),
    weight('wShare', 'Site share penalty', FORAGER_DEFAULTS.wShare, "penalty per share of the crawl the link's site took"),
    weight('ucb', 'Bandit exploration', FORAGER_DEFAULTS.ucb, "UCB1's exploration factor c of the section bandit"),
    {
      name: 'decay',
      label: 'Inheritance decay',
      type: 'number',
      default: FORAGER_DEFAULTS.decay,
      min: 0,
      max: 1,
      description: 'factor per link away from a relevant page',
    },
    {
      name: 'relevance',
      label: 'Relevance bar',
      type: 'number',
      default: FORAGER_DEFAULTS.relevance,
      min: 0,
      max: 1,
      description: 'a page counts as relevant (classifier, centroid, bandit) at this share of the best similarity seen',
    },
    {
      name: 'reserve',
      label: 'Lost links kept per site',
      type: 'number',
      default: FORAGER_DEFAULTS.reserve,
      min: 0,
      max: 10_000,
      integer: true,
      description: "per site, the best links the full frontier evicted or turned away, kept for the bandit's exploring slot",
    },
    {
      name: 'reserveGate',
      label: 'Relevant pages a site gives before its lost links',
      type: 'number',
      default: FORAGER_DEFAULTS.reserveGate,
      min: 0,
      max: 10_000,
      description: 'relevant pages a site must have given before the bandit takes its reserved links',
    },
    {
      name: 'reserveSites',
      label: 'Seed sites before keeping lost links',
      type: 'number',
      default: FORAGER_DEFAULTS.reserveSites,
      min: 0,
      max: 10_000,
      integer: true,
      description: 'links are reserved only when the seeds are on at least this many sites',
    },
    {
      name: 'reserveHarvest',
      label: 'Harvest below which lost links are tried',
      type: 'number',
      default: FORAGER_DEFAULTS.reserveHarvest,
      min: 0,
      max: 1,
      description: 'the bandit takes reserved links only while the share of relevant recent pages is below this',
    },
    {
      name: 'rootProbe',
      label: 'Home page probe',
      type: 'number',
      default: FORAGER_DEFAULTS.rootProbe,
      min: 0,
      max: 10,
      description: "a site's first relevant page queues the site's home page at this times the page's best link score (0: never)",
    },
    {
      name: 'rootProbeSites',
      label: 'Seed sites before home page probes',
      type: 'number',
      default: FORAGER_DEFAULTS.rootProbeSites,
      min: 0,
      max: 10_000,
      integer: true,
      description: 'home pages are probed only when the seeds are on at least this many sites',
    },
    {
      name: 'interval',
      label: 'Re-score every',
      type: 'number',
      default: FORAGER_DEFAULTS.interval,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'pages between re-scorings of the frontier',
    },
  ],
  create: (ctx) => new ForagerStrategy(ctx),
};

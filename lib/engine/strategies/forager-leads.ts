/**
 * `forager-leads`: forager, plus what the crawl's own link graph says about pages that lead to relevant pages though
 * they hold none of the topic's words (a site's index, a chapter's table of contents, a page of links to other
 * projects). Forager judges a link by words; a hub has few of them, so a crawl led by words reaches what lies behind
 * it late, or only by exploring.
 *
 * Two parts join forager's link score (lead-learner.ts keeps what they learn):
 *   level = P(the page a link leads to leads on to relevant pages) from a second online link classifier over the
 *           same hashed features as forager's (anchor, nearby words, URL words, site, section). When a fetched page
 *           is relevant, the links that led to its ancestors, up to `levels` links back in the crawl's graph, are
 *           its positive examples, the k-th back weighted `levelDecay`^(k-1); the links to pages that are not
 *           relevant are its negative ones. Diligenti et al.'s context graphs (VLDB 2000) and ACHE's
 *           FORWARD_CLASSIFIER_LEVELS learn the distance to a relevant page the same way, offline and from
 *           backlinks; here it is online, from the crawl's own paths.
 *   hub   = how much more the pages fetched through the links of a link's page were relevant than the crawl's pages
 *           in general (shrunk towards the crawl's mean): a link whose siblings paid is worth more than its own words
 *           say (ACHE's hub links; Kleinberg's hubs).
 *   score = forager's score + wLevel x level + wHub x hub.
 * Everything else (the classic score, classifier, section bandit, reserve, home page probe, feedback) is forager's.
 */
import type { EvaluatedPage, Json, StrategyContext } from '../types';
import { type FORAGER_DEFAULTS, ForagerStrategy, foragerInfo, type LinkInfo } from './forager';
import { LeadLearner } from './lead-learner';
import { numericParams, type StrategyInfo } from './spec';

export const FORAGER_LEADS_DEFAULTS = {
  levels: 3,
  levelDecay: 0.5,
  wLevel: 1,
  wHub: 1,
};

type LeadParams = Record<keyof typeof FORAGER_LEADS_DEFAULTS, number>;

export class ForagerLeads extends ForagerStrategy {
  override readonly name: string = 'forager-leads';
  readonly leadParams: LeadParams;
  readonly lead: LeadLearner;
  protected override readonly savesParents = true;

  constructor(ctx: StrategyContext) {
    super(ctx, foragerLeadsInfo);
    this.leadParams = numericParams<keyof typeof FORAGER_DEFAULTS | keyof LeadParams>(foragerLeadsInfo, ctx.params);
    this.lead = new LeadLearner(this.leadParams.levels, this.leadParams.levelDecay);
  }

  protected override leadScore(info: LinkInfo): number {
    const p = this.leadParams;
    let score = 0;
    if (p.wLevel !== 0) score += p.wLevel * this.lead.level(info.features);
    if (p.wHub !== 0) score += p.wHub * this.lead.yieldAbove(info.parent, this.bandit.overall());
    return score;
  }

  protected override learnFromPage(page: EvaluatedPage, own: LinkInfo | undefined, relevant: boolean): void {
    this.lead.onFetched(page.url, page.from, own?.features, relevant);
  }

  protected override saveState(): Record<string, Json> {
    return { ...super.saveState(), lead: this.lead.toJSON() };
  }

  protected override restoreState(s: { [key: string]: Json }): void {
    super.restoreState(s);
    if (s.lead !== undefined) this.lead.load(s.lead);
  }
}

const leadWeight = (name: keyof LeadParams, label: string, description: string) => ({
  name,
  label,
  type: 'number' as const,
  default: FORAGER_LEADS_DEFAULTS[name],
  min: 0,
  max: 100,
  description,
});

/** The registry entry: forager's parameters and the lead parts'. */
export const foragerLeadsInfo: StrategyInfo = {
  name: 'forager-leads',
  label: 'Forager with leads',
  description:
    "Forager, plus what the crawl's own link graph teaches: a second link classifier that learns which links lead to " +
    'pages that lead on to relevant pages (up to a few links back), and a bonus for links on pages whose other ' +
    'links led to relevant pages.',
  source:
    'Forager; context graphs (Diligenti et al., VLDB 2000); ACHE forward link classifier levels (Barbosa & Freire ' +
    '2007); discounted future reward (Rennie & McCallum 1999); hubs (Kleinberg 1999).',
  params: [
    ...foragerInfo.params,
    {
      name: 'levels',
      label: 'Links back a relevant page teaches',
      type: 'number',
      default: FORAGER_LEADS_DEFAULTS.levels,
      min: 0,
      max: 5,
      integer: true,
      description: "a relevant page's ancestors up to this many links back teach the level model (0: it learns nothing)",
    },
    {
      name: 'levelDecay',
      label: 'Level decay',
      type: 'number',
      default: FORAGER_LEADS_DEFAULTS.levelDecay,
      min: 0,
      max: 1,
      description: 'weight of an example k links back from a relevant page: this to the power k - 1',
    },
    leadWeight('wLevel', 'Level weight', "weight of the level model's P(the link's page leads on to relevant pages)"),
    leadWeight('wHub', 'Hub weight', "weight of how much more the links of the link's page paid than the crawl's pages"),
  ],
  create: (ctx) => new ForagerLeads(ctx),
};

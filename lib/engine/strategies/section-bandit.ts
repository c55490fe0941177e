/**
 * The section bandit of forager: every fetched page is a pull of its site section (origin + first path folder) and of
 * its site, with reward 1 when the page is relevant. Means are shrunk hierarchically (a section towards its site, a
 * site towards the whole crawl), so a new section of a site that pays starts high and one of a site that does not
 * starts low; UCB1 (Auer et al. 2002) adds an exploration bonus for sections seldom pulled. The strategy uses the means
 * in its link score and the bounds to choose where its exploring slot goes.
 */
import type { Json } from '../types';
import { asArray, asObject, num, str } from './state';

/** scheme://host[:port], then the path (links reach strategies canonical, so no URL parsing is needed). */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)/i;

/**
 * The origin and site section (origin + first path folder) of a URL; a page at the root is in the root section, and
 * something that is not an absolute URL is its own site. A regular expression, not `new URL`: this runs for every
 * link of every page.
 */
export function siteOf(url: string): { site: string; section: string } {
  const m = URL_PARTS.exec(url);
  if (!m) return { site: url, section: url };
  const path = m[2];
  const end = path.indexOf('/', 1);
  return { site: m[1], section: `${m[1]}${end > 0 ? path.slice(0, end) : '/'}` };
}

/** Pulls and rewards of one arm. */
interface Arm {
  pulls: number;
  reward: number;
}

/**
 * A bandit over site sections: every fetched page is a pull of its section (and site) with reward 1 if relevant.
 * Means are shrunk hierarchically (section towards site, site towards the crawl, with `prior` pseudo-pulls each),
 * and {@link ucb} adds UCB1's exploration bonus.
 */
export class SectionBandit {
  readonly sections = new Map<string, Arm>();
  readonly sites = new Map<string, Arm>();
  pulls = 0;
  reward = 0;

  constructor(private readonly prior = 2) {}

  /** Records one fetched page of `url`'s section (`pulls` of them: a judgement counts several; negative takes them back). */
  record(url: string, reward: number, pulls = 1): void {
    const { site, section } = siteOf(url);
    this.pulls += pulls;
    this.reward += reward * pulls;
    for (const [map, key] of [
      [this.sites, site],
      [this.sections, section],
    ] as const) {
      const arm = map.get(key) ?? { pulls: 0, reward: 0 };
      arm.pulls += pulls;
      arm.reward += reward * pulls;
      map.set(key, arm);
    }
  }

  /** The crawl's mean reward, with one pseudo-success and one pseudo-failure (0.5 before any page). */
  overall(): number {
    return (this.reward + 1) / (this.pulls + 2);
  }

  /** Site mean shrunk towards the crawl's. */
  siteMean(site: string): number {
    const a = this.sites.get(site);
    const m = this.overall();
    return a ? (a.reward + this.prior * m) / (a.pulls + this.prior) : m;
  }

  /** Section mean shrunk towards its site's. */
  mean(section: string, site: string): number {
    const a = this.sections.get(section);
    const m = this.siteMean(site);
    return a ? (a.reward + this.prior * m) / (a.pulls + this.prior) : m;
  }

  /** Share of all fetched pages that came from `site`. */
  share(site: string): number {
    return this.pulls > 0 ? (this.sites.get(site)?.pulls ?? 0) / this.pulls : 0;
  }

  /** Upper confidence bound of a section (UCB1 with exploration factor `c`). */
  ucb(section: string, site: string, c: number): number {
    const n = this.sections.get(section)?.pulls ?? 0;
    return this.mean(section, site) + c * Math.sqrt(Math.log(this.pulls + 1) / (n + 1));
  }

  toJSON(): Json {
    const arms = (m: Map<string, Arm>) => [...m].map(([k, a]) => [k, a.pulls, a.reward]);
    return { pulls: this.pulls, reward: this.reward, sections: arms(this.sections), sites: arms(this.sites) };
  }

  /** @throws TypeError if `state` is not the output of {@link toJSON}. */
  load(state: Json): void {
    const s = asObject(state, 'bandit');
    this.pulls = num(s.pulls, 'bandit pulls');
    this.reward = num(s.reward, 'bandit reward');
    for (const [key, map] of [
      ['sections', this.sections],
      ['sites', this.sites],
    ] as const) {
      map.clear();
      for (const raw of asArray(s[key], `bandit ${key}`)) {
        const [k, p, r] = asArray(raw, `bandit ${key} entry`);
        map.set(str(k, 'bandit arm'), { pulls: num(p, 'arm pulls'), reward: num(r, 'arm reward') });
      }
    }
  }
}

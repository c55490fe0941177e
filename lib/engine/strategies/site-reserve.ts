/**
 * The reserve of forager: links the bounded frontier evicted or turned away, kept per site (the best `perSite` of
 * each, at most `capacity` in all) with what the strategy knows of them. When one site's links flood the frontier,
 * the other sites' links would be lost for good; kept here, the strategy's exploring slot can still try them.
 */
import type { FrontierEntry } from '../types';

/** A reserved link: its frontier entry and the strategy's own record of it. */
export interface Reserved<Info> {
  entry: FrontierEntry;
  info: Info;
}

export class SiteReserve<Info> {
  /** Per site, its reserved links best first (sites in the order they were first reserved). */
  private bySite = new Map<string, Reserved<Info>[]>();
  /** Reserved URL -> its site. */
  private siteOfUrl = new Map<string, string>();

  /** @param capacity links kept in all (the frontier's capacity, read when a link is added). */
  constructor(
    private readonly perSite: number,
    private readonly capacity: () => number,
  ) {}

  get size(): number {
    return this.siteOfUrl.size;
  }

  has(url: string): boolean {
    return this.siteOfUrl.has(url);
  }

  /** Each site's reserved links, best first, in the order sites were first reserved. */
  sites(): IterableIterator<[string, Reserved<Info>[]]> {
    return this.bySite.entries();
  }

  /**
   * Keeps a link of `site` if it is among the site's best `perSite`; past `capacity` links in all the worst goes.
   * A URL already reserved is left as it is.
   */
  add(site: string, entry: FrontierEntry, info: Info): void {
    if (this.perSite <= 0 || this.siteOfUrl.has(entry.url)) return;
    const list = this.bySite.get(site) ?? [];
    if (list.length >= this.perSite && !(entry.score > list[list.length - 1].entry.score)) return;
    let at = list.length;
    while (at > 0 && list[at - 1].entry.score < entry.score) at--;
    list.splice(at, 0, { entry, info });
    this.siteOfUrl.set(entry.url, site);
    if (list.length > this.perSite) this.siteOfUrl.delete(list.pop()!.entry.url);
    this.bySite.set(site, list);
    // Bounded as the frontier is (a crawl over thousands of sites): past capacity the worst link goes.
    if (this.siteOfUrl.size > this.capacity()) this.dropWorst();
  }

  /** Takes a link out of the reserve; returns it with what the strategy knows of it. */
  take(url: string): Reserved<Info> | undefined {
    const site = this.siteOfUrl.get(url);
    if (site === undefined) return undefined;
    this.siteOfUrl.delete(url);
    const list = this.bySite.get(site)!;
    const at = list.findIndex((r) => r.entry.url === url);
    const [r] = list.splice(at, 1);
    if (list.length === 0) this.bySite.delete(site);
    return r;
  }

  /** Empties the reserve and returns what it held (site by site, best first), to be scored again and put back. */
  drain(): Reserved<Info>[] {
    const all = [...this.bySite.values()].flat();
    this.clear();
    return all;
  }

  clear(): void {
    this.bySite.clear();
    this.siteOfUrl.clear();
  }

  /** Drops the lowest-scored reserved link (of the first site that has it, in the order sites were reserved). */
  private dropWorst(): void {
    let worstSite: string | undefined;
    let worst = Infinity;
    for (const [site, list] of this.bySite) {
      const score = list[list.length - 1].entry.score;
      if (score < worst) {
        worst = score;
        worstSite = site;
      }
    }
    if (worstSite === undefined) return;
    const list = this.bySite.get(worstSite)!;
    this.siteOfUrl.delete(list.pop()!.entry.url);
    if (list.length === 0) this.bySite.delete(worstSite);
  }
}

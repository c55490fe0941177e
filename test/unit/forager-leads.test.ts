import { describe, expect, it } from 'vitest';
import { ForagerLeads } from '../../lib/engine/strategies/forager-leads';
import { ForagerStrategy } from '../../lib/engine/strategies/forager';
import { LeadLearner } from '../../lib/engine/strategies/lead-learner';
import { createStrategy } from '../../lib/engine/strategies/index';
import type { EvaluatedPage, LinkFeature, StrategyContext } from '../../lib/engine/types';
import { evaluatedPage } from './evaluated-page';

const topic = { keywords: 'solar telescope' };
const ctx = (params: StrategyContext['params'] = {}, seed = 1): StrategyContext => ({ topic, maxBuffer: 256, seed, params });

function link(url: string, anchor: string[] = []): LinkFeature {
  return { url, anchorText: anchor.join(' '), anchorTerms: anchor, contextBefore: [], contextAfter: [], nofollow: false };
}

function page(url: string, score: number, links: LinkFeature[], from?: string): EvaluatedPage {
  return evaluatedPage(url, score, links, { from, isSeed: from === undefined });
}

describe('LeadLearner', () => {
  it("teaches the level model the links to a relevant page's ancestors, and nothing with levels 0", () => {
    const hub = [1, 2, 3];
    const other = [4, 5, 6];
    for (const levels of [0, 2]) {
      const l = new LeadLearner(levels, 0.5);
      for (let i = 0; i < 20; i++) {
        // seed -> hub page (reached through `hub` features, not relevant) -> a relevant page
        l.onFetched(`s${i}`, undefined, undefined, false);
        l.onFetched(`h${i}`, `s${i}`, hub, false);
        l.onFetched(`t${i}`, `h${i}`, [7], true);
        l.onFetched(`o${i}`, `s${i}`, other, false);
      }
      if (levels === 0) expect(l.level(hub)).toBe(0);
      else expect(l.level(hub)).toBeGreaterThan(l.level(other) + 0.2);
    }
  });

  it("counts a page's yield: the relevant share of the pages fetched through its links, shrunk to the mean", () => {
    const l = new LeadLearner(0, 0.5);
    for (let i = 0; i < 4; i++) l.onFetched(`a${i}`, 'hub', [i], true);
    for (let i = 0; i < 4; i++) l.onFetched(`b${i}`, 'plain', [i], false);
    expect(l.yieldAbove('hub', 0.2)).toBeCloseTo((4 + 2 * 0.2) / 6 - 0.2, 12);
    expect(l.yieldAbove('plain', 0.2)).toBeLessThan(0);
    expect(l.yieldAbove('never', 0.2)).toBe(0);
    expect(l.yieldAbove(undefined, 0.2)).toBe(0);
  });

  it('round-trips its yields and level model through JSON', () => {
    const l = new LeadLearner(2, 0.5);
    l.onFetched('s', undefined, undefined, false);
    l.onFetched('h', 's', [1, 2], false);
    l.onFetched('t', 'h', [3], true);
    const copy = new LeadLearner(2, 0.5);
    copy.load(JSON.parse(JSON.stringify(l.toJSON())));
    expect(copy.level([1, 2])).toBe(l.level([1, 2]));
    expect(copy.yieldAbove('h', 0.1)).toBe(l.yieldAbove('h', 0.1));
    expect(() => copy.load({ yields: 'x' } as never)).toThrow(TypeError);
  });
});

describe('forager-leads', () => {
  it('is registered by name, with forager’s parameters and its own', () => {
    const s = createStrategy('forager-leads', ctx({ wLevel: 2 }));
    expect(s).toBeInstanceOf(ForagerLeads);
    expect(s.name).toBe('forager-leads');
    expect((s as ForagerLeads).leadParams.wLevel).toBe(2);
    expect((s as ForagerLeads).params.n).toBe(4);
    expect(createStrategy('forager', ctx()).name).toBe('forager');
    expect(() => createStrategy('forager', ctx({ wLevel: 1 }))).toThrow(/no parameter "wLevel"/);
  });

  it('with both lead weights 0 crawls as forager does, choice for choice', () => {
    const a = new ForagerStrategy(ctx({}, 7));
    const b = new ForagerLeads(ctx({ wLevel: 0, wHub: 0 }, 7));
    const seeds = ['https://a.example/0.html', 'https://b.example/0.html'];
    a.addSeeds(seeds);
    b.addSeeds(seeds);
    const order: [string | undefined, string | undefined][] = [];
    for (let i = 0; i < 60; i++) {
      const ea = a.next(() => true);
      const eb = b.next(() => true);
      order.push([ea?.url, eb?.url]);
      if (!ea || !eb) break;
      const links = Array.from({ length: 6 }, (_, k) =>
        link(`https://${'abc'[(i + k) % 3]}.example/${i * 6 + k}.html`, k % 2 ? ['solar'] : ['index']),
      );
      const sim = (i * 7) % 5 === 0 ? 0.4 : 0.05;
      a.onPage(page(ea.url, sim, links, ea.from));
      b.onPage(page(eb.url, sim, links, eb.from));
    }
    expect(order.length).toBeGreaterThan(50);
    for (const [x, y] of order) expect(y).toBe(x);
  });

  it('raises a wordless link into a page like the hubs that led to relevant pages', () => {
    const s = new ForagerLeads(ctx({ wLevel: 1, wHub: 1 }));
    const start = 'https://d.example/start.html';
    const tocs = Array.from({ length: 15 }, (_, i) => `https://d.example/toc${i}.html`);
    const news = Array.from({ length: 15 }, (_, i) => `https://d.example/news${i}.html`);
    s.addSeeds([start]);
    s.onPage(page(start, 0.01, [...tocs.map((u) => link(u, ['contents'])), ...news.map((u) => link(u, ['news']))]));
    for (let i = 0; i < 15; i++) {
      // A contents page with no topic words leads to a relevant page; a news page leads to nothing.
      s.onPage(page(tocs[i], 0.01, [link(`https://d.example/sun${i}.html`)], start));
      s.onPage(page(`https://d.example/sun${i}.html`, 0.5, [], tocs[i]));
      s.onPage(page(news[i], 0.01, [link(`https://d.example/old${i}.html`)], start));
      s.onPage(page(`https://d.example/old${i}.html`, 0.01, [], news[i]));
    }
    const toc = s.scoreLink(link('https://e.example/toc.html', ['contents']), 0.01, 0).score;
    const other = s.scoreLink(link('https://e.example/news.html', ['news']), 0.01, 0).score;
    expect(toc.lead).toBeGreaterThan(other.lead + 0.1);
    // A strategy state with the lead model survives a save and a restore.
    const copy = new ForagerLeads(ctx({ wLevel: 1, wHub: 1 }));
    copy.restore(JSON.parse(JSON.stringify(s.save())));
    expect(copy.scoreLink(link('https://e.example/toc.html', ['contents']), 0.01, 0).score.lead).toBe(toc.lead);
  });
});

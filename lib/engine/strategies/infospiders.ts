/**
 * InfoSpiders, after F. Menczer & R. K. Belew, "Adaptive retrieval agents: internalizing local context and scaling
 * up to the Web" (Machine Learning 39, 2000), as crawled in Menczer, Pant, Srinivasan & Ruiz (SIGIR 2001) and in
 * MySpiders (Pant & Menczer 2002).
 *
 * A population of agents, each with
 * - a keyword vector (the topic's terms at first) and a small neural net (one tanh unit, one weight per keyword plus
 *   a bias) that values a link from the keywords near it: input k = sum over occurrences of keyword k in the link's
 *   anchor (distance 1) and context (distance 1 + words away) of 1/distance;
 * - its own frontier; the MAX_BUFFER budget is shared: each agent holds at most MAX_BUFFER / population links;
 * - energy.
 * Agents take turns: whenever a fetch slot is free, the next agent in turn that holds a link whose site may be
 * contacted now picks one from a Boltzmann distribution over the net's values of those links
 * (Pr(l) ~ exp(beta * value(l))); with as many slots as agents this is the paper's round of one fetch per agent. After the fetch it learns (Q-learning: target = reward + gamma * best value among
 * the new page's links, delta rule on the net), gains the reward (the new page's similarity to the topic) as energy
 * and pays `cost` per fetch. With energy above `threshold` it reproduces: energy halves, the offspring copies the
 * net and takes half of the parent's frontier, and its keyword vector is mutated with the term that co-occurs most
 * with the agent's keywords in the current page (counted in the windows around links whose anchor or context holds
 * a keyword; the page's term frequency breaks ties). At zero energy it dies and its frontier with it, except that
 * the last agent is kept alive so that a crawl never ends while links remain (the paper's populations were large
 * enough not to go extinct within a crawl).
 */
import type { EvaluatedPage, FrontierEntry, Json, LinkFeature, ReadyTest, Strategy, StrategyContext } from '../types';
import { Rng } from '../rng';
import { finite } from './frontier-strategy';
import { prepareTopic } from './link-scoring';
import { numericParams, type StrategyInfo } from './spec';
import { asArray, asObject, num, str, strings } from './state';

/** A link waiting in an agent's frontier, with the words around it (term, distance) the net reads. */
interface AgentLink {
  url: string;
  depth: number;
  from?: string;
  /** Terms near the link with their distance (anchor = 1). Kept whole: a mutated keyword may appear later. */
  words: [string, number][];
  /** Value under the agent's net when last computed. */
  value: number;
  /** Seeds are taken first. */
  seed: boolean;
}

/** One agent. */
export interface Agent {
  id: number;
  energy: number;
  keywords: string[];
  /** One weight per keyword (parallel to `keywords`). */
  weights: number[];
  bias: number;
  frontier: AgentLink[];
  /** Parent agent id (null for the founders). */
  parent: number | null;
}

/** What happened to the population; exposed for tests and diagnostics. */
export interface SpiderEvent {
  kind: 'birth' | 'death';
  agent: number;
  parent?: number;
  /** The keyword the offspring gained (births). */
  mutation?: string;
  atPage: number;
}

export const INFOSPIDERS_DEFAULTS = {
  population: 8,
  maxPopulation: 32,
  energy: 1,
  cost: 0.03,
  threshold: 2,
  beta: 3,
  learningRate: 0.2,
  gamma: 0.5,
};

/** Words around a link with their distance: anchor terms at 1, context terms at 1 + their distance from the anchor. */
export function linkWords(link: LinkFeature): [string, number][] {
  const out: [string, number][] = [];
  for (const t of link.anchorTerms) out.push([t, 1]);
  const before = link.contextBefore;
  for (let i = before.length - 1, d = 2; i >= 0; i--, d++) out.push([before[i], d]);
  link.contextAfter.forEach((t, i) => {
    out.push([t, i + 2]);
  });
  return out;
}

/** The net's inputs for one link: per keyword, sum of 1/distance over its occurrences near the link. */
export function agentInputs(agent: Pick<Agent, 'keywords'>, words: readonly [string, number][]): number[] {
  const x = new Array<number>(agent.keywords.length).fill(0);
  for (const [t, d] of words) {
    const k = agent.keywords.indexOf(t);
    if (k >= 0) x[k] += 1 / d;
  }
  return x;
}

/** The agent's valuation of a link, in (-1, 1). */
export function agentValue(agent: Pick<Agent, 'keywords' | 'weights' | 'bias'>, words: readonly [string, number][]): number {
  const x = agentInputs(agent, words);
  let a = agent.bias;
  for (let k = 0; k < x.length; k++) a += agent.weights[k] * x[k];
  return Math.tanh(a);
}

/** InfoSpiders crawling strategy (see the module comment). */
export class InfoSpiders implements Strategy {
  readonly name = 'infospiders';
  private readonly maxBuffer: number;
  private readonly p: typeof INFOSPIDERS_DEFAULTS;
  private readonly rng: Rng;
  private readonly topicKeywords: string[];
  agents: Agent[] = [];
  private nextId = 0;
  /** Index (in `agents`) of the agent whose turn it is to pick. */
  private turn = 0;
  /** URLs handed out so far (an URL may sit in several agents' frontiers; it is fetched once). */
  private taken = new Set<string>();
  /** URL being fetched -> [agent id, value predicted when chosen]. */
  private pending = new Map<string, [number, number]>();
  /** URL being fetched -> the words around the link chosen (what the net valued), for learning. */
  private lastWords = new Map<string, [string, number][]>();
  private pages = 0;
  /** Births and deaths so far (bounded to the last 1000). */
  readonly events: SpiderEvent[] = [];

  constructor(ctx: StrategyContext) {
    this.maxBuffer = ctx.maxBuffer;
    this.p = numericParams<keyof typeof INFOSPIDERS_DEFAULTS>(infoSpidersInfo, ctx.params);
    this.rng = new Rng(ctx.seed);
    this.topicKeywords = prepareTopic(ctx.topic).terms;
  }

  private capacity(): number {
    return Math.max(1, Math.floor(this.maxBuffer / Math.max(1, this.agents.length)));
  }

  private newAgent(keywords: string[], weights: number[], bias: number, energy: number, parent: number | null): Agent {
    const a: Agent = { id: this.nextId++, energy, keywords: [...keywords], weights: [...weights], bias, frontier: [], parent };
    this.agents.push(a);
    return a;
  }

  addSeeds(urls: string[]): void {
    if (this.agents.length === 0) {
      const n = Math.max(1, Math.min(this.p.population, this.p.maxPopulation, Math.max(1, urls.length)));
      for (let i = 0; i < n; i++) {
        // Small random initial weights around a positive prior: topic words near a link are good news.
        const w = this.topicKeywords.map(() => 0.5 + (this.rng.next() - 0.5) * 0.2);
        this.newAgent(this.topicKeywords, w, 0, this.p.energy, null);
      }
    }
    urls.forEach((url, i) => {
      const a = this.agents[i % this.agents.length];
      if (!a.frontier.some((l) => l.url === url)) a.frontier.push({ url, depth: 0, words: [], value: 1, seed: true });
    });
    this.trimAll();
  }

  /** Keeps each agent within its share of MAX_BUFFER, dropping its lowest-valued links. */
  private trim(a: Agent, cap = this.capacity()): void {
    if (a.frontier.length <= cap) return;
    a.frontier.sort((x, y) => Number(y.seed) - Number(x.seed) || y.value - x.value);
    a.frontier.length = cap;
  }

  private trimAll(): void {
    const cap = this.capacity();
    for (const a of this.agents) this.trim(a, cap);
  }

  /** The next agent in turn with a ready link picks one; null when no agent holds a ready link. */
  next(ready: ReadyTest): FrontierEntry | null {
    const count = this.agents.length;
    for (let k = 0; k < count; k++) {
      const index = (this.turn + k) % count;
      const a = this.agents[index];
      const link = this.pick(a, ready);
      if (!link) continue;
      this.turn = (index + 1) % count;
      this.taken.add(link.url);
      this.pending.set(link.url, [a.id, link.value]);
      return { url: link.url, score: link.value, depth: link.depth, ...(link.from !== undefined ? { from: link.from } : {}) };
    }
    return null;
  }

  /**
   * Removes and returns the agent's next link among the ready ones: a seed if any, else a Boltzmann draw over current
   * values. Undefined when none of its links is ready.
   */
  private pick(a: Agent, ready: ReadyTest): AgentLink | undefined {
    a.frontier = a.frontier.filter((l) => !this.taken.has(l.url));
    const candidates: number[] = [];
    for (let i = 0; i < a.frontier.length; i++) if (ready(a.frontier[i].url)) candidates.push(i);
    if (candidates.length === 0) return undefined;
    const seedAt = candidates.find((i) => a.frontier[i].seed);
    if (seedAt !== undefined) return a.frontier.splice(seedAt, 1)[0];
    // Values are recomputed: the net has learned since the links were queued.
    let maxV = -Infinity;
    for (const i of candidates) {
      const l = a.frontier[i];
      l.value = agentValue(a, l.words);
      if (l.value > maxV) maxV = l.value;
    }
    let sum = 0;
    const w = candidates.map((i) => {
      const e = Math.exp(this.p.beta * (a.frontier[i].value - maxV));
      sum += e;
      return e;
    });
    let r = this.rng.next() * sum;
    let k = 0;
    for (; k < w.length - 1; k++) {
      r -= w[k];
      if (r < 0) break;
    }
    const chosen = a.frontier.splice(candidates[k], 1)[0];
    this.lastWords.set(chosen.url, chosen.words);
    return chosen;
  }

  onPage(page: EvaluatedPage): void {
    this.pages++;
    const claim = this.pending.get(page.requestedUrl);
    this.pending.delete(page.requestedUrl);
    const agent = claim ? this.agents.find((a) => a.id === claim[0]) : this.agents[0];
    if (!agent) return; // its agent died meanwhile: nobody learns from this page
    const reward = finite(page.evaluation.score);
    const links = page.links.filter((l) => !this.taken.has(l.url));
    const known = new Set(agent.frontier.map((l) => l.url));
    const fresh: AgentLink[] = [];
    let best = -1;
    for (const link of links) {
      const words = linkWords(link);
      const value = agentValue(agent, words);
      if (value > best) best = value;
      if (known.has(link.url)) continue;
      known.add(link.url);
      fresh.push({ url: link.url, depth: page.depth + 1, from: page.url, words, value, seed: false });
    }
    // Q-learning: the value predicted for the link followed moves toward reward + discounted best next value.
    if (claim && page.from !== undefined) {
      const words = this.wordsOfLinkTo(page);
      if (words) this.learn(agent, words, reward + this.p.gamma * Math.max(0, best));
    }
    agent.frontier.push(...fresh);
    agent.energy += reward - this.p.cost;
    if (agent.energy >= this.p.threshold && this.agents.length < this.p.maxPopulation) this.reproduce(agent, page);
    else if (agent.energy <= 0 && this.agents.length > 1) this.die(agent);
    this.trimAll();
  }

  private wordsOfLinkTo(page: EvaluatedPage): [string, number][] | undefined {
    const w = this.lastWords.get(page.requestedUrl);
    this.lastWords.delete(page.requestedUrl);
    return w;
  }

  private learn(a: Agent, words: [string, number][], target: number): void {
    const x = agentInputs(a, words);
    let s = a.bias;
    for (let k = 0; k < x.length; k++) s += a.weights[k] * x[k];
    const y = Math.tanh(s);
    const t = Math.max(-1, Math.min(1, target));
    const g = this.p.learningRate * (t - y) * (1 - y * y);
    for (let k = 0; k < x.length; k++) a.weights[k] += g * x[k];
    a.bias += g;
  }

  private reproduce(parent: Agent, page: EvaluatedPage): void {
    parent.energy /= 2;
    const mutation = cooccurringTerm(page, parent.keywords);
    const keywords = [...parent.keywords];
    const weights = [...parent.weights];
    if (mutation) {
      keywords.push(mutation);
      // The new keyword starts at the mean weight of the others, jittered.
      const mean = weights.length ? weights.reduce((s, w) => s + w, 0) / weights.length : 0.5;
      weights.push(mean * (0.5 + this.rng.next() * 0.5));
    }
    const child = this.newAgent(keywords, weights, parent.bias, parent.energy, parent.id);
    // The offspring takes every other link of the parent's frontier, best first.
    parent.frontier.sort((x, y) => Number(y.seed) - Number(x.seed) || y.value - x.value);
    const keep: AgentLink[] = [];
    parent.frontier.forEach((l, i) => {
      (i % 2 === 0 ? keep : child.frontier).push(l);
    });
    parent.frontier = keep;
    this.log({ kind: 'birth', agent: child.id, parent: parent.id, ...(mutation ? { mutation } : {}), atPage: this.pages });
  }

  private die(a: Agent): void {
    const index = this.agents.indexOf(a);
    this.agents = this.agents.filter((x) => x !== a);
    if (index < this.turn) this.turn--; // the agent whose turn it is keeps it
    if (this.turn >= this.agents.length) this.turn = 0;
    this.log({ kind: 'death', agent: a.id, atPage: this.pages });
  }

  private log(e: SpiderEvent): void {
    this.events.push(e);
    if (this.events.length > 1000) this.events.shift();
  }

  onError(url: string): void {
    const claim = this.pending.get(url);
    this.pending.delete(url);
    this.lastWords.delete(url);
    const agent = claim && this.agents.find((a) => a.id === claim[0]);
    if (!agent) return;
    agent.energy -= this.p.cost;
    if (agent.energy <= 0 && this.agents.length > 1) this.die(agent);
    this.trimAll();
  }

  frontierSize(): number {
    const urls = new Set<string>();
    for (const a of this.agents) for (const l of a.frontier) if (!this.taken.has(l.url)) urls.add(l.url);
    return urls.size;
  }

  save(): Json {
    return {
      rng: this.rng.getState(),
      nextId: this.nextId,
      turn: this.turn,
      pages: this.pages,
      taken: [...this.taken],
      pending: [...this.pending.entries()].map(([u, [id, v]]) => [u, id, v]),
      lastWords: [...this.lastWords.entries()].map(([u, w]) => [u, w]),
      agents: this.agents.map((a) => ({
        id: a.id,
        energy: a.energy,
        keywords: a.keywords,
        weights: a.weights,
        bias: a.bias,
        parent: a.parent,
        frontier: a.frontier.map((l) => [l.url, l.depth, l.from ?? null, l.value, l.seed, l.words]),
      })),
    };
  }

  /** @throws TypeError if `state` is not the output of {@link save}. */
  restore(state: Json): void {
    const s = asObject(state, 'infospiders');
    this.rng.setState(s.rng);
    this.nextId = num(s.nextId, 'nextId');
    this.turn = num(s.turn, 'turn');
    this.pages = num(s.pages, 'pages');
    this.taken = new Set(strings(s.taken, 'taken'));
    this.pending = new Map();
    for (const raw of asArray(s.pending, 'pending')) {
      const [u, id, v] = asArray(raw, 'pending entry');
      this.pending.set(str(u, 'pending url'), [num(id, 'pending agent'), num(v, 'pending value')]);
    }
    this.lastWords = new Map();
    for (const raw of asArray(s.lastWords, 'lastWords')) {
      const [u, w] = asArray(raw, 'lastWords entry');
      this.lastWords.set(str(u, 'lastWords url'), parseWords(w));
    }
    this.agents = asArray(s.agents, 'agents').map((raw) => {
      const a = asObject(raw, 'agent');
      const keywords = strings(a.keywords, 'agent keywords');
      const weights = asArray(a.weights, 'agent weights').map((w) => num(w, 'weight'));
      if (weights.length !== keywords.length)
        throw new TypeError('invalid infospiders state: weights and keywords differ in length');
      return {
        id: num(a.id, 'agent id'),
        energy: num(a.energy, 'agent energy'),
        keywords,
        weights,
        bias: num(a.bias, 'agent bias'),
        parent: a.parent === null ? null : num(a.parent, 'agent parent'),
        frontier: asArray(a.frontier, 'agent frontier').map((r) => {
          const [url, depth, from, value, seed, words] = asArray(r, 'agent link');
          return {
            url: str(url, 'link url'),
            depth: num(depth, 'link depth'),
            ...(from === null ? {} : { from: str(from, 'link from') }),
            value: num(value, 'link value'),
            seed: seed === true,
            words: parseWords(words),
          };
        }),
      };
    });
  }
}

function parseWords(w: Json): [string, number][] {
  return asArray(w, 'link words').map((p) => {
    const [t, d] = asArray(p, 'link word');
    return [str(t, 'word'), num(d, 'distance')];
  });
}

/**
 * The term that co-occurs most with `keywords` in a page: counted in the windows (anchor + context) of links whose
 * window holds a keyword, ties broken by the page's term frequency, then alphabetically. Falls back to the most
 * frequent non-keyword term of the page if it holds a keyword at all. Undefined when the page has no keyword.
 */
export function cooccurringTerm(page: EvaluatedPage, keywords: readonly string[]): string | undefined {
  const kw = new Set(keywords);
  const tf = page.evaluation.terms ?? {};
  const counts = new Map<string, number>();
  for (const link of page.evaluation.links) {
    const nearby = [...link.anchorTerms, ...link.contextBefore, ...link.contextAfter];
    if (!nearby.some((t) => kw.has(t))) continue;
    for (const t of nearby) if (!kw.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  let best: string | undefined;
  let bestC = 0;
  let bestTf = 0;
  for (const [t, c] of counts) {
    const f = tf[t] ?? 0;
    if (c > bestC || (c === bestC && (f > bestTf || (f === bestTf && best !== undefined && t < best)))) {
      best = t;
      bestC = c;
      bestTf = f;
    }
  }
  if (best) return best;
  if (!keywords.some((k) => (tf[k] ?? 0) > 0)) return undefined;
  for (const t of Object.keys(tf)) {
    if (kw.has(t)) continue;
    const f = tf[t];
    if (f > bestTf || (f === bestTf && best !== undefined && t < best)) {
      best = t;
      bestTf = f;
    }
  }
  return best;
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const infoSpidersInfo: StrategyInfo = {
  name: 'infospiders',
  label: 'InfoSpiders',
  description:
    'A population of adaptive agents: each values links from topic words near them with a small neural net, picks ' +
    'links from a Boltzmann distribution, learns from the pages it finds (Q-learning), gains energy from relevant ' +
    'pages and pays for each fetch, reproduces with a mutated keyword vector, and dies at zero energy.',
  source:
    'F. Menczer, R. K. Belew. Adaptive retrieval agents: internalizing local context and scaling up to the Web. ' +
    'Machine Learning 39(2-3), 2000; as crawled in Menczer, Pant, Srinivasan, Ruiz, SIGIR 2001.',
  params: [
    {
      name: 'population',
      label: 'Initial agents',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.population,
      min: 1,
      max: 1000,
      integer: true,
      description: 'agents at the start (at most one per seed)',
    },
    {
      name: 'maxPopulation',
      label: 'Most agents',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.maxPopulation,
      min: 1,
      max: 1000,
      integer: true,
      description: 'population cap (agents above it do not reproduce)',
    },
    {
      name: 'energy',
      label: 'Initial energy',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.energy,
      min: 0.001,
      max: 1000,
      description: 'energy of each founding agent',
    },
    {
      name: 'cost',
      label: 'Cost per fetch',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.cost,
      min: 0,
      max: 10,
      description: 'energy an agent pays per fetch (its reward is the page similarity, in [0, 1])',
    },
    {
      name: 'threshold',
      label: 'Reproduction threshold',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.threshold,
      min: 0.001,
      max: 1000,
      description: 'energy at which an agent reproduces (energy is then split with the offspring)',
    },
    {
      name: 'beta',
      label: 'Boltzmann beta',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.beta,
      min: 0,
      max: 1000,
      description: 'greediness of link choice: 0 = uniform, large = always the best-valued link',
    },
    {
      name: 'learningRate',
      label: 'Learning rate',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.learningRate,
      min: 0,
      max: 10,
      description: 'step of the Q-learning update of the net',
    },
    {
      name: 'gamma',
      label: 'Discount',
      type: 'number',
      default: INFOSPIDERS_DEFAULTS.gamma,
      min: 0,
      max: 1,
      description: 'weight of the best next link value in the Q-learning target',
    },
  ],
  create: (ctx) => new InfoSpiders(ctx),
};

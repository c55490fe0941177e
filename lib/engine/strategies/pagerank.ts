/**
 * PageRank crawler, after Menczer, Pant, Srinivasan & Ruiz, "Evaluating topic-driven web crawlers" (SIGIR 2001).
 *
 * It keeps the link structure of up to MAX_BUFFER crawled pages (when the buffer is full, the page least similar to
 * the topic leaves, taking its outlinks with it), recomputes PageRank over those pages plus the frontier every
 * `interval` (25) fetched pages, and fetches the frontier URL with the highest PageRank (among those whose site may be
 * contacted now). Between recomputations a new
 * link gets a provisional rank: the rank its parent passes on (parent's rank x damping / parent's out-degree, summed
 * over its parents), so fresh links are neither ignored nor over-trusted until the next computation.
 *
 * The computation is a sparse power iteration with a warm start from the previous ranks: a few dozen iterations over
 * at most 2 x MAX_BUFFER nodes and the buffered pages' links, i.e. O(edges) per iteration, every 25 pages.
 */
import type { EvaluatedPage, FrontierEntry, Json, ReadyTest, StrategyContext } from '../types';
import { finite, FrontierStrategy } from './frontier-strategy';
import { numericParams, type StrategyInfo } from './spec';
import { asArray, num, str, strings } from './state';

/** A crawled page kept in the buffer. */
interface BufferedPage {
  url: string;
  /** Cosine similarity to the topic: the least similar page leaves first. */
  score: number;
  /** Distinct outlinks (canonical URLs), including already-fetched pages. */
  out: string[];
  /** Order of arrival: breaks score ties (older leaves first). */
  seq: number;
}

/** What one PageRank computation did; exposed for tests and diagnostics. */
export interface PageRankRun {
  /** Pages fetched when it ran. */
  atPage: number;
  nodes: number;
  edges: number;
  iterations: number;
  /** Frontier URL with the highest rank afterwards, if any. */
  top?: string;
}

export const DEFAULT_INTERVAL = 25;
export const DEFAULT_DAMPING = 0.85;
export const DEFAULT_ITERATIONS = 30;

/**
 * PageRank crawling strategy. Seeds come first (score above any rank); then the frontier URL of highest PageRank.
 * Frontier scores are PageRank values (they sum to at most 1 over buffer + frontier), so they are not comparable
 * to cosine scores.
 */
export class PageRankCrawler extends FrontierStrategy {
  readonly name = 'pagerank';
  readonly interval: number;
  readonly damping: number;
  readonly iterations: number;
  /** Links the next one is drawn from: 1 fetches strictly the top-ranked ready URL each time. */
  readonly n: number;
  private readonly maxBuffer: number;
  private buffer = new Map<string, BufferedPage>();
  /** Last computed (or provisional) rank of every node: warm start of the next computation. */
  private rank = new Map<string, number>();
  private pages = 0;
  private sinceRun = 0;
  private seq = 0;
  /** Every computation so far (bounded to the last 100). */
  readonly runs: PageRankRun[] = [];

  constructor(ctx: StrategyContext) {
    // Ranks are <= 1; seeds at 2 go first, in order.
    super(ctx, 2);
    const p = numericParams(pageRankInfo, ctx.params);
    this.maxBuffer = ctx.maxBuffer;
    this.interval = p.interval;
    this.damping = p.damping;
    this.iterations = p.iterations;
    this.n = p.n;
  }

  onPage(page: EvaluatedPage): void {
    this.pages++;
    this.sinceRun++;
    // Every outlink, fetched ones included: the graph needs them (a meta nofollow page comes without links).
    const out = [...new Set(page.evaluation.links.map((l) => l.url))];
    const score = finite(page.evaluation.score);
    this.addToBuffer({ url: page.url, score, out, seq: this.seq++ });
    // Provisional ranks: what the parent passes on (its own rank from when it was in the frontier).
    const parentRank = this.rank.get(page.requestedUrl) ?? 1 / Math.max(1, this.buffer.size + this.frontier.size);
    const share = out.length ? (this.damping * parentRank) / out.length : 0;
    for (const link of page.links) {
      const r = (this.rank.get(link.url) ?? (1 - this.damping) / Math.max(1, this.buffer.size + this.frontier.size)) + share;
      const result = this.enqueue(link.url, r, page);
      if (result !== 'rejected' && result !== 'kept') this.rank.set(link.url, r);
    }
    if (this.sinceRun >= this.interval) this.recompute();
  }

  next(ready: ReadyTest): FrontierEntry | null {
    return this.drawFromBest(this.n, ready);
  }

  protected override forget(url: string): void {
    this.rank.delete(url);
  }

  private addToBuffer(p: BufferedPage): void {
    this.buffer.set(p.url, p);
    if (this.buffer.size <= this.maxBuffer) return;
    // Evict the least similar page (O(buffer) scan; happens once per page at most).
    let worst: BufferedPage | undefined;
    for (const b of this.buffer.values()) {
      if (!worst || b.score < worst.score || (b.score === worst.score && b.seq < worst.seq)) worst = b;
    }
    this.buffer.delete(worst!.url);
    this.rank.delete(worst!.url);
  }

  /** Recomputes PageRank over buffer + frontier and re-ranks the frontier. Public for tests. */
  recompute(): PageRankRun {
    this.sinceRun = 0;
    const ids = new Map<string, number>();
    const urls: string[] = [];
    const intern = (u: string) => {
      ids.set(u, urls.length);
      urls.push(u);
    };
    for (const u of this.buffer.keys()) intern(u);
    const frontierEntries = this.frontier.entries();
    for (const e of frontierEntries) if (!ids.has(e.url) && e.depth > 0) intern(e.url);
    const n = urls.length;
    // CSR adjacency of the buffered pages' links that stay inside the node set.
    const outStart = new Int32Array(n + 1);
    const targets: number[] = [];
    let i = 0;
    for (const p of this.buffer.values()) {
      outStart[i] = targets.length;
      for (const u of p.out) {
        const j = ids.get(u);
        if (j !== undefined && j !== i) targets.push(j);
      }
      i++;
    }
    for (; i <= n; i++) outStart[i] = targets.length;
    const outDeg = new Int32Array(n);
    for (let k = 0; k < n; k++) outDeg[k] = outStart[k + 1] - outStart[k];

    let pr = new Float64Array(n);
    let total = 0;
    for (let k = 0; k < n; k++) total += pr[k] = this.rank.get(urls[k]) ?? 1 / Math.max(1, n);
    if (n > 0) for (let k = 0; k < n; k++) pr[k] = total > 0 ? pr[k] / total : 1 / n;
    let next = new Float64Array(n);
    const d = this.damping;
    let it = 0;
    for (; it < this.iterations && n > 0; it++) {
      let dangling = 0;
      for (let k = 0; k < n; k++) if (outDeg[k] === 0) dangling += pr[k];
      const base = (1 - d) / n + (d * dangling) / n;
      next.fill(base);
      for (let k = 0; k < n; k++) {
        const deg = outDeg[k];
        if (deg === 0) continue;
        const s = (d * pr[k]) / deg;
        for (let e = outStart[k]; e < outStart[k + 1]; e++) next[targets[e]] += s;
      }
      let delta = 0;
      for (let k = 0; k < n; k++) delta += Math.abs(next[k] - pr[k]);
      [pr, next] = [next, pr];
      if (delta < 1e-9) {
        it++;
        break;
      }
    }
    this.rank = new Map();
    for (let k = 0; k < n; k++) this.rank.set(urls[k], pr[k]);
    for (const e of frontierEntries) if (e.depth > 0) this.frontier.setScore(e.url, pr[ids.get(e.url)!]);
    const run: PageRankRun = {
      atPage: this.pages,
      nodes: n,
      edges: targets.length,
      iterations: it,
      top: this.frontier.peekMax()?.url,
    };
    this.runs.push(run);
    if (this.runs.length > 100) this.runs.shift();
    return run;
  }

  /** URLs of the buffered (crawled) pages whose links take part in the computation. */
  bufferedUrls(): string[] {
    return [...this.buffer.keys()];
  }

  protected override saveState(): Record<string, Json> {
    return {
      buffer: [...this.buffer.values()].map((p) => [p.url, p.score, p.seq, p.out]),
      rank: [...this.rank.entries()].map(([u, r]) => [u, r]),
      pages: this.pages,
      sinceRun: this.sinceRun,
      seq: this.seq,
    };
  }

  protected override resetState(): void {
    this.rank = new Map();
    this.buffer = new Map();
  }

  protected override restoreState(s: { [key: string]: Json }): void {
    for (const raw of asArray(s.buffer, 'pagerank buffer')) {
      const [url, score, seq, out] = asArray(raw, 'pagerank buffered page');
      const p: BufferedPage = {
        url: str(url, 'buffer url'),
        score: num(score, 'buffer score'),
        seq: num(seq, 'buffer seq'),
        out: strings(out, 'buffer links'),
      };
      this.buffer.set(p.url, p);
    }
    for (const raw of asArray(s.rank, 'pagerank ranks')) {
      const [url, r] = asArray(raw, 'pagerank rank');
      this.rank.set(str(url, 'rank url'), num(r, 'rank'));
    }
    this.pages = num(s.pages, 'pagerank pages');
    this.sinceRun = num(s.sinceRun, 'pagerank sinceRun');
    this.seq = num(s.seq, 'pagerank seq');
  }
}

/** The registry entry (lib/engine/strategies/registry.ts lists every strategy). */
export const pageRankInfo: StrategyInfo = {
  name: 'pagerank',
  label: 'PageRank',
  description:
    'Keeps the link graph of up to MAX_BUFFER crawled pages (the least topical leaves first), recomputes PageRank over ' +
    'them and the frontier every 25 pages, and fetches the frontier URL with the highest PageRank.',
  source:
    'F. Menczer, G. Pant, P. Srinivasan, M. E. Ruiz. Evaluating topic-driven web crawlers. SIGIR 2001 ' +
    '(PageRank crawler, after Cho, Garcia-Molina & Page 1998).',
  params: [
    {
      name: 'interval',
      label: 'Recompute every',
      type: 'number',
      default: DEFAULT_INTERVAL,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'pages fetched between PageRank computations (paper: 25)',
    },
    {
      name: 'damping',
      label: 'Damping',
      type: 'number',
      default: DEFAULT_DAMPING,
      min: 0,
      max: 0.99,
      description: 'PageRank damping factor (probability of following a link)',
    },
    {
      name: 'iterations',
      label: 'Iterations',
      type: 'number',
      default: DEFAULT_ITERATIONS,
      min: 1,
      max: 1000,
      integer: true,
      description: 'most power iterations per computation (warm-started, stops early on convergence)',
    },
    {
      name: 'n',
      label: 'Greediness (n)',
      type: 'number',
      default: 1,
      min: 1,
      max: 10_000,
      integer: true,
      description: 'each URL fetched is drawn from the n top-ranked ready URLs (1 = strictly the best each time)',
    },
  ],
  create: (ctx) => new PageRankCrawler(ctx),
};

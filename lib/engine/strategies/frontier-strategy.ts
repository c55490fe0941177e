/**
 * The frontier plumbing every priority-frontier strategy shares, so each strategy file holds only what makes it
 * different (how it scores links, what it learns from pages, how greedy its choice is).
 *
 * A FrontierStrategy owns a bounded {@link PriorityFrontier} (MAX_BUFFER) and a seeded {@link Rng}; it queues seeds
 * above every link score, hands out URLs one at a time among those whose site may be contacted now, and saves and
 * restores its frontier and RNG with whatever state the strategy adds ({@link saveState} / {@link restoreState}).
 * Strategies that keep something per queued URL (a score's parts, anchors) drop it in {@link forget}, which runs when
 * the URL is evicted, fetched (after onPage) or failed.
 */
import { PriorityFrontier } from '../frontier/priority-frontier';
import { Rng } from '../rng';
import type { EvaluatedPage, FrontierEntry, Json, ReadyTest, Strategy, StrategyContext } from '../types';
import { asObject } from './state';

export abstract class FrontierStrategy implements Strategy {
  abstract readonly name: string;
  protected frontier: PriorityFrontier;
  protected readonly rng: Rng;

  /**
   * @param ctx maxBuffer = frontier capacity, seed = RNG seed.
   * @param seedScore the score seeds enter with: above every link score this strategy gives, so seeds go first.
   */
  constructor(
    ctx: StrategyContext,
    private readonly seedScore: number,
  ) {
    this.frontier = this.makeFrontier(ctx.maxBuffer);
    this.rng = new Rng(ctx.seed);
  }

  /** Learns from an evaluated page and queues its links. */
  abstract onPage(page: EvaluatedPage): void;

  /** The next URL among the ready ones; see {@link drawFromBest}. */
  abstract next(ready: ReadyTest): FrontierEntry | null;

  addSeeds(urls: string[]): void {
    for (const url of urls) this.frontier.add({ url, score: this.seedScore, depth: 0 });
  }

  onError(url: string): void {
    this.forget(url);
  }

  frontierSize(): number {
    return this.frontier.size;
  }

  /** Copies of the queued entries, best first (for display and tests). */
  entries(): FrontierEntry[] {
    return this.frontier.entries();
  }

  save(): Json {
    return { ...this.saveState(), frontier: this.frontier.toJSON(), rng: this.rng.getState() };
  }

  /** @throws TypeError if `state` is not the output of {@link save}. */
  restore(state: Json): void {
    const s = asObject(state, this.name);
    this.resetState();
    this.frontier = this.makeFrontier(1, s.frontier);
    this.rng.setState(s.rng);
    this.restoreState(s);
  }

  /**
   * Draws the next URL uniformly (seeded) from the best `n` queued URLs that `ready` accepts, and removes it; with
   * n = 1 it is always the best ready URL. Null when none is ready. This is Best-N-First's N per fetch slot: how
   * greedy the choice is.
   */
  protected drawFromBest(n: number, ready: ReadyTest): FrontierEntry | null {
    const best = this.frontier.best(n, ready);
    if (best.length === 0) return null;
    const chosen = best.length === 1 ? best[0] : best[this.rng.int(best.length)];
    this.frontier.remove(chosen.url);
    return chosen;
  }

  /** Queues one link found on `page` with `score` (depth + 1, from the page). */
  protected enqueue(url: string, score: number, page: EvaluatedPage) {
    return this.frontier.add({ url, score, depth: page.depth + 1, from: page.url });
  }

  /**
   * Inherited scores follow their parents: each queued link found on a page whose score moved (a judgement moved the
   * topic) moves by `factor` times that page's move. For strategies whose link score is the parent's score plus parts.
   */
  protected followParents(moved: ReadonlyMap<string, number>, factor = 1): void {
    if (moved.size === 0 || factor === 0) return;
    for (const e of this.frontier.entries()) {
      const d = e.from === undefined ? undefined : moved.get(e.from);
      if (d !== undefined) this.frontier.setScore(e.url, finite(e.score + factor * d));
    }
  }

  /** Drops what the strategy keeps about a URL that left the frontier for good (evicted, fetched, failed). */
  protected forget(_url: string): void {}

  /** A queued entry the full frontier evicted for a better one (by default: forgotten). */
  protected evicted(entry: FrontierEntry): void {
    this.forget(entry.url);
  }

  /** The strategy's own state, beside the frontier and the RNG (plain JSON). */
  protected saveState(): Record<string, Json> {
    return {};
  }

  /** Empties the strategy's own per-URL state before a restore rebuilds the frontier (whose evictions call forget). */
  protected resetState(): void {}

  /** Restores what {@link saveState} saved; throws a TypeError on malformed state. */
  protected restoreState(_state: { [key: string]: Json }): void {}

  private makeFrontier(capacity: number, state?: Json): PriorityFrontier {
    const onEvict = (e: FrontierEntry) => this.evicted(e);
    return state === undefined ? new PriorityFrontier(capacity, { onEvict }) : PriorityFrontier.fromJSON(state, { onEvict });
  }
}

/** A score the frontier can order: NaN and infinities (a broken evaluator) become 0, so such links rank last. */
export function finite(x: number): number {
  return typeof x === 'number' && Number.isFinite(x) ? x : 0;
}

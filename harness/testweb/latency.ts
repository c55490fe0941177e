/**
 * Latency models for the test web (`startTestWeb({ delayMs })`, `serve.ts --latency`): how long a site waits before
 * answering. Deterministic per URL (a seeded hash of site and path), so two crawlers that fetch the same URL wait the
 * same, whatever their order.
 *
 *   fixed:MS     every request waits MS
 *   heavy-tail   most sites fast (10-60 ms; 5% of their pages 200-1000 ms), one site slow (site6: 1-5 s per page), one
 *                site where a fifth of the pages never answer (site7: a crawler's timeout ends them); robots.txt
 *                answers in 20 ms everywhere
 */
import { mixSeed, Rng } from './generate';

/** Milliseconds before the answer to `path` on `site`; Infinity for never. */
export type LatencyModel = (site: string, path: string) => number;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The heavy-tailed model; see the module comment. */
export function heavyTail(seed = 1): LatencyModel {
  return (site, path) => {
    if (path === '/robots.txt') return 20;
    const rng = new Rng(mixSeed(seed, hash(`${site}${path}`)));
    const u = rng.next();
    if (site === 'site6') return 1000 + u * 4000;
    if (site === 'site7' && u < 0.2) return Number.POSITIVE_INFINITY;
    if (u > 0.95) return 200 + rng.next() * 800;
    return 10 + rng.next() * 50;
  };
}

/** Parses 'fixed:MS', a bare number of ms, or 'heavy-tail'. @throws Error for anything else. */
export function latencyModel(spec: string, seed = 1): number | LatencyModel {
  const fixed = /^(?:fixed:)?(\d+)$/.exec(spec);
  if (fixed) return Number(fixed[1]);
  if (spec === 'heavy-tail') return heavyTail(seed);
  throw new Error(`unknown latency model "${spec}": fixed:MS or heavy-tail`);
}

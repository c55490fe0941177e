/**
 * Checkpoint versions. Version 2 (the continuous loop) holds resume state only; version 1 (the batch loop) also
 * carried the crawl's results and skips, and every refused outlink as a skip. {@link migrateCheckpoint} turns a
 * version 1 checkpoint into a version 2 one plus the pages and skips it held, for a store to keep in its own lists.
 */
import { Rng } from './rng';
import { refusalRule } from './crawl';
import type { CrawlCheckpoint, CrawlCheckpointV1, FrontierEntry, Json, PageResult, RefusedLinks, SkipRecord } from './types';

/** What a version 1 checkpoint becomes. */
export interface MigratedCheckpoint {
  checkpoint: CrawlCheckpoint;
  /** The pages it held, in the order they were found. */
  results: PageResult[];
  /** Its skips of URLs that were fetched, and of refused seeds (refused outlinks are counted in the checkpoint). */
  skips: SkipRecord[];
}

/**
 * Converts a version 1 checkpoint (pure: the input is not changed).
 *
 * - The batch in flight: its outcomes already in were booked but never shown to the strategy, which version 2 cannot
 *   express, so the whole batch goes back to `inFlight` and is fetched again on resume (those pages are delivered a
 *   second time; a store keeping one page per URL keeps one). Counters and `fetched` are wound back accordingly.
 * - Skips: 'url-refused' records of outlinks become counts per rule (with a few examples) in `linksRefused`; refused
 *   seeds (recorded before the first page was fetched) stay skips.
 * - Strategy state: fields the version 2 strategies need are added (a seeded RNG state where the strategy had none,
 *   InfoSpiders' turn), and Breadth-First's FIFO frontier becomes the priority frontier it uses now.
 * @throws TypeError when `v1` is not a version 1 checkpoint.
 */
export function migrateCheckpoint(v1: CrawlCheckpointV1): MigratedCheckpoint {
  if (!v1 || typeof v1 !== 'object' || v1.version !== 1) throw new TypeError('not a version 1 crawl checkpoint');
  const fetched = new Set(v1.fetched);
  let { pagesEvaluated, errors, scoreSum } = v1;
  const doneUrls = new Set<string>();
  for (const outcome of v1.pendingDone) {
    doneUrls.add(outcome.url);
    fetched.delete(outcome.url);
    if (outcome.kind === 'page') {
      fetched.delete(outcome.page.url);
      pagesEvaluated--;
      scoreSum -= outcome.page.score;
    } else {
      errors--;
    }
  }
  const inFlight: FrontierEntry[] = v1.pendingBatch.map((e) => ({ ...e }));

  const firstFetch = v1.results.reduce((min, p) => Math.min(min, p.fetchedAt), Number.POSITIVE_INFINITY);
  const linksRefused: RefusedLinks = { total: 0, byRule: {} };
  const skips: SkipRecord[] = [];
  for (const skip of v1.skips) {
    const outlink = skip.reason === 'url-refused' && skip.at > firstFetch && !doneUrls.has(skip.url);
    if (!outlink) {
      skips.push({ ...skip });
      continue;
    }
    const rule = refusalRule(skip.detail);
    const counted = (linksRefused.byRule[rule] ??= { count: 0, examples: [] });
    counted.count++;
    linksRefused.total++;
    if (counted.examples.length < 3) counted.examples.push({ url: skip.url.slice(0, 300), detail: skip.detail });
  }

  return {
    checkpoint: {
      version: 2,
      topic: { ...v1.topic },
      seeds: [...v1.seeds],
      strategy: { ...v1.strategy, params: { ...v1.strategy.params }, state: migrateStrategyState(v1.strategy) },
      limits: { ...v1.limits },
      fetched: [...fetched],
      inFlight,
      pagesEvaluated,
      errors,
      scoreSum,
      elapsedMs: v1.elapsedMs,
      linksRefused,
    },
    results: v1.results.map((p) => ({ ...p })),
    skips,
  };
}

/** A version 1 strategy state in the shape the version 2 strategy restores. */
function migrateStrategyState(spec: CrawlCheckpointV1['strategy']): Json {
  const state = spec.state;
  if (state === null || typeof state !== 'object' || Array.isArray(state)) return structuredClone(state);
  const out: { [key: string]: Json } = structuredClone(state);
  if (spec.name === 'infospiders') {
    out.turn ??= 0;
    return out;
  }
  out.rng ??= new Rng(spec.seed).getState();
  const frontier = out.frontier;
  if (frontier && typeof frontier === 'object' && !Array.isArray(frontier) && frontier.kind === 'fifo') {
    // FIFO order = equal scores in insertion order (seeds were first in, so they stay first).
    const entries = Array.isArray(frontier.entries) ? frontier.entries : [];
    out.frontier = {
      kind: 'priority',
      version: 1,
      capacity: frontier.capacity ?? 1,
      nextSeq: entries.length,
      entries: entries.map((raw, seq) => {
        const [url, , depth, from] = raw as [string, number, number, string | null];
        return [url, depth === 0 ? 1 : 0, depth, seq, from];
      }),
      left: Array.isArray(frontier.left) ? frontier.left : [],
    };
  }
  return out;
}

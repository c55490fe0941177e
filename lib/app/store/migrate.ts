/**
 * Stored data across versions: the record layout version, the checks a stored record must pass before a crawl is
 * run from it, and the upgrades from older layouts. Pure functions: the IndexedDB store runs them in its upgrade
 * transaction, the file store when it loads.
 *
 * Version 1 (records without `version`): checkpoints held the crawl's outputs (`results`, `skips`) besides its resume
 * state, so every save rewrote all of them. Version 2: pages and skips live in their own lists only, the checkpoint
 * is resume state, and a finished crawl keeps no checkpoint.
 */
import type { CrawlCheckpoint, PageResult, SkipRecord } from '../../engine';
import { RECORD_VERSION, type CrawlRecord } from './types';

/** What a stored record may look like before {@link migrateRecord}: any version, possibly damaged. */
export type StoredRecord = Omit<CrawlRecord, 'version'> & { version?: number };

/** The record in the current layout. Throws when it was written by a newer Forager (nothing here can read it). */
export function migrateRecord(stored: StoredRecord): CrawlRecord {
  const version = stored.version ?? 1;
  if (version > RECORD_VERSION) {
    throw new Error(`crawl ${JSON.stringify(stored.id)} was stored by a newer version of Forager (layout ${version})`);
  }
  // 1 -> 2: only the version field is new in the record itself; the checkpoint's outputs move out (splitCheckpoint).
  return { ...stored, version: RECORD_VERSION };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Why a crawl cannot be run from this stored record (fields missing or of the wrong type), as short phrases; empty
 * when it can. Recovery and Resume check it first, so a damaged record becomes a crawl in state 'error' saying what
 * is wrong instead of a TypeError thrown from deep inside a run.
 */
export function recordProblems(record: unknown): string[] {
  if (!isObject(record)) return ['the record is not an object'];
  const problems: string[] = [];
  const topic = record.topic;
  if (!isObject(topic) || typeof topic.keywords !== 'string' || topic.keywords.trim() === '') problems.push('no topic');
  if (!Array.isArray(record.seeds) || record.seeds.length === 0 || !record.seeds.every((s) => typeof s === 'string')) {
    problems.push('no seed list');
  }
  const settings = record.settings;
  if (!isObject(settings)) problems.push('no settings');
  else {
    if (typeof settings.strategy !== 'string' || settings.strategy === '') problems.push('no strategy');
    if (!isObject(settings.params)) problems.push('no strategy parameters');
    for (const key of ['maxPages', 'maxBuffer', 'politenessDelayMs', 'seed'] as const) {
      if (!isFiniteNumber(settings[key])) problems.push(`no ${key} setting`);
    }
  }
  const stats = record.stats;
  if (!isObject(stats) || !isFiniteNumber(stats.pagesEvaluated)) problems.push('no statistics');
  return problems;
}

/** A checkpoint of the version-1 layout, which carried the crawl's outputs. */
type CheckpointWithOutputs = CrawlCheckpoint & { results?: PageResult[]; skips?: SkipRecord[] };

/**
 * Splits a checkpoint into its resume state and the outputs an older layout kept inside it. The engine's checkpoint
 * (version 1) still lists every result and skip so far; they are stored in the page and skip lists as they come, so
 * the stored checkpoint keeps none (empty lists: what the version-1 engine expects to find). Once the engine's
 * checkpoints no longer carry outputs, this returns them unchanged.
 */
export function splitCheckpoint(checkpoint: CrawlCheckpoint): {
  checkpoint: CrawlCheckpoint;
  pages: PageResult[];
  skips: SkipRecord[];
} {
  const cp = checkpoint as CheckpointWithOutputs;
  const pages = Array.isArray(cp.results) ? cp.results : [];
  const skips = Array.isArray(cp.skips) ? cp.skips : [];
  if (!('results' in cp) && !('skips' in cp)) return { checkpoint, pages, skips };
  return { checkpoint: { ...cp, results: [], skips: [] } as CrawlCheckpoint, pages, skips };
}

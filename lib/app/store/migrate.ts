/**
 * Stored data across versions: the record layout version, the checks a stored record must pass before a crawl is
 * run from it, and the upgrades from older layouts. Pure functions: the IndexedDB store runs them in its upgrade
 * transaction, the file store when it loads.
 *
 * Version 1 (records without `version`): checkpoints held the crawl's outputs (`results`, `skips`) besides its resume
 * state, so every save rewrote all of them. Version 2: pages and skips live in their own lists only, the checkpoint
 * is resume state, and a finished crawl keeps no checkpoint.
 */
import { type CrawlCheckpoint, type CrawlCheckpointV1, migrateCheckpoint, type PageResult, type SkipRecord } from '../../engine';
import { settingsProblems } from '../rules/settings-bounds';
import { RECORD_VERSION, type CrawlRecord, type CrawlSettings } from '../model/records';

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
    // Out of the bounds the start form keeps (a file or storage written by something else): not run.
    if (!problems.some((p) => p.endsWith(' setting'))) problems.push(...settingsProblems(settings as Partial<CrawlSettings>));
  }
  const stats = record.stats;
  if (!isObject(stats) || !isFiniteNumber(stats.pagesEvaluated)) problems.push('no statistics');
  return problems;
}

/**
 * Splits a stored checkpoint into its resume state and the outputs an older layout kept inside it. A version-1
 * checkpoint (the batch loop's: it listed every result and skip so far, and its own resume fields) is converted by the
 * engine's {@link migrateCheckpoint}: its pages and skips go to their lists, the rest becomes a version-2 checkpoint
 * the crawl can resume from. A version-2 checkpoint is resume state only and is returned unchanged.
 */
export function splitCheckpoint(checkpoint: CrawlCheckpoint): {
  checkpoint: CrawlCheckpoint;
  pages: PageResult[];
  skips: SkipRecord[];
} {
  const stored = checkpoint as CrawlCheckpoint | CrawlCheckpointV1;
  if (stored.version !== 1) return { checkpoint, pages: [], skips: [] };
  const migrated = migrateCheckpoint(stored);
  return { checkpoint: migrated.checkpoint, pages: migrated.results, skips: migrated.skips };
}

/** Crawl records as the runner makes and shows them: a new crawl's stats, a damaged record made displayable. */
import type { CrawlStats } from '../../engine';
import { type CrawlRecord, RECORD_VERSION } from '../model/records';
import { DEFAULT_SETTINGS } from '../rules/settings';

/** The stats a new crawl starts with. */
export function emptyStats(maxPages: number): CrawlStats {
  return { pagesEvaluated: 0, maxPages, errors: 0, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 0, meanScore: 0 };
}

/**
 * A damaged record made displayable: what is missing takes a neutral value, so lists and panels render it (its
 * status says 'error' and why). Only for answers to the UI; the store keeps what it has.
 */
export function displayable(record: CrawlRecord, problems: string[]): CrawlRecord {
  const r = record as Partial<CrawlRecord> & { id: string };
  const settings = { ...DEFAULT_SETTINGS, ...(typeof r.settings === 'object' && r.settings ? r.settings : {}) };
  return {
    ...r,
    version: RECORD_VERSION,
    name: typeof r.name === 'string' ? r.name : 'Damaged crawl',
    topic: r.topic && typeof r.topic.keywords === 'string' ? r.topic : { keywords: '' },
    seeds: Array.isArray(r.seeds) ? r.seeds : [],
    source: r.source ?? { kind: 'manual' },
    settings,
    status: 'error',
    error: r.error ?? damagedMessage(problems),
    createdAt: typeof r.createdAt === 'number' ? r.createdAt : 0,
    updatedAt: typeof r.updatedAt === 'number' ? r.updatedAt : 0,
    stats: { ...emptyStats(settings.maxPages), ...(r.stats ?? {}) },
  };
}

export function damagedMessage(problems: string[]): string {
  return `This crawl's stored record is damaged (${problems.join(', ')}): it cannot be resumed.`;
}

/** A plain stored crawl record for the tests that export, import or resume one. */
import type { CrawlRecord } from '../../lib/app/store';

export function plainRecord(overrides: Partial<CrawlRecord> = {}): CrawlRecord {
  return {
    version: 2,
    id: 'crawl-1',
    name: 'solar panels',
    topic: { keywords: 'solar panels' },
    seeds: ['https://example.com/'],
    source: { kind: 'manual' },
    settings: {
      strategy: 'breadth-first',
      params: {},
      maxPages: 50,
      maxBuffer: 256,
      politenessDelayMs: 1000,
      stayOnSeedSites: false,
      seed: 42,
    },
    status: 'done',
    createdAt: 1,
    updatedAt: 2,
    stats: { pagesEvaluated: 0, maxPages: 50, errors: 0, frontierSize: 0, fetchesInFlight: 0, elapsedMs: 0, meanScore: 0 },
    ...overrides,
  };
}

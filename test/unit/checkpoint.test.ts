/** Checkpoint version 1 (the batch loop, with results and skips) to version 2 (resume state only). */
import { describe, expect, it } from 'vitest';
import { migrateCheckpoint } from '../../lib/engine/checkpoint';
import { createCrawl } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import { Rng } from '../../lib/engine/rng';
import type { CrawlCheckpointV1, PageResult, SkipRecord } from '../../lib/engine/types';

const page = (url: string, score: number, fetchedAt: number): PageResult => ({
  url,
  title: url,
  snippet: '',
  score,
  depth: 1,
  fetchedAt,
  isSeed: false,
});
const skip = (url: string, reason: SkipRecord['reason'], detail: string, at: number): SkipRecord => ({ url, reason, detail, at });

/** A checkpoint as the batch loop wrote it: a Breadth-First crawl cut mid-batch. */
function v1(): CrawlCheckpointV1 {
  const a = page('https://s.example/a', 0.5, 1010);
  const b = page('https://s.example/b', 0.25, 1020);
  const c = page('https://s.example/c-final', 0.75, 1030); // fetched as /c, redirected
  return {
    version: 1,
    topic: { keywords: 'solar' },
    seeds: ['https://s.example/a'],
    strategy: {
      name: 'breadth-first',
      params: { n: 4 },
      seed: 3,
      state: {
        n: 4,
        frontier: {
          kind: 'fifo',
          version: 1,
          capacity: 64,
          entries: [
            ['https://s.example/e', 0.5, 1, 'https://s.example/a'],
            ['https://s.example/f', 0.25, 2, 'https://s.example/b'],
          ],
          left: ['https://s.example/a', 'https://s.example/b', 'https://s.example/c', 'https://s.example/d'],
        },
      },
    },
    limits: { maxPages: 10, maxBuffer: 64 },
    fetched: [
      'https://s.example/a',
      'https://s.example/b',
      'https://s.example/c',
      'https://s.example/c-final',
      'https://s.example/d',
    ],
    pendingBatch: [
      { url: 'https://s.example/c', score: 0.5, depth: 1, from: 'https://s.example/a' },
      { url: 'https://s.example/d', score: 0.5, depth: 1, from: 'https://s.example/a' },
      { url: 'https://s.example/g', score: 0.5, depth: 1, from: 'https://s.example/a' },
    ],
    pendingDone: [
      { url: 'https://s.example/c', kind: 'page', page: c, evaluation: {} as never },
      { url: 'https://s.example/d', kind: 'skip', skip: skip('https://s.example/d', 'http-error', 'HTTP 404', 1040) },
    ],
    results: [a, b, c],
    skips: [
      skip('not a url', 'url-refused', 'not an http(s) URL', 1000),
      skip('mailto:x@y.z', 'url-refused', 'scheme mailto: not crawlable', 1011),
      skip('http://10.0.0.1/', 'url-refused', 'private or local host 10.0.0.1', 1012),
      skip('http://10.0.0.2/', 'url-refused', 'private or local host 10.0.0.2', 1013),
      skip('https://s.example/d', 'http-error', 'HTTP 404', 1040),
    ],
    pagesEvaluated: 3,
    errors: 5,
    scoreSum: 1.5,
    elapsedMs: 4321,
  };
}

describe('migrateCheckpoint', () => {
  it('keeps resume state only: the batch in flight is fetched again, refused outlinks become counts', () => {
    const input = v1();
    const frozen = JSON.stringify(input);
    const { checkpoint, results, skips } = migrateCheckpoint(input);
    expect(JSON.stringify(input)).toBe(frozen); // pure
    expect(checkpoint.version).toBe(2);
    expect(results.map((p) => p.url)).toEqual(['https://s.example/a', 'https://s.example/b', 'https://s.example/c-final']);
    // The refused seed stays a skip; refused outlinks are counted; fetched skips stay.
    expect(skips.map((s) => s.url)).toEqual(['not a url', 'https://s.example/d']);
    expect(checkpoint.linksRefused.total).toBe(3);
    expect(checkpoint.linksRefused.byRule['private host'].count).toBe(2);
    expect(checkpoint.linksRefused.byRule.scheme.count).toBe(1);
    // The whole pending batch goes back in flight; its booked outcomes are wound back.
    expect(checkpoint.inFlight.map((e) => e.url)).toEqual(['https://s.example/c', 'https://s.example/d', 'https://s.example/g']);
    expect(checkpoint.fetched.sort()).toEqual(['https://s.example/a', 'https://s.example/b']);
    expect(checkpoint.pagesEvaluated).toBe(2);
    expect(checkpoint.errors).toBe(4);
    expect(checkpoint.scoreSum).toBeCloseTo(0.75, 12);
    expect(checkpoint.elapsedMs).toBe(4321);
    // Breadth-First's FIFO frontier becomes the priority frontier it uses now, in the same order, with an RNG.
    const state = checkpoint.strategy.state as { frontier: { kind: string; entries: unknown[] }; rng: number[] };
    expect(state.frontier.kind).toBe('priority');
    expect(state.frontier.entries.map((e) => (e as string[])[0])).toEqual(['https://s.example/e', 'https://s.example/f']);
    expect(state.rng).toEqual(new Rng(3).getState());
    expect(() => migrateCheckpoint({ version: 2 } as never)).toThrow(TypeError);
  });

  it('gives a checkpoint the continuous loop resumes: in-flight URLs first, then the frontier in order', async () => {
    const { checkpoint } = migrateCheckpoint(v1());
    const requested: string[] = [];
    const fetchFn: typeof fetch = async (input) => {
      requested.push(String(input));
      return new Response('<title>x</title><p>solar</p>', { status: 200, headers: { 'content-type': 'text/html' } });
    };
    const crawl = createCrawl({
      topic: { keywords: 'ignored when resuming' },
      seeds: [],
      strategy: { name: 'ignored' },
      checkpoint,
      fetcher: createFetcher({ fetch: fetchFn, respectRobots: false, politenessDelayMs: 0, maxInFlight: 1 }),
    });
    const pages: string[] = [];
    for await (const e of crawl.events()) if (e.type === 'page') pages.push(e.page.url);
    expect(requested).toEqual([
      'https://s.example/c',
      'https://s.example/d',
      'https://s.example/g',
      'https://s.example/e',
      'https://s.example/f',
    ]);
    expect(crawl.stats().pagesEvaluated).toBe(7);
  });

  it('refuses a version 1 checkpoint given to the crawl directly, saying what to do', () => {
    expect(() =>
      createCrawl({
        topic: { keywords: 'x' },
        seeds: [],
        strategy: { name: 'forager' },
        checkpoint: v1() as never,
        fetcher: createFetcher({ respectRobots: false }),
      }),
    ).toThrow(/version 1.*migrateCheckpoint/);
  });
});

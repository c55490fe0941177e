/**
 * How the lab hands out its crawls (lab/run.ts JobQueue): every job once; a lane takes a topic's jobs before another
 * topic's; lanes walk their own stretches of a chain of topics on the same sites, and share topics only at the end.
 */
import { describe, expect, it } from 'vitest';
import {
  type CrawlTask,
  DEFAULT_READING_CACHE_BYTES,
  JobQueue,
  MAX_DEFAULT_READING_CACHE_BYTES,
  readingCacheFor,
  sitesOfTopic,
  topicChain,
} from '../../lab/run';

const task = (index: number, topicId: string): CrawlTask => ({
  index,
  topicId,
  topic: { keywords: topicId },
  seedUrls: [],
  strategy: { name: 'bfs1', params: {} },
  seed: 1,
  maxPages: 10,
  maxBuffer: 10,
  fetchConcurrency: 1,
});

const sites = (pairs: [string, number][]) => new Map(pairs);

describe('the lab job queue', () => {
  const topics = ['py1', 'pg1', 'py2', 'pg2', 'mix', 'py3'];
  const topicSites = new Map([
    ['py1', sites([['python', 10]])],
    ['pg1', sites([['postgresql', 8]])],
    [
      'py2',
      sites([
        ['python', 6],
        ['flask', 1],
      ]),
    ],
    [
      'pg2',
      sites([
        ['postgresql', 5],
        ['sqlite', 2],
      ]),
    ],
    [
      'mix',
      sites([
        ['python', 2],
        ['postgresql', 2],
      ]),
    ],
    ['py3', sites([['python', 3]])],
  ]);
  const tasks = topics.flatMap((t, i) => Array.from({ length: 4 }, (_, k) => task(i * 4 + k, t)));

  it('chains topics on the same sites', () => {
    expect(topicChain(topics, topicSites)).toEqual(['py1', 'py3', 'py2', 'mix', 'pg1', 'pg2']);
    expect(topicChain([], topicSites)).toEqual([]);
    expect(
      sitesOfTopic({ id: 't', keywords: 'k', description: '', targets: ['a/x', 'b/y'], examples: ['a/x'], neighbors: ['c/z'] }),
    ).toEqual(
      new Map([
        ['a', 2],
        ['b', 1],
        ['c', 1],
      ]),
    );
  });

  it('hands out every job once; each lane takes whole topics from its own stretch, then the others', () => {
    const q = new JobQueue(tasks, 2, topicSites);
    expect(q.size).toBe(24);
    const byLane: string[][] = [[], []];
    const seen = new Set<number>();
    // Lane 0 works twice as fast as lane 1.
    for (let step = 0; q.size > 0; step++) {
      for (const lane of step % 2 === 0 ? [0, 0, 1] : [0, 0]) {
        const t = q.take(lane);
        if (!t) continue;
        expect(seen.has(t.index)).toBe(false);
        seen.add(t.index);
        byLane[lane].push(t.topicId);
      }
    }
    expect(seen.size).toBe(24);
    expect(q.take(0)).toBeUndefined();
    // Lane 1 starts on the second half of the chain (mix, pg1, pg2) and lane 0 on the first; topics come whole.
    expect(byLane[0].slice(0, 4)).toEqual(['py1', 'py1', 'py1', 'py1']);
    expect(byLane[1].slice(0, 4)).toEqual(['mix', 'mix', 'mix', 'mix']);
    const topicsOf = (list: string[]) => [...new Set(list)];
    // Lane 0, done with its stretch, took the last topic of lane 1's (pg2) and then helped with pg1.
    expect(topicsOf(byLane[0])).toEqual(['py1', 'py3', 'py2', 'pg2', 'pg1']);
    expect(topicsOf(byLane[1])).toEqual(['mix', 'pg1']);
  });

  it('keeps the given order without sites, and serves one lane alone', () => {
    const q = new JobQueue(tasks, 1);
    const order: number[] = [];
    for (let t = q.take(0); t; t = q.take(0)) order.push(t.index);
    expect(order).toEqual(tasks.map((t) => t.index));
  });
});

describe('the readings a crawl worker keeps by default', () => {
  const GB = 2 ** 30;
  it('is half the free memory shared among the workers, in whole MB, between 2 and 6 GB', () => {
    expect(readingCacheFor(2, 20 * GB)).toBe(5 * GB);
    expect(readingCacheFor(2, 21.3 * GB) % 2 ** 20).toBe(0);
    expect(readingCacheFor(2, 40 * GB)).toBe(MAX_DEFAULT_READING_CACHE_BYTES);
    expect(readingCacheFor(2, 6 * GB)).toBe(DEFAULT_READING_CACHE_BYTES);
    expect(readingCacheFor(4, 24 * GB)).toBe(3 * GB);
  });

  it('stays at the default for crawls in the main thread, whose heap is not grown', () => {
    expect(readingCacheFor(0, 64 * GB)).toBe(DEFAULT_READING_CACHE_BYTES);
  });
});

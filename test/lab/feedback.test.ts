/**
 * The lab's simulated user: its settings on a strategy label, and what it judges (the best-ranked results
 * not judged yet, a target up, anything else down, every `every` pages).
 */
import { describe, expect, it } from 'vitest';
import { feedbackOf, parseStrategies, simulatedUser, strategyParams, type CrawlJob } from '../../lab/run';
import type { LabTopic } from '../../lab/topics';
import { createCrawl } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import { measuredTopic, pageProfile } from '../../lib/engine/text/feedback';
import type { PageResult } from '../../lib/engine/types';

const topic: LabTopic = {
  id: 't',
  keywords: 'solar',
  description: 'solar things',
  targets: ['s/t1.html', 's/t2.html'],
  examples: ['s/t1.html'],
  neighbors: ['s/n.html'],
};
const web = { urlFor: (id: string) => `http://127.0.0.1:1/${id}` };
const job = (label: string): CrawlJob => ({ topic, task: 2, strategy: parseStrategies(label)[0], seed: 1 });

describe('the simulated user', () => {
  it('rides on a strategy label, knows the targets as URLs, and stays out of the strategy parameters', () => {
    const j = job('forager:n=2,feedback.every=100,feedback.k=5');
    expect(feedbackOf(j, web)).toEqual({
      feedback: { every: 100, k: 5, targets: ['http://127.0.0.1:1/s/t1.html', 'http://127.0.0.1:1/s/t2.html'] },
    });
    expect(strategyParams(j.strategy.params)).toEqual({ n: 2 });
    expect(feedbackOf(job('forager'), web)).toEqual({});
    expect(feedbackOf(job('forager:feedback.every=100,feedback.k=0'), web).feedback?.k).toBe(0);
    expect(() => feedbackOf(job('forager:feedback.every=100'), web)).toThrow(/both/);
    expect(() => feedbackOf(job('forager:feedback.every=0,feedback.k=5'), web)).toThrow(/>= 1/);
    expect(() => feedbackOf(job('forager:feedback.often=1'), web)).toThrow(/unknown feedback setting/);
  });

  it('judges the k best-ranked unjudged new pages every `every` pages: targets up, the rest down', () => {
    const judged: [string, number][] = [];
    const crawl = createCrawl({
      topic: { keywords: 'solar' },
      seeds: ['http://127.0.0.1:1/s/seed.html'],
      strategy: { name: 'best-first' },
      fetcher: createFetcher({ politenessDelayMs: 0 }),
    });
    const judge = crawl.judge.bind(crawl);
    crawl.judge = (url, value, terms) => {
      judged.push([url, value]);
      judge(url, value, terms);
    };
    const vec = measuredTopic({ keywords: 'solar' });
    const page = (id: string, score: number, isSeed = false): PageResult => ({
      url: web.urlFor(id),
      title: id,
      snippet: '',
      score,
      depth: 1,
      fetchedAt: 0,
      isSeed,
      profile: pageProfile({ solar: 1 }, vec),
    });
    const user = simulatedUser(crawl, { every: 3, k: 2, targets: [web.urlFor('s/t1.html')] });
    user.onPage(page('s/seed.html', 0.9, true));
    user.onPage(page('s/t1.html', 0.5));
    expect(judged).toEqual([]);
    user.onPage(page('s/x.html', 0.7));
    // The seed is no result; the two best new pages, best first.
    expect(judged).toEqual([
      [web.urlFor('s/x.html'), -1],
      [web.urlFor('s/t1.html'), 1],
    ]);
    for (const id of ['s/y.html', 's/z.html', 's/w.html']) user.onPage(page(id, 0.1));
    expect(judged.slice(2).map(([u]) => u)).toHaveLength(2);
    expect(judged.slice(2).every(([u, v]) => v === -1 && !u.endsWith('t1.html') && !u.endsWith('x.html'))).toBe(true);
    expect(crawl.judgements()).toHaveLength(4);
  });
});

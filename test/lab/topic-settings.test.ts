import { describe, expect, it } from 'vitest';
import { labTopic, parseStrategies, strategyParams, type CrawlJob } from '../../lab/run';
import type { LabTopic } from '../../lab/topics';

const topic: LabTopic = {
  id: 't',
  keywords: 'window functions',
  description: 'SQL window functions',
  targets: ['pg/a.html', 'pg/b.html'],
  examples: ['pg/a.html'],
  neighbors: ['pg/c.html'],
};
const results = ['Window Functions', 'A window function performs a calculation across a set of rows.'];

function job(label: string): CrawlJob {
  const [strategy] = parseStrategies(label);
  return { topic, task: 2, strategy, seed: 1 };
}

describe('the topic a lab crawl gets', () => {
  it('has the simulated results page as context by default', () => {
    expect(labTopic(job('forager'), results)).toEqual({ keywords: 'window functions', context: results });
    expect(labTopic({ ...job('bfs16'), topic: { ...topic, language: 'de' } }, [])).toEqual({
      keywords: 'window functions',
      language: 'de',
    });
  });

  it('takes topic settings from the strategy label, and keeps them from the strategy', () => {
    const j = job('forager:n=2,topic.context=false,topic.boilerplate=1,topic.expansion=0.2,topic.allLanguages=true');
    expect(labTopic(j, results)).toEqual({
      keywords: 'window functions',
      allLanguages: true,
      weights: { boilerplate: 1, expansion: 0.2 },
    });
    expect(strategyParams(j.strategy.params)).toEqual({ n: 2 });
  });

  it('refuses unknown topic settings and values of the wrong type', () => {
    expect(() => labTopic(job('forager:topic.colour=1'), results)).toThrow(/unknown topic setting/);
    expect(() => labTopic(job('forager:topic.context=0'), results)).toThrow(/true or false/);
    expect(() => labTopic(job('forager:topic.boilerplate=high'), results)).toThrow(/number/);
  });
});

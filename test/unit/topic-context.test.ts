import { describe, expect, it } from 'vitest';
import { evaluatePage } from '../../lib/engine/html/evaluate';
import { prepareTopic } from '../../lib/engine/strategies/link-scoring';
import { DEFAULT_EXPANSION, EXPANSION_TERMS, expansionTerms, keywordVector, topicVector } from '../../lib/engine/text/vector';
import type { Topic } from '../../lib/engine/types';

/** A results page for "jaguar": the engine's titles and snippets are about the car. */
const JAGUAR_RESULTS = [
  'Jaguar F-Type review — AutoWeek',
  'The Jaguar F-Type coupe pairs a supercharged engine with a stiff chassis; the V8 model is the fastest.',
  'Jaguar XE sedan: engine, price and specs | CarGuide',
  'The XE sedan comes with a turbocharged engine; the sport model adds a stiffer chassis and bigger brakes.',
  'Used Jaguar buying guide — AutoWeek',
  'Check the engine and the chassis of any used Jaguar sedan before you buy; coupe models hold their value.',
];

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('topic context (pseudo-relevance feedback from the results page)', () => {
  it('without context the topic vector is the query', () => {
    const topic: Topic = { keywords: 'jaguar speed' };
    expect({ ...topicVector(topic) }).toEqual({ ...keywordVector(topic) });
    expect({ ...topicVector({ ...topic, context: [] }) }).toEqual({ jaguar: 1, speed: 1 });
  });

  it('adds the terms most results share, weighing together a share of the query’s mass', () => {
    const topic: Topic = { keywords: 'jaguar', context: JAGUAR_RESULTS };
    const v = topicVector(topic);
    expect(v.jaguar).toBe(1);
    const expansion = Object.keys(v).filter((k) => k !== 'jaguar');
    expect(expansion).toContain('engin');
    expect(expansion).toContain('chassi');
    expect(expansion).toContain('sedan');
    expect(expansion.length).toBeLessThanOrEqual(EXPANSION_TERMS);
    expect(sum(expansion.map((k) => v[k]))).toBeCloseTo(DEFAULT_EXPANSION, 12);
    // Terms held by more results weigh more: "engine" is in all six pieces' results, "brake" in one.
    expect(v.engin).toBeGreaterThan(v.sedan);
    expect(v.brake).toBeUndefined(); // one piece of six: not the topic
    // The site name repeated after " — " in two titles is the site, not the topic.
    expect(v.autoweek).toBeUndefined();
  });

  it('the expansion weight is a topic setting; 0 switches it off', () => {
    const off = topicVector({ keywords: 'jaguar', context: JAGUAR_RESULTS, weights: { expansion: 0 } });
    expect({ ...off }).toEqual({ jaguar: 1 });
    const heavy = topicVector({ keywords: 'jaguar', context: JAGUAR_RESULTS, weights: { expansion: 1 } });
    expect(sum(Object.keys(heavy).map((k) => heavy[k])) - 1).toBeCloseTo(1, 12);
  });

  it('ranks candidates by pieces holding them, never repeating a query term', () => {
    const ranked = expansionTerms(['a coffee grinder', 'coffee grinder burr', 'grinder burr'], 'en', { coffe: 1 });
    expect(ranked.map(([t]) => t)).toEqual(['grinder', 'burr']);
  });

  it('makes a page the results describe score above one that only shares the query word', () => {
    const car =
      '<main><p>The new Jaguar sedan has a turbocharged engine, a stiff chassis and a sport model with bigger brakes.</p></main>';
    const cat =
      '<main><p>The jaguar is a big spotted cat of the Americas that hunts deer, fish, turtles and caimans near rivers.</p></main>';
    const score = (html: string, topic: Topic) =>
      evaluatePage({ url: 'https://example.com/', body: new TextEncoder().encode(html), topic }).score;
    const plain: Topic = { keywords: 'jaguar' };
    const described: Topic = { keywords: 'jaguar', context: JAGUAR_RESULTS };
    // One "jaguar" each, pages of about one length: the query alone cannot tell them apart, the results can.
    expect(score(cat, plain)).toBeGreaterThanOrEqual(score(car, plain) * 0.9);
    expect(score(car, described)).toBeGreaterThan(score(cat, described) * 1.2);
  });

  it('link scoring matches URL words and link context against the query’s terms only', () => {
    const t = prepareTopic({ keywords: 'jaguar', context: JAGUAR_RESULTS });
    expect(t.terms).toEqual(['jaguar']);
    expect(t.vector.engin).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import { scoreCut } from '../../lab/relevance-cut';

describe('the relevance cut on lab crawls (lab/relevance-cut.ts)', () => {
  // Best score 0.8 (a seed); new pages: two targets at 0.6 and 0.3, non-targets at 0.5 and 0.1.
  const crawl = {
    scores: [0.8, 0.6, 0.5, 0.3, 0.1],
    isSeed: [true, false, false, false, false],
    isTarget: [true, true, false, true, false],
  };

  it('counts new pages only, against a cut relative to the best score (seeds included), with the floor', () => {
    // 0.35 x 0.8 = 0.28: shown 0.6, 0.5, 0.3 -> tp 2, fp 1, fn 0.
    const at35 = scoreCut([crawl], 0.35);
    expect(at35.meanPrecision).toBeCloseTo(2 / 3);
    expect(at35.meanRecall).toBe(1);
    expect(at35.meanF1).toBeCloseTo(0.8);
    expect(at35.shownShare).toBeCloseTo(3 / 4);
    // 0.7 x 0.8 = 0.56: shown 0.6 -> tp 1, fn 1.
    expect(scoreCut([crawl], 0.7).meanF1).toBeCloseTo(2 / 3);
    // The floor: 0.05 x 0.8 = 0.04 is raised to 0.2, so 0.1 stays hidden.
    expect(scoreCut([crawl], 0.05, 0.2).shownShare).toBeCloseTo(3 / 4);
  });

  it('leaves out a crawl with no target among its new pages, and pools the others', () => {
    const none = { scores: [0.9, 0.4], isSeed: [true, false], isTarget: [true, false] };
    const both = scoreCut([crawl, none], 0.35);
    expect(both.crawls).toBe(1);
    expect(both.meanF1).toBeCloseTo(0.8);
    expect(both.pooledF1).toBeCloseTo(0.8);
  });
});

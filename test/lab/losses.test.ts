import { describe, expect, it } from 'vitest';
import type { CrawlCheckpoint } from '../../lib/engine';
import { CorpusIndex } from '../../lab/corpus';
import { crawlLosses, lossLine, sumLosses } from '../../lab/losses';
import { corpusDoc } from './corpus-doc';

const doc = corpusDoc;

describe('where a crawl loses its reachable targets', () => {
  // a/0 (seed) -> a/1, a/2, a/3, a/4, b/5; a/1 -> a/6; a/2 -> a/7; b/5 -> b/8; a/4 -> c/9 -> c/10; d/11 unreachable.
  const ids = ['a/0', 'a/1', 'a/2', 'a/3', 'a/4', 'b/5', 'a/6', 'a/7', 'b/8', 'c/9', 'c/10', 'd/11'];
  const links = [[1, 2, 3, 4, 5], [6], [7], [], [9], [8], [], [], [], [10], [], []];
  const corpus = CorpusIndex.fromDocs(ids.map((id, i) => doc(id, i === 2 || i === 9 ? { x: 1 } : { y: 1 }, links[i])));
  const web = { idFor: (url: string) => url.replace('http://w/', '') };
  const url = (id: string) => `http://w/${id}`;

  it('puts each missed target in one place: queued (ranked), reserved, in flight, failed, dropped, unseen', () => {
    const snapshot = {
      strategy: {
        state: {
          frontier: {
            entries: [
              [url('a/3'), 1],
              [url('a/2'), 5],
              [url('a/1'), 3],
            ],
          },
          reserved: [[0.5, 1, null, [url('b/5')]]],
        },
      },
      inFlight: [],
      fetched: [url('a/0'), url('a/4')],
    } as unknown as CrawlCheckpoint;
    // crawled a/0 and a/4 (a/4 is not a target); budget 2
    const l = crawlLosses(
      corpus,
      web,
      ['a/0'],
      ['a/3', 'a/6', 'a/7', 'b/8', 'c/9', 'c/10', 'd/11'],
      ['a/0', 'a/4'],
      2,
      snapshot,
      ['x'],
    );
    expect(l.reachable).toBe(6);
    expect(l.found).toBe(0);
    // a/3 queued at rank 2 of 3; c/9 linked from a crawled page but nowhere: dropped
    expect(l.places.queued).toBe(1);
    expect(l.queuedRanks).toEqual([2]);
    expect(l.places.dropped).toBe(1);
    // a/6, a/7 unseen on site a (entered); b/8 unseen on site b (never entered); c/10 unseen on c (not entered)
    expect(l.places['unseen, site entered']).toBe(2);
    expect(l.places['unseen, site not entered']).toBe(2);
    // a/6's parent a/1 queued at rank 1, a/7's parent a/2 queued at rank 0 (with a topic word), b/8's parent reserved,
    // c/10's parent c/9 dropped (with a topic word); site c is linked from a crawled page, site b too (a/0 -> b/5)
    expect(l.unseenParentSeen).toBe(4);
    expect(l.unseenParent).toEqual({ queued: 2, reserved: 1, dropped: 1, topicWord: 2, ranks: [1, 0] });
    expect(l.siteLinked).toBe(2);
    expect(l.targetSitesEntered).toBe(1);
    expect(l.targetSites).toBe(3);
    const both = sumLosses([l, l]);
    expect(both.places.queued).toBe(2);
    expect(both.unseenParent.ranks).toEqual([1, 0, 1, 0]);
    expect(lossLine(l)).toContain('found 0/6, missed 6: queued 1 (17%)');
  });

  it('a failed fetch and one in flight are told apart from a drop', () => {
    const snapshot = {
      strategy: { state: {} },
      inFlight: [{ url: url('a/3'), score: 1, depth: 1 }],
      fetched: [url('a/0'), url('a/1')],
    } as unknown as CrawlCheckpoint;
    const l = crawlLosses(corpus, web, ['a/0'], ['a/1', 'a/3', 'a/2'], ['a/0'], 1, snapshot, []);
    expect([l.places.failed, l.places['in flight'], l.places.dropped]).toEqual([1, 1, 1]);
  });
});

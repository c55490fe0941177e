/**
 * The hostile web's hidden links in real Chromium and Firefox (the e2e packages): the catalogue of hiding tricks
 * (test/fixtures/hostile/hidden-links.html) read as a results page, a crawl started from the popup with the loopback
 * host ticked; no hidden link becomes a seed or a request, every visible result is crawled. The same run as
 * `npm run hostile` (test/hostile/entries/hidden-links.ts).
 */
import { describe, expect, test } from 'vitest';
import { catalogue, runHiddenLinks } from '../hostile/entries/hidden-links';
import { BROWSERS } from './driver';

describe.each(BROWSERS)('hidden results-page links in %s', (browserName) => {
  test('no hiding technique of the catalogue reaches the loopback server; the visible results are crawled', async () => {
    const { tricks, visible } = catalogue();
    expect(tricks.length).toBeGreaterThanOrEqual(18);
    const run = await runHiddenLinks(browserName);
    const reached = Object.fromEntries(run.outcomes.filter((o) => o.reached > 0).map((o) => [o.technique, o.reached]));
    expect({ reached, problems: run.problems }).toEqual({ reached: {}, problems: [] });
    expect(run.seeds.map((s) => new URL(s).pathname)).toEqual(visible.map((n) => `/visible/${n}`));
  });
});

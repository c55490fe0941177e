import { afterEach, describe, expect, it } from 'vitest';
import { ResponseGate } from '../../harness/testweb/gate';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';

/** Polls until `check` holds (the server answers on its own schedule). */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('ResponseGate: the test web answers only what a test releases', () => {
  let web: RunningTestWeb | undefined;
  afterEach(async () => {
    await web?.close();
    web = undefined;
  });

  it('answers the allowed requests, holds the rest in arrival order, releases them oldest first', async () => {
    const gate = new ResponseGate();
    web = await startTestWeb({ seed: 3, hold: gate.hold });
    const urls = [...web.web.pages.values()].slice(0, 5).map((p) => web!.urlOf(p));
    gate.allow(2);
    const finished: string[] = [];
    const fetches: Promise<void>[] = [];
    for (const url of urls) {
      fetches.push(
        fetch(url).then(async (r) => {
          await r.text();
          finished.push(url);
        }),
      );
      // One at a time, so arrival order is the order here.
      await until(() => web!.requests.length === fetches.length, `request ${fetches.length} to arrive`);
    }
    await until(() => finished.length === 2, 'two answers');
    expect(finished).toEqual(urls.slice(0, 2));
    expect(gate.held().map((r) => r.url)).toEqual(urls.slice(2));

    gate.allow(1);
    await until(() => finished.length === 3, 'the oldest held answer');
    expect(finished[2]).toBe(urls[2]);
    expect(gate.held().map((r) => r.url)).toEqual(urls.slice(3));

    gate.open();
    await Promise.all(fetches);
    expect(gate.held()).toEqual([]);
    expect(gate.answered.map((r) => r.url)).toEqual(urls);
  });

  it('never holds robots.txt, and close() leaves nothing waiting on a held answer', async () => {
    const gate = new ResponseGate();
    web = await startTestWeb({ seed: 3, hold: gate.hold });
    gate.allow(0);
    const robots = await fetch(`${web.origins.site0}/robots.txt`);
    expect(robots.status).toBe(200);
    const page = fetch(web.urlOf([...web.web.pages.values()][0])).then(
      () => 'answered',
      () => 'cut off',
    );
    await until(() => gate.held().length === 1, 'the page request to be held');
    await web.close();
    expect(await page).toBe('cut off');
  });

  it('drop() closes the held connections unanswered; later requests are held as before', async () => {
    const gate = new ResponseGate();
    web = await startTestWeb({ seed: 3, hold: gate.hold });
    const [a, b] = [...web.web.pages.values()].slice(0, 2).map((p) => web!.urlOf(p));
    gate.allow(0);
    const first = fetch(a).then(
      () => 'answered',
      () => 'cut off',
    );
    await until(() => gate.held().length === 1, 'the first request to be held');
    expect(gate.drop().map((r) => r.url)).toEqual([a]);
    expect(await first).toBe('cut off');
    expect(gate.dropped.map((r) => r.url)).toEqual([a]);
    const second = fetch(b).then((r) => r.status);
    await until(() => gate.held().length === 1, 'the second request to be held');
    gate.open();
    expect(await second).toBe(200);
    expect(gate.answered.map((r) => r.url)).toEqual([b]);
  });

  it('refuses a count that is not one', () => {
    expect(() => new ResponseGate().allow(Number.NaN)).toThrow(/count/);
    expect(() => new ResponseGate().allow(-1)).toThrow(/count/);
  });
});

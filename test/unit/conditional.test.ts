/**
 * Conditional requests for topic watches: the fetcher sends the validators it is given and turns a 304 into a
 * not-modified outcome; the crawl loop does not evaluate it; the evaluator's content hash ignores boilerplate. Over
 * real HTTP against the test web, which answers conditional requests and can change and add pages between crawls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawl } from '../../lib/engine/crawl';
import { createFetcher } from '../../lib/engine/fetch/fetcher';
import { evaluatePage, localEvaluator } from '../../lib/engine/html/evaluate';
import { hashText } from '../../lib/engine/text/hash';
import type { CrawlEvent, Evaluator, PageResult, Validators } from '../../lib/engine/types';
import { seedsFor, topicQuery } from '../../harness/testweb/generate';
import { startTestWeb, type RunningTestWeb } from '../../harness/testweb/server';

const LOOPBACK = { allowPrivate: 'loopback' as const };
const fetcher = () => createFetcher({ politenessDelayMs: 0, maxInFlight: 4, urlPolicy: LOOPBACK });

/** An evaluator that counts the URLs it evaluates. */
function countingEvaluator(): Evaluator & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    evaluate(input) {
      urls.push(input.url);
      return localEvaluator.evaluate(input);
    },
  };
}

async function run(events: AsyncGenerator<CrawlEvent>) {
  const pages: PageResult[] = [];
  const notModified: string[] = [];
  let done: Extract<CrawlEvent, { type: 'done' }> | undefined;
  for await (const e of events) {
    if (e.type === 'page') pages.push(e.page);
    if (e.type === 'not-modified') notModified.push(e.url);
    if (e.type === 'done') done = e;
  }
  return { pages, notModified, done: done! };
}

const page = (main: string, extra = '') =>
  new TextEncoder().encode(
    `<!DOCTYPE html><html lang="en"><head><title>Saturn</title></head><body><nav><a href="/a">Home</a>${extra}</nav>` +
      `<main><h1>Saturn</h1><p>${main}</p></main><footer>Updated ${extra || 'today'}</footer></body></html>`,
  );

describe('content hash', () => {
  const topic = { keywords: 'saturn rings' };
  const hashOf = async (body: Uint8Array) =>
    (await evaluatePage({ url: 'http://example.org/', body, topic, contentType: 'text/html' })).contentHash;

  it('stays the same when only navigation and footer change, and changes with the main text', async () => {
    const base = await hashOf(page('The rings of Saturn are made of ice.'));
    expect(base).toMatch(/^[0-9a-z]{1,11}$/);
    expect(await hashOf(page('The rings of Saturn are made of ice.', '<a href="/ad">Buy now 2031-01-02</a>'))).toBe(base);
    expect(await hashOf(page('The rings of   Saturn are made\nof ice.'))).toBe(base);
    expect(await hashOf(page('The rings of Saturn are made of ice and rock.'))).not.toBe(base);
  });

  it('sees a change past the 4000 characters mainText keeps', async () => {
    const long = 'Saturn rings ice. '.repeat(400);
    const a = await evaluatePage({ url: 'http://example.org/', body: page(`${long} end one`), topic, contentType: 'text/html' });
    const b = await evaluatePage({ url: 'http://example.org/', body: page(`${long} end two`), topic, contentType: 'text/html' });
    expect(a.mainText).toBe(b.mainText);
    expect(a.contentHash).not.toBe(b.contentHash);
  });

  it('is a stable function of its text', () => {
    expect(hashText('')).toBe(hashText(''));
    expect(hashText('abc')).not.toBe(hashText('abd'));
  });
});

describe('conditional requests against the test web', () => {
  let tw: RunningTestWeb;
  beforeAll(async () => {
    tw = await startTestWeb({ seed: 4, topics: 2, pagesPerTopic: 24, sites: 3 });
  });
  afterAll(() => tw?.close());

  it('sends If-None-Match and If-Modified-Since, and a 304 is a not-modified outcome', async () => {
    const url = tw.urlOf(seedsFor(tw.web, tw.web.topics[0].id, 1)[0]);
    const f = fetcher();
    const first = await f.fetch(url);
    if (!first.ok || first.notModified) throw new Error('first fetch failed');
    expect(first.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const validators: Validators = { etag: first.etag, lastModified: first.lastModified };
    const again = await f.fetch(url, undefined, validators);
    expect(again).toMatchObject({ ok: true, notModified: true, status: 304, etag: first.etag });
    const last = tw.requests.length - 1;
    expect(tw.requests[last].headers['if-none-match']).toBe(first.etag);
    expect(tw.requests[last].headers['if-modified-since']).toBe(first.lastModified);
    expect(tw.statuses[last]).toBe(304);
    // Only Last-Modified known: If-Modified-Since decides.
    expect(await f.fetch(url, undefined, { lastModified: first.lastModified })).toMatchObject({ notModified: true });
    // No validators: a plain request.
    const plain = await f.fetch(url);
    expect(plain).toMatchObject({ ok: true, status: 200 });
    expect(tw.requests.at(-1)!.headers['if-none-match']).toBeUndefined();
    expect(f.stats().notModified).toBe(2);
    f.close();
  });

  it('re-crawls: 304s are not evaluated, changed and touched pages are, added pages are found', async () => {
    const topicId = tw.web.topics[0].id;
    const seeds = seedsFor(tw.web, topicId, 2).map((p) => tw.urlOf(p));
    const topic = topicQuery(tw.web, topicId);
    const first = await run(
      createCrawl({ topic, seeds, strategy: { name: 'best-first' }, limits: { maxPages: 15 }, fetcher: fetcher() }).events(),
    );
    expect(first.pages.length).toBe(15);
    expect(first.pages.every((p) => p.etag && p.contentHash && p.lastModified)).toBe(true);
    const keyOf = (url: string) => [...tw.web.pages.values()].find((p) => tw.urlOf(p) === url)!.key;
    const known = first.pages.filter((p) => !p.isSeed);
    const changed = tw.changePage(keyOf(known[0].url));
    const touched = tw.touchPage(keyOf(known[1].url));
    const added = tw.addPage(keyOf(seeds[0]), 'watch-added-one');
    const validators = new Map(first.pages.map((p) => [p.url, { etag: p.etag, lastModified: p.lastModified }]));
    const evaluator = countingEvaluator();
    const from = tw.requests.length;
    const second = await run(
      createCrawl({
        topic,
        seeds,
        revisit: first.pages.map((p) => p.url),
        strategy: { name: 'best-first' },
        limits: { maxPages: 15 },
        fetcher: fetcher(),
        evaluator,
        validators,
      }).events(),
    );
    const byUrl = new Map(second.pages.map((p) => [p.url, p]));
    const before = new Map(first.pages.map((p) => [p.url, p]));
    // The seed that links to the new page changed its bytes (navigation), so it came back 200 and was read again.
    expect(byUrl.has(seeds[0])).toBe(true);
    expect(byUrl.get(seeds[0])!.contentHash).toBe(before.get(seeds[0])!.contentHash);
    expect(byUrl.get(added)).toBeDefined();
    expect(byUrl.get(changed)!.contentHash).not.toBe(before.get(changed)!.contentHash);
    expect(byUrl.get(touched)!.contentHash).toBe(before.get(touched)!.contentHash);
    // Revisited pages are not seeds.
    expect(byUrl.get(changed)!.isSeed).toBe(false);
    // Every known page not changed in any way came back 304, unread.
    const untouched = first.pages.map((p) => p.url).filter((u) => ![seeds[0], changed, touched].includes(u));
    expect(new Set(second.notModified)).toEqual(new Set(untouched));
    for (const url of untouched) expect(evaluator.urls).not.toContain(url);
    expect(second.done.stats.notModified).toBe(untouched.length);
    const log = tw.requests.slice(from);
    for (const url of untouched) {
      const i = log.findIndex((r) => r.url === url);
      expect(log[i].headers['if-none-match']).toBe(before.get(url)!.etag);
      expect(tw.statuses[from + i]).toBe(304);
    }
  });
});

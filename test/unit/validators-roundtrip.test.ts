/**
 * ETag and Last-Modified are capped on the way in (a longer one is dropped, not cut), so whatever a server sends, a
 * crawl's export re-imports. The property part runs seeded random crawls (engine's Rng: the same cases every run)
 * through the JSON export and the import.
 */
import { describe, expect, it } from 'vitest';
import { exportCrawl } from '../../lib/app/export';
import { parseCrawlExport } from '../../lib/app/library';
import { plainRecord } from './record-fixture';
import { createFetcher, MAX_VALIDATOR_CHARS, type PageResult, Rng } from '../../lib/engine';

const record = plainRecord({ id: 'c', name: 'solar' });

async function fetchedPage(etag: string, lastModified: string) {
  const fetcher = createFetcher({
    politenessDelayMs: 0,
    respectRobots: false,
    fetch: (async () =>
      new Response('<!DOCTYPE html><title>t</title>', {
        headers: { 'content-type': 'text/html', etag, 'last-modified': lastModified },
      })) as unknown as typeof fetch,
  });
  const outcome = await fetcher.fetch('https://example.com/');
  fetcher.close();
  if (!outcome.ok || outcome.notModified) throw new Error('no page');
  return outcome;
}

describe('validators are capped on the way in', () => {
  it('drops an ETag over 1000 characters and a Last-Modified over 200; keeps ones at the cap', async () => {
    const long = await fetchedPage(`"${'a'.repeat(5000)}"`, 'x'.repeat(300));
    expect(long.etag).toBeUndefined();
    expect(long.lastModified).toBeUndefined();
    const atCap = await fetchedPage('e'.repeat(MAX_VALIDATOR_CHARS.etag), 'm'.repeat(MAX_VALIDATOR_CHARS.lastModified));
    expect(atCap.etag?.length).toBe(1000);
    expect(atCap.lastModified?.length).toBe(200);
  });

  it('property: the export of 300 seeded random crawls always re-imports, pages and validators intact', async () => {
    const rng = new Rng(20261205);
    const int = (n: number) => Math.floor(rng.next() * n);
    const text = (max: number) => {
      let s = '';
      const length = int(max + 1);
      // Printable ASCII, controls (C0, DEL, C1), bidi overrides, astral characters: what a hostile page may hold.
      const pool = [0x41, 0x7a, 0x20, 0x0a, 0x1b, 0x7f, 0x9b, 0x85, 0x202e, 0x2066, 0xe9, 0x1f600, 0x22, 0x5c];
      for (let i = 0; i < length; i++) s += String.fromCodePoint(rng.next() < 0.5 ? 0x20 + int(95) : pool[int(pool.length)]);
      return s;
    };
    for (let c = 0; c < 300; c++) {
      const pages: PageResult[] = [];
      const count = int(8);
      for (let i = 0; i < count; i++) {
        // The validators as the fetcher keeps them: whatever the server sent, within the caps.
        const { etag, lastModified } = await fetchedPage(
          text(int(2) ? 40 : 1500).replace(/[^\x20-\x7e]/g, ''),
          text(int(2) ? 40 : 300).replace(/[^\x20-\x7e]/g, ''),
        );
        pages.push({
          url: `https://example.com/p/${c}/${i}`,
          title: text(200),
          snippet: text(400),
          mainText: text(1000),
          score: rng.next(),
          depth: int(5),
          fetchedAt: int(1e12),
          isSeed: i === 0,
          ...(etag !== undefined ? { etag } : {}),
          ...(lastModified !== undefined ? { lastModified } : {}),
        });
      }
      const crawl = { ...record, id: `c${c}`, name: text(100) || 'x' };
      const file = exportCrawl('json', crawl, pages, []).content;
      const imported = parseCrawlExport(file);
      expect(imported.pages.length, `crawl ${c}`).toBe(pages.length);
      const byUrl = (list: PageResult[]) =>
        list.map((p) => [p.url, p.etag, p.lastModified]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(byUrl(imported.pages), `crawl ${c}`).toEqual(byUrl(pages)); // the export lists pages best first
    }
  });
});

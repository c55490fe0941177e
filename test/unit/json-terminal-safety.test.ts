/**
 * `npm run crawl -- --json` prints the JSON export to a terminal: DEL and the C1 controls (0x9b is CSI, which starts
 * an escape sequence on many terminals) must be written as \u escapes, as JSON.stringify already does for C0.
 */
import { describe, expect, it } from 'vitest';
import { exportCrawl } from '../../lib/app/export';
import { parseCrawlExport } from '../../lib/app/library';
import type { CrawlRecord } from '../../lib/app/store';
import { plainRecord } from './record-fixture';

const record = plainRecord({ id: 'c', name: 'solar\u009b31m red\u007f', topic: { keywords: 'solar\u0085panels' } });

describe('the JSON export is safe to print', () => {
  it('writes no raw DEL or C1 character, and parses back to the same text', () => {
    const skips = [{ url: 'https://example.com/\u009d]0;title\u009c', reason: 'network' as const, detail: 'x\u0090y', at: 3 }];
    const text = exportCrawl('json', record, [], skips).content;
    expect(text).not.toMatch(/[\u007f-\u009f]/);
    expect(text).toContain('solar\\u009b31m red\\u007f');
    const parsed = JSON.parse(text) as { crawl: CrawlRecord; skips: typeof skips };
    expect(parsed.crawl.name).toBe(record.name);
    expect(parsed.skips[0].url).toBe(skips[0].url);
    expect(() => parseCrawlExport(text)).not.toThrow();
  });
});

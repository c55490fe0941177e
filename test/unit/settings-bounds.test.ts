/**
 * Settings from outside the start form (an imported file, a stored record, a start message) keep the start form's
 * bounds: a file or a record with maxPages 1e12, maxBuffer 1e12 or politenessDelayMs -5000 is refused with the reason
 * and never run; a start message's values are clamped.
 */
import { describe, expect, it } from 'vitest';
import { exportCrawl } from '../../lib/app/export';
import { ImportError, parseCrawlExport } from '../../lib/app/library';
import { CrawlRunner } from '../../lib/app/runner';
import { validateStart } from '../../lib/app/rules/settings';
import { settingsProblems } from '../../lib/app/rules/settings-bounds';
import type { CrawlRecord } from '../../lib/app/store';
import { plainRecord } from './record-fixture';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import { createCrawl, localEvaluator } from '../../lib/engine';

const record = plainRecord({ status: 'paused' });

const HOSTILE = { maxPages: 1e12, maxBuffer: 1e12, politenessDelayMs: -5000 };

describe('settings bounds on every way in', () => {
  it('import: a file with maxPages 1e12, maxBuffer 1e12 and politenessDelayMs -5000 is refused, saying which', () => {
    const file = (settings: Partial<CrawlRecord['settings']>) =>
      exportCrawl('json', { ...record, settings: { ...record.settings, ...settings } }, [], []).content;
    expect(parseCrawlExport(file({})).record.settings.maxPages).toBe(50);
    let error: unknown;
    try {
      parseCrawlExport(file(HOSTILE));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe(
      "The file's crawl settings are out of bounds: maxPages is 1000000000000, not a whole number from 1 to 100000; " +
        'maxBuffer is 1000000000000, not a whole number from 1 to 100000; ' +
        'politenessDelayMs is -5000, not a whole number from 0 to 60000.',
    );
    expect(() =>
      parseCrawlExport(
        file({ fetch: { concurrency: 1e6, timeoutMs: 10, maxBytes: 4096, respectRobots: true, allowPrivate: false } }),
      ),
    ).toThrow(/fetch\.concurrency is 1000000, not a whole number from 1 to 256/);
    expect(() => parseCrawlExport(file({ seed: 0.5 }))).toThrow(/seed is 0\.5/);
  });

  it('storage: Resume of a stored record with those settings is refused with the reason and fetches nothing', async () => {
    const store = createMemoryStore();
    await store.putCrawl({ ...record, settings: { ...record.settings, ...HOSTILE } });
    let fetchers = 0;
    const runner = new CrawlRunner({
      store,
      evaluator: localEvaluator,
      createCrawl,
      makeFetcher: () => {
        fetchers++;
        return { fetch: async (url) => ({ ok: false, url, reason: 'http-error', detail: 'HTTP 404', elapsedMs: 0 }) };
      },
    });
    await expect(runner.resume(record.id)).rejects.toThrow(
      "This crawl's stored record is damaged (maxPages is 1000000000000, not a whole number from 1 to 100000, " +
        'maxBuffer is 1000000000000, not a whole number from 1 to 100000, ' +
        'politenessDelayMs is -5000, not a whole number from 0 to 60000): it cannot be resumed.',
    );
    expect(fetchers).toBe(0);
    // Shown as failed in the lists, with the same reason.
    const [listed] = await runner.list();
    expect(listed.status).toBe('error');
    expect(listed.error).toMatch(/maxPages is 1000000000000/);
  });

  it('messages: a start request with those values is clamped to the bounds the check accepts', () => {
    const r = validateStart({ topic: 'solar', seeds: ['https://example.com/'], settings: HOSTILE });
    if (!r.ok) throw new Error(r.error);
    expect(r.value.settings).toMatchObject({ maxPages: 100_000, maxBuffer: 100_000, politenessDelayMs: 0 });
    expect(settingsProblems(r.value.settings)).toEqual([]);
  });
});

/**
 * A growing watch: a site (harness/growing-site.ts) whose front page offers 20 URLs never seen before at every visit
 * and answers 304 to every page it served once. A watch on it (page budget 8) is checked five times, a day apart;
 * what counts is how many pages the watch keeps beyond its cap (twice its budget: lib/app/watch/cap.ts), none allowed.
 * Run in the extension's background without the browser (lib/app, in Node): the trick is in what a watch keeps.
 */
import { startGrowingSite } from '../../../harness/growing-site';
import type { CrawlRecord } from '../../../lib/app/model/records';
import { watchPageCap } from '../../../lib/app/watch';
import type { EntryRun, HostileEntry } from '../suite';
import { startNodeApp } from './node-app';

const MAX_PAGES = 8;
const CHECKS = 5;
const DAY = 24 * 3600_000;

export const growingWatch: HostileEntry = {
  id: 'growing-watch',
  title: 'a watched site that answers 304 to known pages and offers new URLs at every check',
  targets: ['cli'],
  async run(): Promise<EntryRun> {
    const site = await startGrowingSite(20);
    try {
      const { app, store, ask, clock } = await startNodeApp();
      const record = await ask<CrawlRecord>({
        type: 'forager/start',
        start: {
          topic: 'solar panels',
          seeds: [site.seed],
          source: { kind: 'manual' },
          settings: { maxPages: MAX_PAGES, politenessDelayMs: 0, privateHosts: [site.host] },
        },
      });
      await app.runner.whenIdle();
      await ask({ type: 'forager/watch', id: record.id, schedule: 'daily' });
      const cap = watchPageCap({ maxPages: MAX_PAGES });
      const counts: number[] = [await store.countPages(record.id)];
      let found = 0;
      for (let i = 0; i < CHECKS; i++) {
        clock.now += DAY;
        const startedAt = clock.now;
        await ask({ type: 'forager/checkNow', id: record.id });
        for (let wait = 0; wait < 3000; wait++) {
          const check = (await store.getCrawl(record.id))?.watch?.check;
          if (check?.startedAt === startedAt && check.endedAt !== undefined) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        found += (await store.getCrawl(record.id))?.watch?.check?.newPages ?? 0;
        counts.push(await store.countPages(record.id));
      }
      await app.runner.whenIdle();
      process.stderr.write(
        `  pages kept after each check: ${counts.join(', ')} (cap ${cap}); new pages found ${found}; ` +
          `304s ${site.counts.notModified}\n`,
      );
      const problems = found === 0 ? ['the checks found nothing new, so the cap was never tried'] : [];
      return {
        outcomes: [
          { technique: `304s-and-new-urls-x${CHECKS}`, reached: Math.max(0, ...counts.map((n) => n - cap)), allowed: 0 },
        ],
        problems,
      };
    } finally {
      await site.close();
    }
  },
};

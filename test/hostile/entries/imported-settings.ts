/**
 * An imported file with settings out of bounds (maxPages 1e12, maxBuffer 1e12, politenessDelayMs -5000, a
 * concurrency of a million): each is imported through the extension's background (lib/app, in Node) and, if it got
 * in, resumed against a loopback server. What counts per setting: an accepted import (1) plus the requests the
 * resumed crawl sent to loopback; none allowed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportCrawl } from '../../../lib/app/export';
import type { CrawlRecord, CrawlSettings } from '../../../lib/app/model/records';
import { plainRecord } from '../../unit/record-fixture';
import type { EntryRun, HostileEntry, Outcome } from '../suite';
import { startNodeApp } from './node-app';

const HOSTILE: [string, Partial<CrawlSettings>][] = [
  ['maxPages=1e12', { maxPages: 1e12 }],
  ['maxBuffer=1e12', { maxBuffer: 1e12 }],
  ['politenessDelayMs=-5000', { politenessDelayMs: -5000 }],
  [
    'fetch.concurrency=1e6',
    { fetch: { concurrency: 1e6, timeoutMs: 10_000, maxBytes: 1 << 20, respectRobots: true, allowPrivate: true } },
  ],
];

export const importedSettings: HostileEntry = {
  id: 'imported-settings',
  title: "an imported crawl file whose settings are out of the start form's bounds",
  targets: ['cli'],
  async run(): Promise<EntryRun> {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>solar panels</title><p>solar panels</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const outcomes: Outcome[] = [];
    try {
      for (const [i, [technique, settings]] of HOSTILE.entries()) {
        const { app, ask } = await startNodeApp();
        const base = plainRecord({ id: `hostile-${i}`, status: 'paused', seeds: [`http://${host}/`] });
        const record: CrawlRecord = { ...base, settings: { ...base.settings, privateHosts: [host], ...settings } };
        const before = requests;
        let accepted = 0;
        try {
          await ask({ type: 'forager/import', json: exportCrawl('json', record, [], []).content });
          accepted = 1;
          await ask({ type: 'forager/resume', id: record.id }).catch(() => undefined);
          await app.runner.whenIdle();
        } catch (e) {
          process.stderr.write(`  ${technique}: refused: ${e instanceof Error ? e.message.slice(0, 140) : String(e)}\n`);
        }
        outcomes.push({ technique, reached: accepted + (requests - before), allowed: 0 });
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    return { outcomes, problems: [] };
  },
};

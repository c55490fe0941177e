/**
 * Hidden results-page links (test/fixtures/hostile/hidden-links.html): the catalogue served as an unknown engine's
 * results page, read by the popup, a crawl started from its start form with the loopback host ticked (as a user
 * crawling a local web would), so that nothing but the reader's visibility check stands between a hidden link and
 * a request. Counts the requests each technique's `/hidden/<trick>` path receives, and checks the visible results
 * were crawled (else silence would prove nothing).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT, startFromForm, waitFor, waitForStatus } from '../../../harness/browsers';
import { type BrowserName, launchDriver } from '../../e2e/driver';
import type { EntryRun, HostileEntry, Target } from '../suite';

export const CATALOGUE = path.join(ROOT, 'test/fixtures/hostile/hidden-links.html');

/** The techniques in the catalogue (its data-trick names, in page order) and its visible results' numbers. */
export function catalogue(): { tricks: string[]; visible: string[] } {
  const html = readFileSync(CATALOGUE, 'utf8');
  return {
    tricks: [...html.matchAll(/data-trick="([^"]+)"/g)].map((m) => m[1]),
    visible: [...html.matchAll(/data-visible="([^"]+)"/g)].map((m) => m[1]),
  };
}

interface Server {
  origin: string;
  paths: string[];
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The loopback server every result points at: logs each request's path; answers small pages without links. */
async function startTargets(): Promise<Server> {
  const paths: string[] = [];
  const s = await listen((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    paths.push(p);
    if (p === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><title>router admin ${p}</title><h1>Router admin</h1><p>Router admin settings page.</p>`);
  });
  return { origin: `http://127.0.0.1:${s.port}`, paths, close: s.close };
}

/** The catalogue as a results page at http://localhost:P/find?q=router+admin (another host than the targets'). */
async function startResultsPage(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const html = readFileSync(CATALOGUE, 'utf8').replaceAll('{{TARGET}}', target);
  const s = await listen((req, res) => {
    if (!(req.url ?? '').startsWith('/find')) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  return { url: `http://localhost:${s.port}/find?q=router+admin`, close: s.close };
}

/** One run in a browser: what reached loopback per technique, and the seeds the popup offered. */
export async function runHiddenLinks(browserName: BrowserName): Promise<EntryRun & { seeds: string[] }> {
  const { tricks, visible } = catalogue();
  const targets = await startTargets();
  const page = await startResultsPage(targets.origin);
  const driver = await launchDriver(browserName);
  try {
    const tab = await driver.browser.newPage();
    await tab.setViewport({ width: 1280, height: 800 });
    await tab.goto(page.url, { waitUntil: 'load' });
    const popup = await driver.open(`popup.html?tab=${await driver.tabId(page.url)}`, { width: 420, height: 600 });
    await startFromForm(popup, { maxPages: 40, politenessDelayMs: 0 });
    await waitForStatus(popup, ['done', 'stopped', 'error']);
    const seeds = await driver.background(async (f) => {
      const crawls = await f.store.listCrawls();
      return crawls.flatMap((c) => c.seeds);
    });
    // Every visible result fetched: the crawl had the chance to reach anything it was given.
    const problems: string[] = [];
    await waitFor(
      () => visible.every((n) => targets.paths.includes(`/visible/${n}`)),
      'every visible result fetched',
      30_000,
    ).catch(() =>
      problems.push(`visible results not crawled: ${visible.filter((n) => !targets.paths.includes(`/visible/${n}`)).join(', ')}`),
    );
    const outcomes = tricks.map((t) => ({
      technique: t,
      reached: targets.paths.filter((p) => p === `/hidden/${t}`).length,
      allowed: 0,
    }));
    return { outcomes, problems, seeds };
  } finally {
    await driver.close();
    await page.close();
    await targets.close();
  }
}

export const hiddenLinks: HostileEntry = {
  id: 'hidden-links',
  title: 'result links hidden from the person reading the results page',
  targets: ['chromium', 'firefox'],
  run: (target: Target) => runHiddenLinks(target as BrowserName),
};

/**
 * Wildcard DNS: a page the crawl reaches links 40 public-looking names of one domain, every one of which the DNS
 * (here the browser's forced resolution, or the command line's stand-in resolver) answers with 127.0.0.2, where a
 * canary server counts what reaches it. The seed is a loopback page the user ticked; the names are not. Bound: one
 * request per registrable domain and per linking page (PRIVACY.md), so 1 at most; Firefox and the command line check
 * the address before connecting and send none.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { newCrawlPath, startFromForm, tid, waitFor, waitForStatus } from '../../../harness/browsers';
import type { Resolver } from '../../../lib/app/adapters/guarded-fetch';
import { type CliIo, runCrawlCommand } from '../../../cli/crawl-command';
import { type BrowserName, launchDriver } from '../../e2e/driver';
import type { EntryRun, HostileEntry, Target } from '../suite';

const DOMAIN = 'forager-test.example';
const NAMES = 40;
const TOPIC = 'router admin guide';

interface Servers {
  /** The page the crawl starts from (host:port on 127.0.0.1). */
  newsPort: number;
  canaryPort: number;
  /** Requests that reached the canary, by Host header. */
  canary: string[];
  /** Requests the news server answered (the crawl did run). */
  newsRequests: number;
  close(): Promise<void>;
}

async function listen(server: http.Server, host: string): Promise<number> {
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as AddressInfo).port;
}

async function startServers(): Promise<Servers> {
  const state = { canary: [] as string[], newsRequests: 0 };
  const canary = http.createServer((req, res) => {
    if (req.url !== '/favicon.ico') state.canary.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>router admin</title><p>router admin</p>');
  });
  const canaryPort = await listen(canary, '127.0.0.2');
  const links = Array.from({ length: NAMES }, (_, i) => `http://h${i}.${DOMAIN}:${canaryPort}/admin`);
  const news = http.createServer((req, res) => {
    state.newsRequests++;
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!DOCTYPE html><title>${TOPIC}</title><main><h1>${TOPIC}</h1><p>${TOPIC}: how to open your router admin page.</p>` +
        `${links.map((l) => `<a href="${l}">router admin ${l}</a>`).join(' ')}</main>`,
    );
  });
  const newsPort = await listen(news, '127.0.0.1');
  return {
    newsPort,
    canaryPort,
    get canary() {
      return state.canary;
    },
    get newsRequests() {
      return state.newsRequests;
    },
    close: async () => {
      for (const s of [news, canary]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}

/** Runs the crawl in a browser; resolves to the refused-host count its crawl panel shows (0: none shown). */
async function inBrowser(name: BrowserName, servers: Servers): Promise<number> {
  const driver = await launchDriver(name, { resolve: { domain: DOMAIN, address: '127.0.0.2' } });
  try {
    const view = await driver.open(newCrawlPath(TOPIC, [`http://127.0.0.1:${servers.newsPort}/`]));
    await startFromForm(view, { maxPages: 20, politenessDelayMs: 0 });
    await waitForStatus(view, ['done', 'stopped', 'error'], 180_000);
    const shown = await waitFor(
      () => view.$eval(tid('refused-hosts'), (e) => Number(e.getAttribute('data-count'))).catch(() => null),
      'the refused hosts in the crawl panel',
      10_000,
    ).catch(() => 0);
    return shown;
  } finally {
    await driver.close();
  }
}

async function onCommandLine(servers: Servers): Promise<void> {
  const resolve: Resolver = async (hostname) => [
    { address: hostname.endsWith(`.${DOMAIN}`) ? '127.0.0.2' : '127.0.0.1', family: 4 },
  ];
  const quiet = { write: () => true };
  const io: CliIo = { stdout: quiet, stderr: quiet, resolve };
  const seed = `http://news.example:${servers.newsPort}/`;
  await runCrawlCommand(
    [TOPIC, seed, '--private-host', `news.example:${servers.newsPort}`, '--delay', '0', '--quiet', '--max-pages', '20'],
    io,
  );
}

export const wildcardDns: HostileEntry = {
  id: 'wildcard-dns',
  title: `a page links ${NAMES} names of one domain that DNS answers with a loopback address`,
  targets: ['chromium', 'firefox', 'cli'],
  async run(target: Target): Promise<EntryRun> {
    const servers = await startServers();
    try {
      const problems: string[] = [];
      if (target === 'cli') await onCommandLine(servers);
      else {
        // The extension says what it refused: a count in the crawl's status (the names behind it).
        const shown = await inBrowser(target, servers);
        process.stderr.write(`  refused hosts shown in the crawl panel: ${shown}\n`);
        if (shown === 0) problems.push('the crawl panel shows no refused hosts');
      }
      if (servers.newsRequests === 0) problems.push('the crawl never fetched its start page, so silence proves nothing');
      if (servers.canary.length) process.stderr.write(`  reached loopback: ${servers.canary.join(', ')}\n`);
      return {
        outcomes: [{ technique: `${NAMES}-names-one-domain`, reached: servers.canary.length, allowed: 1 }],
        problems,
      };
    } finally {
      await servers.close();
    }
  },
};

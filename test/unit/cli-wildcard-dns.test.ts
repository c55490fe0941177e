/**
 * `npm run crawl` against wildcard DNS: a stand-in resolver answers 127.0.0.2 for every name under the attacker's
 * domains, and a canary server there counts connections. The guarded fetch never connects (it checks the address
 * first); the host admission keeps the crawl from even looking up more names of a domain, or linked from a page,
 * once one answered privately, and the command says what it refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCrawlCommand } from '../../cli/crawl-command';
import type { Resolver } from '../../lib/app/adapters/guarded-fetch';

async function listen(server: http.Server, host: string): Promise<number> {
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as AddressInfo).port;
}

describe('npm run crawl under wildcard DNS', () => {
  let news: http.Server;
  let canary: http.Server;
  let newsPort = 0;
  let canaryConnections = 0;
  const links: string[] = [];

  beforeAll(async () => {
    canary = http.createServer((_req, res) => res.end('<title>router admin</title>'));
    canary.on('connection', () => canaryConnections++);
    const canaryPort = await listen(canary, '127.0.0.2');
    for (let i = 0; i < 40; i++) links.push(`http://h${i}.wild.example:${canaryPort}/admin`);
    for (let i = 0; i < 40; i++) links.push(`http://x.wild${i}.example:${canaryPort}/admin`);
    news = http.createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      res.setHeader('content-type', 'text/html');
      res.end(
        `<title>router admin guide</title><main><p>router admin guide</p>${links.map((l) => `<a href="${l}">router admin</a>`).join('')}</main>`,
      );
    });
    newsPort = await listen(news, '127.0.0.1');
  });
  afterAll(async () => {
    for (const s of [news, canary]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it('looks up 1 name of the 80 (none connected), and prints what it refused', async () => {
    const lookups: string[] = [];
    const resolve: Resolver = async (hostname) => {
      lookups.push(hostname);
      return [{ address: hostname === 'news.example' ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: { write: (t) => out.push(t) }, stderr: { write: (t) => err.push(t) }, resolve };
    const seed = `http://news.example:${newsPort}/`;
    const code = await runCrawlCommand(
      ['router admin', seed, '--private-host', `news.example:${newsPort}`, '--delay', '0', '--quiet', '--all'],
      io,
    );
    expect(code).toBe(0);
    expect(canaryConnections).toBe(0);
    expect(lookups.filter((h) => h !== 'news.example').length).toBe(1);
    expect(err.join('')).toContain(
      'Refused 1 host name at private addresses; 79 host names of the same domains or linking pages not contacted.',
    );
  });
});

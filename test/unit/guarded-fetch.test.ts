/**
 * The command line's dispatcher (lib/app/adapters/guarded-fetch.ts): a host name that resolves to a private address is
 * refused before any connection to it, on every request and every redirect hop the engine's fetcher makes. A
 * stand-in resolver plays public wildcard DNS (`*.forager-test.example` answers whatever the test says); the
 * canary is a real server on 127.0.0.2 that counts the connections it gets.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type UrlPolicy } from '../../lib/engine';
import { createGuardedFetch, type Resolver } from '../../lib/app/adapters/guarded-fetch';

interface Server {
  port: number;
  connections: number;
  paths: string[];
  close(): Promise<void>;
}

async function serve(host: string, handler: http.RequestListener): Promise<Server> {
  const server = http.createServer(handler);
  const s: Server = {
    port: 0,
    connections: 0,
    paths: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => s.connections++);
  server.on('request', (req) => s.paths.push(req.url ?? ''));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  s.port = (server.address() as AddressInfo).port;
  return s;
}

const html = (res: http.ServerResponse, body: string) => {
  res.writeHead(200, { 'Content-Type': 'text/html' });
  res.end(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`);
};

describe('guarded fetch (command line and lab)', () => {
  let canary: Server;
  let web: Server;
  /** What the stand-in DNS answers for each name. */
  const answers = new Map<string, string[]>();
  const resolve: Resolver = async (hostname) => {
    const a = answers.get(hostname);
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  beforeAll(async () => {
    canary = await serve('127.0.0.2', (_req, res) => html(res, 'router admin'));
    web = await serve('127.0.0.1', (req, res) => {
      if (req.url === '/hostile/to-private-name') {
        res.writeHead(302, { Location: `http://router.forager-test.example:${canary.port}/router-admin?via=redirect` });
        res.end();
      } else if (req.url === '/hostile/chain') {
        res.writeHead(301, { Location: `http://www.forager-test.example:${web.port}/hostile/to-private-name` });
        res.end();
      } else html(res, 'a page');
    });
    answers.set('router.forager-test.example', ['127.0.0.2']);
    answers.set('www.forager-test.example', ['127.0.0.1']);
  });
  afterAll(async () => {
    await canary?.close();
    await web?.close();
  });

  const fetcherFor = (policy: UrlPolicy) => {
    const net = createGuardedFetch(policy, { resolve });
    const fetcher = createFetcher({ fetch: net.fetch, politenessDelayMs: 0, respectRobots: false, urlPolicy: policy });
    return {
      net,
      fetcher,
      close: async () => {
        fetcher.close();
        await net.close();
      },
    };
  };

  it('refuses a public-looking name that resolves to a loopback address, without connecting to it', async () => {
    const before = canary.connections;
    const { net, fetcher, close } = fetcherFor({ allowPrivate: false });
    try {
      const outcome = await fetcher.fetch(`http://router.forager-test.example:${canary.port}/router-admin`);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.reason).toBe('network');
        expect(outcome.detail).toContain('router.forager-test.example is at 127.0.0.2, a private address (loopback');
      }
      expect(net.refused()).toBe(1);
      expect(canary.connections).toBe(before);
    } finally {
      await close();
    }
  });

  it('checks every redirect hop: a named private seed host may redirect, but not onto a name that resolves privately', async () => {
    const before = canary.connections;
    const served = web.paths.length;
    const policy: UrlPolicy = { allowPrivate: false, privateHosts: [`127.0.0.1:${web.port}`] };
    const { fetcher, close } = fetcherFor(policy);
    try {
      const ok = await fetcher.fetch(`http://127.0.0.1:${web.port}/a-page`);
      expect(ok.ok).toBe(true); // the named host itself is reachable
      const outcome = await fetcher.fetch(`http://127.0.0.1:${web.port}/hostile/to-private-name`);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.detail).toContain('is at 127.0.0.2, a private address');
      // A chain through a second name that resolves to 127.0.0.1 (not named: only the literal host and port are).
      const chain = await fetcher.fetch(`http://127.0.0.1:${web.port}/hostile/chain`);
      expect(chain.ok).toBe(false);
      if (!chain.ok) expect(chain.detail).toContain('www.forager-test.example is at 127.0.0.1');
      expect(web.paths.slice(served)).toEqual(['/a-page', '/hostile/to-private-name', '/hostile/chain']);
      expect(canary.connections).toBe(before);
    } finally {
      await close();
    }
  });

  it("reaches the same name when the policy allows loopback (the stand-in resolver is what's used)", async () => {
    const before = canary.paths.length;
    const { fetcher, close } = fetcherFor({ allowPrivate: 'loopback' });
    try {
      const outcome = await fetcher.fetch(`http://router.forager-test.example:${canary.port}/router-admin`);
      expect(outcome.ok).toBe(true);
      expect(canary.paths.slice(before)).toEqual(['/router-admin']);
    } finally {
      await close();
    }
  });

  it('refuses the IPv6 spellings of a private IPv4 address, and link-local and metadata addresses under --allow-private', async () => {
    const strict = fetcherFor({ allowPrivate: false });
    try {
      for (const [name, address] of [
        ['mapped.forager-test.example', '::ffff:0:7f00:2'], // IPv4-translated 127.0.0.2
        ['nat64-local.forager-test.example', '64:ff9b:1::7f00:2'], // NAT64 local-use prefix
        ['v4mapped.forager-test.example', '::ffff:127.0.0.2'],
      ] as const) {
        answers.set(name, [address]);
        const outcome = await strict.fetcher.fetch(`http://${name}:${canary.port}/`);
        expect(outcome.ok, name).toBe(false);
        if (!outcome.ok) expect(outcome.detail, name).toMatch(/is at .*, a private address/);
      }
      expect(strict.net.refused()).toBe(3);
    } finally {
      await strict.close();
    }
    const before = canary.connections;
    const open = fetcherFor({ allowPrivate: true });
    try {
      for (const [name, address, words] of [
        ['link.forager-test.example', '169.254.7.7', 'link-local'],
        ['imds.forager-test.example', '169.254.169.254', 'cloud metadata'],
        ['imds6.forager-test.example', 'fd00:ec2::254', 'cloud metadata'],
      ] as const) {
        answers.set(name, [address]);
        const outcome = await open.fetcher.fetch(`http://${name}:${canary.port}/`);
        expect(outcome.ok, name).toBe(false);
        if (!outcome.ok) expect(outcome.detail, name).toContain(words);
      }
      expect(open.net.refused()).toBe(3);
      // allowPrivate does allow a private address.
      expect((await open.fetcher.fetch(`http://router.forager-test.example:${canary.port}/ok`)).ok).toBe(true);
      expect(canary.connections).toBe(before + 1);
    } finally {
      await open.close();
    }
  });

  it('skips the refused addresses of a name that has several, and uses an allowed one', async () => {
    answers.set('several.forager-test.example', ['169.254.169.254', '127.0.0.1']);
    const served = web.paths.length;
    const { fetcher, net, close } = fetcherFor({ allowPrivate: 'loopback' });
    try {
      const outcome = await fetcher.fetch(`http://several.forager-test.example:${web.port}/x`);
      expect(outcome.ok).toBe(true);
      expect(web.paths.slice(served)).toEqual(['/x']);
      expect(net.refused()).toBe(0);
    } finally {
      await close();
    }
  });
});

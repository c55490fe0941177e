/**
 * Wildcard DNS against the extension's address guard in Chrome, which learns a request's address only once it is
 * answered: a stand-in for Chrome's fetch answers every name under the attacker's domains from 127.0.0.2 and reports
 * the address as webRequest would. Without HostAdmission each such name costs a request (its robots.txt); with it,
 * one per registrable domain and per referring page.
 */
import { describe, expect, it } from 'vitest';
import { AddressGuard } from '../../lib/app/adapters/address-guard';
import { describeRefusedHosts, HostAdmission } from '../../lib/app/adapters/host-admission';
import { createCrawl, createFetcher, type PageFetcher } from '../../lib/engine';

const PUBLIC_IP = '93.184.216.34';
const PRIVATE_IP = '127.0.0.2';

const page = (links: string[]) =>
  `<!DOCTYPE html><html lang="en"><head><title>router admin guide</title></head><body><main><p>router admin guide</p>${links
    .map((l, i) => `<a href="${l}">router admin ${i}</a>`)
    .join(' ')}</main></body></html>`;

/**
 * Chrome, played: every request is answered at once from the address `ipOf` gives its host; the guard hears the
 * address afterwards (onResponseStarted). `sent` lists every request with the address it reached.
 */
function chromeStandIn(ipOf: (host: string) => string, body: (url: URL) => string | null) {
  const sent: { url: string; ip: string }[] = [];
  let guard: AddressGuard | undefined;
  let id = 0;
  const fetchFn = (async (input: RequestInfo | URL) => {
    const url = String(input);
    const u = new URL(url);
    const ip = ipOf(u.hostname);
    sent.push({ url, ip });
    const requestId = String(++id);
    const text = u.pathname === '/robots.txt' ? null : body(u);
    const response = new Response(text ?? '', {
      status: text === null ? 404 : 200,
      headers: { 'content-type': 'text/html' },
    });
    setTimeout(() => {
      guard?.report({ requestId, url, phase: 'sent' });
      guard?.report({ requestId, url, phase: 'response', ip, statusCode: response.status });
    }, 1);
    return response;
  }) as typeof fetch;
  return {
    sent,
    privateRequests: () => sent.filter((s) => s.ip === PRIVATE_IP).length,
    attach: (g: AddressGuard) => {
      guard = g;
    },
    fetch: fetchFn,
  };
}

/** A crawl as the background runs it, with or without HostAdmission. */
async function crawlThrough(
  seeds: string[],
  ipOf: (host: string) => string,
  body: (url: URL) => string | null,
  admitted: boolean,
) {
  const chrome = chromeStandIn(ipOf, body);
  const admission = new HostAdmission(seeds);
  const guard = new AddressGuard({
    policy: {},
    fetch: chrome.fetch,
    onBan: (ban) => admission.privateAnswer(ban.host, ban.detail),
  });
  chrome.attach(guard);
  const raw = admitted ? admission.guardFetch(guard.fetch) : guard.fetch;
  const base = createFetcher({ fetch: raw, politenessDelayMs: 0, respectRobots: true, urlPolicy: {} });
  const fetcher: PageFetcher = admitted ? admission.guardFetcher(base) : base;
  const crawl = createCrawl({
    topic: { keywords: 'router admin' },
    seeds,
    strategy: { name: 'breadth-first' },
    limits: { maxPages: 500, maxBuffer: 1000, retries: 0 },
    fetcher,
  });
  for await (const _ of crawl.events()) {
    // every event: the crawl runs to its end
  }
  base.close();
  return { chrome, admission };
}

describe('HostAdmission: wildcard DNS in Chrome', () => {
  const ipOf = (host: string) => (host.endsWith('.example') && host !== 'news.example' ? PRIVATE_IP : PUBLIC_IP);

  it('one page linking 40 names of one wildcard domain and 40 of 40 domains: 1 request reaches loopback (80 without)', async () => {
    const links = [
      ...Array.from({ length: 40 }, (_, i) => `http://h${i}.wild.example/admin`),
      ...Array.from({ length: 40 }, (_, i) => `http://x.wild${i}.example/admin`),
    ];
    const body = (u: URL) => (u.hostname === 'news.example' ? page(links) : page([]));
    const seeds = ['http://news.example/'];
    const before = await crawlThrough(seeds, ipOf, body, false);
    expect(before.chrome.privateRequests()).toBe(80);
    const after = await crawlThrough(seeds, ipOf, body, true);
    expect(after.chrome.privateRequests()).toBe(1);
    const refused = after.admission.report();
    expect(refused).toMatchObject({ privateAddress: 1, notContacted: 79 });
    expect(describeRefusedHosts(refused)).toBe(
      'Refused 1 host name at private addresses; 79 host names of the same domains or linking pages not contacted.',
    );
  });

  it('ten pages each linking ten names of one wildcard domain: 1 request (100 without)', async () => {
    const pages = Array.from({ length: 10 }, (_, p) => `http://news.example/p${p}`);
    const body = (u: URL) => {
      if (u.hostname !== 'news.example') return page([]);
      if (u.pathname === '/') return page(pages);
      const p = u.pathname.slice(2);
      return page(Array.from({ length: 10 }, (_, i) => `http://p${p}n${i}.wild.example/`));
    };
    const seeds = ['http://news.example/'];
    expect((await crawlThrough(seeds, ipOf, body, false)).chrome.privateRequests()).toBe(100);
    expect((await crawlThrough(seeds, ipOf, body, true)).chrome.privateRequests()).toBe(1);
  });

  it('the bound: pages each linking a name of a domain of its own cost one request each (one per page and domain)', async () => {
    const pages = Array.from({ length: 5 }, (_, p) => `http://news.example/p${p}`);
    const body = (u: URL) => {
      if (u.hostname !== 'news.example') return page([]);
      if (u.pathname === '/') return page(pages);
      const p = u.pathname.slice(2);
      return page([`http://a.evil${p}.example/`, `http://b.evil${p}.example/`, `http://a.other${p}.example/`]);
    };
    const seeds = ['http://news.example/'];
    expect((await crawlThrough(seeds, ipOf, body, false)).chrome.privateRequests()).toBe(15);
    expect((await crawlThrough(seeds, ipOf, body, true)).chrome.privateRequests()).toBe(5);
  });

  it('public hosts are crawled as before: new hosts at public addresses are all reached', async () => {
    const links = Array.from({ length: 12 }, (_, i) => `http://s${i}.public.test/`);
    const body = (u: URL) => (u.hostname === 'news.example' ? page(links) : page([]));
    const seeds = ['http://news.example/'];
    const after = await crawlThrough(seeds, () => PUBLIC_IP, body, true);
    const pagesReached = new Set(after.chrome.sent.filter((s) => !s.url.endsWith('/robots.txt')).map((s) => s.url));
    expect(pagesReached.size).toBe(13);
    expect(after.admission.report()).toMatchObject({ privateAddress: 0, notContacted: 0 });
  });

  it('a seed host that answers privately is refused too, and closes its domain', async () => {
    const admission = new HostAdmission(['http://seed.example/']);
    admission.privateAnswer('seed.example', 'seed.example is at 127.0.0.2');
    const fetchFn = admission.guardFetch((async () => new Response('')) as unknown as typeof fetch);
    await expect(fetchFn('http://seed.example/')).rejects.toThrow('seed.example is at 127.0.0.2');
    await expect(fetchFn('http://other.seed.example/')).rejects.toThrow(/not contacted: seed\.example, of the same domain/);
  });
});

/**
 * The extension's private-network rules under Node: the start form's consent (lib/app/settings.ts: a private seed
 * host is crawled only when ticked, metadata addresses never) and the address guard (lib/app/address-guard.ts) driven
 * the way the background drives it, with a fake browser fetch and the reports webRequest would send.
 */
import { describe, expect, it } from 'vitest';
import {
  AddressGuard,
  AddressRefusedError,
  isOwnRequest,
  type RequestReport,
  toReport,
  WATCH_FILTER,
} from '../../lib/app/address-guard';
import { crawlPolicy, privateSeedHosts, validateStart } from '../../lib/app/settings';
import { createCrawl, createFetcher, type PageFetcher, type SkipRecord } from '../../lib/engine';

const START = { topic: 'home network', source: { kind: 'serp' as const, engine: 'bing', query: 'x' } };

describe('private seeds need the user to tick them', () => {
  // A page made itself a results page full of private "results".
  const privateResults = [
    'http://192.168.1.1/cgi-bin/reboot',
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[fd00:ec2::254]/latest/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://127.0.0.1:631/admin',
    'http://router.local/',
    'http://10.0.0.138:8080/',
    ...Array.from({ length: 493 }, (_, i) => `http://10.1.${i >> 8}.${i & 255}/`),
  ];

  it('lists every private, loopback, link-local and metadata seed host once, with host and port; metadata cannot be ticked', () => {
    const listed = privateSeedHosts(['https://example.com/', ...privateResults, 'http://192.168.1.1/other']);
    expect(listed.length).toBe(privateResults.length);
    expect(listed.slice(0, 7)).toEqual([
      { host: '192.168.1.1', kind: 'private', tickable: true },
      { host: '169.254.169.254', kind: 'metadata', tickable: false },
      { host: '[fd00:ec2::254]', kind: 'metadata', tickable: false },
      { host: 'metadata.google.internal', kind: 'metadata', tickable: false },
      { host: '127.0.0.1:631', kind: 'loopback', tickable: true },
      { host: 'router.local', kind: 'private', tickable: true },
      { host: '10.0.0.138:8080', kind: 'private', tickable: true },
    ]);
  });

  it('refuses to start a crawl whose every seed is private and unticked, naming the hosts', () => {
    const r = validateStart({ ...START, seeds: privateResults });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(/^Every start page is on your own network or this computer \(192\.168\.1\.1, 169\.254\.169\.254/);
      expect(r.error).toContain('and 495 more');
      expect(r.error).toContain('Tick the ones Forager may crawl');
    }
    const metadataOnly = validateStart({
      ...START,
      seeds: ['http://169.254.169.254/'],
      settings: { privateHosts: ['169.254.169.254'] },
    });
    expect(metadataOnly).toMatchObject({ ok: false, error: expect.stringMatching(/never fetches cloud metadata addresses/) });
  });

  it('keeps only ticked, tickable private seed hosts; a public seed crawls without the unticked private ones', () => {
    const seeds = ['https://example.com/', ...privateResults.slice(0, 7)];
    const ticked = ['192.168.1.1', '169.254.169.254', '[fd00:ec2::254]', '127.0.0.1:631', '10.9.9.9'];
    const r = validateStart({ ...START, seeds, settings: { privateHosts: ticked } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.settings.privateHosts).toEqual(['192.168.1.1', '127.0.0.1:631']);
    const policy = crawlPolicy(r.value.seeds, r.value.settings);
    expect(policy.privateHosts).toEqual(['192.168.1.1', '127.0.0.1:631']);
    const none = validateStart({ ...START, seeds });
    expect(none.ok && none.value.settings.privateHosts).toEqual([]);
    expect(none.ok && crawlPolicy(none.value.seeds, none.value.settings).privateHosts).toBeUndefined();
  });

  it('an unticked private seed is a recorded skip and is never fetched; the public seed is', async () => {
    const seeds = ['https://example.com/', 'http://192.168.1.1/cgi-bin/reboot', 'http://169.254.169.254/latest/'];
    const r = validateStart({ ...START, seeds, settings: { privateHosts: ['169.254.169.254'] } });
    if (!r.ok) throw new Error(r.error);
    const policy = crawlPolicy(r.value.seeds, r.value.settings);
    const fetched: string[] = [];
    // The fetcher owns the crawl's URL rules; the crawl applies them to its seeds too.
    const fetcher: PageFetcher = {
      urlPolicy: policy,
      fetch: async (url) => {
        fetched.push(url);
        return { ok: false, url, reason: 'http-error', detail: 'HTTP 404', status: 404, elapsedMs: 0 };
      },
    };
    const crawl = createCrawl({
      topic: { keywords: 'home network' },
      seeds: r.value.seeds,
      strategy: { name: 'breadth-first' },
      limits: { maxPages: 5 },
      fetcher,
    });
    const recorded: SkipRecord[] = [];
    for await (const event of crawl.events()) if (event.type === 'skip') recorded.push(event.skip);
    expect(fetched).toEqual(['https://example.com/']);
    const skips = recorded.filter((s) => s.reason === 'url-refused');
    expect(skips.map((s) => s.url).sort()).toEqual(['http://169.254.169.254/latest/', 'http://192.168.1.1/cgi-bin/reboot']);
    expect(skips.find((s) => s.url.includes('169.254'))?.detail).toContain('cloud metadata');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The address guard

/** A fake browser: fetch() answers from a table; the test plays webRequest by calling guard.report. */
function fakeBrowser() {
  const calls: string[] = [];
  let nextId = 1;
  const pending: { url: string; id: string; resolve(r: Response): void; reject(e: unknown): void; signal?: AbortSignal }[] = [];
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const url = String(input);
      calls.push(url);
      const entry = { url, id: String(nextId++), resolve, reject, signal: init?.signal ?? undefined };
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      pending.push(entry);
    });
  return {
    calls,
    fetch: fetchFn as typeof fetch,
    /** The oldest request not answered yet (waits for one to be made). */
    async next(): Promise<(typeof pending)[number]> {
      for (let i = 0; i < 100 && pending.length === 0; i++) await new Promise((r) => setTimeout(r, 1));
      const p = pending.shift();
      if (!p) throw new Error('no request was made');
      return p;
    },
    pendingCount: () => pending.length,
  };
}

const html = () => new Response('<!DOCTYPE html><title>x</title>', { status: 200, headers: { 'content-type': 'text/html' } });
const settle = () => new Promise((r) => setTimeout(r, 5));

/** What Chrome reports for a request answered by `ip` (onBeforeRequest, then onResponseStarted). */
function answered(guard: AddressGuard, id: string, url: string, ip: string): void {
  guard.report({ requestId: id, url, phase: 'sent' });
  guard.report({ requestId: id, url, phase: 'response', ip, statusCode: 200 });
}

describe('AddressGuard (the extension: webRequest ip reports, Firefox dns screening)', () => {
  it('refuses a response from a private address, drops it, bans the host name, and sends nothing more to it', async () => {
    const browser = fakeBrowser();
    const bans: string[] = [];
    const guard = new AddressGuard({ policy: { allowPrivate: false }, fetch: browser.fetch, onBan: (b) => bans.push(b.host) });
    const first = guard.fetch('http://127-0-0-2.example-dns.net/robots.txt');
    const req = await browser.next();
    req.resolve(html());
    answered(guard, req.id, req.url, '127.0.0.2');
    await expect(first).rejects.toThrow(AddressRefusedError);
    await expect(first).rejects.toThrow('127-0-0-2.example-dns.net is at 127.0.0.2, a private address (loopback: this computer)');
    expect(bans).toEqual(['127-0-0-2.example-dns.net']);
    // Any port, any path: refused before it is sent.
    await expect(guard.fetch('http://127-0-0-2.example-dns.net:8080/admin')).rejects.toThrow(/is at 127\.0\.0\.2/);
    expect(browser.calls).toEqual(['http://127-0-0-2.example-dns.net/robots.txt']);
  });

  it('sends one request at a time to a host name not yet seen answering; the others wait for its verdict', async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: {}, fetch: browser.fetch });
    const a = guard.fetch('http://rebind.example/robots.txt');
    const b = guard.fetch('http://rebind.example:8080/robots.txt');
    const c = guard.fetch('http://other.example/');
    const first = await browser.next();
    const other = await browser.next();
    await settle();
    expect(browser.calls).toEqual(['http://rebind.example/robots.txt', 'http://other.example/']); // b waits
    first.resolve(html());
    answered(guard, first.id, first.url, '10.0.0.1');
    other.resolve(html());
    answered(guard, other.id, other.url, '93.184.216.34');
    await expect(a).rejects.toThrow(/rebind\.example is at 10\.0\.0\.1/);
    await expect(b).rejects.toThrow(/rebind\.example is at 10\.0\.0\.1/);
    expect((await c).status).toBe(200);
    expect(browser.calls.length).toBe(2); // b was never sent
  });

  it('after a public answer, requests to the name run in parallel, and each one is still checked (rebinding)', async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: {}, fetch: browser.fetch });
    const first = guard.fetch('http://site.example/robots.txt');
    const r1 = await browser.next();
    r1.resolve(html());
    answered(guard, r1.id, r1.url, '93.184.216.34');
    expect((await first).status).toBe(200);
    const p2 = guard.fetch('http://site.example/a');
    const p3 = guard.fetch('http://site.example/b');
    const r2 = await browser.next();
    const r3 = await browser.next();
    expect([r2.url, r3.url]).toEqual(['http://site.example/a', 'http://site.example/b']);
    r2.resolve(html());
    answered(guard, r2.id, r2.url, '192.168.0.1'); // the name now points into the user's network
    await expect(p2).rejects.toThrow(/site\.example is at 192\.168\.0\.1/);
    await expect(p3).rejects.toThrow(/site\.example is at 192\.168\.0\.1/); // in flight: aborted
    await expect(guard.fetch('http://site.example/c')).rejects.toThrow(AddressRefusedError);
    expect(browser.calls.length).toBe(3);
  });

  it('fails closed when the browser does not say which address answered', async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: {}, fetch: browser.fetch, reportTimeoutMs: 30 });
    const p = guard.fetch('http://quiet.example/');
    (await browser.next()).resolve(html());
    await expect(p).rejects.toThrow('the browser did not say which address answered for quiet.example');
  });

  it('allows a named private host and port at a private address, not the same name on another port', async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: { privateHosts: ['nas.example:8080'] }, fetch: browser.fetch });
    const ok = guard.fetch('http://nas.example:8080/');
    const r1 = await browser.next();
    r1.resolve(html());
    answered(guard, r1.id, r1.url, '192.168.1.5');
    expect((await ok).status).toBe(200);
    const other = guard.fetch('http://nas.example:22/');
    const r2 = await browser.next();
    r2.resolve(html());
    answered(guard, r2.id, r2.url, '192.168.1.5');
    await expect(other).rejects.toThrow(/nas\.example is at 192\.168\.1\.5/);
  });

  it("turns a manual redirect's opaque response into a 3xx with the Location the browser reported (Chrome and Firefox)", async () => {
    const opaque = () => Object.defineProperty(new Response(null, { status: 200 }), 'type', { value: 'opaqueredirect' });
    for (const browserKind of ['chrome', 'firefox'] as const) {
      const browser = fakeBrowser();
      const guard = new AddressGuard({ policy: {}, fetch: browser.fetch });
      const p = guard.fetch('http://a.example/old');
      const r = await browser.next();
      r.resolve(opaque());
      guard.report({ requestId: r.id, url: r.url, phase: 'sent' });
      if (browserKind === 'chrome') {
        // Chrome: onBeforeRedirect (ip, redirectUrl), then onErrorOccurred (net::ERR_ABORTED: not followed).
        guard.report({
          requestId: r.id,
          url: r.url,
          phase: 'redirect',
          ip: '93.184.216.34',
          statusCode: 301,
          location: 'http://b.example/new',
        });
        guard.report({ requestId: r.id, url: r.url, phase: 'error' });
      } else {
        // Firefox: onHeadersReceived (ip, Location header, maybe relative), then onResponseStarted.
        guard.report(
          toReport('headers', {
            requestId: r.id,
            url: r.url,
            tabId: -1,
            ip: '93.184.216.34',
            statusCode: 301,
            responseHeaders: [{ name: 'Location', value: '/new' }],
          }),
        );
        guard.report({ requestId: r.id, url: r.url, phase: 'response', ip: '93.184.216.34', statusCode: 301 });
      }
      const response = await p;
      expect(response.status, browserKind).toBe(301);
      expect(response.headers.get('location'), browserKind).toBe(
        browserKind === 'chrome' ? 'http://b.example/new' : 'http://a.example/new',
      );
    }
  });

  it('a redirect the browser follows itself (the fallback when no Location was reported) is refused at a private hop', async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: {}, fetch: browser.fetch });
    const p = guard.fetch('http://public.example/go', { redirect: 'follow' });
    const r = await browser.next();
    r.resolve(html());
    // Chrome: the first hop's redirect (public), then the second hop's answer, under the same request id.
    guard.report({ requestId: r.id, url: r.url, phase: 'redirect', ip: '93.184.216.34', location: 'http://lan.example/admin' });
    guard.report({ requestId: r.id, url: 'http://lan.example/admin', phase: 'response', ip: '192.168.1.1', statusCode: 200 });
    await expect(p).rejects.toThrow('lan.example is at 192.168.1.1');
    expect(guard.banned().map((b) => b.host)).toEqual(['lan.example']);
  });

  it("with the engine's fetcher: a redirect onto a name that resolves privately costs one GET /robots.txt and no page request", async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: {}, fetch: browser.fetch });
    const fetcher = createFetcher({ fetch: guard.fetch, politenessDelayMs: 0, respectRobots: true, urlPolicy: {} });
    const outcome = fetcher.fetch('http://public.example/go');
    const answer = async (url: string, ip: string, response: Response, location?: string) => {
      const r = await browser.next();
      expect(r.url).toBe(url);
      r.resolve(response);
      guard.report({ requestId: r.id, url: r.url, phase: 'sent' });
      if (location) {
        guard.report({ requestId: r.id, url: r.url, phase: 'redirect', ip, statusCode: 302, location });
        guard.report({ requestId: r.id, url: r.url, phase: 'error' });
      } else guard.report({ requestId: r.id, url: r.url, phase: 'response', ip, statusCode: response.status });
    };
    const opaque = () => Object.defineProperty(new Response(null, { status: 200 }), 'type', { value: 'opaqueredirect' });
    await answer('http://public.example/robots.txt', '93.184.216.34', new Response('', { status: 404 }));
    await answer('http://public.example/go', '93.184.216.34', opaque(), 'http://router.example-dns.net/cgi-bin/reboot?now=1');
    await answer('http://router.example-dns.net/robots.txt', '192.168.1.1', new Response('', { status: 404 }));
    const result = await outcome;
    expect(result.ok).toBe(false);
    expect(browser.calls).toEqual([
      'http://public.example/robots.txt',
      'http://public.example/go',
      'http://router.example-dns.net/robots.txt', // the one request the router got: not the page the redirect chose
    ]);
    expect(browser.pendingCount()).toBe(0);
    expect(guard.banned().map((b) => b.host)).toEqual(['router.example-dns.net']);
    fetcher.close();
  });

  it('Firefox: screens a request before it is sent with the resolved addresses; refused ones are cancelled and banned', async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: { allowPrivate: 'loopback' }, fetch: browser.fetch });
    const resolve = async (host: string) =>
      ({ 'lan.example': ['10.0.0.7'], 'mixed.example': ['93.184.216.34', '192.168.1.1'], 'self.example': ['127.0.0.1'] })[
        host
      ] ?? ['93.184.216.34'];
    const p = guard.fetch('http://lan.example/');
    const r = await browser.next();
    // The blocking onBeforeRequest listener runs first and cancels: the fetch fails with a network error.
    expect(await guard.screen(r.id, r.url, resolve)).toEqual({
      ok: false,
      detail: 'lan.example is at 10.0.0.7, a private address (a private network or a local name)',
    });
    r.reject(new TypeError('NetworkError when attempting to fetch resource.'));
    await expect(p).rejects.toThrow('lan.example is at 10.0.0.7');
    expect((await guard.screen('x1', 'http://mixed.example/', resolve)).ok).toBe(false); // any refused address refuses
    expect(await guard.screen('x2', 'http://self.example/', resolve)).toEqual({ ok: true }); // loopback allowed here
    expect(await guard.screen('x3', 'http://[::ffff:a00:7]/', resolve)).toMatchObject({ ok: false }); // a literal
    expect(await guard.screen('x4', 'http://lan.example:8080/', resolve)).toMatchObject({ ok: false }); // banned name
    const failing = async () => {
      throw new Error('NS_ERROR_UNKNOWN_HOST');
    };
    expect(await guard.screen('x5', 'http://nowhere.example/', failing)).toMatchObject({
      ok: false,
      detail: expect.stringContaining('could not be resolved'),
    });
  });

  it("a Firefox proxy's address is not the server's: proxied reports are not judged by their ip", async () => {
    const browser = fakeBrowser();
    const guard = new AddressGuard({ policy: {}, fetch: browser.fetch });
    const p = guard.fetch('http://site.example/');
    const r = await browser.next();
    r.resolve(html());
    guard.report(toReport('sent', { requestId: r.id, url: r.url, tabId: -1 }));
    guard.report(
      toReport('response', {
        requestId: r.id,
        url: r.url,
        tabId: -1,
        ip: '127.0.0.1',
        proxyInfo: { host: '127.0.0.1', port: 3128 },
      }),
    );
    expect((await p).status).toBe(200);
  });

  it("listens to the extension's own requests only: outside tabs, from its own origin", () => {
    expect(WATCH_FILTER.tabId).toBe(-1);
    const own = 'chrome-extension://abcdefghijklmnop';
    expect(isOwnRequest({ requestId: '1', url: 'http://x/', tabId: -1, initiator: own }, own)).toBe(true);
    expect(isOwnRequest({ requestId: '1', url: 'http://x/', tabId: -1, initiator: 'chrome-extension://other' }, own)).toBe(false);
    expect(isOwnRequest({ requestId: '1', url: 'http://x/', tabId: 3, initiator: own }, own)).toBe(false);
    expect(isOwnRequest({ requestId: '1', url: 'http://x/', tabId: -1 }, own)).toBe(false);
    const ff = 'moz-extension://6b1c9d52-3f0e-4a57-9a3d-5f3c2b7e9a10';
    expect(
      isOwnRequest({ requestId: '1', url: 'http://x/', tabId: -1, originUrl: `${ff}/_generated_background_page.html` }, ff),
    ).toBe(true);
    const report: RequestReport = toReport('redirect', {
      requestId: '7',
      url: 'http://x/',
      tabId: -1,
      ip: '::1',
      statusCode: 302,
      redirectUrl: 'http://y/',
    });
    expect(report).toEqual({
      requestId: '7',
      url: 'http://x/',
      phase: 'redirect',
      ip: '::1',
      statusCode: 302,
      location: 'http://y/',
    });
  });
});

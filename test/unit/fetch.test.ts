import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../lib/engine/clock';
import { createFetcher, DEFAULT_MAX_BYTES, type FetcherOptions } from '../../lib/engine/fetch/fetcher';
import { PolitenessScheduler } from '../../lib/engine/fetch/scheduler';
import { runOnVirtualClock } from '../../harness/virtual-time';
import { looksLikeHtml, parseRetryAfter } from '../../lib/engine/fetch/http';
import type { FetchFailure, FetchSuccess } from '../../lib/engine/types';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface TestServer {
  base: string;
  /** Request log: path and server-side start/end timestamps. */
  log: { path: string; start: number; end: number; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A loopback server whose routes are a map path -> handler; every request is logged with timestamps. */
async function startServer(routes: Record<string, Handler>): Promise<TestServer> {
  const log: TestServer['log'] = [];
  const server = http.createServer((req, res) => {
    const entry = { path: req.url ?? '', start: Date.now(), end: 0, headers: req.headers };
    log.push(entry);
    res.on('finish', () => (entry.end = Date.now()));
    res.on('close', () => (entry.end ||= Date.now()));
    const path = (req.url ?? '/').split('?')[0];
    const handler = routes[path];
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const html =
  (body: string, headers: http.OutgoingHttpHeaders = {}): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };
const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) => {
    res.writeHead(status, { location });
    res.end('moved');
  };
const robotsTxt =
  (text: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(text);
  };

/** Streams `total` bytes of HTML in 64 KB chunks, honouring backpressure and stopping when the client goes away. */
const bigPage =
  (total: number): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let gone = false;
    res.on('close', () => (gone = true));
    const pump = () => {
      while (!gone && sent < total) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!gone) res.end();
    };
    pump();
  };

const PAGE = '<!doctype html><html><head><title>Hello</title></head><body><p>Hello world</p></body></html>';
const LAST_MODIFIED = 'Wed, 21 Oct 2015 07:28:00 GMT';

let main: TestServer;
const trickleTimers: ReturnType<typeof setInterval>[] = [];

beforeAll(async () => {
  main = await startServer({
    '/robots.txt': robotsTxt('User-agent: Forager\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n'),
    '/page': html(PAGE, { 'last-modified': LAST_MODIFIED }),
    '/xhtml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xhtml+xml' });
      res.end('<html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>');
    },
    '/big': bigPage(10 * 1024 * 1024),
    '/binary': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 97 + 13) % 256)));
    },
    '/image': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(50_000, 1));
    },
    '/pdf': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.4');
    },
    '/untyped-html': (_req, res) => {
      res.writeHead(200); // Node sends no Content-Type unless told
      res.end('\ufeff \n  <!DOCTYPE html><html><body>sniffed</body></html>');
    },
    '/untyped-binary': (_req, res) => {
      res.writeHead(200);
      res.end('%PDF-1.4 not html at all');
    },
    '/chain1': redirect('/chain2', 301),
    '/chain2': redirect('chain3?utm_source=x', 307),
    '/chain3': redirect('/page', 308),
    '/loop-a': redirect('/loop-b'),
    '/loop-b': redirect('/loop-a'),
    '/to-private': redirect('http://10.0.0.1/'),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/to-robots-blocked': redirect('/private/secret'),
    '/no-location': (_req, res) => {
      res.writeHead(302);
      res.end();
    },
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`/hop${i}`, redirect(`/hop${i + 1}`)])),
    '/hop8': html(PAGE),
    '/hang': () => {
      /* never answers */
    },
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<');
      const timer = setInterval(() => res.write('x'), 1000);
      trickleTimers.push(timer);
      res.on('close', () => clearInterval(timer));
    },
    '/missing': (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>gone</html>');
    },
    '/broken': (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
    },
    '/busy': (_req, res) => {
      res.writeHead(429, { 'retry-after': '7', 'content-type': 'text/html' });
      res.end('slow down');
    },
    '/private/secret': html(PAGE),
  });
});

afterAll(async () => {
  for (const timer of trickleTimers) clearInterval(timer);
  await main.close();
});

/** Paths the main server saw since log index `from`, robots.txt left out. */
const pagePaths = (from: number) =>
  main.log
    .slice(from)
    .map((e) => e.path)
    .filter((p) => p !== '/robots.txt');

const loopback: FetcherOptions = {
  urlPolicy: { allowPrivate: true, allowedHosts: ['127.0.0.1'] },
  politenessDelayMs: 0,
};

function expectFailure(outcome: unknown, reason: FetchFailure['reason']): FetchFailure {
  const failure = outcome as FetchFailure;
  expect(failure.ok, JSON.stringify(failure)).toBe(false);
  expect(failure.reason, failure.detail).toBe(reason);
  return failure;
}

function expectSuccess(outcome: unknown): FetchSuccess {
  const success = outcome as FetchSuccess;
  expect(success.ok, JSON.stringify({ ...success, body: undefined })).toBe(true);
  return success;
}

describe('createFetcher against a loopback server', () => {
  it('fetches a normal page with status, Content-Type, Last-Modified and timing', async () => {
    const fetcher = createFetcher(loopback);
    const outcome = expectSuccess(await fetcher.fetch(`${main.base}/page`));
    expect(outcome.url).toBe(`${main.base}/page`);
    expect(outcome.finalUrl).toBe(`${main.base}/page`);
    expect(outcome.status).toBe(200);
    expect(outcome.contentType).toBe('text/html; charset=utf-8');
    expect(outcome.lastModified).toBe(LAST_MODIFIED);
    expect(new TextDecoder().decode(outcome.body)).toBe(PAGE);
    expect(outcome.truncated).toBe(false);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(0);
    const request = main.log.findLast((e) => e.path === '/page')!;
    expect(request.headers['user-agent']).toBe('Forager/0.1 (+personal topical crawler)');
    expect(request.headers.accept).toBe('text/html,application/xhtml+xml;q=0.9,*/*;q=0.1');
    expect(request.headers.cookie).toBeUndefined();
    expect(fetcher.stats()).toMatchObject({ fetches: 1, succeeded: 1, inFlight: 0, queued: 0 });
  });

  it('accepts application/xhtml+xml', async () => {
    const fetcher = createFetcher(loopback);
    expectSuccess(await fetcher.fetch(`${main.base}/xhtml`));
  });

  it('cuts a 10 MB page at the byte cap', async () => {
    const fetcher = createFetcher({ ...loopback, maxBytes: 100 * 1024 });
    const outcome = expectSuccess(await fetcher.fetch(`${main.base}/big`));
    expect(outcome.truncated).toBe(true);
    expect(outcome.body.byteLength).toBe(100 * 1024);
    expect(fetcher.stats().bytes).toBe(100 * 1024);
  });

  it('keeps 1 MiB of a page by default', async () => {
    expect(DEFAULT_MAX_BYTES).toBe(1024 * 1024);
    const fetcher = createFetcher(loopback);
    const outcome = expectSuccess(await fetcher.fetch(`${main.base}/big`));
    expect(outcome.truncated).toBe(true);
    expect(outcome.body.byteLength).toBe(DEFAULT_MAX_BYTES);
  });

  it('returns binary served as text/html (judging it is the evaluator’s job)', async () => {
    const fetcher = createFetcher(loopback);
    const outcome = expectSuccess(await fetcher.fetch(`${main.base}/binary`));
    expect(outcome.body.byteLength).toBe(4096);
  });

  it('refuses non-HTML Content-Types without keeping the body', async () => {
    const fetcher = createFetcher(loopback);
    const png = expectFailure(await fetcher.fetch(`${main.base}/image`), 'not-html');
    expect(png.detail).toContain('image/png');
    expect(png.status).toBe(200);
    expectFailure(await fetcher.fetch(`${main.base}/pdf`), 'not-html');
    expect(fetcher.stats().bytes).toBe(0);
  });

  it('sniffs a missing Content-Type both ways', async () => {
    const fetcher = createFetcher(loopback);
    const sniffed = expectSuccess(await fetcher.fetch(`${main.base}/untyped-html`));
    expect(sniffed.contentType).toBeUndefined();
    expect(new TextDecoder().decode(sniffed.body)).toContain('sniffed');
    expectFailure(await fetcher.fetch(`${main.base}/untyped-binary`), 'not-html');
  });

  it('follows a redirect chain, canonicalizing each hop', async () => {
    const fetcher = createFetcher(loopback);
    const before = main.log.length;
    const outcome = expectSuccess(await fetcher.fetch(`${main.base}/chain1`));
    expect(outcome.url).toBe(`${main.base}/chain1`);
    expect(outcome.finalUrl).toBe(`${main.base}/page`);
    expect(new TextDecoder().decode(outcome.body)).toBe(PAGE);
    // The tracking parameter of the second hop was dropped by canonicalization.
    expect(pagePaths(before)).toEqual(['/chain1', '/chain2', '/chain3', '/page']);
  });

  it('detects a redirect loop', async () => {
    const fetcher = createFetcher(loopback);
    const failure = expectFailure(await fetcher.fetch(`${main.base}/loop-a`), 'redirect');
    expect(failure.detail).toContain('loop');
  });

  it('stops after maxRedirects', async () => {
    const fetcher = createFetcher({ ...loopback, maxRedirects: 5 });
    const before = main.log.length;
    const failure = expectFailure(await fetcher.fetch(`${main.base}/hop0`), 'redirect');
    expect(failure.detail).toContain('more than 5 redirects');
    expect(pagePaths(before)).toEqual(['/hop0', '/hop1', '/hop2', '/hop3', '/hop4', '/hop5']);
    // With a higher limit the same chain (8 hops) succeeds.
    const lenient = createFetcher({ ...loopback, maxRedirects: 8 });
    expectSuccess(await lenient.fetch(`${main.base}/hop0`));
  });

  it('treats a redirect without Location as a redirect failure', async () => {
    const fetcher = createFetcher(loopback);
    expectFailure(await fetcher.fetch(`${main.base}/no-location`), 'redirect');
  });

  it('refuses redirects to private and metadata addresses without contacting them', async () => {
    const contacted: string[] = [];
    const spy: typeof fetch = (input, init) => {
      const url = String(input);
      contacted.push(url);
      if (url.includes('10.0.0.1') || url.includes('169.254.169.254')) throw new Error(`contacted ${url}`);
      return fetch(input, init);
    };
    const fetcher = createFetcher({ ...loopback, fetch: spy });
    const a = expectFailure(await fetcher.fetch(`${main.base}/to-private`), 'redirect');
    expect(a.detail).toContain('10.0.0.1');
    const b = expectFailure(await fetcher.fetch(`${main.base}/to-metadata`), 'redirect');
    expect(b.detail).toContain('169.254.169.254');
    expect(contacted.some((u) => u.includes('10.0.0.1') || u.includes('169.254.169.254'))).toBe(false);
  });

  it('times out a server that never answers', async () => {
    const fetcher = createFetcher({ ...loopback, timeoutMs: 300 });
    const failure = expectFailure(await fetcher.fetch(`${main.base}/hang`), 'timeout');
    expect(failure.detail).toBe('timeout after 300 ms');
    // Another attempt may get an answer: the crawl loop retries it.
    expect(failure.transient).toBe(true);
  });

  it('times out a server that trickles a byte a second', async () => {
    const fetcher = createFetcher({ ...loopback, timeoutMs: 1500 });
    expect(expectFailure(await fetcher.fetch(`${main.base}/trickle`), 'timeout').transient).toBe(true);
  });

  it('reports 404 and 500 as http-error', async () => {
    const fetcher = createFetcher(loopback);
    const notFound = expectFailure(await fetcher.fetch(`${main.base}/missing`), 'http-error');
    expect(notFound).toMatchObject({ status: 404, detail: 'HTTP 404' });
    expect(notFound.transient).toBeUndefined();
    const broken = expectFailure(await fetcher.fetch(`${main.base}/broken`), 'http-error');
    expect(broken).toMatchObject({ status: 500, detail: 'HTTP 500', transient: true });
  });

  it('honours Retry-After on 429 by resting the origin, without retrying the URL', async () => {
    // Time on a virtual clock that only moves when told: the rest is observed without spending it.
    const clock = new VirtualClock(Date.now());
    const fetcher = createFetcher({ ...loopback, clock });
    const before = main.log.length;
    const busy = expectFailure(await fetcher.fetch(`${main.base}/busy`), 'http-error');
    expect(busy).toMatchObject({ status: 429, detail: 'HTTP 429, Retry-After 7 s', transient: true });
    const refusedAt = clock.now();
    expect(fetcher.isReady!(`${main.base}/page`)).toBe(false);
    expect(fetcher.nextReadyAt!()).toBe(refusedAt + 7000);
    const page = fetcher.fetch(`${main.base}/page`);
    // The request waits for the clock: the origin's rest is the only timer set.
    expect(clock.nextTimerAt()).toBe(refusedAt + 7000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pagePaths(before)).toEqual(['/busy']);
    clock.fireNext();
    expectSuccess(await page);
    expect(pagePaths(before)).toEqual(['/busy', '/page']);
  });

  it('refuses paths robots.txt disallows for its user agent, and everything for another agent', async () => {
    const fetcher = createFetcher(loopback);
    const failure = expectFailure(await fetcher.fetch(`${main.base}/private/secret`), 'robots');
    expect(failure.detail).toContain('robots.txt');
    expectFailure(await fetcher.fetch(`${main.base}/to-robots-blocked`), 'robots');
    const other = createFetcher({ ...loopback, userAgent: 'OtherBot/1.0' });
    expectFailure(await other.fetch(`${main.base}/page`), 'robots');
    const ignoring = createFetcher({ ...loopback, respectRobots: false });
    expectSuccess(await ignoring.fetch(`${main.base}/private/secret`));
    expect(main.log.filter((e) => e.path === '/private/secret')).toHaveLength(1);
  });

  it('fetches robots.txt once per origin even for concurrent requests', async () => {
    const fetcher = createFetcher({ ...loopback, maxInFlight: 4, maxPerSite: 4 });
    const before = main.log.length;
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => fetcher.fetch(`${main.base}/page`)));
    for (const outcome of outcomes) expectSuccess(outcome);
    expect(main.log.slice(before).filter((e) => e.path === '/robots.txt')).toHaveLength(1);
    expect(fetcher.stats().robotsRequests).toBe(1);
  });

  it('refuses bad URLs with url-refused', async () => {
    const fetcher = createFetcher(loopback);
    expectFailure(await fetcher.fetch('not a url'), 'url-refused');
    expectFailure(await fetcher.fetch('ftp://127.0.0.1/x'), 'url-refused');
    expectFailure(await fetcher.fetch(`${main.base}/photo.jpg`), 'url-refused');
  });
});

describe('politeness', () => {
  let slowA: TestServer;
  let slowB: TestServer;
  const slowPage: Handler = (_req, res) => {
    setTimeout(() => html(PAGE)(_req, res), 40);
  };

  beforeAll(async () => {
    slowA = await startServer({ '/robots.txt': robotsTxt('User-agent: *\nCrawl-delay: 0.3\n'), '/p': slowPage });
    slowB = await startServer({ '/robots.txt': robotsTxt('User-agent: *\nAllow: /\n'), '/p': slowPage });
  });
  afterAll(async () => {
    await slowA.close();
    await slowB.close();
  });

  it('never overlaps requests to one origin and spaces them by the crawl-delay', async () => {
    const fetcher = createFetcher({
      urlPolicy: { allowPrivate: true },
      politenessDelayMs: 100,
      maxInFlight: 6,
    });
    const outcomes = await Promise.all([1, 2, 3, 4].map((i) => fetcher.fetch(`${slowA.base}/p?i=${i}`)));
    for (const outcome of outcomes) expectSuccess(outcome);
    const pages = slowA.log.filter((e) => e.path.startsWith('/p'));
    expect(pages).toHaveLength(4);
    for (let i = 1; i < pages.length; i++) {
      // Lower bound for correctness (not a speed check): the next start is at least the delay after the previous end.
      expect(pages[i].start - pages[i - 1].end).toBeGreaterThanOrEqual(300 - 5);
    }
  });

  it('uses politenessDelayMs when it is larger than the crawl-delay', async () => {
    const fetcher = createFetcher({ urlPolicy: { allowPrivate: true }, politenessDelayMs: 250, maxInFlight: 6 });
    const before = slowB.log.filter((e) => e.path.startsWith('/p')).length;
    await Promise.all([1, 2, 3].map((i) => fetcher.fetch(`${slowB.base}/p?k=${i}`)));
    const pages = slowB.log.filter((e) => e.path.startsWith('/p')).slice(before);
    expect(pages).toHaveLength(3);
    for (let i = 1; i < pages.length; i++) expect(pages[i].start - pages[i - 1].end).toBeGreaterThanOrEqual(250 - 5);
  });

  it('does not let a delayed origin block another origin', async () => {
    const fetcher = createFetcher({ urlPolicy: { allowPrivate: true }, politenessDelayMs: 0, maxInFlight: 1 });
    const order: string[] = [];
    const a = [1, 2, 3].map((i) => fetcher.fetch(`${slowA.base}/p?o=${i}`).then(() => order.push(`a${i}`)));
    // Let the A requests queue up first (robots.txt of A is cached by now? not in this fetcher: it fetches it).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const b = fetcher.fetch(`${slowB.base}/p?o=b`).then(() => order.push('b'));
    await Promise.all([...a, b]);
    // A's later requests wait 300 ms each for the crawl-delay; B, although queued after them, goes first.
    expect(order.indexOf('b')).toBeLessThan(order.indexOf('a3'));
    expect(order.indexOf('b')).toBeLessThan(order.indexOf('a2'));
  });

  it('removes an aborted request from the queue without contacting the server', async () => {
    const fetcher = createFetcher({ urlPolicy: { allowPrivate: true }, politenessDelayMs: 0, maxPerSite: 1 });
    const first = fetcher.fetch(`${slowA.base}/p?q=first`);
    const controller = new AbortController();
    const queued = fetcher.fetch(`${slowA.base}/p?q=queued`, controller.signal);
    const third = fetcher.fetch(`${slowA.base}/p?q=third`);
    // Wait until the first request holds the origin's slot and the others are queued behind it.
    while (fetcher.stats().inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fetcher.stats().queued).toBe(2);
    controller.abort();
    const aborted = expectFailure(await queued, 'aborted');
    expect(aborted.elapsedMs).toBe(0);
    expectSuccess(await first);
    expectSuccess(await third);
    expect(slowA.log.some((e) => e.path === '/p?q=queued')).toBe(false);
    expect(fetcher.stats()).toMatchObject({ queued: 0, inFlight: 0 });
  });

  it('aborts a request in flight', async () => {
    const fetcher = createFetcher({ ...loopback, timeoutMs: 5000 });
    const controller = new AbortController();
    const pending = fetcher.fetch(`${main.base}/hang`, controller.signal);
    while (!main.log.some((e) => e.path === '/hang' && e.end === 0)) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expectFailure(await pending, 'aborted');
  });

  it('close() aborts waiting and in-flight requests and refuses new ones', async () => {
    const fetcher = createFetcher({ ...loopback, timeoutMs: 5000 });
    const hanging = fetcher.fetch(`${main.base}/hang`);
    const waiting = fetcher.fetch(`${main.base}/page`);
    while (fetcher.stats().inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    fetcher.close();
    expect(expectFailure(await hanging, 'aborted').detail).toBe('fetcher closed');
    expectFailure(await waiting, 'aborted');
    expectFailure(await fetcher.fetch(`${main.base}/page`), 'aborted');
  });
});

describe('createFetcher with an injected fetch', () => {
  const okHtml = () => new Response('<html><body>ok</body></html>', { status: 200, headers: { 'content-type': 'text/html' } });

  it('sends credentials omit, no-store and manual redirects on every request', async () => {
    const inits: RequestInit[] = [];
    const spy: typeof fetch = async (_input, init) => {
      inits.push(init!);
      return okHtml();
    };
    const fetcher = createFetcher({ fetch: spy, respectRobots: false, politenessDelayMs: 0 });
    expectSuccess(await fetcher.fetch('https://example.org/a'));
    expect(inits).toHaveLength(1);
    expect(inits[0]).toMatchObject({ method: 'GET', credentials: 'omit', cache: 'no-store', redirect: 'manual' });
    expect((inits[0].headers as Record<string, string>).Accept).toBe('text/html,application/xhtml+xml;q=0.9,*/*;q=0.1');
    expect(inits[0].signal).toBeInstanceOf(AbortSignal);
  });

  it('refuses links to 10.0.0.1 and 169.254.169.254 without calling fetch (default policy)', async () => {
    const spy: typeof fetch = async (input) => {
      throw new Error(`fetch must not be called, got ${String(input)}`);
    };
    const fetcher = createFetcher({ fetch: spy });
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://localhost/']) {
      const failure = expectFailure(await fetcher.fetch(url), 'url-refused');
      expect(failure.detail).toContain('private');
    }
  });

  it('refuses a public page’s redirect to the metadata address (default policy)', async () => {
    const called: string[] = [];
    const spy: typeof fetch = async (input) => {
      const url = String(input);
      called.push(url);
      if (url === 'https://example.org/robots.txt') return new Response('', { status: 404 });
      if (url === 'https://example.org/go') {
        return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
      }
      throw new Error(`unexpected ${url}`);
    };
    const fetcher = createFetcher({ fetch: spy, politenessDelayMs: 0 });
    const failure = expectFailure(await fetcher.fetch('https://example.org/go'), 'redirect');
    expect(failure.detail).toContain('private host 169.254.169.254 (cloud metadata');
    expect(called).toEqual(['https://example.org/robots.txt', 'https://example.org/go']);
  });

  it('handles the browser’s opaque redirects by re-issuing with redirect: follow', async () => {
    const inits: RequestInit[] = [];
    const opaque = { type: 'opaqueredirect', status: 0, url: '', headers: new Headers(), body: null } as unknown as Response;
    const landed = (url: string) => {
      const response = okHtml();
      Object.defineProperty(response, 'url', { value: url });
      return response;
    };
    let target = 'https://example.org/landing';
    const spy: typeof fetch = async (_input, init) => {
      inits.push(init!);
      return init!.redirect === 'manual' ? opaque : landed(target);
    };
    const fetcher = createFetcher({ fetch: spy, respectRobots: false, politenessDelayMs: 0 });
    const outcome = expectSuccess(await fetcher.fetch('https://example.org/start'));
    expect(outcome.finalUrl).toBe('https://example.org/landing');
    expect(inits.map((i) => i.redirect)).toEqual(['manual', 'follow']);
    expect(inits[1]).toMatchObject({ credentials: 'omit', cache: 'no-store' });

    // A final URL the rules refuse is dropped unread.
    target = 'http://169.254.169.254/latest/meta-data/';
    expectFailure(await fetcher.fetch('https://example.org/start2'), 'redirect');
  });

  it('a followed redirect that fails on the way is a redirect skip saying why; its timeout is still a timeout', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, url: '', headers: new Headers(), body: null } as unknown as Response;
    let follow: () => Promise<Response> = async () => {
      throw new TypeError('Failed to fetch'); // what a browser rule blocking a hop looks like to fetch()
    };
    const spy: typeof fetch = async (_input, init) => (init!.redirect === 'manual' ? opaque : follow());
    const fetcher = createFetcher({ fetch: spy, respectRobots: false, politenessDelayMs: 0, timeoutMs: 200 });
    const failure = expectFailure(await fetcher.fetch('https://example.org/start'), 'redirect');
    expect(failure.detail).toContain('private host');
    expect(failure.detail).toContain('Failed to fetch');
    follow = () => new Promise<Response>(() => {});
    expectFailure(await fetcher.fetch('https://example.org/again'), 'timeout');
  });

  it('reports network errors and fetch implementations that throw synchronously', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    };
    const a = createFetcher({ fetch: refused, respectRobots: false });
    const failure = expectFailure(await a.fetch('https://example.org/'), 'network');
    expect(failure.detail).toContain('ECONNREFUSED');
    const sync = (() => {
      throw new Error('boom');
    }) as unknown as typeof fetch;
    const b = createFetcher({ fetch: sync, respectRobots: false });
    expectFailure(await b.fetch('https://example.org/'), 'network');
  });

  it('a site whose robots.txt cannot be fetched is reported unreachable (network / timeout), not as robots.txt refusing', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    };
    const down = expectFailure(
      await createFetcher({ fetch: refused, politenessDelayMs: 0 }).fetch('https://example.org/'),
      'network',
    );
    expect(down.detail).toContain('site unreachable');
    expect(down.detail).toContain('ECONNREFUSED');
    const never: typeof fetch = () => new Promise<Response>(() => {});
    const slow = createFetcher({ fetch: never, politenessDelayMs: 0, timeoutMs: 200 });
    // Not marked transient: the unreachable verdict is kept for minutes, so a retry would only fail again at once.
    expect(expectFailure(await slow.fetch('https://example.net/'), 'timeout').transient).toBeUndefined();
    expect(down.transient).toBeUndefined();
  });

  it('times out a fetch implementation that ignores its signal', async () => {
    const never: typeof fetch = () => new Promise<Response>(() => {});
    const fetcher = createFetcher({ fetch: never, respectRobots: false, timeoutMs: 200 });
    expectFailure(await fetcher.fetch('https://example.org/'), 'timeout');
  });

  it('honours Retry-After given as an HTTP date on 503', async () => {
    const base = Date.UTC(2025, 5, 1, 12);
    const clock = new VirtualClock(base);
    let calls = 0;
    const spy: typeof fetch = async () => {
      calls++;
      if (calls === 1) {
        return new Response('down', {
          status: 503,
          headers: { 'retry-after': new Date(base + 45_000).toUTCString(), 'content-type': 'text/html' },
        });
      }
      return okHtml();
    };
    const fetcher = createFetcher({ fetch: spy, respectRobots: false, politenessDelayMs: 0, clock });
    expectFailure(await runOnVirtualClock(clock, fetcher.fetch('https://example.org/a')), 'http-error');
    expectSuccess(await runOnVirtualClock(clock, fetcher.fetch('https://example.org/b')));
    expect(calls).toBe(2);
    expect(clock.now() - base).toBeGreaterThanOrEqual(45_000);
  });

  it('leaves a site alone that asks for a pause longer than 60 s, and never waits for it', async () => {
    // Before: a Retry-After of 999999 s parked the origin for 10 minutes, and every later round that held one of its
    // URLs waited that long. Now the site is not contacted again; its URLs fail at once, saying why.
    const clock = new VirtualClock(Date.UTC(2025, 5, 1));
    const calls: string[] = [];
    const spy: typeof fetch = async (input) => {
      calls.push(String(input));
      if (String(input).startsWith('https://slow.example/')) {
        return new Response('later', { status: 503, headers: { 'retry-after': '999999', 'content-type': 'text/html' } });
      }
      return okHtml();
    };
    const fetcher = createFetcher({ fetch: spy, respectRobots: false, politenessDelayMs: 1000, clock });
    const first = expectFailure(await runOnVirtualClock(clock, fetcher.fetch('https://slow.example/a')), 'http-error');
    expect(first.detail).toBe('HTTP 503, Retry-After 999999 s');
    // The site will not be asked again, so the URL has nothing to retry.
    expect(first.transient).toBeUndefined();
    const t0 = clock.now();
    expect(fetcher.isReady!('https://slow.example/b')).toBe(true);
    const second = expectFailure(await runOnVirtualClock(clock, fetcher.fetch('https://slow.example/b')), 'http-error');
    expect(second.detail).toMatch(/not contacted: the site asked for a pause of 999999 s \(Retry-After\), longer than the 60 s/);
    expectSuccess(await runOnVirtualClock(clock, fetcher.fetch('https://other.example/c')));
    expect(clock.now()).toBe(t0);
    expect(calls).toEqual(['https://slow.example/a', 'https://other.example/c']);
    expect(fetcher.stats().sitesLeftAlone).toBe(1);
  });
});

describe('helpers', () => {
  it('sniffs HTML like the WHATWG patterns', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(looksLikeHtml(enc('<!DOCTYPE html><p>'))).toBe(true);
    expect(looksLikeHtml(enc('\ufeff\n\t<HTML lang="en">'))).toBe(true);
    expect(looksLikeHtml(enc('  <head>'))).toBe(true);
    expect(looksLikeHtml(enc('<body>'))).toBe(true);
    expect(looksLikeHtml(enc('<htmlx>'))).toBe(false);
    expect(looksLikeHtml(enc('{"json": true}'))).toBe(false);
    expect(looksLikeHtml(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
    expect(looksLikeHtml(new Uint8Array(0))).toBe(false);
  });

  it('parses Retry-After', () => {
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:01:00 GMT', 0)).toBe(60_000);
    expect(parseRetryAfter('garbage', 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });
});

describe('the scheduler slows down slow sites when several requests per site are allowed', () => {
  /** Holds a slot of `origin` for `ms` of virtual time. */
  async function hold(scheduler: PolitenessScheduler, clock: VirtualClock, origin: string, ms: number) {
    const lease = await scheduler.acquire(origin);
    clock.advanceTo(clock.now() + ms);
    lease.release();
  }

  it('gives a site four times slower than the median one request at a time, and all slots back when it speeds up', async () => {
    const clock = new VirtualClock();
    const scheduler = new PolitenessScheduler({ maxInFlight: 8, maxPerSite: 8, clock });
    for (const origin of ['http://a', 'http://b', 'http://c']) await hold(scheduler, clock, origin, 40);
    expect(scheduler.perSiteLimit('http://slow')).toBe(8); // nothing known yet
    await hold(scheduler, clock, 'http://slow', 5000); // e.g. a timeout: the whole wait counts
    expect(scheduler.perSiteLimit('http://slow')).toBe(1);
    expect(scheduler.perSiteLimit('http://a')).toBe(8);
    const lease = await scheduler.acquire('http://slow');
    expect(scheduler.isReady('http://slow')).toBe(false);
    expect(scheduler.isReady('http://a')).toBe(true);
    lease.release();
    // Fast answers again: the moving average falls under the bar and the site gets its slots back.
    for (let i = 0; i < 20 && scheduler.perSiteLimit('http://slow') === 1; i++) {
      await hold(scheduler, clock, 'http://slow', 40);
    }
    expect(scheduler.perSiteLimit('http://slow')).toBe(8);
  });

  it('keeps every slot when all sites are slow, when the rule is off, and changes nothing with one request per site', async () => {
    const clock = new VirtualClock();
    const allSlow = new PolitenessScheduler({ maxInFlight: 8, maxPerSite: 8, clock });
    for (const origin of ['http://a', 'http://b', 'http://c']) await hold(allSlow, clock, origin, 3000);
    expect(allSlow.perSiteLimit('http://a')).toBe(8);
    const off = new PolitenessScheduler({ maxInFlight: 8, maxPerSite: 8, clock, slowSite: false });
    const polite = new PolitenessScheduler({ maxInFlight: 8, maxPerSite: 1, clock });
    for (const s of [off, polite]) {
      for (const origin of ['http://a', 'http://b', 'http://c']) await hold(s, clock, origin, 40);
      await hold(s, clock, 'http://slow', 5000);
    }
    expect(off.perSiteLimit('http://slow')).toBe(8);
    expect(polite.perSiteLimit('http://slow')).toBe(1);
    // A site under 250 ms is never slow, however fast the others are.
    const quick = new PolitenessScheduler({ maxInFlight: 8, maxPerSite: 8, clock });
    for (const origin of ['http://a', 'http://b', 'http://c']) await hold(quick, clock, origin, 5);
    await hold(quick, clock, 'http://d', 200);
    expect(quick.perSiteLimit('http://d')).toBe(8);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../lib/engine/clock';
import { RobotsCache, productToken } from '../../lib/engine/fetch/robots';
import { RobotsRules } from '../../lib/engine/fetch/robots-rules';

/** A fake fetch answering from a table url -> Response factory, recording every call. */
function fakeFetch(table: Record<string, () => Response | Promise<Response>>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn: typeof fetch = async (input, init) => {
    const url = String(input);
    calls.push({ url, init: init ?? {} });
    const make = table[url];
    if (!make) throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
    return make();
  };
  return { fn, calls };
}

const text =
  (body: string, status = 200) =>
  () =>
    new Response(body, { status, headers: { 'content-type': 'text/plain' } });
const moved =
  (location: string, status = 301) =>
  () =>
    new Response(null, { status, headers: { location } });

const ROBOTS = [
  '# comments are ignored',
  'User-agent: Forager',
  'Disallow: /private/',
  'Allow: /private/open',
  'Crawl-delay: 2.5',
  '',
  'User-agent: *',
  'Disallow: /',
].join('\n');

describe('RobotsCache rules', () => {
  it('applies the group of its product token, and * for other agents', async () => {
    const { fn, calls } = fakeFetch({ 'https://a.example/robots.txt': text(ROBOTS) });
    const robots = new RobotsCache({ fetch: fn });
    expect(await robots.isAllowed('https://a.example/page')).toBe(true);
    expect(await robots.isAllowed('https://a.example/private/x')).toBe(false);
    expect(await robots.isAllowed('https://a.example/private/open/y')).toBe(true);
    expect(await robots.isAllowed('https://a.example/page', 'OtherBot/2.0')).toBe(false);
    expect(await robots.crawlDelayMs('https://a.example/')).toBe(2500);
    expect(await robots.crawlDelayMs('https://a.example/', 'OtherBot')).toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0].init).toMatchObject({ credentials: 'omit', cache: 'no-store', redirect: 'manual' });
  });

  it('matches wildcards and end anchors', async () => {
    const { fn } = fakeFetch({ 'https://w.example/robots.txt': text('User-agent: *\nDisallow: /*.php$\nDisallow: /search?\n') });
    const robots = new RobotsCache({ fetch: fn });
    expect(await robots.isAllowed('https://w.example/index.php')).toBe(false);
    expect(await robots.isAllowed('https://w.example/index.php?x=1')).toBe(true);
    expect(await robots.isAllowed('https://w.example/search?q=1')).toBe(false);
    expect(await robots.isAllowed('https://w.example/searching')).toBe(true);
  });

  it('shares one request among concurrent callers of one origin', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { fn, calls } = fakeFetch({
      'https://c.example/robots.txt': async () => {
        await gate;
        return text('User-agent: *\nDisallow: /no\n')();
      },
    });
    const robots = new RobotsCache({ fetch: fn });
    const answers = Promise.all(
      Array.from({ length: 10 }, (_, i) => robots.isAllowed(`https://c.example/${i % 2 ? 'no' : 'yes'}/${i}`)),
    );
    release();
    expect(await answers).toEqual(Array.from({ length: 10 }, (_, i) => i % 2 === 0));
    expect(calls).toHaveLength(1);
  });

  it('keeps origins apart (scheme and port are part of the origin)', async () => {
    const { fn, calls } = fakeFetch({
      'https://o.example/robots.txt': text('User-agent: *\nDisallow: /\n'),
      'http://o.example/robots.txt': text('User-agent: *\nAllow: /\n'),
      'https://o.example:8443/robots.txt': text('', 404),
    });
    const robots = new RobotsCache({ fetch: fn });
    expect(await robots.isAllowed('https://o.example/x')).toBe(false);
    expect(await robots.isAllowed('http://o.example/x')).toBe(true);
    expect(await robots.isAllowed('https://o.example:8443/x')).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it('bounds the cache (LRU)', async () => {
    const { fn, calls } = fakeFetch({
      'https://1.example/robots.txt': text(''),
      'https://2.example/robots.txt': text(''),
      'https://3.example/robots.txt': text(''),
    });
    const robots = new RobotsCache({ fetch: fn, maxOrigins: 2 });
    await robots.isAllowed('https://1.example/');
    await robots.isAllowed('https://2.example/');
    await robots.isAllowed('https://1.example/'); // 1 is now the most recent
    await robots.isAllowed('https://3.example/'); // evicts 2
    expect(robots.size).toBe(2);
    await robots.isAllowed('https://1.example/');
    expect(calls.map((c) => c.url)).toEqual([
      'https://1.example/robots.txt',
      'https://2.example/robots.txt',
      'https://3.example/robots.txt',
    ]);
    await robots.isAllowed('https://2.example/');
    expect(calls).toHaveLength(4);
  });

  it('refuses non-http URLs', async () => {
    const robots = new RobotsCache({ fetch: fakeFetch({}).fn });
    expect(await robots.isAllowed('ftp://x.example/')).toBe(false);
    expect(await robots.isAllowed('::nonsense')).toBe(false);
  });

  it('derives the product token from a User-Agent', () => {
    expect(productToken('Forager/0.1 (+personal topical crawler)')).toBe('Forager');
    expect(productToken('Forager (+x)')).toBe('Forager');
    expect(productToken('')).toBe('*');
  });
});

describe('RobotsCache status codes (RFC 9309)', () => {
  it('4xx means unavailable: allow everything (401 and 403 included)', async () => {
    for (const status of [400, 401, 403, 404, 410]) {
      const { fn } = fakeFetch({ 'https://e.example/robots.txt': text('User-agent: *\nDisallow: /\n', status) });
      const robots = new RobotsCache({ fetch: fn });
      expect(await robots.isAllowed('https://e.example/x'), `HTTP ${status}`).toBe(true);
    }
  });

  it('5xx, 429 and network errors mean unreachable: disallow everything, for a short while only', async () => {
    const clock = new VirtualClock(1_000_000);
    let status = 503;
    const { fn, calls } = fakeFetch({ 'https://u.example/robots.txt': () => text('', status)() });
    const robots = new RobotsCache({ fetch: fn, clock, unreachableTtlMs: 5 * 60_000 });
    expect(await robots.isAllowed('https://u.example/x')).toBe(false);
    expect(await robots.status('https://u.example/')).toEqual({ kind: 'disallow-all', reason: 'http-error', detail: 'HTTP 503' });
    clock.advanceTo(clock.now() + 4 * 60_000);
    expect(await robots.isAllowed('https://u.example/x')).toBe(false);
    expect(calls).toHaveLength(1); // still cached
    clock.advanceTo(clock.now() + 2 * 60_000);
    status = 404;
    expect(await robots.isAllowed('https://u.example/x')).toBe(true); // expired and fetched again
    expect(calls).toHaveLength(2);

    const busy = new RobotsCache({ fetch: fakeFetch({ 'https://b.example/robots.txt': text('', 429) }).fn });
    expect(await busy.isAllowed('https://b.example/')).toBe(false);

    const down = new RobotsCache({ fetch: fakeFetch({}).fn });
    expect(await down.isAllowed('https://down.example/')).toBe(false);
    expect(await down.status('https://down.example/')).toMatchObject({
      kind: 'disallow-all',
      reason: 'network',
      detail: expect.stringContaining('ENOTFOUND'),
    });
  });

  it('caches a fetched robots.txt for ttlMs', async () => {
    const clock = new VirtualClock(0);
    const { fn, calls } = fakeFetch({ 'https://t.example/robots.txt': text('User-agent: *\nDisallow: /a\n') });
    const robots = new RobotsCache({ fetch: fn, clock, ttlMs: 1000 });
    await robots.isAllowed('https://t.example/a');
    clock.advanceTo(999);
    await robots.isAllowed('https://t.example/a');
    expect(calls).toHaveLength(1);
    clock.advanceTo(1000);
    await robots.isAllowed('https://t.example/a');
    expect(calls).toHaveLength(2);
  });

  it('follows up to 5 redirects; more means unavailable (allow)', async () => {
    const chain = (n: number) => {
      const table: Record<string, () => Response> = {};
      for (let i = 0; i < n; i++) table[`https://r.example/hop${i}`] = moved(`/hop${i + 1}`);
      table['https://r.example/robots.txt'] = moved('/hop0');
      table[`https://r.example/hop${n}`] = text('User-agent: *\nDisallow: /\n');
      return table;
    };
    // robots.txt -> hop0 -> ... -> hop4: 5 redirects, followed; the rules apply to the original origin.
    const five = new RobotsCache({ fetch: fakeFetch(chain(4)).fn });
    expect(await five.isAllowed('https://r.example/x')).toBe(false);
    const six = fakeFetch(chain(5));
    const tooMany = new RobotsCache({ fetch: six.fn });
    expect(await tooMany.isAllowed('https://r.example/x')).toBe(true);
    expect(await tooMany.status('https://r.example/')).toMatchObject({ detail: 'too many redirects' });
    expect(six.calls).toHaveLength(6);
  });

  it('applies robots.txt found on another host to the origin asked about', async () => {
    const { fn } = fakeFetch({
      'http://x.example/robots.txt': moved('https://www.x.example/robots.txt'),
      'https://www.x.example/robots.txt': text('User-agent: *\nDisallow: /secret\n'),
    });
    const robots = new RobotsCache({ fetch: fn });
    expect(await robots.isAllowed('http://x.example/secret')).toBe(false);
    expect(await robots.isAllowed('http://x.example/open')).toBe(true);
  });

  it('does not follow a robots.txt redirect to a private address', async () => {
    const { fn, calls } = fakeFetch({ 'https://p.example/robots.txt': moved('http://169.254.169.254/robots.txt') });
    const robots = new RobotsCache({ fetch: fn });
    expect(await robots.isAllowed('https://p.example/x')).toBe(true);
    expect(calls.map((c) => c.url)).toEqual(['https://p.example/robots.txt']);
  });

  it('handles the browser’s opaque redirects', async () => {
    const inits: RequestInit[] = [];
    const fn: typeof fetch = async (_input, init) => {
      inits.push(init!);
      if (init!.redirect === 'manual') {
        return { type: 'opaqueredirect', status: 0, url: '', headers: new Headers(), body: null } as unknown as Response;
      }
      const response = text('User-agent: *\nDisallow: /x\n')();
      Object.defineProperty(response, 'url', { value: 'https://www.q.example/robots.txt' });
      return response;
    };
    const robots = new RobotsCache({ fetch: fn });
    expect(await robots.isAllowed('https://q.example/x')).toBe(false);
    expect(inits.map((i) => i.redirect)).toEqual(['manual', 'follow']);
  });

  it('times out a robots.txt that never comes (unreachable)', async () => {
    const robots = new RobotsCache({ fetch: () => new Promise<Response>(() => {}), timeoutMs: 100 });
    expect(await robots.isAllowed('https://slow.example/')).toBe(false);
    expect(await robots.status('https://slow.example/')).toEqual({
      kind: 'disallow-all',
      reason: 'timeout',
      detail: 'timeout after 100 ms',
    });
  });
});

describe('RobotsCache against a loopback server', () => {
  let server: http.Server;
  let base: string;
  let served = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/robots.txt') {
        // 2 MB: a rule in the first 500 KB and one beyond it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('User-agent: *\nDisallow: /early\n');
        const filler = `# ${'x'.repeat(1000)}\n`;
        for (let written = 0; written < 600 * 1024; written += filler.length) res.write(filler);
        res.write('Disallow: /late\n');
        for (let written = 0; written < 1400 * 1024; written += filler.length) res.write(filler);
        res.end();
        served++;
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('parses the first 500 KB of a huge robots.txt and ignores the rest', async () => {
    const robots = new RobotsCache();
    expect(await robots.isAllowed(`${base}/early/x`)).toBe(false);
    expect(await robots.isAllowed(`${base}/late/x`)).toBe(true);
    expect(await robots.isAllowed(`${base}/other`)).toBe(true);
    expect(served).toBe(1);
  });
});

describe('RobotsRules (RFC 9309 matching)', () => {
  const allowed = (text: string, path: string, agent = 'Forager') =>
    new RobotsRules(text).isAllowed(`https://r.example${path}`, agent);

  it('the longest match wins, Allow wins a tie, and /robots.txt is always allowed', () => {
    const text = 'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\nAllow: /x\nDisallow: /x\nDisallow: /\n';
    expect(allowed(text, '/a/z')).toBe(false);
    expect(allowed(text, '/a/b/z')).toBe(true);
    expect(allowed(text, '/a/b/c/d')).toBe(false);
    expect(allowed(text, '/x')).toBe(true);
    expect(allowed(text, '/robots.txt')).toBe(true);
    expect(allowed('User-agent: *\nDisallow:\n', '/anything')).toBe(true);
  });

  it('matches * anywhere and $ at the end, on the percent-encoded path and query', () => {
    const text = 'User-agent: *\nDisallow: /*.php$\nDisallow: /*/private/*\nDisallow: /caf%c3%a9\nDisallow: /s?q=\n';
    expect(allowed(text, '/index.php')).toBe(false);
    expect(allowed(text, '/index.php?x')).toBe(true);
    expect(allowed(text, '/a/private/b')).toBe(false);
    expect(allowed(text, '/private/b')).toBe(true);
    expect(allowed(text, '/café')).toBe(false);
    expect(allowed(text, '/s?q=1')).toBe(false);
    expect(allowed(text, '/s?p=1')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /é\n', '/%C3%A9/x')).toBe(false);
  });

  it('obeys the groups naming its product token, merged, else the * groups; rules before any group count for none', () => {
    const text = [
      'Disallow: /orphan',
      'User-agent: forager',
      'User-agent: other',
      'Disallow: /one',
      'Crawl-delay: 3',
      'Sitemap: https://r.example/sitemap.xml',
      'User-agent: *',
      'Disallow: /star',
      'User-agent: Forager/2.0',
      'Disallow: /two',
    ].join('\n');
    const rules = new RobotsRules(text);
    expect(allowed(text, '/orphan')).toBe(true);
    expect(allowed(text, '/one')).toBe(false);
    expect(allowed(text, '/two')).toBe(false);
    expect(allowed(text, '/star')).toBe(true);
    expect(allowed(text, '/star', 'SomeBot')).toBe(false);
    expect(allowed(text, '/one', 'Other')).toBe(false);
    expect(rules.crawlDelaySeconds('Forager')).toBe(3);
    expect(rules.crawlDelaySeconds('SomeBot')).toBeUndefined();
  });

  it('keeps a group whole across crawl-delay, sitemap and unknown lines between its user-agent lines (RFC 9309 2.2.4)', () => {
    for (const other of ['Crawl-delay: 5', 'Sitemap: https://r.example/sitemap.xml', 'Request-rate: 1/10']) {
      const text = [
        'User-agent: Forager',
        other,
        'User-agent: OtherBot',
        'Disallow: /private',
        '',
        'User-agent: *',
        'Allow: /',
      ].join('\n');
      expect(allowed(text, '/private/x'), other).toBe(false);
      expect(allowed(text, '/private/x', 'OtherBot'), other).toBe(false);
      expect(allowed(text, '/public'), other).toBe(true);
    }
    const rules = new RobotsRules('User-agent: Forager\nCrawl-delay: 5\nUser-agent: OtherBot\nDisallow: /p\n');
    expect(rules.crawlDelaySeconds('Forager')).toBe(5);
    expect(rules.crawlDelaySeconds('OtherBot')).toBe(5);
  });

  it('normalizes percent-escapes in patterns as in the URL that will be requested (RFC 9309 2.2.2, 2.2.3)', () => {
    const text =
      'User-agent: *\nDisallow: /%7Euser/\nDisallow: /%7eother/\nDisallow: /a%2fb\nDisallow: /file-%2A.html\nDisallow: /price-%24\n';
    expect(allowed(text, '/~user/x')).toBe(false);
    expect(allowed(text, '/%7Euser/x')).toBe(false);
    expect(allowed(text, '/~other/x')).toBe(false);
    expect(allowed(text, '/a%2Fb')).toBe(false); // an escaped reserved character stays escaped, in any case of hex digits
    expect(allowed(text, '/a/b')).toBe(true); // and is not the character itself
    expect(allowed(text, '/file-*.html')).toBe(false); // %2A names a literal `*`
    expect(allowed(text, '/file-x.html')).toBe(true);
    expect(allowed(text, '/price-$')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /~user/\n', '/%7euser/x')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /a b\n', '/a%20b')).toBe(false);
  });

  it('reads lines as Google does: a forgotten colon, misspelled keys, a byte order mark', () => {
    expect(allowed('user-agent Forager\ndisallow /x\n', '/x/y')).toBe(false);
    expect(allowed('user-agent Forager\ndisallow /x y\n', '/x/y')).toBe(true); // three words: not a line
    expect(allowed('useragent: Forager\ndissallow: /a\ndisalow: /b\n', '/a')).toBe(false);
    expect(allowed('User agent: Forager\nDisallow: /b\n', '/b')).toBe(false);
    expect(allowed('\uFEFFUser-agent: Forager\nDisallow: /c\n', '/c')).toBe(false);
  });

  it('answers rightly on files built to be slow (the cost per URL is in bench/robots.ts and robots-matcher.test.ts)', () => {
    const stars = '*'.repeat(240_000);
    const hostile = [
      'User-agent: *',
      `Disallow: /${stars}`,
      `Disallow: /${stars}x$`,
      `Disallow: /${'a*'.repeat(1000)}b`,
      ...Array.from({ length: 2000 }, (_, i) => `Allow: /*${i}*q*`),
      `Disallow: /${'y'.repeat(5000)}`, // longer than the URLs the crawler fetches, but a URL of its own may be
    ].join('\n');
    const rules = new RobotsRules(hostile);
    expect(rules.ruleCount).toBe(2004);
    for (let i = 0; i < 20; i++) {
      expect(rules.isAllowed(`https://r.example/${'a'.repeat(1900)}${i}`, 'Forager')).toBe(false);
      expect(rules.isAllowed(`https://r.example/page${i}.html`, 'Forager')).toBe(false);
    }
    // The line of 240,000 `*` is the longest (RFC 9309 2.2.2 counts the octets as written, as Google does): it decides.
    expect(rules.isAllowed('https://r.example/p7q', 'Forager')).toBe(false);
    expect(new RobotsRules('User-agent: *\nDisallow: /*\nAllow: /*7*q*\n').isAllowed('https://r.example/p7q', 'Forager')).toBe(
      true,
    );
    expect(rules.isAllowed('https://r.example/zx', 'Forager')).toBe(false);
    expect(rules.isAllowed(`https://r.example/${'a'.repeat(1000)}b`, 'Forager')).toBe(false);
  });
});

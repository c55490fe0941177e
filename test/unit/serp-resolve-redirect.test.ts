import { describe, expect, it } from 'vitest';
import { isRedirectSeed, pageRedirectTarget, resolveRedirect, withRedirectSeeds } from '../../lib/app/serp/resolve-redirect';
import type { FetchOutcome, PageFetcher } from '../../lib/engine';

const BAIDU = 'https://www.baidu.com/link?url=jeV0NQCH2RHB4swmfQTDjb9z1LnCMKMH5WcZS56XvEr50j3ox9yERNH6CPGFYruc';
const SOGOU = 'https://www.sogou.com/link?url=hedJjaC291NbWrwHYHKCyPQj_ei8OKC13fJZ5YRQyu00_TbmjdcDqEbb2Eu4vY8U';

/** A fake fetch that records what it was asked and answers with `answer`. */
function fakeFetch(answer: (url: string) => Response) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, init });
    return answer(url);
  }) as typeof fetch;
  return { fn, calls };
}

const redirect = (location: string, status = 302) => new Response(null, { status, headers: { Location: location } });

describe('redirect seeds are resolved with one request, through the crawl fetch and its rules', () => {
  it('knows a known engine’s opaque redirect links, and nothing else', () => {
    expect(isRedirectSeed(BAIDU)).toBe(true);
    expect(isRedirectSeed(SOGOU)).toBe(true);
    expect(isRedirectSeed('https://www.baidu.com/s?wd=x')).toBe(false);
    expect(isRedirectSeed('https://www.baidu.com/link')).toBe(false);
    expect(isRedirectSeed('https://example.com/link?url=abcdefghijklmnopqrstuvwxyz')).toBe(false);
    expect(isRedirectSeed('not a url')).toBe(false);
  });

  it('reads the target from the Location of a 3xx: one GET, no cookies, no cache, redirect not followed', async () => {
    const { fn, calls } = fakeFetch(() => redirect('http://www.key668.cn/yuezi/'));
    expect(await resolveRedirect(BAIDU, { fetch: fn })).toEqual({ ok: true, url: 'http://www.key668.cn/yuezi/' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(BAIDU);
    expect(calls[0].init).toMatchObject({ method: 'GET', credentials: 'omit', cache: 'no-store', redirect: 'manual' });
  });

  it('reads a 200 page that moves on by itself: meta refresh, or a script’s location.replace', async () => {
    const meta = `<html><head><meta content="0;URL='https://example.org/a?b=1&amp;c=2'" http-equiv="refresh"></head></html>`;
    expect(pageRedirectTarget(meta)).toBe('https://example.org/a?b=1&c=2');
    const script = '<script>window.location.replace("https:\\/\\/example.org\\/x")</script><noscript>...</noscript>';
    const { fn } = fakeFetch(() => new Response(script, { status: 200, headers: { 'Content-Type': 'text/html' } }));
    expect(await resolveRedirect(SOGOU, { fetch: fn })).toEqual({ ok: true, url: 'https://example.org/x' });
    const { fn: nothing } = fakeFetch(() => new Response('<html><body>hello</body></html>', { status: 200 }));
    expect(await resolveRedirect(SOGOU, { fetch: nothing })).toEqual({ ok: false, detail: 'HTTP 200 names no target' });
  });

  it('never leads into the private network, nor to another redirect link, nor past an error', async () => {
    for (const target of ['http://192.168.1.1/admin', 'http://localhost:8080/', 'http://169.254.169.254/latest/meta-data']) {
      const { fn } = fakeFetch(() => redirect(target));
      const got = await resolveRedirect(BAIDU, { fetch: fn });
      expect(got.ok, target).toBe(false);
    }
    const { fn: loop } = fakeFetch(() => redirect(SOGOU));
    expect(await resolveRedirect(BAIDU, { fetch: loop })).toMatchObject({
      ok: false,
      detail: expect.stringContaining('another redirect'),
    });
    const { fn: missing } = fakeFetch(() => new Response('gone', { status: 404 }));
    expect(await resolveRedirect(BAIDU, { fetch: missing })).toEqual({ ok: false, detail: 'HTTP 404' });
    const { fn: bare } = fakeFetch(() => new Response(null, { status: 302 }));
    expect(await resolveRedirect(BAIDU, { fetch: bare })).toEqual({ ok: false, detail: 'HTTP 302 without Location' });
    // The crawl's own rules decide: a crawl of the user's network may go there.
    const { fn: lan } = fakeFetch(() => redirect('http://192.168.1.20/wiki'));
    expect(await resolveRedirect(BAIDU, { fetch: lan, policy: { privateHosts: ['192.168.1.20'] } })).toEqual({
      ok: true,
      url: 'http://192.168.1.20/wiki',
    });
  });

  it('a redirect link refused by the rules is never requested', async () => {
    const { fn, calls } = fakeFetch(() => redirect('https://example.org/'));
    const got = await resolveRedirect(BAIDU, { fetch: fn, policy: { allowedHosts: ['example.org'] } });
    expect(got.ok).toBe(false);
    expect(calls).toHaveLength(0);
  });

  it('a fetcher wrapped with withRedirectSeeds fetches the target in place of the redirect link', async () => {
    const asked: string[] = [];
    const inner: PageFetcher = {
      maxInFlight: 3,
      fetch: async (url): Promise<FetchOutcome> => {
        asked.push(url);
        return { ok: true, url, finalUrl: url, status: 200, body: new Uint8Array(), truncated: false, elapsedMs: 1 };
      },
    };
    const { fn } = fakeFetch(() => redirect('https://example.org/page'));
    const fetcher = withRedirectSeeds(inner, { fetch: fn });
    expect(fetcher.maxInFlight).toBe(3);
    const got = await fetcher.fetch(BAIDU);
    expect(got).toMatchObject({ ok: true, url: BAIDU, finalUrl: 'https://example.org/page' });
    expect(await fetcher.fetch('https://example.net/')).toMatchObject({ ok: true, finalUrl: 'https://example.net/' });
    expect(asked).toEqual(['https://example.org/page', 'https://example.net/']);
    const { fn: bad } = fakeFetch(() => redirect('http://10.0.0.1/'));
    const refused = await withRedirectSeeds(inner, { fetch: bad }).fetch(BAIDU);
    expect(refused).toMatchObject({ ok: false, reason: 'redirect', url: BAIDU });
  });
});

/**
 * The test web in memory, answering on a {@link Clock}: a `fetch` for the engine's fetcher that serves the generated
 * pages (and robots.txt) after a per-request latency counted on the clock's timers. With a VirtualClock nothing
 * waits for real, so a crawl of the test web under latency and politeness runs in a moment and the same way every
 * time (test/unit/clock.test.ts drives one). Browser-safe: no Node APIs.
 */
import type { Clock } from '../../lib/engine';
import { generateWeb, PRIVATE_PATH, renderPage, type GenerateOptions, type TestPage, type TestWeb } from './generate';

export interface MemoryWebOptions extends GenerateOptions {
  clock: Clock;
  /** Serve this web instead of generating one from the options. */
  web?: TestWeb;
  /** Milliseconds before the answer to a request (`n` counts the requests so far, from 0). Default 0. */
  latencyMs?: (site: string, url: string, n: number) => number;
}

export interface MemoryWeb {
  web: TestWeb;
  /** Site -> origin ('http://127.0.0.1:9000' for site0, ...: loopback, as the served test web). */
  origins: Record<string, string>;
  urlOf(page: TestPage | string): string;
  /** A fetch implementation (GET only; honours `signal`). */
  fetch: typeof fetch;
  /** Every request, in arrival order, with the clock time it arrived and the time it was answered. */
  requests: { url: string; site: string; at: number; answeredAt?: number }[];
}

const HTML = 'text/html; charset=utf-8';

/** Serves a generated web from memory on `clock`; see the module comment. */
export function memoryWeb(opts: MemoryWebOptions): MemoryWeb {
  const web = opts.web ?? generateWeb(opts);
  const clock = opts.clock;
  const latency = opts.latencyMs ?? (() => 0);
  const origins: Record<string, string> = {};
  const siteOf = new Map<string, string>();
  web.sites.forEach((site, i) => {
    origins[site] = `http://127.0.0.1:${9000 + i}`;
    siteOf.set(origins[site], site);
  });
  const originOf = (site: string) => origins[site];
  const rendered = new Map<string, string>();
  const requests: MemoryWeb['requests'] = [];

  const answer = (url: URL, site: string): Response => {
    const path = decodeURIComponent(url.pathname);
    if (path === '/robots.txt') {
      const body = site === web.privateSite ? 'User-agent: *\nDisallow: /private/\n' : 'User-agent: *\nAllow: /\n';
      return new Response(body, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    const page = site === web.privateSite && path === PRIVATE_PATH ? web.privatePage : web.pages.get(site + path);
    if (!page) return new Response('<!DOCTYPE html><title>404</title>', { status: 404, headers: { 'content-type': HTML } });
    let html = rendered.get(page.key);
    if (html === undefined) rendered.set(page.key, (html = renderPage(page, originOf)));
    return new Response(html, { status: 200, headers: { 'content-type': HTML, 'last-modified': page.lastModified } });
  };

  const fetchFn: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    const site = siteOf.get(url.origin);
    const signal = init?.signal ?? undefined;
    if (!site) return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    const log: MemoryWeb['requests'][number] = { url: url.href, site, at: clock.now() };
    const n = requests.length;
    requests.push(log);
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => {
        clock.clearTimer(timer);
        reject(signal?.reason ?? new Error('aborted'));
      };
      const timer = clock.setTimer(
        () => {
          signal?.removeEventListener('abort', onAbort);
          log.answeredAt = clock.now();
          resolve(answer(url, site));
        },
        latency(site, url.href, n),
      );
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  };

  return {
    web,
    origins,
    urlOf: (page) => {
      const key = typeof page === 'string' ? page : page.key;
      const slash = key.indexOf('/');
      return originOf(key.slice(0, slash)) + key.slice(slash);
    },
    fetch: fetchFn,
    requests,
  };
}

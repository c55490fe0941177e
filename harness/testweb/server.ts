/**
 * Serves a generated test web on 127.0.0.1: one HTTP server per site, so every site is its own origin (own port)
 * and per-origin politeness is observable. Logs every request (URL, time, headers) so tests can check that each
 * page was fetched once and no cookie was sent back (pages set one). Optionally serves links to hostile routes.
 *
 * Hostile routes (served on every site; linked from a few pages per topic when `hostile: true`):
 *   /hostile/big         10 MiB of on-topic HTML, streamed (chunked, honours backpressure)
 *   /hostile/binary      64 KiB of random bytes as text/html
 *   /hostile/notype      HTML without Content-Type
 *   /hostile/wrongtype   HTML served as image/png
 *   /hostile/cp1252      windows-1252 bytes (é = 0xE9); charset in the header, a lying <meta charset="utf-8"> in the page
 *   /hostile/sjis        Shift_JIS page, charset only in <meta>
 *   /hostile/loop-a      302 -> /hostile/loop-b -> 302 -> /hostile/loop-a
 *   /hostile/hang        never answers (close() destroys the socket)
 *   /hostile/trickle     an HTML page at 1 byte per second
 *   /hostile/404, /hostile/500
 *   /hostile/429         429 with Retry-After: 2; a retry at least 2 s after the refusal gets the page
 *   /hostile/links20k    20,000 links, 19,000 of them to /hostile/nowhere/N.html (404)
 *   /hostile/js-links    javascript:, mailto:, data:, tel: links (and two real ones)
 *   /hostile/calendar/Y/M  infinite calendar: previous/next month and /day/D links, ever deeper
 *   /hostile/malformed   unclosed tags, broken attributes, truncated mid-tag
 *   /hostile/internal    links to http://10.0.0.1/ and http://169.254.169.254/latest/meta-data/
 *   /hostile/to-private  302 to the `privateRedirect` URL (a private host; 404 when the option is not set)
 *   /private/secret.html on the private site: disallowed by robots.txt, served anyway (to catch impolite crawlers)
 *
 * Pages carry an ETag (a hash of their HTML) and a Last-Modified date, and answer conditional requests
 * (If-None-Match first, else If-Modified-Since, as RFC 9110 says) with 304 and no body. Between two crawls a test can
 * change a page's main text (`changePage`), touch only its footer (`touchPage`: new bytes and date, same main text)
 * and add new pages linked from an existing one's navigation (`addPage`), to see what a topic watch makes of it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../../lib/app/rules/text-safety';
import {
  generateWeb,
  paragraph,
  PRIVATE_PATH,
  renderPage,
  Mulberry32,
  type GenerateOptions,
  type TestPage,
  type TestTopic,
  type TestWeb,
} from './generate';

export interface RequestLog {
  /** Absolute URL as requested (origin + path + query). */
  url: string;
  site: string;
  method: string;
  /** Epoch ms when the request arrived. */
  time: number;
  /** How long the answer was held back (ms; Infinity: never answered). */
  delayMs?: number;
  headers: http.IncomingHttpHeaders;
}

/** How long a site waits before answering one request (ms): a number, or a per-request model; Infinity never answers. */
export type Latency = number | ((site: string, path: string) => number);

export interface StartOptions extends GenerateOptions {
  /** Serve this web instead of generating one from the options. */
  web?: TestWeb;
  /**
   * Wait this long before answering each request (or what the function says for the site and path; Infinity: hold
   * the request until close(), as a site that never answers). Default 0. See harness/testweb/latency.ts for models.
   */
  delayMs?: Latency;
  /** Render links to the hostile routes on some pages. Default false (the routes are served either way). */
  hostile?: boolean;
  /** First port; site i listens on port + i. Default 0 (an ephemeral port per site). */
  port?: number;
  /** Where /hostile/to-private redirects (a URL on a private host the crawler must not contact). */
  privateRedirect?: string;
  /**
   * Awaited before a request is answered (after `delayMs`; robots.txt is never held): a test holds answers until it
   * releases them (`ResponseGate` in ./gate.ts), which catches a crawl in a known state whatever the machine's speed.
   * `'drop'` closes the connection instead of answering.
   */
  hold?: (request: RequestLog) => Promise<'answer' | 'drop'> | undefined;
}

export interface RunningTestWeb {
  /** Site -> origin, e.g. { site0: 'http://127.0.0.1:40123' }. */
  origins: Record<string, string>;
  /** Absolute URL of a page (or page key). */
  urlOf(page: TestPage | string): string;
  /** URL of the portal page (links to every front page). */
  portalUrl: string;
  web: TestWeb;
  /** Every request received, in arrival order (robots.txt included). */
  requests: RequestLog[];
  /** How many requests this absolute URL received. */
  requestCount(url: string): number;
  /**
   * Changes a page's main text (a paragraph added at the end of its <main>) and its Last-Modified; its ETag changes
   * with its HTML. Returns the page's URL.
   */
  changePage(key: string, text?: string): string;
  /** Changes only a page's footer (a new "updated" date), as ads and dates do: new bytes, new ETag, same main text. */
  touchPage(key: string): string;
  /**
   * Adds an on-topic article on `from`'s site, linked from `from`'s navigation (boilerplate: `from`'s main text stays
   * as it was, its bytes do not). Returns the new page's URL.
   */
  addPage(from: string, slug: string): string;
  /** What each request was answered with, in the order of `requests` (status code; 0 while unanswered). */
  statuses: number[];
  /** Stops all servers, ending hanging and trickling responses. Idempotent. */
  close(): Promise<void>;
}

/** Size of /hostile/big. */
export const BIG_BYTES = 10 * 1024 * 1024;
/** Number of links on /hostile/links20k. */
export const LINKS20K = 20_000;

/** 天体観測と望遠鏡の入門。星空を楽しもう ("an introduction to stargazing and telescopes; enjoy the starry sky") in Shift_JIS. */
export const SJIS_PHRASE = '天体観測と望遠鏡の入門。星空を楽しもう';
const SJIS_PHRASE_BYTES = [
  0x93, 0x56, 0x91, 0xcc, 0x8a, 0xcf, 0x91, 0xaa, 0x82, 0xc6, 0x96, 0x5d, 0x89, 0x93, 0x8b, 0xbe, 0x82, 0xcc, 0x93, 0xfc, 0x96,
  0xe5, 0x81, 0x42, 0x90, 0xaf, 0x8b, 0xf3, 0x82, 0xf0, 0x8a, 0x79, 0x82, 0xb5, 0x82, 0xe0, 0x82, 0xa4,
];
/** The accented words /hostile/cp1252 carries (each é, è, û, ç one byte). */
export const CP1252_PHRASE = 'Café crème brûlée, façade, déjà vu';

const HTML = 'text/html; charset=utf-8';

/**
 * Starts the test web. Every site gets its own server on 127.0.0.1; links are rendered once the ports are known.
 * Always `await close()` (e.g. in afterAll).
 */
export async function startTestWeb(opts: StartOptions = {}): Promise<RunningTestWeb> {
  const web = opts.web ?? generateWeb(opts);
  const latency = opts.delayMs ?? 0;
  const delayOf = (site: string, path: string): number =>
    Math.max(0, typeof latency === 'number' ? latency : latency(site, path));
  const hostile = opts.hostile ?? false;
  const basePort = opts.port ?? 0;

  const origins: Record<string, string> = {};
  const originOf = (site: string) => {
    const o = origins[site];
    if (!o) throw new Error(`unknown site: ${site}`);
    return o;
  };
  const requests: RequestLog[] = [];
  const counts = new Map<string, number>();
  const rendered = new Map<string, string>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const refusedAt = new Map<string, number>();
  const statuses: number[] = [];
  /** Footer text per page key (touchPage), rendered after the page's own HTML. */
  const footers = new Map<string, string>();
  /** Last-Modified dates set by changes, one second apart from each other and from the generated ones. */
  let changes = 0;
  const changedDate = () => new Date(Date.UTC(2031, 0, 1) + ++changes * 1000).toUTCString();
  let closed = false;

  const topicOfSite = (site: string): TestTopic => {
    const id = Object.keys(web.primarySite).find((t) => web.primarySite[t] === site);
    return web.topics.find((t) => t.id === id) ?? web.topics[web.sites.indexOf(site) % web.topics.length];
  };
  const sitePages = (site: string) => [...web.pages.values()].filter((p) => p.site === site && p.kind === 'article');
  const servePage = (req: http.IncomingMessage, res: http.ServerResponse, page: TestPage) => {
    let html = rendered.get(page.key);
    if (html === undefined) {
      html = renderPage(page, originOf, { hostile });
      const footer = footers.get(page.key);
      if (footer) html = html.replace('</footer>', `<p>${escapeHtml(footer)}</p></footer>`);
      rendered.set(page.key, html);
    }
    const etag = `"${fnv1a(html).toString(16)}-${html.length.toString(16)}"`;
    const validators = { ETag: etag, 'Last-Modified': page.lastModified };
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    const notModified =
      ifNoneMatch !== undefined
        ? ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
        : ifModifiedSince !== undefined && Date.parse(page.lastModified) <= Date.parse(ifModifiedSince);
    if (notModified) {
      res.writeHead(304, validators);
      res.end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': HTML,
      ...validators,
      // A cookie the crawler must never send back (crawls omit credentials).
      'Set-Cookie': `forager_test=${page.site}; Path=/; SameSite=Lax`,
    });
    res.end(html);
  };
  const plain = (res: http.ServerResponse, status: number, title: string) => {
    res.writeHead(status, { 'Content-Type': HTML });
    res.end(
      `<!DOCTYPE html><html><head><title>${status} ${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1></body></html>`,
    );
  };
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
  };

  const handle = (site: string, req: http.IncomingMessage, res: http.ServerResponse) => {
    const origin = originOf(site);
    const url = origin + (req.url ?? '/');
    const delayMs = delayOf(site, (req.url ?? '/').split('?')[0]);
    const entry: RequestLog = { url, site, method: req.method ?? 'GET', time: Date.now(), delayMs, headers: { ...req.headers } };
    const index = requests.push(entry) - 1;
    statuses.push(0);
    res.on('finish', () => (statuses[index] = res.statusCode));
    counts.set(url, (counts.get(url) ?? 0) + 1);
    res.on('error', () => {}); // a client that vanishes mid-response is not our problem
    const go = () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' });
        res.end();
        return;
      }
      let path: string;
      try {
        path = decodeURIComponent(new URL(req.url ?? '/', origin).pathname);
      } catch {
        plain(res, 400, 'Bad request');
        return;
      }
      if (path === '/robots.txt') {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(site === web.privateSite ? 'User-agent: *\nDisallow: /private/\n' : 'User-agent: *\nAllow: /\n');
        return;
      }
      if (path.startsWith('/hostile/')) {
        serveHostile(path, site, url, res);
        return;
      }
      if (site === web.privateSite && path === PRIVATE_PATH) {
        servePage(req, res, web.privatePage);
        return;
      }
      const page = web.pages.get(site + path);
      if (page) servePage(req, res, page);
      else plain(res, 404, 'Not found');
    };
    const answer = () => {
      const held = opts.hold && !(req.url ?? '').startsWith('/robots.txt') ? opts.hold(entry) : undefined;
      if (!held) go();
      else
        void held.then((outcome) => {
          if (closed) return;
          if (outcome === 'drop') req.socket.destroy();
          else go();
        });
    };
    if (delayMs === Number.POSITIVE_INFINITY) return; // never answered; close() destroys the socket
    if (delayMs > 0) later(delayMs, answer);
    else answer();
  };

  const hostileCache = new Map<string, Buffer>();
  const cached = (key: string, make: () => Buffer) => {
    let b = hostileCache.get(key);
    if (!b) hostileCache.set(key, (b = make()));
    return b;
  };
  /** An on-topic HTML page for the site, with links to a few of its real pages. */
  const topicHtml = (site: string, title: string, extraHead = '', extraBody = '', linkCount = 3): string => {
    const topic = topicOfSite(site);
    const rng = new Mulberry32(web.seed ^ 0x5eed);
    const links = sitePages(site)
      .slice(0, linkCount)
      .map((p) => `<li><a href="${escapeHtml(p.path)}">${escapeHtml(p.title)}</a></li>`)
      .join('\n');
    return (
      `<!DOCTYPE html>\n<html lang="en">\n<head>${extraHead}<title>${escapeHtml(title)}</title></head>\n<body>\n<h1>${escapeHtml(title)}</h1>\n` +
      `<p>${paragraph(rng, topic, 0.5)}</p>\n${extraBody}<ul>\n${links}\n</ul>\n</body>\n</html>\n`
    );
  };

  const serveHostile = (path: string, site: string, url: string, res: http.ServerResponse) => {
    const topic = topicOfSite(site);
    switch (path) {
      case '/hostile/big':
        return streamBig(res, topic, web.seed);
      case '/hostile/binary': {
        const body = cached('binary', () => {
          const rng = new Mulberry32(web.seed ^ 0xb1);
          const b = Buffer.alloc(64 * 1024);
          for (let i = 0; i < b.length; i++) b[i] = rng.int(256);
          return b;
        });
        res.writeHead(200, { 'Content-Type': HTML });
        return void res.end(body);
      }
      case '/hostile/notype':
        res.writeHead(200); // no Content-Type at all
        return void res.end(topicHtml(site, `${topic.name} without a type`));
      case '/hostile/wrongtype':
        res.writeHead(200, { 'Content-Type': 'image/png' });
        return void res.end(topicHtml(site, `${topic.name} dressed as a picture`));
      case '/hostile/cp1252': {
        const html = topicHtml(site, `${topic.name} au café`, '<meta charset="utf-8">', `<p id="accents">${CP1252_PHRASE}</p>\n`);
        res.writeHead(200, { 'Content-Type': 'text/html; charset=windows-1252' });
        return void res.end(latin1(html));
      }
      case '/hostile/sjis': {
        const html = topicHtml(site, `${topic.name} in Japanese`, '<meta charset="Shift_JIS">', '<p id="ja">\u0000</p>\n');
        const [head, tail] = html.split('\u0000');
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return void res.end(
          Buffer.concat([Buffer.from(head, 'ascii'), Buffer.from(SJIS_PHRASE_BYTES), Buffer.from(tail, 'ascii')]),
        );
      }
      case '/hostile/loop-a':
      case '/hostile/loop-b':
        res.writeHead(302, { Location: path === '/hostile/loop-a' ? '/hostile/loop-b' : '/hostile/loop-a' });
        return void res.end();
      case '/hostile/hang':
        return; // never answer; close() destroys the socket
      case '/hostile/trickle':
        return trickle(res, topicHtml(site, `${topic.name}, slowly`));
      case '/hostile/404':
        return plain(res, 404, 'Not found');
      case '/hostile/500':
        return plain(res, 500, 'Internal server error');
      case '/hostile/429': {
        const at = refusedAt.get(url);
        if (at !== undefined && Date.now() - at >= 2000) {
          refusedAt.delete(url);
          res.writeHead(200, { 'Content-Type': HTML });
          return void res.end(topicHtml(site, `${topic.name}, after waiting`));
        }
        if (at === undefined) refusedAt.set(url, Date.now());
        res.writeHead(429, { 'Content-Type': HTML, 'Retry-After': '2' });
        return void res.end(
          '<!DOCTYPE html><html><head><title>429 Too Many Requests</title></head><body>Slow down.</body></html>',
        );
      }
      case '/hostile/links20k': {
        const body = cached(`links20k:${site}`, () => {
          const real = sitePages(site);
          const items: string[] = [];
          for (let i = 0; i < LINKS20K; i++) {
            const href = i % 20 === 0 && real.length > 0 ? real[(i / 20) % real.length].path : `/hostile/nowhere/${i}.html`;
            items.push(`<a href="${escapeHtml(href)}">${topic.vocabulary[i % topic.vocabulary.length]} ${i}</a>`);
          }
          return Buffer.from(topicHtml(site, `${topic.name} link farm`, '', `<p>${items.join('\n')}</p>\n`, 0));
        });
        res.writeHead(200, { 'Content-Type': HTML });
        return void res.end(body);
      }
      case '/hostile/js-links': {
        const bad = [
          'javascript:alert(1)',
          'JavaScript:void(0)',
          ' javascript:location.href="/private/secret.html"',
          'mailto:someone@example.com',
          'data:text/html,<a href=/hostile/404>x</a>',
          'tel:+15555550100',
          'ftp://127.0.0.1/file.txt',
          'about:blank',
        ];
        const items = bad
          .map((h) => `<a href="${escapeHtml(h)}">${topic.vocabulary[0]} ${escapeHtml(h.slice(0, 12))}</a>`)
          .join('\n');
        res.writeHead(200, { 'Content-Type': HTML });
        return void res.end(topicHtml(site, `${topic.name} scripts`, '', `<p>${items}</p>\n`, 2));
      }
      case '/hostile/malformed': {
        const real = sitePages(site).slice(0, 3);
        const html =
          `<html><head><title>${escapeHtml(topic.name)} <b>broken</title><body>\n<p>${topic.vocabulary.slice(0, 12).join(' ')}\n` +
          `<div><p>unclosed <b>bold <i>italic <a href="${escapeHtml(real[0]?.path ?? '/')}">${topic.vocabulary[1]} one</a>\n` +
          `<a href=${escapeHtml(real[1]?.path ?? '/')} class="x>${topic.vocabulary[2]} two</a>\n` +
          `<a href="${escapeHtml(real[2]?.path ?? '/')}"" title='odd>${topic.vocabulary[3]} three</a>\n` +
          `<table><tr><td>${topic.vocabulary.slice(12, 24).join(' ')}<td><a href="/hostile/404">\n` +
          `<script>document.write("<a href='/hostile/500'>")</script><!-- unterminated comment <a href="/x">\n` +
          `</div></div></span><p>${topic.vocabulary.slice(24, 36).join(' ')}</p>\n<a href="/about.html" <img src=x `;
        res.writeHead(200, { 'Content-Type': HTML });
        return void res.end(html); // truncated mid-tag on purpose
      }
      case '/hostile/to-private':
        if (!opts.privateRedirect) return plain(res, 404, 'Not found');
        res.writeHead(302, { Location: opts.privateRedirect });
        return void res.end();
      case '/hostile/internal': {
        const items = ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://192.168.1.1/admin']
          .map((h) => `<li><a href="${h}">${topic.vocabulary[0]} ${topic.vocabulary[1]} archive</a></li>`)
          .join('\n');
        res.writeHead(200, { 'Content-Type': HTML });
        return void res.end(topicHtml(site, `${topic.name} mirrors`, '', `<ul>\n${items}\n</ul>\n`));
      }
    }
    if (path.startsWith('/hostile/calendar/')) {
      const html = calendarHtml(path, topic);
      if (html !== null) {
        res.writeHead(200, { 'Content-Type': HTML });
        return void res.end(html);
      }
    }
    plain(res, 404, 'Not found');
  };

  const streamBig = (res: http.ServerResponse, topic: TestTopic, seed: number) => {
    const chunks = bigChunks(topic, seed);
    const head = Buffer.from(
      `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>All about ${topic.name}</title></head><body>\n`,
    );
    res.writeHead(200, { 'Content-Type': HTML });
    let sent = 0;
    let i = 0;
    let done = false;
    res.on('close', () => (done = true));
    const pump = () => {
      if (closed || done) return;
      if (sent === 0) {
        res.write(head);
        sent += head.length;
      }
      while (sent < BIG_BYTES) {
        const chunk = chunks[i++ % chunks.length];
        const part = sent + chunk.length > BIG_BYTES ? chunk.subarray(0, BIG_BYTES - sent) : chunk;
        sent += part.length;
        if (!res.write(part)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end('\n</body></html>\n');
    };
    pump();
  };

  const trickle = (res: http.ServerResponse, html: string) => {
    const bytes = Buffer.from(html);
    res.writeHead(200, { 'Content-Type': HTML });
    res.flushHeaders(); // headers now, body at a crawl
    let i = 0;
    const interval = setInterval(() => {
      if (closed || res.destroyed) {
        clearInterval(interval);
        timers.delete(interval);
        return;
      }
      res.write(bytes.subarray(i, i + 1));
      i++;
      if (i >= bytes.length) {
        clearInterval(interval);
        timers.delete(interval);
        res.end();
      }
    }, 1000);
    timers.add(interval);
    res.on('close', () => {
      clearInterval(interval);
      timers.delete(interval);
    });
  };

  // Start one server per site.
  const servers: http.Server[] = [];
  try {
    for (let i = 0; i < web.sites.length; i++) {
      const site = web.sites[i];
      const server = http.createServer((req, res) => handle(site, req, res));
      server.on('clientError', (_err, socket) => socket.destroy());
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(basePort === 0 ? 0 : basePort + i, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      origins[site] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  } catch (err) {
    for (const s of servers) s.close();
    throw err;
  }

  let closing: Promise<void> | null = null;
  const close = () => {
    if (closing) return closing;
    closed = true;
    for (const t of timers) clearTimeout(t as ReturnType<typeof setTimeout>);
    timers.clear();
    closing = Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            // Ends keep-alive, hanging and trickling connections right away.
            server.closeAllConnections();
          }),
      ),
    ).then(() => undefined);
    return closing;
  };

  const urlOf = (page: TestPage | string) => {
    const key = typeof page === 'string' ? page : page.key;
    const slash = key.indexOf('/');
    return originOf(key.slice(0, slash)) + key.slice(slash);
  };
  const pageOf = (key: string): TestPage => {
    const page = web.pages.get(key);
    if (!page) throw new Error(`no such page: ${key}`);
    return page;
  };

  return {
    origins,
    web,
    portalUrl: originOf(web.sites[0]) + web.pages.get(web.portal)!.path,
    requests,
    statuses,
    urlOf,
    changePage(key, text) {
      const page = pageOf(key);
      const topic = web.topics.find((t) => t.id === page.topic) ?? null;
      const rng = new Mulberry32(web.seed ^ (changes + 0x5ca1ab1e));
      page.blocks.push({ tag: 'p', parts: [text ?? paragraph(rng, topic, Math.max(0.3, page.strength))] });
      page.lastModified = changedDate();
      rendered.delete(key);
      return urlOf(key);
    },
    touchPage(key) {
      const page = pageOf(key);
      page.lastModified = changedDate();
      footers.set(key, `Page updated ${page.lastModified}.`);
      rendered.delete(key);
      return urlOf(key);
    },
    addPage(from, slug) {
      const source = pageOf(from);
      const topic = web.topics.find((t) => t.id === source.topic) ?? web.topics[0];
      const rng = new Mulberry32(web.seed ^ (web.pages.size + 0xadd));
      const key = `${source.site}/${topic.id}/${slug}.html`;
      if (web.pages.has(key)) throw new Error(`page exists: ${key}`);
      const title = `${topic.name}: ${topic.vocabulary[rng.int(topic.vocabulary.length)]} ${topic.vocabulary[rng.int(topic.vocabulary.length)]} news`;
      const page: TestPage = {
        key,
        site: source.site,
        path: key.slice(source.site.length),
        kind: 'article',
        topic: topic.id,
        strength: 0.6,
        cluster: source.cluster ?? 0,
        island: false,
        bridge: false,
        deadEnd: false,
        title,
        links: [from],
        anchors: [source.title],
        blocks: [
          { tag: 'p', parts: [paragraph(rng, topic, 0.6)] },
          { tag: 'p', parts: [paragraph(rng, topic, 0.6), ' ', { link: 0 }] },
        ],
        hostileLinks: [],
        baseHref: false,
        noindex: false,
        lastModified: changedDate(),
      };
      web.pages.set(key, page);
      const nav = source.blocks.find((b) => b.tag === 'nav');
      source.links.push(key);
      source.anchors.push(title);
      if (nav) nav.parts.push({ link: source.links.length - 1 });
      else source.blocks.unshift({ tag: 'nav', parts: [{ link: source.links.length - 1 }] });
      source.lastModified = changedDate();
      rendered.delete(from);
      return urlOf(key);
    },
    requestCount: (url) => counts.get(url) ?? 0,
    close,
  };
}

/** FNV-1a over the UTF-16 code units (the ETag of a page's HTML). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Encodes text whose characters are all below U+0100 one byte each (windows-1252 agrees with Latin-1 there). */
function latin1(text: string): Buffer {
  const b = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) throw new Error(`not encodable in windows-1252: ${text[i]}`);
    b[i] = c;
  }
  return b;
}

const bigCache = new Map<string, Buffer[]>();
/** Eight ~32 KiB chunks of on-topic paragraphs, cycled to fill /hostile/big. */
function bigChunks(topic: TestTopic, seed: number): Buffer[] {
  const key = `${topic.id}:${seed}`;
  let chunks = bigCache.get(key);
  if (chunks) return chunks;
  const rng = new Mulberry32(seed ^ 0xb16);
  chunks = [];
  for (let c = 0; c < 8; c++) {
    const parts: string[] = [];
    let size = 0;
    while (size < 32 * 1024) {
      const p = `<p>${paragraph(rng, topic, 0.5)}</p>\n`;
      parts.push(p);
      size += p.length;
    }
    chunks.push(Buffer.from(parts.join('')));
  }
  bigCache.set(key, chunks);
  return chunks;
}

/**
 * A page of the infinite calendar, or null if the path is not one: /hostile/calendar/YYYY/MM(/day/D)*.
 * Every page links to the previous and next month and to each day below itself, so URLs only get deeper.
 */
function calendarHtml(path: string, topic: TestTopic): string | null {
  const parts = path.split('/').filter(Boolean).slice(2); // drop 'hostile', 'calendar'
  if (parts.length < 2 || parts.length % 2 !== 0) return null;
  const year = Number(parts[0]);
  const month = Number(parts[1]);
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12 || year < 1 || year > 9999) return null;
  for (let i = 2; i < parts.length; i += 2) {
    const d = Number(parts[i + 1]);
    if (parts[i] !== 'day' || !Number.isInteger(d) || d < 1 || d > 31) return null;
  }
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const prev = month === 1 ? [year - 1, 12] : [year, month - 1];
  const next = month === 12 ? [year + 1, 1] : [year, month + 1];
  const here = path.replace(/\/+$/, '');
  const dayLinks: string[] = [];
  for (let d = 1; d <= days; d++) dayLinks.push(`<a href="${here}/day/${d}">${topic.vocabulary[d % 6]} meetup ${d}</a>`);
  const title = `${topic.name} club calendar ${year}-${String(month).padStart(2, '0')}${
    parts.length > 2
      ? ' day ' +
        parts
          .slice(3)
          .filter((_, i) => i % 2 === 0)
          .join('/')
      : ''
  }`;
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>\n<h1>${escapeHtml(title)}</h1>\n` +
    `<p>Events of the ${topic.name.toLowerCase()} club: ${topic.vocabulary.slice(0, 8).join(', ')}.</p>\n` +
    `<p><a href="/hostile/calendar/${prev[0]}/${prev[1]}">previous month</a> | <a href="/hostile/calendar/${next[0]}/${next[1]}">next month</a></p>\n` +
    `<p>${dayLinks.join('\n')}</p>\n</body></html>\n`
  );
}

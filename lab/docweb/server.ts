/**
 * Serves a folder of sites as a small web on 127.0.0.1: one origin (one port) per site, plus a topic-neutral portal
 * origin whose only page links to the sites' front pages. While serving, absolute links to a site's real homes
 * (e.g. https://docs.python.org/3/..., Django's /usr/share/doc/python3-doc/html/...) become links to its local
 * origin when the target exists; `rel=canonical` links are removed so nothing sends a crawler to the real web;
 * `x.html.gz` is served as `x.html`; optionally, meta-refresh stub pages are answered as HTTP 301 to their target.
 * No link is added inside a page. Files are read and rewritten on first request and kept in a cache bounded in bytes.
 *
 * The same content is available without HTTP ({@link simulatedWeb}): the lab's simulated network serves the very
 * bytes the HTTP server would send, synchronously, from memory.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { listFiles, type SiteConfig } from '../sites';

export interface WebOptions {
  sites: SiteConfig[];
  /** First port; sites get consecutive ports in the order given, the portal the next one. Default 0 (ephemeral). */
  basePort?: number;
  /** Milliseconds to wait before each response (simulates the wide-area web). Default 0. */
  delayMs?: number;
  /** Answer meta-refresh stub pages (see {@link redirectStubTarget}) with HTTP 301 to their target. Default false. */
  redirectStubs?: boolean;
  /** Bytes of rewritten files kept in memory (least recently used first out). Default 256 MB. */
  cacheBytes?: number;
}

export interface ServedFile {
  status: number;
  contentType: string;
  body: Buffer;
  /** Set for redirects. */
  location?: string;
}

/** A running local web. */
export interface LocalWeb {
  /** Site name -> origin (http://127.0.0.1:PORT). */
  origins: Record<string, string>;
  /** The portal's origin; its front page links to every site's front page. */
  portal: string;
  /** `SITE/PATH` -> URL. Throws for an unknown site. */
  urlFor(id: string): string;
  /** URL -> `SITE/PATH` of the page it serves, or undefined when it serves no page of the sites. */
  idFor(url: string): string | undefined;
  /** What a GET of `path` on `site` returns (the same bytes the HTTP server sends). */
  render(site: string, path: string): ServedFile;
  /** What a GET of an absolute URL returns (portal included); 404 for URLs outside this web. */
  respond(url: string): ServedFile;
  /** Requests served so far. */
  readonly requests: number;
  /** Bytes of rewritten files held in the cache now. */
  readonly cachedBytes: number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  css: 'text/css',
  js: 'text/javascript',
  json: 'application/json',
  txt: 'text/plain',
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  ico: 'image/x-icon',
  xml: 'application/xml',
};

const INDEX_FILES = ['index.html', 'index.htm', 'index.en.html'];

function typeOf(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

/** A site's files, for resolving request paths and checking link targets without touching the disk. */
class SiteFiles {
  readonly files: Set<string>;
  readonly dirs = new Set<string>(['']);
  constructor(readonly site: SiteConfig) {
    this.files = new Set(listFiles(site.dir));
    for (const f of this.files) {
      const parts = f.split('/');
      for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
    }
  }

  /**
   * The file a decoded request path serves: `{ file }` (maybe `x.html.gz` for `x.html`), `{ redirect }` for a folder
   * asked without its slash, or undefined.
   */
  resolve(path: string): { file: string; gz: boolean } | { redirect: string } | undefined {
    const p = path.replace(/^\/+/, '');
    if (p === '' || p.endsWith('/')) {
      const dir = p.replace(/\/$/, '');
      if (!this.dirs.has(dir)) return undefined;
      for (const idx of INDEX_FILES) {
        const hit = this.resolve(dir ? `${dir}/${idx}` : idx);
        if (hit) return hit;
      }
      return undefined;
    }
    if (this.files.has(p)) return { file: p, gz: /\.html?\.gz$/i.test(p) };
    if (this.files.has(`${p}.gz`) && /\.html?$/i.test(p)) return { file: `${p}.gz`, gz: true };
    if (this.dirs.has(p)) return { redirect: `/${p}/` };
    return undefined;
  }

  /** The page path a request path serves (index files and .gz resolved), or undefined. */
  pagePath(path: string): string | undefined {
    const r = this.resolve(path);
    if (!r || 'redirect' in r) return r && 'redirect' in r ? this.pagePath(r.redirect) : undefined;
    return r.gz ? r.file.replace(/\.gz$/i, '') : r.file;
  }
}

/** Context for rewriting one site's pages. */
export interface RewriteContext {
  /** Site name -> origin. */
  origins: Record<string, string>;
  /** Homes of all sites: prefix (`//host/path` or `/fs/path`) -> site name. */
  homes: { prefix: string; site: string }[];
  /** Does `path` (decoded, no leading slash) exist on `site`? Directories count when they have an index file. */
  exists(site: string, path: string): boolean;
}

/**
 * Candidate local paths for the remainder of a home URL, most literal first: the path itself, a folder's index,
 * Sphinx "dirhtml" (`topics/db/search/` -> `topics/db/search.html`), extensionless (`git-add` -> `git-add.html`)
 * and Debian Reference's language suffix (`ch02.html` -> `ch02.en.html`).
 */
export function candidatePaths(rest: string): string[] {
  const p = rest.replace(/^\/+/, '');
  const out: string[] = [];
  if (p === '' || p.endsWith('/')) {
    out.push(p);
    if (p !== '') out.push(`${p.slice(0, -1)}.html`);
  } else {
    out.push(p);
    if (/\.html?$/i.test(p)) out.push(p.replace(/\.html$/i, '.en.html'));
    else out.push(`${p}.html`, `${p}.en.html`, `${p}/`);
  }
  return out;
}

/** Maps one href value to a local URL, or returns undefined to leave it as it is. */
export function mapLink(href: string, ctx: RewriteContext): string | undefined {
  const raw = href.trim();
  let key: string;
  if (/^(https?:)?\/\//i.test(raw)) {
    const afterScheme = raw.replace(/^(https?:)?\/\//i, '');
    const slash = afterScheme.search(/[/?#]|$/);
    key = `//${afterScheme.slice(0, slash).toLowerCase()}${afterScheme.slice(slash)}`;
  } else if (/^file:\/\//i.test(raw)) key = raw.slice(7);
  else if (raw.startsWith('/')) key = raw;
  else return undefined;
  for (const { prefix, site } of ctx.homes) {
    if (!key.startsWith(prefix)) continue;
    const after = key.slice(prefix.length);
    if (after !== '' && !/^[/?#]/.test(after)) continue; // "/docs/15" must not match "/docs/150"
    const cut = after.search(/[?#]/);
    const rest = cut < 0 ? after : after.slice(0, cut);
    const suffix = cut < 0 ? '' : after.slice(cut);
    let decoded: string;
    try {
      decoded = decodeURIComponent(rest);
    } catch {
      return undefined;
    }
    for (const cand of candidatePaths(decoded)) {
      if (ctx.exists(site, cand)) return `${ctx.origins[site]}/${encodeURI(cand)}${suffix}`;
    }
    return undefined; // a home of this site, but a page it does not ship: leave the link pointing at the real web
  }
  return undefined;
}

const CANONICAL_RE = /<link\b[^>]*\brel\s*=\s*["']?\s*canonical\s*["']?[^>]*>/gi;
const HREF_RE = /(\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

/**
 * Rewrites a page's links (see the module comment). Works on a latin1 string so any byte sequence round-trips;
 * only ASCII URL text is touched. Relative links and links to other places stay exactly as they are.
 */
export function rewriteHtml(html: string, ctx: RewriteContext): string {
  return html.replace(CANONICAL_RE, '').replace(HREF_RE, (whole, lead: string, dq?: string, sq?: string, bare?: string) => {
    const value = dq ?? sq ?? bare ?? '';
    const mapped = mapLink(value.replace(/&amp;/g, '&'), ctx);
    if (mapped === undefined) return whole;
    const q = dq !== undefined ? '"' : sq !== undefined ? "'" : '"';
    return `${lead}${q}${mapped.replace(/&/g, '&amp;')}${q}`;
  });
}

/**
 * The target of a meta-refresh stub, or undefined when the page is not one. A stub is a small page (at most
 * {@link STUB_MAX_BYTES}) whose `<meta http-equiv="refresh">` sends the reader on after at most one second: Rust's and
 * pandas' moved pages, Javadoc's root `index.html`. Such a page is a redirect in all but name; served as HTTP 301, a
 * crawler follows it as it would any redirect and the stub is not counted as a page.
 */
export function redirectStubTarget(html: string): string | undefined {
  if (html.length > STUB_MAX_BYTES) return undefined;
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    if (!/http-equiv\s*=\s*["']?\s*refresh\b/i.test(tag)) continue;
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const value = content?.[1] ?? content?.[2] ?? content?.[3] ?? '';
    const parts = /^\s*(\d+(?:\.\d*)?)\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(value);
    if (!parts || Number(parts[1]) > 1) return undefined;
    const target = parts[2]
      .trim()
      .replace(/^["']|["']$/g, '')
      .replace(/&amp;/g, '&');
    return target === '' ? undefined : target;
  }
  return undefined;
}

/** Largest page still taken for a redirect stub. */
export const STUB_MAX_BYTES = 4096;
const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

/** A cache of served files bounded in bytes, least recently used evicted first. */
class ServedCache {
  private readonly map = new Map<string, ServedFile>();
  bytes = 0;
  constructor(private readonly capacity: number) {}
  get(key: string): ServedFile | undefined {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }
  set(key: string, file: ServedFile): void {
    this.map.set(key, file);
    this.bytes += file.body.length;
    for (const [k, f] of this.map) {
      if (this.bytes <= this.capacity || k === key) break;
      this.map.delete(k);
      this.bytes -= f.body.length;
    }
  }
}

/** The content of a web: what every URL of every origin returns, without any server. */
interface WebContent {
  serve(site: string | null, path: string): ServedFile;
  respond(url: string): ServedFile;
  render(site: string, path: string): ServedFile;
  idFor(url: string): string | undefined;
  urlFor(id: string): string;
  readonly requests: number;
  readonly cachedBytes: number;
}

function checkSiteNames(sites: SiteConfig[]): void {
  const names = new Set<string>();
  for (const s of sites) {
    if (names.has(s.name)) throw new Error(`duplicate site name ${s.name}`);
    names.add(s.name);
  }
}

/** Builds the content of a web whose sites are at `origins` and whose portal is at `portal`. */
function webContent(options: WebOptions, origins: Record<string, string>, portal: string): WebContent {
  const files = new Map(options.sites.map((s) => [s.name, new SiteFiles(s)]));
  const siteByOrigin = new Map(Object.entries(origins).map(([name, origin]) => [origin, name]));
  const cache = new ServedCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const portalBody = Buffer.from(portalPage(options.sites, origins));
  let requests = 0;

  const homes = options.sites
    .flatMap((s) => s.homes.map((h) => ({ prefix: normalizeHome(h), site: s.name })))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const ctx: RewriteContext = {
    origins,
    homes,
    exists: (site, path) => {
      const f = files.get(site);
      return !!f && f.resolve(path) !== undefined;
    },
  };

  const notFound = (): ServedFile => ({
    status: 404,
    contentType: 'text/html',
    body: Buffer.from('<!DOCTYPE html><title>404</title><p>Not found</p>\n'),
  });

  const loadFile = (s: SiteConfig, file: string, gz: boolean): ServedFile => {
    let body = readFileSync(join(s.dir, file));
    const servedName = gz ? file.replace(/\.gz$/i, '') : file;
    if (gz) body = gunzipSync(body);
    const contentType = typeOf(servedName);
    if (contentType === 'text/html' || contentType === 'application/xhtml+xml') {
      const html = body.toString('latin1');
      const stub = options.redirectStubs ? redirectStubTarget(html) : undefined;
      if (stub !== undefined) {
        const location = mapLink(stub, ctx) ?? stub;
        return { status: 301, contentType: 'text/plain', body: Buffer.from('moved\n'), location };
      }
      body = Buffer.from(rewriteHtml(html, ctx), 'latin1');
    }
    return { status: 200, contentType, body };
  };

  const render = (site: string, path: string): ServedFile => {
    const sf = files.get(site);
    if (!sf) return notFound();
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return { status: 400, contentType: 'text/plain', body: Buffer.from('bad path\n') };
    }
    if (decoded.includes('\0')) return notFound();
    const norm = posix.normalize(`/${decoded}`);
    if (norm.split('/').includes('..')) return notFound();
    const hit = sf.resolve(norm + (decoded.endsWith('/') && !norm.endsWith('/') ? '/' : ''));
    if (!hit) return notFound();
    if ('redirect' in hit)
      return { status: 301, contentType: 'text/plain', body: Buffer.from('moved\n'), location: encodeURI(hit.redirect) };
    const key = `${site}/${hit.file}`;
    let served = cache.get(key);
    if (!served) {
      try {
        served = loadFile(sf.site, hit.file, hit.gz);
      } catch (err) {
        return { status: 500, contentType: 'text/plain', body: Buffer.from(`${String(err)}\n`) };
      }
      cache.set(key, served);
    }
    return served;
  };

  /** A request for `path` on a site's origin, or on the portal's (site null). */
  const serve = (site: string | null, path: string): ServedFile => {
    requests++;
    if (site === null)
      return path === '/' || path === '/index.html' ? { status: 200, contentType: 'text/html', body: portalBody } : notFound();
    return render(site, path);
  };

  const respond = (url: string): ServedFile => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      requests++;
      return { status: 400, contentType: 'text/plain', body: Buffer.from('bad URL\n') };
    }
    if (u.origin === portal) return serve(null, u.pathname);
    const site = siteByOrigin.get(u.origin);
    if (site === undefined) {
      requests++;
      return notFound();
    }
    return serve(site, u.pathname);
  };

  return {
    serve,
    respond,
    render,
    urlFor(id: string): string {
      const slash = id.indexOf('/');
      const site = slash < 0 ? id : id.slice(0, slash);
      const origin = origins[site];
      if (!origin) throw new Error(`unknown site "${site}" in ${id}`);
      return `${origin}/${encodeURI(slash < 0 ? '' : id.slice(slash + 1))}`;
    },
    idFor(url: string): string | undefined {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return undefined;
      }
      const site = siteByOrigin.get(u.origin);
      if (!site) return undefined;
      let path: string;
      try {
        path = decodeURIComponent(u.pathname);
      } catch {
        return undefined;
      }
      const page = files.get(site)!.pagePath(path);
      return page && /\.(html?|xhtml)$/i.test(page) ? `${site}/${page}` : undefined;
    },
    get requests() {
      return requests;
    },
    get cachedBytes() {
      return cache.bytes;
    },
  };
}

/** The portal page: one link per front page (a site's `fronts`, or its root), the site's name as anchor text. */
function portalPage(sites: SiteConfig[], origins: Record<string, string>): string {
  const items = sites
    .flatMap((s) =>
      (s.fronts?.length ? s.fronts : ['']).map((f) => `<li><a href="${origins[s.name]}/${encodeURI(f)}">${s.name}</a></li>`),
    )
    .join('\n');
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Portal</title></head>\n<body><h1>Portal</h1>\n<ul>\n${items}\n</ul>\n</body></html>\n`;
}

/** First port of a {@link simulatedWeb}'s origins (nothing listens there). */
export const SIMULATED_BASE_PORT = 40000;

/**
 * The web's content without servers: origins `http://127.0.0.1:<40000 + i>` in site order (the portal after them),
 * nothing listening, every answer computed synchronously by `respond(url)`. Same site order, same URLs, run after run.
 */
export function simulatedWeb(options: WebOptions): LocalWeb {
  checkSiteNames(options.sites);
  const base = options.basePort || SIMULATED_BASE_PORT;
  const origins: Record<string, string> = {};
  options.sites.forEach((s, i) => {
    origins[s.name] = `http://127.0.0.1:${base + i}`;
  });
  const portal = `http://127.0.0.1:${base + options.sites.length}`;
  const content = webContent(options, origins, portal);
  return {
    origins,
    portal,
    urlFor: content.urlFor,
    idFor: content.idFor,
    render: content.render,
    respond: content.respond,
    get requests() {
      return content.requests;
    },
    get cachedBytes() {
      return content.cachedBytes;
    },
    close: async () => {},
  };
}

/** Starts one HTTP server per site plus the portal, all on 127.0.0.1. */
export async function startLocalWeb(options: WebOptions): Promise<LocalWeb> {
  checkSiteNames(options.sites);
  const origins: Record<string, string> = {};
  const servers: Server[] = [];
  const delay = options.delayMs ?? 0;
  let content: WebContent | undefined;

  const handler = (site: string | null) => (req: IncomingMessage, res: ServerResponse) => {
    const send = (f: ServedFile) => {
      const headers: Record<string, string | number> = { 'content-type': f.contentType, 'content-length': f.body.length };
      if (f.location) headers.location = f.location;
      res.writeHead(f.status, headers);
      res.end(req.method === 'HEAD' ? undefined : f.body);
    };
    const go = () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        send({ status: 405, contentType: 'text/plain', body: Buffer.from('method not allowed\n') });
        return;
      }
      send(content!.serve(site, (req.url ?? '/').split(/[?#]/)[0]));
    };
    if (delay > 0) setTimeout(go, delay);
    else go();
  };

  const listen = (site: string | null, port: number): Promise<string> =>
    new Promise((resolveOrigin, reject) => {
      const server = createServer(handler(site));
      server.keepAliveTimeout = 30_000;
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        servers.push(server);
        resolveOrigin(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });

  try {
    let port = options.basePort ?? 0;
    for (const s of options.sites) {
      origins[s.name] = await listen(s.name, port);
      if (port) port++;
    }
    const portal = await listen(null, port);
    content = webContent(options, origins, portal);
    const c = content;
    return {
      origins,
      portal,
      urlFor: c.urlFor,
      idFor: c.idFor,
      render: c.render,
      respond: c.respond,
      get requests() {
        return c.requests;
      },
      get cachedBytes() {
        return c.cachedBytes;
      },
      close: async () => {
        await Promise.all(
          servers.map(
            (s) =>
              new Promise<void>((r) => {
                s.closeAllConnections();
                s.close(() => r());
              }),
          ),
        );
      },
    };
  } catch (err) {
    for (const s of servers) s.close();
    throw err;
  }
}

/** `https://Host/x/` -> `//host/x`; `file:///x/` -> `/x`; paths lose their trailing slash. */
export function normalizeHome(home: string): string {
  let h = home.trim();
  if (/^file:\/\//i.test(h)) h = h.slice(7);
  else if (/^(https?:)?\/\//i.test(h)) {
    const after = h.replace(/^(https?:)?\/\//i, '');
    const slash = after.search(/\/|$/);
    h = `//${after.slice(0, slash).toLowerCase()}${after.slice(slash)}`;
  }
  return h.replace(/\/+$/, '');
}

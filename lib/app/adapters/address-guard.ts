/**
 * The extension's check of the addresses its crawl requests actually reach: a public-looking name can resolve to
 * 127.0.0.2 or the user's router (wildcard DNS services answer any address; DNS rebinding changes the answer), and
 * the URL rules (lib/engine/url/rules.ts) and the browser rules (network-guard.ts) only see names.
 *
 * One guard per crawl run wraps the fetch the engine's fetcher uses. The background feeds it what the browser
 * reports about the extension's own requests (webRequest events: the server `ip` of every hop, redirect targets) and,
 * in Firefox, screens every request before it is sent with the addresses `dns.resolve` gives for its host name
 * (a blocking onBeforeRequest listener). The guard:
 * - refuses a request whose host name resolves to, or answered from, an address the crawl's policy refuses
 *   (checkAddress: the same rules as for literal hosts), aborts it, drops its page, and bans the host name for the
 *   rest of the run (every unanswered request to it is aborted, every later one refused before it is sent);
 * - lets one request at a time go to a host name not yet seen answering from an allowed address: the others wait
 *   for its verdict, so at most one request per host name is sent before a private address is known;
 * - hands every response back only once the browser has said which address answered (or refuses it when the
 *   browser does not say within `reportTimeoutMs`: fail closed);
 * - turns the opaque response of a `redirect: 'manual'` fetch into a plain 3xx with the Location the browser
 *   reported, so the fetcher follows redirects hop by hop as in Node (URL rules, robots.txt and politeness on every
 *   hop, and the first request to a hop's host is its robots.txt), instead of letting the browser follow them
 *   unseen.
 *
 * What still reaches a private address in Chrome, which cannot hold a request until its address is known: the first
 * request to each such host name (normally `GET /robots.txt`, since the fetcher asks for robots.txt before any page
 * of an origin), and, if a host name is rebound to a private address after it answered from a public one, one more
 * request to it. Firefox resolves each host name before the request is sent, so nothing is sent to a private address
 * unless the name changes its answer between that lookup and the connection.
 *
 * Pure TypeScript (no browser API): the background passes the events in; tests drive it with a fake fetch.
 */
import { checkAddress, type UrlCheck, type UrlPolicy } from '../../engine';

/** What the browser reports about one of the extension's own requests, reduced to what the guard needs. */
export interface RequestReport {
  /** The browser's id of the request; redirect hops keep it. */
  requestId: string;
  /** The URL of this hop. */
  url: string;
  /**
   * 'sent': about to be sent (onBeforeRequest; tests and the Firefox screen); 'headers': response headers in
   * (onHeadersReceived); 'redirect': the browser got a redirect (onBeforeRedirect); 'response': the response started
   * (onResponseStarted); 'error': the request failed or was cancelled (onErrorOccurred).
   */
  phase: 'sent' | 'headers' | 'redirect' | 'response' | 'error';
  /** The address of the server that answered, as the browser reports it (webRequest `ip`). */
  ip?: string;
  statusCode?: number;
  /** Where a redirect points: onBeforeRedirect's redirectUrl, or the Location header onHeadersReceived saw. */
  location?: string;
  /** Firefox says a proxy carried the request: `ip` is then the proxy's, not the server's. */
  proxied?: boolean;
}

/** A host name banned for the rest of a run. */
export interface Ban {
  host: string;
  address: string;
  detail: string;
}

/** Why a request was refused: a fetch() rejection the fetcher records as the page's skip detail. */
export class AddressRefusedError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

export interface AddressGuardOptions {
  /** The crawl run's URL rules (as given to the fetcher). */
  policy: UrlPolicy;
  /** The browser's fetch. */
  fetch: typeof fetch;
  /** Longest wait, once a response is in, for the browser's report of the address it came from. Default 8000 ms. */
  reportTimeoutMs?: number;
  /** A host name was banned (for logs). */
  onBan?(ban: Ban): void;
}

interface Entry {
  url: string;
  origin: string;
  requestId?: string;
  controller: AbortController;
  /** The hop the browser is on (redirect hops the browser follows itself keep the request id). */
  hopUrl: string;
  hopIp?: string;
  proxied: boolean;
  status?: number;
  location?: string;
  /** A terminal report ('response' or 'error') came in. */
  ended: boolean;
  /** The wait for the browser's report. */
  timer?: ReturnType<typeof setTimeout>;
  failure?: AddressRefusedError;
  wake: (() => void)[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The host name of `url`, or '' when it is no URL. */
export function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** Resolves when `signal` aborts (rejecting with its reason) or `promise` settles, whichever is first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** See the module comment. One per crawl run. */
export class AddressGuard {
  readonly policy: UrlPolicy;
  private readonly fetchFn: typeof fetch;
  private readonly reportTimeoutMs: number;
  private readonly onBan?: (ban: Ban) => void;
  private readonly bans = new Map<string, Ban>();
  /** Host names that answered from an allowed address. */
  private readonly verified = new Set<string>();
  /** Host name -> the first request to it, while its verdict is out. */
  private readonly probes = new Map<string, Promise<void>>();
  private readonly unbound: Entry[] = [];
  private readonly byId = new Map<string, Entry>();

  constructor(options: AddressGuardOptions) {
    this.policy = options.policy;
    this.fetchFn = options.fetch;
    this.reportTimeoutMs = options.reportTimeoutMs ?? 8000;
    this.onBan = options.onBan;
  }

  /** The host names banned so far. */
  banned(): Ban[] {
    return [...this.bans.values()];
  }

  /** The guarded fetch, for the engine's fetcher. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const host = hostnameOf(url);
    const signal = init?.signal;
    for (;;) {
      const ban = this.bans.get(host);
      if (ban) throw new AddressRefusedError(ban.detail);
      const probe = this.verified.has(host) ? undefined : this.probes.get(host);
      if (!probe) break;
      await untilAborted(probe, signal);
    }
    let endProbe: (() => void) | undefined;
    if (!this.verified.has(host)) this.probes.set(host, new Promise<void>((resolve) => (endProbe = resolve)));

    const entry: Entry = {
      url,
      origin: originOf(url),
      controller: new AbortController(),
      hopUrl: url,
      proxied: false,
      ended: false,
      wake: [],
    };
    this.unbound.push(entry);
    const onOuterAbort = () => entry.controller.abort(signal?.reason);
    if (signal?.aborted) onOuterAbort();
    else signal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      let response: Response;
      try {
        response = await this.fetchFn(url, { ...init, signal: entry.controller.signal });
      } catch (error) {
        throw entry.failure ?? error;
      }
      await untilAborted(this.ended(entry), signal);
      if (entry.failure) {
        void response.body?.cancel().catch(() => {});
        throw entry.failure;
      }
      if (!entry.hopIp && !entry.proxied) {
        void response.body?.cancel().catch(() => {});
        throw new AddressRefusedError(`the browser did not say which address answered for ${hostnameOf(entry.hopUrl)}`);
      }
      this.verified.add(host);
      if (response.type === 'opaqueredirect' && entry.location) {
        const status = entry.status !== undefined && REDIRECT_STATUSES.has(entry.status) ? entry.status : 302;
        return new Response(null, { status, headers: { location: entry.location } });
      }
      return response;
    } finally {
      signal?.removeEventListener('abort', onOuterAbort);
      this.forget(entry);
      if (endProbe) {
        this.probes.delete(host);
        endProbe();
      }
    }
  };

  /** Takes a report of the browser about one of the extension's requests (see {@link RequestReport}). */
  report(r: RequestReport): void {
    const entry = this.entryFor(r.requestId, r.url);
    if (!entry) return;
    if (r.url !== entry.hopUrl) {
      // The browser followed a redirect itself (the fetcher's fallback): a new hop, whose address is not known yet.
      entry.hopUrl = r.url;
      entry.hopIp = undefined;
      entry.location = undefined;
      entry.status = undefined;
    }
    if (r.phase === 'sent') return;
    if (r.proxied) entry.proxied = true;
    if (r.ip && !r.proxied) {
      entry.hopIp = r.ip;
      const verdict = checkAddress(r.ip, r.url, this.policy);
      if (!verdict.ok) {
        this.ban(hostnameOf(r.url), r.ip, verdict.detail);
        this.fail(entry, verdict.detail); // this request, whatever host it started on
      }
    }
    if (r.statusCode !== undefined) entry.status = r.statusCode;
    if (r.location && (r.phase === 'redirect' || (r.statusCode !== undefined && REDIRECT_STATUSES.has(r.statusCode)))) {
      try {
        entry.location = new URL(r.location, r.url).href;
      } catch {
        // An unusable Location: the fetcher sees the opaque response and reports the redirect as failed.
      }
    }
    if (r.phase === 'response' || r.phase === 'error') this.end(entry);
  }

  /**
   * Firefox: screens a request about to be sent (blocking onBeforeRequest) with the addresses its host name resolves
   * to. Refused (and the host name banned) when any of them is refused: the connection could use any of them.
   */
  async screen(requestId: string, url: string, resolve: (hostname: string) => Promise<string[]>): Promise<UrlCheck> {
    const entry = this.entryFor(requestId, url);
    const host = hostnameOf(url);
    const refuse = (detail: string, address?: string): UrlCheck => {
      if (address) this.ban(host, address, detail);
      if (entry) this.fail(entry, detail);
      return { ok: false, detail };
    };
    const banned = this.bans.get(host);
    if (banned) return refuse(banned.detail);
    if (!host) return refuse(`unparsable URL ${url}`);
    let addresses: string[];
    if (host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host)) {
      addresses = [host.replace(/^\[|\]$/g, '')]; // a literal address (URL.hostname writes IPv4 in dotted decimal)
    } else {
      try {
        addresses = await resolve(host);
      } catch (error) {
        return refuse(`${host} could not be resolved (${error instanceof Error ? error.message : String(error)})`);
      }
      if (addresses.length === 0) return refuse(`${host} resolves to no address`);
    }
    for (const address of addresses) {
      const verdict = checkAddress(address, url, this.policy);
      if (!verdict.ok) return refuse(verdict.detail, address);
    }
    return { ok: true };
  }

  /**
   * Bans a host name: every request to it still waiting for its answer is aborted, every later one refused. (A
   * response already handed back came from an allowed address: its body is left alone.)
   */
  private ban(host: string, address: string, detail: string): void {
    if (!host) return;
    if (!this.bans.has(host)) {
      const ban = { host, address, detail };
      this.bans.set(host, ban);
      this.verified.delete(host);
      this.onBan?.(ban);
    }
    for (const entry of [...this.unbound, ...this.byId.values()]) {
      if (hostnameOf(entry.hopUrl) === host || hostnameOf(entry.url) === host) this.fail(entry, detail);
    }
  }

  private fail(entry: Entry, detail: string): void {
    if (entry.failure) return;
    entry.failure = new AddressRefusedError(detail);
    entry.controller.abort(entry.failure);
    this.end(entry);
  }

  private end(entry: Entry): void {
    entry.ended = true;
    for (const wake of entry.wake.splice(0)) wake();
  }

  /** Resolves once the entry has ended, or marks it failed after reportTimeoutMs. */
  private ended(entry: Entry): Promise<void> {
    if (entry.ended) return Promise.resolve();
    return new Promise<void>((resolve) => {
      entry.timer = setTimeout(() => {
        this.fail(entry, `the browser did not say which address answered for ${hostnameOf(entry.hopUrl)}`);
      }, this.reportTimeoutMs);
      entry.wake.push(() => {
        clearTimeout(entry.timer);
        resolve();
      });
    });
  }

  /**
   * The request a report is about: known by its id, or (for the first report of a request) the oldest request made
   * through this guard for the same URL, else for the same origin (a browser may serialize a URL slightly differently).
   * A request's first report is about its first hop (redirect hops come later under the same id).
   */
  private entryFor(requestId: string, url: string): Entry | undefined {
    const known = this.byId.get(requestId);
    if (known) return known;
    let i = this.unbound.findIndex((e) => e.url === url);
    if (i < 0) {
      const origin = originOf(url);
      i = this.unbound.findIndex((e) => e.origin === origin);
    }
    if (i < 0) return undefined;
    const [entry] = this.unbound.splice(i, 1);
    entry.requestId = requestId;
    this.byId.set(requestId, entry);
    return entry;
  }

  private forget(entry: Entry): void {
    clearTimeout(entry.timer);
    const i = this.unbound.indexOf(entry);
    if (i >= 0) this.unbound.splice(i, 1);
    if (entry.requestId !== undefined) this.byId.delete(entry.requestId);
  }
}

/** The fields of webRequest event details the guard reads (the same names in Chrome and Firefox). */
export interface WebRequestDetails {
  requestId: string;
  url: string;
  tabId: number;
  /** Chrome: the origin that made the request. */
  initiator?: string;
  /** Firefox: the URL of the document that made the request. */
  originUrl?: string;
  ip?: string;
  statusCode?: number;
  redirectUrl?: string;
  responseHeaders?: { name: string; value?: string }[];
  /** Firefox: the proxy that carried the request, or null. */
  proxyInfo?: unknown;
}

/**
 * webRequest events the background listens to while a crawl runs, and the phase each reports: the fewest that give
 * the address of every answer and the target of every redirect (each event costs a message to the background).
 * Chrome reports a redirect's address and target in onBeforeRedirect, also for a `redirect: 'manual'` fetch; Firefox
 * does not fire it for those, and reports the address and the Location header in onHeadersReceived.
 */
export function watchedEvents(firefox: boolean): Partial<Record<WebRequestEventName, RequestReport['phase']>> {
  return firefox
    ? { onHeadersReceived: 'headers', onBeforeRedirect: 'redirect', onResponseStarted: 'response', onErrorOccurred: 'error' }
    : { onBeforeRedirect: 'redirect', onResponseStarted: 'response', onErrorOccurred: 'error' };
}

/** The webRequest events the guard may listen to. */
export type WebRequestEventName =
  | 'onBeforeRequest'
  | 'onHeadersReceived'
  | 'onBeforeRedirect'
  | 'onResponseStarted'
  | 'onErrorOccurred';

/**
 * The filter of those listeners: fetch() requests outside any tab, i.e. the extension's own (and other extensions'
 * and the browser's, which {@link isOwnRequest} drops), so the user's browsing never reaches the listeners.
 */
export const WATCH_FILTER = { urls: ['<all_urls>'], types: ['xmlhttprequest' as const], tabId: -1 };

/** Whether a webRequest event is about a request this extension (`ownOrigin`: chrome-extension://id, no slash) made. */
export function isOwnRequest(details: WebRequestDetails, ownOrigin: string): boolean {
  if (details.tabId !== -1) return false;
  const from = details.initiator ?? details.originUrl;
  // Compared as text: URL.origin of an extension URL is 'null' outside the browser that owns the scheme.
  return !!from && (from === ownOrigin || from.startsWith(`${ownOrigin}/`));
}

/** A webRequest event's details as a {@link RequestReport}. */
export function toReport(phase: RequestReport['phase'], d: WebRequestDetails): RequestReport {
  const location = d.redirectUrl ?? d.responseHeaders?.find((h) => h.name.toLowerCase() === 'location')?.value;
  return {
    requestId: d.requestId,
    url: d.url,
    phase,
    ...(d.ip ? { ip: d.ip } : {}),
    ...(d.statusCode !== undefined ? { statusCode: d.statusCode } : {}),
    ...(location ? { location } : {}),
    ...(d.proxyInfo ? { proxied: true } : {}),
  };
}

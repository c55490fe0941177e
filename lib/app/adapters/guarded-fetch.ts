/**
 * The command line's and the lab's fetch: undici's fetch over an Agent whose connector resolves each host name
 * itself, connects only to addresses the crawl's URL policy allows (lib/engine/url/rules.ts checkAddress: the same
 * rules as for literal hosts), and checks the address the socket actually reached before any request byte is
 * written. A link to `127-0-0-2.example-dns.net` (public wildcard DNS answers any address), or a name rebound to the
 * user's router, is refused without a connection to it being opened.
 *
 * Every redirect hop is a new request through this connector: the engine's fetcher follows redirects itself in Node
 * (`redirect: 'manual'`). Connections are pooled per origin by undici, so a reused socket is one that passed the
 * check. Node's own fetch is undici too, but a newer undici's Agent cannot be handed to it across versions: this
 * module uses the `undici` package's fetch and Agent together.
 *
 * Node only (lib/engine stays free of Node: the engine's fetcher takes this fetch as an option).
 */
import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { checkAddress, type UrlPolicy } from '../../engine';

/** The addresses of a host name (node:dns lookup's answer with `all: true`). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), as every other program on the machine resolves names. */
export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A connection refused because of the address it would reach (the fetch's `cause`; its message is the skip detail). */
export class PrivateAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrivateAddressError';
  }
}

export interface GuardedFetchOptions {
  /** Default {@link systemResolver}; tests pass a stand-in. */
  resolve?: Resolver;
  /** Connect timeout per address, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** A host name was refused because of its address (called before its fetch fails). */
  onRefused?(host: string, detail: string): void;
}

export interface GuardedFetch {
  /** fetch() whose connections obey the policy's address rules. */
  fetch: typeof fetch;
  /** Connections refused so far because of their address. */
  refused(): number;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

/** Creates the guarded fetch of one crawl (its URL policy decides which addresses may be reached). */
export function createGuardedFetch(policy: UrlPolicy, options: GuardedFetchOptions = {}): GuardedFetch {
  const resolve = options.resolve ?? systemResolver;
  const base = buildConnector({ timeout: options.connectTimeoutMs ?? 10_000 });
  let refusals = 0;

  /** The allowed addresses of `host` for a request to `url`, or the refusal of the first one that is not. */
  async function allowedAddresses(host: string, url: string): Promise<string[]> {
    const addresses = net.isIP(host) ? [host] : (await resolve(host)).map((a) => a.address);
    if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
    const allowed: string[] = [];
    let refusal = '';
    for (const address of addresses) {
      const verdict = checkAddress(address, url, policy);
      if (verdict.ok) allowed.push(address);
      else refusal ||= verdict.detail;
    }
    if (allowed.length === 0) {
      refusals++;
      options.onRefused?.(host, refusal);
      throw new PrivateAddressError(refusal);
    }
    return allowed;
  }

  const connect: buildConnector.connector = (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    const url = `${opts.protocol}//${net.isIPv6(host) ? `[${host}]` : host}${opts.port ? `:${opts.port}` : ''}/`;
    const attempt = (addresses: string[], lastError?: Error) => {
      const [address, ...rest] = addresses;
      if (address === undefined) {
        callback(lastError ?? new Error(`no address of ${host} could be reached`), null);
        return;
      }
      // Connect to the checked address; TLS still names and verifies the host (undici takes SNI from the Host).
      base({ ...opts, hostname: address }, (error, socket) => {
        if (error || !socket) {
          attempt(rest, error ?? undefined);
          return;
        }
        const remote = socket.remoteAddress;
        const verdict = remote ? checkAddress(remote, url, policy) : { ok: false as const, detail: `${host}: no remote address` };
        if (!verdict.ok) {
          refusals++;
          options.onRefused?.(host, verdict.detail);
          socket.destroy();
          callback(new PrivateAddressError(verdict.detail), null);
          return;
        }
        callback(null, socket);
      });
    };
    allowedAddresses(host, url).then(
      (addresses) => attempt(addresses),
      (error: Error) => callback(error, null),
    );
  };

  const agent = new Agent({ connect });
  // undici's Request and Response are the web standard ones under other type names: the engine sees plain fetch.
  const guardedFetch = (input: RequestInfo | URL, init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    });
  return {
    fetch: guardedFetch as unknown as typeof fetch,
    refused: () => refusals,
    close: () => agent.close(),
  };
}

/**
 * Which host names a crawl run may contact before it knows their address. Wildcard DNS gives an attacker unlimited
 * public-looking names that resolve to the user's own machine or router; the address guards (address-guard.ts in the
 * extension, lib/node/guarded-fetch.ts on the command line) refuse each such name once its address is known, but in
 * Chrome that is after its first request. This bounds how many such first requests there can be:
 * - the seeds' hosts (the results page's own results, a watch's start pages) are trusted: contacted as usual;
 * - a host that answered from an allowed address is known: contacted as usual;
 * - any other host is new: one request to it at a time until its first answer (its address) is in, and only one new
 *   host per registrable domain and per referring page at a time;
 * - once a host answers from a refused (private) address, no further new host of the same registrable domain, or
 *   linked from the same page, is contacted for the rest of the run: those are refused without a request.
 *
 * So at most one request reaches a private address per registrable domain and per referring page (the smaller of
 * the two counts), however many names wildcard DNS offers. Two layers share one instance: {@link guardFetch} wraps
 * the raw fetch (every request: robots.txt, pages, redirect hops) and applies the domain rule; {@link guardFetcher}
 * wraps the engine's page fetcher, which knows the page a link came from, and applies the page rule.
 *
 * Pure TypeScript: the background and the command line feed it the guards' verdicts ({@link privateAnswer}).
 */
import type { FetchOutcome, PageFetcher, Validators } from '../../engine';
import { AddressRefusedError, hostnameOf } from './address-guard';
import { siteOf } from '../serp/hosts';
import type { RefusedHosts } from '../model/records';

export type { RefusedHosts };

/** Refused host names a report names at most. */
const MAX_EXAMPLES = 10;

/** Resolves when `promise` settles, or rejects when `signal` aborts first. */
function untilAborted(promise: Promise<void>, signal: AbortSignal | null | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** See the module comment. One per crawl run. */
export class HostAdmission {
  private readonly trusted = new Set<string>();
  private readonly known = new Set<string>();
  /** Host -> why it is refused (a private answer, or the host of the same domain or page that had one). */
  private readonly refused = new Map<string, string>();
  private privateCount = 0;
  private readonly examples: RefusedHosts['examples'] = [];
  /** Registrable domain -> the host of it that answered privately. */
  private readonly blockedDomains = new Map<string, string>();
  /** Referring page -> the host linked from it that answered privately. */
  private readonly blockedPages = new Map<string, string>();
  /** Registrable domain -> the first request to one of its new hosts, while it is out. */
  private readonly domainProbes = new Map<string, Promise<void>>();
  /** Referring page -> the first answer of the new host linked from it being tried. */
  private readonly pageProbes = new Map<string, Promise<void>>();
  /** Host -> wakers for the end of its next request. */
  private readonly answerWaiters = new Map<string, (() => void)[]>();

  /** `seeds`: the run's start URLs, whose hosts are trusted. */
  constructor(seeds: Iterable<string> = []) {
    for (const seed of seeds) {
      const host = hostnameOf(seed);
      if (host) this.trusted.add(host);
    }
  }

  /** A guard found `host` at an address the crawl refuses (it is banned there; here its domain is closed). */
  privateAnswer(host: string, detail: string): void {
    if (!host || this.refused.has(host)) return;
    this.known.delete(host);
    this.refused.set(host, detail);
    this.privateCount++;
    this.example(host, detail);
    const domain = siteOf(host);
    if (!this.blockedDomains.has(domain)) this.blockedDomains.set(domain, host);
  }

  /** What the run refused so far. */
  report(): RefusedHosts {
    return {
      privateAddress: this.privateCount,
      notContacted: this.refused.size - this.privateCount,
      examples: [...this.examples],
    };
  }

  /** The raw fetch of a run, wrapped: the domain rule on every request (see the module comment). */
  guardFetch(fetchFn: typeof fetch): typeof fetch {
    return async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const host = hostnameOf(url);
      const domain = siteOf(host);
      for (;;) {
        const refusal = this.refusal(host);
        if (refusal) throw new AddressRefusedError(refusal);
        if (this.isKnown(host)) return this.answered(host, fetchFn(input, init));
        const probe = this.domainProbes.get(domain);
        if (!probe) break;
        await untilAborted(probe, init?.signal);
      }
      let endProbe = () => {};
      const probe = new Promise<void>((resolve) => (endProbe = resolve));
      this.domainProbes.set(domain, probe);
      try {
        const response = await this.answered(host, fetchFn(input, init));
        if (!this.refused.has(host)) this.known.add(host);
        return response;
      } finally {
        if (this.domainProbes.get(domain) === probe) this.domainProbes.delete(domain);
        endProbe();
      }
    };
  }

  /** The engine's page fetcher of a run, wrapped: the page rule for every URL with a referring page. */
  guardFetcher<F extends PageFetcher>(fetcher: F): F & { refusedHosts(): RefusedHosts } {
    const fetchPage = async (url: string, signal?: AbortSignal, validators?: Validators, from?: string) => {
      const host = hostnameOf(url);
      for (;;) {
        const refusal = this.refusal(host, from);
        if (refusal) return { ok: false, url, reason: 'network', detail: refusal, elapsedMs: 0 } satisfies FetchOutcome;
        const probe = from !== undefined && !this.isKnown(host) ? this.pageProbes.get(from) : undefined;
        if (!probe) break;
        try {
          await untilAborted(probe, signal);
        } catch {
          return { ok: false, url, reason: 'aborted', detail: 'aborted', elapsedMs: 0 } satisfies FetchOutcome;
        }
      }
      if (from === undefined || this.isKnown(host)) return fetcher.fetch(url, signal, validators, from);
      const firstAnswer = this.nextAnswer(host);
      const fetching = fetcher.fetch(url, signal, validators, from);
      const probe = Promise.race([firstAnswer, fetching.then(() => {})]).then(() => {
        if (this.refused.has(host) && !this.blockedPages.has(from)) this.blockedPages.set(from, host);
      });
      this.pageProbes.set(from, probe);
      void probe.finally(() => {
        if (this.pageProbes.get(from) === probe) this.pageProbes.delete(from);
      });
      const outcome = await fetching;
      await probe;
      return outcome;
    };
    // What the run refused goes with the fetcher: the runner keeps it in the crawl's record (RunFetcher).
    const refusedHosts = () => this.report();
    return new Proxy(fetcher, {
      get: (target, key, receiver) =>
        key === 'fetch' ? fetchPage : key === 'refusedHosts' ? refusedHosts : Reflect.get(target, key, receiver),
    }) as F & { refusedHosts(): RefusedHosts };
  }

  private isKnown(host: string): boolean {
    return this.known.has(host) || (this.trusted.has(host) && !this.refused.has(host));
  }

  /** Why `host` may not be contacted (linked from `from`), or '' when it may. */
  private refusal(host: string, from?: string): string {
    const own = this.refused.get(host);
    if (own !== undefined) return own;
    if (this.isKnown(host)) return '';
    const sibling = this.blockedDomains.get(siteOf(host));
    const detail = sibling
      ? `${host} not contacted: ${sibling}, of the same domain, is at a private address (wildcard DNS)`
      : from !== undefined && this.blockedPages.has(from)
        ? `${host} not contacted: ${this.blockedPages.get(from)}, linked from the same page, is at a private address`
        : '';
    if (detail) {
      this.refused.set(host, detail);
      this.example(host, detail);
    }
    return detail;
  }

  private example(host: string, detail: string): void {
    if (this.examples.length < MAX_EXAMPLES) this.examples.push({ host, detail });
  }

  /** Resolves when the next request to `host` made through {@link guardFetch} ends. */
  private nextAnswer(host: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiters = this.answerWaiters.get(host) ?? [];
      waiters.push(resolve);
      this.answerWaiters.set(host, waiters);
    });
  }

  private async answered(host: string, response: Promise<Response>): Promise<Response> {
    try {
      return await response;
    } finally {
      const waiters = this.answerWaiters.get(host);
      this.answerWaiters.delete(host);
      for (const wake of waiters ?? []) wake();
    }
  }
}

/** A run's refused hosts as one line for its summary ('' when none). */
export function describeRefusedHosts(refused: RefusedHosts): string {
  if (refused.privateAddress === 0 && refused.notContacted === 0) return '';
  const names = (n: number) => `${n} host name${n === 1 ? '' : 's'}`;
  const more = refused.notContacted ? `; ${names(refused.notContacted)} of the same domains or linking pages not contacted` : '';
  return `Refused ${names(refused.privateAddress)} at private addresses${more}.`;
}

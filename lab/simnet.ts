/**
 * The lab's simulated network: a `fetch` that answers from the corpus (the very bytes the HTTP server would send,
 * from memory) after the latency and transfer time a {@link SimulatedNetwork} draws, counted on a virtual clock's
 * timers; and the discrete-event driver that runs a crawl on that clock. The crawl loop, fetcher, politeness
 * scheduler and strategies are the engine's own; only time and the wire are simulated, so nothing waits for real
 * and the same seeds give the same crawl, bit for bit.
 */
import type { Clock } from '../lib/engine';
import type { LocalWeb } from './docweb/server';
import type { SimulatedNetwork } from './network';

/** A clock the driver can advance: the engine's VirtualClock (lib/engine/clock.ts). */
export type DrivableClock = Clock & { fireNext(): boolean };

/** One request as the simulated network saw it. */
export interface SimulatedRequest {
  url: string;
  site: string;
  /** Clock time the request was sent. */
  at: number;
  /** Clock time the headers came (undefined: never, or aborted first). */
  answeredAt?: number;
  status?: number;
  fate: 'answer' | 'server-error' | 'no-answer' | 'refused';
}

export interface SimulatedFetchOptions {
  web: Pick<LocalWeb, 'origins' | 'portal' | 'respond'>;
  network: SimulatedNetwork;
  clock: Clock;
  /** The fetcher's body cap: a body is transferred up to this many bytes (the fetcher stops reading there). */
  maxBytes: number;
  /** When given, every request is appended here. */
  log?: SimulatedRequest[];
  /**
   * A request that gets no answer fails as a network error after this long. Set it above the fetcher's own
   * timeout, which then decides; it only keeps a client without a timeout from waiting forever. Default 60 s.
   */
  giveUpMs?: number;
}

function abortError(signal?: AbortSignal | null): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * A `fetch` over the simulated network (GET only; honours `signal`). A request to a host the web does not serve
 * fails like a refused connection, at once. Otherwise the network decides its fate: no answer at all (the caller's
 * own timeout must end it), a server error, or the page; headers come after the drawn latency, the body after the
 * transfer time of its first `maxBytes` bytes.
 */
export function simulatedFetch(options: SimulatedFetchOptions): typeof fetch {
  const { web, network, clock, maxBytes, log } = options;
  const giveUpMs = options.giveUpMs ?? 60_000;
  const siteByOrigin = new Map(Object.entries(web.origins).map(([site, origin]) => [origin, site]));
  const portalSite = '(portal)';
  const attempts = new Map<string, number>();

  return (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const signal = init?.signal ?? undefined;
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return Promise.reject(new TypeError(`fetch failed: invalid URL ${href}`));
    }
    const site = url.origin === web.portal ? portalSite : siteByOrigin.get(url.origin);
    const record: SimulatedRequest = { url: url.href, site: site ?? url.host, at: clock.now(), fate: 'refused' };
    log?.push(record);
    if (site === undefined) return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const attempt = attempts.get(url.href) ?? 0;
    attempts.set(url.href, attempt + 1);
    // The portal is not one of the corpus's sites: it answers like the fastest of them, without failures.
    const fate = site === portalSite ? ({ kind: 'answer', latencyMs: 0 } as const) : network.request(site, url.href, attempt);
    record.fate = fate.kind;

    return new Promise<Response>((resolve, reject) => {
      let timer: unknown;
      const onAbort = () => {
        clock.clearTimer(timer);
        reject(abortError(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (fate.kind === 'no-answer') {
        timer = clock.setTimer(() => {
          signal?.removeEventListener('abort', onAbort);
          reject(new TypeError('fetch failed', { cause: { code: 'ETIMEDOUT' } }));
        }, giveUpMs);
        return;
      }
      timer = clock.setTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        record.answeredAt = clock.now();
        const served =
          fate.kind === 'server-error'
            ? {
                status: fate.status,
                contentType: 'text/html',
                body: Buffer.from(`<!DOCTYPE html><title>${fate.status}</title>\n`),
              }
            : web.respond(url.href);
        record.status = served.status;
        const bytes = served.body.subarray(0, maxBytes + 1);
        const transferMs = site === portalSite ? 0 : network.transferMs(site, Math.min(served.body.length, maxBytes));
        const headers: Record<string, string> = {
          'content-type': served.contentType,
          'content-length': String(served.body.length),
        };
        if (served.location) headers.location = served.location;
        resolve(new Response(bodyStream(bytes, transferMs, clock, signal), { status: served.status, headers }));
      }, fate.latencyMs);
    });
  };
}

/** A body that arrives in one piece `transferMs` after the headers, or errors when `signal` aborts first. */
function bodyStream(bytes: Uint8Array, transferMs: number, clock: Clock, signal?: AbortSignal): ReadableStream<Uint8Array> {
  let timer: unknown;
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onAbort = () => {
        if (settled) return;
        settled = true;
        clock.clearTimer(timer);
        controller.error(abortError(signal));
      };
      timer = clock.setTimer(() => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if (bytes.length) controller.enqueue(bytes);
        controller.close();
      }, transferMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    },
    cancel() {
      settled = true;
      clock.clearTimer(timer);
    },
  });
}

/** Lets every pending promise callback run: one turn of Node's event loop (setImmediate runs after all microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `work` on simulated time: lets every pending promise callback run, then fires the clock's next timer, until
 * `work` settles. Throws when nothing is scheduled while the work is not done (a stall: it would wait forever).
 */
export async function driveOnClock<T>(clock: DrivableClock, work: Promise<T>): Promise<T> {
  let finished = false;
  const result = work.finally(() => {
    finished = true;
  });
  result.catch(() => {}); // rejections are returned below, not reported as unhandled meanwhile
  while (!finished) {
    await settle();
    if (finished) break;
    if (!clock.fireNext()) {
      await settle();
      if (!finished) throw new Error(`simulated crawl stalled at ${clock.now()} ms: no timer set and the crawl is not done`);
    }
  }
  return result;
}

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
  /**
   * The web's answers kept as sent, shared by the crawls of a thread (see {@link SentAnswers}); its `maxBytes` must
   * be this fetch's. Without it, every request asks `web.respond`.
   */
  answers?: SentAnswers;
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

/** What the simulated network sends of one answer: at most the first `maxBytes` + 1 bytes of its body. */
export interface SentAnswer {
  status: number;
  contentType: string;
  location?: string;
  /** The whole body's length (Content-Length). */
  length: number;
  /** The body's first `maxBytes` + 1 bytes (or all of it). */
  bytes: Uint8Array;
}

/**
 * A web's answers as the simulated network sends them, by URL, kept up to `capacityBytes` bytes (least recently used
 * dropped first). The network never sends more than the fetcher's cap (`maxBytes`) and one byte more (so the fetcher
 * sees the cut), so a long page is kept as that much: the crawls of a thread meet the same pages again and again
 * (the 11 strategies of a DocWeb-L topic 5,000-8,000 pages, 250-370 MB of whole files, three times each), and
 * rendering a page again (reading, unzipping and rewriting its file) costs more than keeping what is sent.
 */
export class SentAnswers {
  private readonly map = new Map<string, SentAnswer>();
  private bytes = 0;

  constructor(
    private readonly web: Pick<LocalWeb, 'respond'>,
    readonly maxBytes: number,
    private readonly capacityBytes = DEFAULT_SENT_ANSWERS_BYTES,
  ) {}

  /** The answer to a GET of `url` (an absolute URL as `URL.href` writes it). */
  get(url: string): SentAnswer {
    let answer = this.map.get(url);
    if (answer !== undefined) {
      this.map.delete(url); // most recently used last
      this.map.set(url, answer);
      return answer;
    }
    const served = this.web.respond(url);
    const body = served.body;
    // A long body is copied, so its whole file is not held through a view of it.
    const bytes = body.length > this.maxBytes + 1 ? Buffer.from(body.subarray(0, this.maxBytes + 1)) : body;
    answer = {
      status: served.status,
      contentType: served.contentType,
      ...(served.location !== undefined ? { location: served.location } : {}),
      length: body.length,
      bytes,
    };
    this.map.set(url, answer);
    this.bytes += bytes.byteLength;
    for (const [key, old] of this.map) {
      if (this.bytes <= this.capacityBytes || key === url) break;
      this.map.delete(key);
      this.bytes -= old.bytes.byteLength;
    }
    return answer;
  }

  /** Answers kept. */
  get size(): number {
    return this.map.size;
  }
}

/** Bytes of answers a thread keeps by default: most of a run's working set (DocWeb-L capped: 1.24 GB in all). */
export const DEFAULT_SENT_ANSWERS_BYTES = 512 * 2 ** 20;

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
  const { web, network, clock, maxBytes, log, answers } = options;
  if (answers && answers.maxBytes !== maxBytes) throw new Error(`answers kept for ${answers.maxBytes} bytes, not ${maxBytes}`);
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
        let status: number;
        let contentType: string;
        let length: number;
        let location: string | undefined;
        let bytes: Uint8Array;
        if (fate.kind === 'server-error') {
          status = fate.status;
          contentType = 'text/html';
          bytes = Buffer.from(`<!DOCTYPE html><title>${fate.status}</title>\n`);
          length = bytes.length;
        } else if (answers) {
          const a = answers.get(url.href);
          ({ status, contentType, length, location, bytes } = a);
        } else {
          const served = web.respond(url.href);
          ({ status, contentType, location } = served);
          length = served.body.length;
          bytes = served.body.subarray(0, maxBytes + 1);
        }
        record.status = status;
        const transferMs = site === portalSite ? 0 : network.transferMs(site, Math.min(length, maxBytes));
        resolve(simulatedResponse(status, contentType, length, location, bytes, transferMs, clock, signal));
      }, fate.latencyMs);
    });
  };
}

/**
 * What the simulated fetch answers: the part of a `Response` the engine's fetcher reads (`status`, `type`, `url`,
 * `headers.get`, the body as a stream with `getReader`/`cancel`, plus `text`/`arrayBuffer`), in plain objects. A real
 * `Response` with its `Headers` and `ReadableStream` cost the lab several percent of a crawl's CPU and much of its
 * garbage. The body arrives in one piece `transferMs` after the headers (the timer is set at once, as a stream's
 * start would), or errors when `signal` aborts first; cancelling it stops the timer.
 */
function simulatedResponse(
  status: number,
  contentType: string,
  contentLength: number,
  location: string | undefined,
  bytes: Uint8Array,
  transferMs: number,
  clock: Clock,
  signal?: AbortSignal,
): Response {
  const headers = new SimulatedHeaders(contentType, String(contentLength), location);
  return new SimulatedResponse(status, headers, new SimulatedBody(bytes, transferMs, clock, signal)) as unknown as Response;
}

/** The few headers a simulated answer has (names matched without case, as `Headers.get` matches them). */
class SimulatedHeaders {
  constructor(
    private readonly contentType: string,
    private readonly contentLength: string,
    private readonly location: string | undefined,
  ) {}

  get(name: string): string | null {
    switch (name.toLowerCase()) {
      case 'content-type':
        return this.contentType;
      case 'content-length':
        return this.contentLength;
      case 'location':
        return this.location ?? null;
      default:
        return null;
    }
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

class SimulatedResponse {
  readonly type = 'basic';
  readonly url = '';
  readonly redirected = false;
  readonly ok: boolean;
  private used = false;

  constructor(
    readonly status: number,
    readonly headers: SimulatedHeaders,
    readonly body: SimulatedBody,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.all();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.all());
  }

  private async all(): Promise<Uint8Array> {
    if (this.used) throw new TypeError('the body was read already');
    this.used = true;
    const reader = this.body.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    return Buffer.concat(chunks);
  }
}

/**
 * A body (the part of a `ReadableStream` a reader uses) that arrives in one piece `transferMs` after the headers, or
 * errors when `signal` aborts first. The transfer's timer is set at once, as the stream's start would set it.
 */
class SimulatedBody {
  /** 'waiting' for the transfer, 'arrived' (not read yet), 'read' (the one chunk was read), 'closed', 'errored'. */
  private state: 'waiting' | 'arrived' | 'read' | 'closed' | 'errored' = 'waiting';
  private error: unknown;
  private pending: { resolve(r: ReadableStreamReadResult<Uint8Array>): void; reject(e: unknown): void } | undefined;
  private readonly timer: unknown;
  private reader: SimulatedReader | undefined;

  constructor(
    private readonly bytes: Uint8Array,
    transferMs: number,
    private readonly clock: Clock,
    private readonly signal?: AbortSignal,
  ) {
    this.timer = clock.setTimer(() => {
      if (this.state !== 'waiting') return;
      signal?.removeEventListener('abort', this.onAbort);
      this.state = bytes.length ? 'arrived' : 'read';
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve(this.take());
    }, transferMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = () => {
    if (this.state !== 'waiting') return;
    this.clock.clearTimer(this.timer);
    this.state = 'errored';
    this.error = abortError(this.signal);
    this.pending?.reject(this.error);
    this.pending = undefined;
  };

  get locked(): boolean {
    return this.reader !== undefined;
  }

  getReader(): SimulatedReader {
    if (this.reader) throw new TypeError('the body is locked to a reader');
    this.reader = new SimulatedReader(this);
    return this.reader;
  }

  cancel(): Promise<void> {
    if (this.reader) return Promise.reject(new TypeError('the body is locked to a reader'));
    return this.stop();
  }

  /** The reader's read. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    if (this.state === 'errored') return Promise.reject(this.error);
    if (this.state !== 'waiting') return Promise.resolve(this.take());
    if (this.pending) return Promise.reject(new TypeError('a read is already pending'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
    });
  }

  /** Cancels the transfer (nothing more will arrive). */
  stop(): Promise<void> {
    if (this.state === 'waiting') {
      this.clock.clearTimer(this.timer);
      this.signal?.removeEventListener('abort', this.onAbort);
    }
    if (this.state !== 'errored') this.state = 'closed';
    this.pending?.resolve({ done: true, value: undefined });
    this.pending = undefined;
    return Promise.resolve();
  }

  release(): void {
    this.reader = undefined;
  }

  private take(): ReadableStreamReadResult<Uint8Array> {
    if (this.state === 'arrived') {
      this.state = 'read';
      return { done: false, value: this.bytes };
    }
    this.state = 'closed';
    return { done: true, value: undefined };
  }
}

class SimulatedReader {
  constructor(private readonly body: SimulatedBody) {}
  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    return this.body.read();
  }
  cancel(): Promise<void> {
    return this.body.stop();
  }
  releaseLock(): void {
    this.body.release();
  }
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

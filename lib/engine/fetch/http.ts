/**
 * Low-level HTTP helpers shared by the page fetcher and the robots.txt cache: request init, deadlines that
 * cover headers and body, bounded streaming body reads, Content-Type handling and HTML sniffing.
 * Pure TypeScript: runs in Node, a service worker and a Web Worker.
 */
import { type Clock, realClock, type TimerHandle } from '../clock';
import type { Validators } from '../types';

/** Default User-Agent of every request (browsers silently drop it from fetch; Node sends it). */
export const DEFAULT_USER_AGENT = 'Forager/0.1 (+personal topical crawler)';

/** Accept header of page requests. */
export const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

/** Media types returned as pages. */
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Status codes that carry a Location to follow. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The RequestInit of every crawler request: no cookies or HTTP auth from the user's profile, no HTTP cache,
 * redirects handled by the caller so each hop can be checked. With `validators`, the request is conditional
 * (If-None-Match, If-Modified-Since): the HTTP cache is still off ('no-store'), so the server's 304 reaches the caller
 * as it is, instead of being answered from (or merged into) the browser's cache.
 */
export function requestInit(
  userAgent: string,
  accept: string,
  signal: AbortSignal,
  redirect: RequestRedirect = 'manual',
  validators?: Validators,
): RequestInit {
  const headers: Record<string, string> = { Accept: accept, 'User-Agent': userAgent };
  if (validators?.etag) headers['If-None-Match'] = validators.etag;
  if (validators?.lastModified) headers['If-Modified-Since'] = validators.lastModified;
  return { method: 'GET', credentials: 'omit', cache: 'no-store', redirect, headers, signal };
}

/**
 * Longest validators kept (characters): a real ETag is a hash, a Last-Modified an HTTP date. A longer one is dropped,
 * not cut (a cut validator never matches), so a page's stored validators stay small and its export re-imports.
 */
export const MAX_VALIDATOR_CHARS = { etag: 1000, lastModified: 200 } as const;

/** A response's validators, each dropped when over {@link MAX_VALIDATOR_CHARS}. */
export function responseValidators(headers: Headers): Validators {
  const etag = headers.get('etag') ?? undefined;
  const lastModified = headers.get('last-modified') ?? undefined;
  return {
    ...(etag !== undefined && etag.length <= MAX_VALIDATOR_CHARS.etag ? { etag } : {}),
    ...(lastModified !== undefined && lastModified.length <= MAX_VALIDATOR_CHARS.lastModified ? { lastModified } : {}),
  };
}

/** Whether there is anything to make a request conditional on. */
export function hasValidators(validators: Validators | undefined): validators is Validators {
  return !!validators && (!!validators.etag || !!validators.lastModified);
}

/** Thrown by {@link Deadline.race} when the deadline expires or the caller aborts. */
export class DeadlineError extends Error {
  constructor(readonly kind: 'timeout' | 'aborted') {
    super(kind === 'timeout' ? 'timed out' : 'aborted');
    this.name = 'DeadlineError';
  }
}

/**
 * One request's time budget combined with the caller's AbortSignal. `signal` is handed to `fetch`, and
 * {@link race} also guards every await, so a `fetch` implementation that ignores its signal cannot hang us.
 * The budget runs on `clock` (simulated time in the lab).
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: TimerHandle | undefined;
  private readonly onOuterAbort = () => this.fire('aborted');
  private readonly listeners = new Set<(kind: 'timeout' | 'aborted') => void>();
  /** Why the deadline fired, once it has. */
  kind: 'timeout' | 'aborted' | undefined;

  constructor(
    timeoutMs: number,
    private readonly outer?: AbortSignal,
    private readonly clock: Clock = realClock,
  ) {
    if (outer?.aborted) {
      this.fire('aborted');
      return;
    }
    outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.timer = clock.setTimer(() => this.fire('timeout'), Math.max(0, timeoutMs));
  }

  /** Aborts on timeout or when the caller aborts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private fire(kind: 'timeout' | 'aborted'): void {
    if (this.kind) return;
    this.kind = kind;
    this.controller.abort(new DeadlineError(kind));
    for (const listener of this.listeners) listener(kind);
    this.listeners.clear();
    this.dispose();
  }

  /** Resolves like `promise`, or rejects with a {@link DeadlineError} as soon as the deadline fires. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.kind) {
      promise.catch(noop);
      return Promise.reject(new DeadlineError(this.kind));
    }
    return new Promise<T>((resolve, reject) => {
      const listener = (kind: 'timeout' | 'aborted') => reject(new DeadlineError(kind));
      this.listeners.add(listener);
      promise.then(
        (value) => {
          this.listeners.delete(listener);
          resolve(value);
        },
        (error: unknown) => {
          this.listeners.delete(listener);
          reject(error);
        },
      );
    });
  }

  /** Stops the timer and detaches from the caller's signal (does not abort). */
  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

/** Classifies a thrown error: deadline (timeout / caller abort) or a network failure with a readable detail. */
export function classifyError(error: unknown, deadline: Deadline): { reason: 'timeout' | 'aborted' | 'network'; detail: string } {
  const kind = error instanceof DeadlineError ? error.kind : deadline.kind;
  if (kind === 'timeout') return { reason: 'timeout', detail: '' };
  if (kind === 'aborted') return { reason: 'aborted', detail: 'aborted' };
  return { reason: 'network', detail: describeNetworkError(error) };
}

/** 'fetch failed: ECONNREFUSED' and the like; undici hides the useful part in `cause`. */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return `network error: ${String(error)}`;
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause && typeof cause === 'object') {
    const code = (cause as { code?: unknown }).code;
    const message = (cause as { message?: unknown }).message;
    const extra = typeof code === 'string' ? code : typeof message === 'string' ? message : '';
    if (extra) return `${error.message}: ${extra}`;
  }
  return error.message || error.name || 'network error';
}

const noop = () => {};

/** Releases a response body that will not be read (keeps hostile servers from holding sockets and memory). */
export function discardBody(response: Response): void {
  try {
    if (response.body && !response.body.locked) void response.body.cancel().catch(noop);
  } catch {
    // A body that cannot be cancelled is already gone.
  }
}

/**
 * Reads a response body as a stream, keeping at most `maxBytes` bytes; the rest is cancelled unread.
 * `truncated` is true when the body was cut (or filled the cap exactly without a Content-Length saying so).
 */
export async function readBodyCapped(
  response: Response,
  maxBytes: number,
  deadline: Deadline,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  const stream = response.body;
  if (!stream) return { body: new Uint8Array(0), truncated: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  let finished = false;
  try {
    while (total < maxBytes) {
      const { done, value } = await deadline.race(reader.read());
      if (done) {
        finished = true;
        break;
      }
      if (!value || value.byteLength === 0) continue;
      const room = maxBytes - total;
      if (value.byteLength > room) {
        chunks.push(value.subarray(0, room));
        total += room;
        truncated = true;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
    }
    if (!finished && !truncated) {
      // Cap reached exactly: only a Content-Length equal to the cap proves nothing was left.
      truncated = Number(response.headers.get('content-length')) !== maxBytes;
    }
  } finally {
    if (!finished) void reader.cancel().catch(noop);
    else reader.releaseLock();
  }
  return { body: concat(chunks, total), truncated };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  // One chunk (a small page, or a body that arrives whole) is the body as it is: the stream handed it over.
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Lower-cased media type of a Content-Type value without parameters; '' when absent or empty. */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** text/html or application/xhtml+xml. */
export function isHtmlMediaType(type: string): boolean {
  return HTML_TYPES.has(type);
}

/** True for 301/302/303/307/308. */
export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

// WHATWG MIME Sniffing, "identifying a resource with an unknown MIME type": the HTML patterns.
const HTML_SIGNATURES = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

/**
 * Whether bytes served without a Content-Type look like HTML: after an optional UTF-8 BOM and whitespace,
 * one of the WHATWG sniffing signatures ('<!doctype html', '<html', '<head', '<body', ...) followed by a
 * space, '>' or (a small extension of the standard) any other whitespace.
 */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && isWhitespaceByte(bytes[i])) i++;
  for (const signature of HTML_SIGNATURES) {
    const end = i + signature.length;
    if (end >= bytes.length) continue;
    let match = true;
    for (let k = 0; k < signature.length; k++) {
      let b = bytes[i + k];
      if (b >= 0x41 && b <= 0x5a) b += 0x20; // ASCII lower case
      if (b !== signature.charCodeAt(k)) {
        match = false;
        break;
      }
    }
    if (match && (bytes[end] === 0x3e || isWhitespaceByte(bytes[end]))) return true;
  }
  return false;
}

function isWhitespaceByte(b: number): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
}

/**
 * Retry-After in milliseconds from `now` (delta-seconds or an HTTP date), or undefined when absent or
 * unreadable. Negative values become 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * A signal that aborts when any of `signals` does (AbortSignal.any is missing from older browsers).
 * Call `dispose` to detach the listeners once the work is done.
 */
export function linkedSignal(signals: (AbortSignal | undefined)[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  const onAbort = () => controller.abort();
  for (const s of present) {
    if (s.aborted) {
      controller.abort();
      break;
    }
    s.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const s of present) s.removeEventListener('abort', onAbort);
    },
  };
}

/** Resolves like `promise` unless `signal` aborts first (then rejects with a DeadlineError 'aborted'). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(noop);
    return Promise.reject(new DeadlineError('aborted'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DeadlineError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

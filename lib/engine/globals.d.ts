/**
 * The only globals the engine may use: web-standard APIs that Node 20, a browser's service worker and a Worker all
 * have. `tsconfig.engine.json` compiles lib/engine against these alone (no DOM, no Node types), so a browser or
 * Node API used in the engine fails the typecheck; the lint rules in eslint.config.js forbid them by name too.
 * Shapes follow TypeScript's lib.dom.d.ts, cut to what the engine uses.
 */
export {};

declare global {
  interface EventListenerOptionsLike {
    once?: boolean;
  }

  interface AbortSignal {
    readonly aborted: boolean;
    readonly reason: unknown;
    addEventListener(type: 'abort', listener: () => void, options?: EventListenerOptionsLike): void;
    removeEventListener(type: 'abort', listener: () => void): void;
    throwIfAborted(): void;
  }
  var AbortSignal: {
    prototype: AbortSignal;
    abort(reason?: unknown): AbortSignal;
    timeout(ms: number): AbortSignal;
    any(signals: AbortSignal[]): AbortSignal;
  };

  interface AbortController {
    readonly signal: AbortSignal;
    abort(reason?: unknown): void;
  }
  var AbortController: { prototype: AbortController; new (): AbortController };

  interface URLSearchParams extends Iterable<[string, string]> {
    readonly size: number;
    append(name: string, value: string): void;
    delete(name: string): void;
    get(name: string): string | null;
    getAll(name: string): string[];
    has(name: string): boolean;
    set(name: string, value: string): void;
    sort(): void;
    keys(): IterableIterator<string>;
    entries(): IterableIterator<[string, string]>;
    forEach(callback: (value: string, key: string) => void): void;
    toString(): string;
  }
  var URLSearchParams: {
    prototype: URLSearchParams;
    new (init?: string | Record<string, string> | [string, string][]): URLSearchParams;
  };

  interface URL {
    hash: string;
    host: string;
    hostname: string;
    href: string;
    readonly origin: string;
    password: string;
    pathname: string;
    port: string;
    protocol: string;
    search: string;
    readonly searchParams: URLSearchParams;
    username: string;
    toString(): string;
    toJSON(): string;
  }
  var URL: { prototype: URL; new (url: string | URL, base?: string | URL): URL; canParse(url: string, base?: string): boolean };

  interface TextDecoder {
    readonly encoding: string;
    readonly fatal: boolean;
    decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
  }
  var TextDecoder: {
    prototype: TextDecoder;
    new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
  };

  interface TextEncoder {
    encode(input?: string): Uint8Array;
  }
  var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };

  interface Headers {
    get(name: string): string | null;
    has(name: string): boolean;
    forEach(callback: (value: string, key: string) => void): void;
  }

  interface ReadableStreamReadResult<T> {
    done: boolean;
    value?: T;
  }
  interface ReadableStreamDefaultReader<T> {
    read(): Promise<ReadableStreamReadResult<T>>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  }
  interface ReadableStream<T> {
    readonly locked: boolean;
    getReader(): ReadableStreamDefaultReader<T>;
    cancel(reason?: unknown): Promise<void>;
  }

  interface Response {
    readonly body: ReadableStream<Uint8Array> | null;
    readonly headers: Headers;
    readonly ok: boolean;
    readonly redirected: boolean;
    readonly status: number;
    readonly statusText: string;
    readonly type: string;
    readonly url: string;
    arrayBuffer(): Promise<ArrayBuffer>;
    text(): Promise<string>;
  }

  type RequestRedirect = 'error' | 'follow' | 'manual';
  type RequestCredentials = 'include' | 'omit' | 'same-origin';
  type RequestCache = 'default' | 'force-cache' | 'no-cache' | 'no-store' | 'only-if-cached' | 'reload';
  type ReferrerPolicy =
    | ''
    | 'no-referrer'
    | 'no-referrer-when-downgrade'
    | 'origin'
    | 'origin-when-cross-origin'
    | 'same-origin'
    | 'strict-origin'
    | 'strict-origin-when-cross-origin'
    | 'unsafe-url';
  type RequestMode = 'cors' | 'navigate' | 'no-cors' | 'same-origin';
  interface RequestInit {
    method?: string;
    headers?: Record<string, string>;
    redirect?: RequestRedirect;
    credentials?: RequestCredentials;
    cache?: RequestCache;
    referrerPolicy?: ReferrerPolicy;
    mode?: RequestMode;
    signal?: AbortSignal | null;
  }
  function fetch(input: string | URL, init?: RequestInit): Promise<Response>;

  function setTimeout(handler: () => void, timeout?: number): unknown;
  function clearTimeout(id: unknown): void;
  function queueMicrotask(callback: () => void): void;
  function structuredClone<T>(value: T): T;

  interface Console {
    log(...data: unknown[]): void;
    warn(...data: unknown[]): void;
    error(...data: unknown[]): void;
  }
  var console: Console;
}

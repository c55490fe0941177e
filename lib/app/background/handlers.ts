/**
 * The background's request handler: protocol message in, Reply out. One handler per request type in one table that
 * `satisfies` the protocol (lib/app/model/protocol.ts), so each answer is type-checked against what the UI expects.
 * Browser-free (tab inspection is injected), so the whole protocol surface is tested under Node; background.ts only
 * connects it to runtime.onMessage.
 */
import { errorMessage } from '../../engine';
import type {
  AnswerOf,
  ForagerRequest,
  Reply,
  RequestHandlers,
  RequestOf,
  RequestType,
  StrategyDescription,
  TabContext,
} from '../model/protocol';
import { MAX_WINDOW } from '../model/protocol';
import { applyRetention, checkRetention, type Library, parseCrawlExport, type RetentionSettings } from '../library';
import type { CrawlRunner } from '../runner';
import { DEFAULT_SETTINGS } from '../rules/settings';
import type { CrawlStore } from '../model/records';
import type { Watcher } from '../watch/watcher';

export interface RequestDeps {
  runner: CrawlRunner;
  store: CrawlStore;
  strategies(): StrategyDescription[];
  inspectTab(tabId: number): Promise<TabContext>;
  library: Library;
  retention: RetentionSettings;
  watcher: Watcher;
  /** Awaited before any request: the background's start-up recovery. */
  ready?: Promise<unknown>;
  /** Empties the extension's own storage (storage.local and the like; the crawls are the store's), for deleteAll. */
  clearStorage?(): Promise<void>;
}

function crawlId(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new Error('Missing crawl id.');
  return value;
}

/** A window request's offset and limit, whatever the message held: whole numbers, limit at most MAX_WINDOW. */
function windowOf(offset: unknown, limit: unknown): { offset: number; limit: number } {
  return {
    offset: Math.max(0, Math.floor(Number(offset ?? 0)) || 0),
    limit: Math.min(MAX_WINDOW, Math.max(0, Math.floor(Number(limit ?? MAX_WINDOW)) || 0)),
  };
}

/** The protocol table's handlers. Messages come from the extension's own pages, but are still checked as untrusted. */
const HANDLERS = {
  'forager/ping': async (_req, { runner }) => ({ activeCrawl: runner.activeId }),
  'forager/inspectTab': async (req, { inspectTab }) => {
    if (!Number.isInteger(req.tabId)) throw new Error('No tab to read.');
    return inspectTab(req.tabId);
  },
  'forager/start': (req, { runner }) => runner.start(req.start),
  'forager/pause': (req, { runner }) => runner.pause(crawlId(req.id)),
  'forager/resume': (req, { runner }) => runner.resume(crawlId(req.id)),
  'forager/stop': (req, { runner }) => runner.stop(crawlId(req.id)),
  'forager/rename': (req, { runner }) => runner.rename(crawlId(req.id), req.name),
  'forager/delete': async (req, { runner }) => {
    await runner.remove(crawlId(req.id));
    return true as const;
  },
  'forager/deleteAll': async (_req, { runner, clearStorage }) => {
    await runner.removeAll();
    await clearStorage?.();
    return true as const;
  },
  'forager/list': (_req, { runner }) => runner.list(),
  'forager/snapshot': (req, { runner }) =>
    runner.snapshot(typeof req.id === 'string' && req.id ? req.id : undefined, Number(req.limit ?? 50)),
  'forager/pages': (req, { store }) => store.getPages(crawlId(req.id), windowOf(req.offset, req.limit)),
  'forager/skips': (req, { store }) => store.getSkips(crawlId(req.id), windowOf(req.offset, req.limit)),
  'forager/strategies': async (_req, { strategies }) => strategies(),
  'forager/defaults': async () => ({ ...DEFAULT_SETTINGS, params: { ...DEFAULT_SETTINGS.params } }),
  'forager/search': (req, { library }) => library.search(typeof req.query === 'string' ? req.query : '', Number(req.limit ?? 50)),
  'forager/import': async (req, { runner, library, retention }) => {
    const record = await runner.importCrawl(parseCrawlExport(req.json));
    await applyRetention(runner, library, await retention.get());
    return record;
  },
  'forager/pin': (req, { runner }) => runner.pin(crawlId(req.id), req.pinned === true),
  'forager/judge': (req, { runner }) => runner.judge(crawlId(req.id), req.url, req.value),
  'forager/hideSite': (req, { runner }) => runner.hideSite(crawlId(req.id), req.site, req.hidden === true),
  'forager/library': async (_req, { runner, library, retention }) => {
    const [crawls, sizes, pages, policy] = await Promise.all([
      runner.list(),
      library.sizes(),
      library.pageCount(),
      retention.get(),
    ]);
    let bytes = 0;
    for (const b of sizes.values()) bytes += b;
    return { crawls: crawls.length, pages, bytes, retention: policy };
  },
  'forager/setRetention': async (req, { runner, library, retention }) => {
    const policy = checkRetention(req.policy);
    await retention.set(policy);
    return { retention: policy, deleted: await applyRetention(runner, library, policy) };
  },
  'forager/watch': (req, { watcher }) => watcher.watch(crawlId(req.id), req.schedule),
  'forager/unwatch': (req, { watcher }) => watcher.unwatch(crawlId(req.id)),
  'forager/checkNow': (req, { watcher }) => watcher.checkNow(crawlId(req.id)),
  'forager/watchView': (req, { watcher }) => watcher.view(crawlId(req.id)),
  'forager/watchSeen': async (req, { watcher }) => {
    await watcher.seen(crawlId(req.id));
    return true as const;
  },
} satisfies RequestHandlers<RequestDeps>;

/** True for messages meant for the background's request handler (and nothing else: not the evaluator's hand-offs). */
export function isForagerRequest(message: unknown): message is ForagerRequest {
  if (typeof message !== 'object' || message === null) return false;
  const { type, target } = message as { type?: unknown; target?: unknown };
  return typeof type === 'string' && Object.hasOwn(HANDLERS, type) && target === undefined;
}

/** A request handler: a typed request gets its typed answer; anything else (unchecked messages) a Reply of unknown. */
export interface RequestHandler {
  <T extends RequestType>(message: RequestOf<T>): Promise<Reply<AnswerOf<T>>>;
  (message: unknown): Promise<Reply<unknown>>;
}

/** Makes the handler. It never throws: failures are `{ ok: false, error }` with a message for the user. */
export function createRequestHandler(deps: RequestDeps): RequestHandler {
  return async (message: unknown): Promise<Reply<unknown>> => {
    if (!isForagerRequest(message)) return { ok: false, error: 'Unknown request.' };
    try {
      await deps.ready;
      const handler = HANDLERS[message.type] as (req: ForagerRequest, deps: RequestDeps) => Promise<unknown>;
      return { ok: true, value: await handler(message, deps) };
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
  };
}

/** Strategies as plain data (the engine's entries carry a `create` function, which cannot be messaged). */
export function describeStrategies(list: readonly StrategyDescription[]): StrategyDescription[] {
  return list.map((s) => ({
    name: s.name,
    label: s.label,
    description: s.description,
    params: s.params.map((p) => ({ ...p })),
  }));
}

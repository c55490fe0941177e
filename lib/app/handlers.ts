/**
 * The background's request handler: protocol message in, Reply out. Browser-free (the tab inspection is injected),
 * so the whole protocol surface is tested under Node; background.ts only connects it to runtime.onMessage.
 */
import type { ForagerRequest, Reply, ResponseMap, StrategyInfo, TabContext } from './protocol';
import { isForagerRequest } from './protocol';
import type { CrawlStore } from './store/types';
import type { CrawlRunner } from './runner';
import { DEFAULT_SETTINGS } from './settings';

export interface RequestDeps {
  runner: CrawlRunner;
  store: CrawlStore;
  strategies(): StrategyInfo[];
  inspectTab(tabId: number): Promise<TabContext>;
  /** Awaited before any request: the background's start-up recovery. */
  ready?: Promise<unknown>;
  /** Empties the extension's own storage (storage.local and the like; the crawls are the store's), for deleteAll. */
  clearStorage?(): Promise<void>;
}

/** Largest page window one request returns (a results page asks in windows). */
export const MAX_PAGE_WINDOW = 5000;

function str(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new Error('Missing crawl id.');
  return value;
}

/** Makes the handler. It never throws: failures are `{ ok: false, error }` with a message for the user. */
export function createRequestHandler(deps: RequestDeps) {
  async function answer(req: ForagerRequest): Promise<unknown> {
    switch (req.type) {
      case 'forager/ping':
        return { ok: true, activeCrawl: deps.runner.activeId };
      case 'forager/inspectTab':
        if (!Number.isInteger(req.tabId)) throw new Error('No tab to read.');
        return deps.inspectTab(req.tabId);
      case 'forager/start':
        return deps.runner.start(req.start);
      case 'forager/pause':
        return deps.runner.pause(str(req.id));
      case 'forager/resume':
        return deps.runner.resume(str(req.id));
      case 'forager/stop':
        return deps.runner.stop(str(req.id));
      case 'forager/rename':
        return deps.runner.rename(str(req.id), req.name);
      case 'forager/delete':
        await deps.runner.remove(str(req.id));
        return true;
      case 'forager/deleteAll':
        await deps.runner.removeAll();
        await deps.clearStorage?.();
        return true;
      case 'forager/list':
        return deps.store.listCrawls();
      case 'forager/snapshot':
        return deps.runner.snapshot(typeof req.id === 'string' && req.id ? req.id : undefined, Number(req.limit ?? 50));
      case 'forager/pages': {
        const offset = Math.max(0, Math.floor(Number(req.offset ?? 0)) || 0);
        const limit = Math.min(MAX_PAGE_WINDOW, Math.max(0, Math.floor(Number(req.limit ?? MAX_PAGE_WINDOW)) || 0));
        return deps.store.getPages(str(req.id), { offset, limit });
      }
      case 'forager/skips':
        return deps.store.getSkips(str(req.id));
      case 'forager/strategies':
        return deps.strategies();
      case 'forager/defaults':
        return { ...DEFAULT_SETTINGS };
    }
  }

  return async function handle<T extends ForagerRequest['type']>(message: unknown): Promise<Reply<ResponseMap[T]>> {
    if (!isForagerRequest(message)) return { ok: false, error: 'Unknown request.' };
    try {
      await deps.ready;
      return { ok: true, value: (await answer(message)) as ResponseMap[T] };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
}

/** Strategies as plain data (lib/engine/strategies' entries carry a `create` function, which cannot be messaged). */
export function plainStrategies(
  list: { name: string; label: string; description: string; params: StrategyInfo['params'] }[],
): StrategyInfo[] {
  return list.map((s) => ({
    name: s.name,
    label: s.label,
    description: s.description,
    params: s.params.map((p) => ({ ...p })),
  }));
}

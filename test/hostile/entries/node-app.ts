/**
 * The extension's background without the browser (lib/app/background), in Node over a memory store, fetching with
 * the engine's fetcher (loopback allowed: the hostile servers run there). For entries whose trick is in what the app
 * accepts or keeps (an imported file, a watch), not in a browser's network stack.
 */
import { type BackgroundApp, createBackgroundApp } from '../../../lib/app/background/background-app';
import type { CrawlStore } from '../../../lib/app/model/records';
import { createMemoryStore } from '../../../lib/app/store/memory-store';
import { createFetcher } from '../../../lib/engine';
import { nodeBackgroundParts } from '../../../harness/background-parts';

const EXT = 'hostile-suite';
const OWN = 'chrome-extension://hostile-suite/';

export interface NodeApp {
  app: BackgroundApp;
  store: CrawlStore;
  /** A request as one of the extension's pages sends it; throws with the background's error when refused. */
  ask<T>(message: Record<string, unknown>): Promise<T>;
  /** The app's clock, moved by the entry (a watch's checks are days apart). */
  clock: { now: number };
}

export async function startNodeApp(): Promise<NodeApp> {
  const store = createMemoryStore();
  const clock = { now: Date.now() };
  const app = createBackgroundApp({
    ...nodeBackgroundParts(store, { extensionId: EXT, ownPagePrefix: OWN }),
    makeFetcher: () => createFetcher({ politenessDelayMs: 0, maxInFlight: 4, urlPolicy: { allowPrivate: 'loopback' } }),
    now: () => clock.now,
    onError: (e) => process.stderr.write(`  background: ${e instanceof Error ? e.message : String(e)}\n`),
  });
  await app.ready;
  return {
    app,
    store,
    clock,
    async ask<T>(message: Record<string, unknown>): Promise<T> {
      const reply = await app.onMessage(message, { id: EXT, url: `${OWN}results.html` });
      if (!reply?.ok) throw new Error(reply ? reply.error : 'not a request');
      return reply.value as T;
    },
  };
}

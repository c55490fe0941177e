/**
 * Chrome (MV3 service worker): no Worker and no battery in the worker, so both live in an offscreen document, made
 * once when first needed; the evaluator talks to its Worker directly over a MessagePort (lib/app/adapters/evaluator).
 */
import {
  BATTERY_QUERY,
  type BatteryAnswer,
  createPortEvaluator,
  type EvaluatorPortHandoff,
  type EvaluatorPorts,
  offscreenEnsurer,
  watchedEvents,
} from '../../lib/app';
import type { Platform } from './types';

/** Chrome-only APIs the polyfill's types do not cover. */
interface ChromeExtras {
  runtime: { getContexts(filter: { contextTypes: string[]; documentUrls?: string[] }): Promise<unknown[]> };
  offscreen: { createDocument(p: { url: string; reasons: string[]; justification: string }): Promise<void> };
}

/** The service worker's `clients` (the DOM typings this project compiles with do not declare it). */
interface ServiceWorkerClients {
  matchAll(options: {
    includeUncontrolled: boolean;
    type: 'window';
  }): Promise<{ url: string; postMessage(message: unknown, transfer: Transferable[]): void }[]>;
}

export function chromePlatform(): Platform {
  const chromeApi = (globalThis as unknown as { chrome: ChromeExtras }).chrome;
  const url = browser.runtime.getURL('/offscreen.html');
  /** Chrome's offscreen document, made once when first needed (the evaluator's Worker; the battery's state). */
  const ensureOffscreen = offscreenEnsurer({
    exists: async () =>
      (await chromeApi.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })).length > 0,
    create: () =>
      chromeApi.offscreen.createDocument({
        url,
        reasons: ['WORKERS', 'BATTERY_STATUS'],
        justification:
          'Parses and scores fetched pages in a Web Worker, off the service worker; reads the battery before a scheduled re-crawl.',
      }),
  });

  return {
    makeEvaluator() {
      const clients = (globalThis as unknown as { clients: ServiceWorkerClients }).clients;
      // Only when a new port is needed (first page, service-worker restart, Worker replaced): not per page.
      const deliver = async (ports: EvaluatorPorts, replace: boolean) => {
        for (let attempt = 0; ; attempt++) {
          const offscreen = (await clients.matchAll({ includeUncontrolled: true, type: 'window' })).find((c) => c.url === url);
          if (offscreen) {
            const handoff: EvaluatorPortHandoff = { type: 'forager/evaluator-port', replace };
            offscreen.postMessage(handoff, [ports.evaluator, ports.control]);
            return;
          }
          // createDocument has resolved, so it is normally listed at once; allow it a moment on a loaded machine.
          if (attempt >= 20) throw new Error('the offscreen document is not among the clients');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      return createPortEvaluator({ ensureReady: ensureOffscreen, deliver, timeoutMs: 15_000 });
    },

    /** The battery as the offscreen document reads it (the service worker has no getBattery); null: unknown. */
    async battery(): Promise<BatteryAnswer> {
      try {
        await ensureOffscreen();
        const answer = await Promise.race([
          browser.runtime.sendMessage(BATTERY_QUERY) as Promise<BatteryAnswer>,
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
        ]);
        return answer && typeof answer.charging === 'boolean' && typeof answer.level === 'number' ? answer : null;
      } catch {
        return null;
      }
    },

    dns: () => undefined,
    webRequestEvents: watchedEvents(false),
    screensRequests: false,
  };
}

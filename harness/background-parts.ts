/**
 * The browser parts of the extension's background (lib/app/background/background-app.ts) as Node stand-ins: the
 * in-process evaluator, every strategy, no tab to read, a session mark that is always there (a worker restart), and
 * a keep-alive that does nothing. Tests and the hostile-web suite add the store, the fetcher and what they watch.
 */
import type { BackgroundParts } from '../lib/app/background/background-app';
import { describeStrategies } from '../lib/app/background/handlers';
import type { CrawlStore } from '../lib/app/model/records';
import { listStrategies, localEvaluator } from '../lib/engine';

export function nodeBackgroundParts(
  store: CrawlStore,
  ids: { extensionId: string; ownPagePrefix: string },
): Omit<BackgroundParts, 'makeFetcher'> {
  return {
    store,
    evaluator: localEvaluator,
    strategies: () => describeStrategies(listStrategies()),
    inspectTab: async (tabId: number) => ({ tabId, url: '', title: '', serp: null }),
    session: { present: async () => true, set: async () => {} },
    keepAlive: {
      ping: () => {},
      startAlarm: () => {},
      stopAlarm: () => {},
      intervalMs: 20_000,
      setInterval: () => 1,
      clearInterval: () => {},
    },
    ...ids,
  };
}

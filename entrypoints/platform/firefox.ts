/**
 * Firefox (MV3 event page): the background has Worker itself, and `dns.resolve` with a blocking webRequest listener
 * screens every request's address before it is sent. Desktop Firefox hides the battery from extensions.
 */
import { createGuardedEvaluator, watchedEvents } from '../../lib/app';
import { spawnEvaluatorWorker } from '../worker/spawn';
import type { DnsApi, Platform } from './types';

export function firefoxPlatform(): Platform {
  return {
    makeEvaluator: () => createGuardedEvaluator({ spawn: spawnEvaluatorWorker, timeoutMs: 15_000 }),
    battery: async () => null,
    dns: () => (browser as unknown as { dns?: DnsApi }).dns,
    webRequestEvents: watchedEvents(true),
    screensRequests: true,
  };
}

/**
 * Chrome's offscreen document (reason WORKERS): hosts the evaluator Worker, which the service worker cannot start.
 * It answers only messages addressed to it (`target: 'offscreen'`); inputs arrive base64-encoded (runtime messaging
 * is JSON in Chrome) and move on to the Worker as a transferred buffer.
 */
import { createGuardedEvaluator } from '../../lib/background/guarded-evaluator';
import { fromWire } from '../../lib/background/wire';
import { isOffscreenRequest, type OffscreenRequest, type OffscreenResponse } from '../../lib/protocol';
import { spawnEvaluatorWorker } from '../worker/spawn';

const evaluator = createGuardedEvaluator({ spawn: spawnEvaluatorWorker, timeoutMs: 15_000 });

async function handle(message: OffscreenRequest): Promise<OffscreenResponse> {
  try {
    if (message.type === 'ping') return { ok: true, value: 'pong' };
    const value = await evaluator.evaluate(fromWire(message.input));
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

browser.runtime.onMessage.addListener((message: unknown) => {
  if (!isOffscreenRequest(message)) return undefined; // someone else's message
  return handle(message);
});

/**
 * Chrome's offscreen document (reason WORKERS): hosts the evaluator Worker, which the service worker cannot start.
 * It carries no evaluation traffic itself: the service worker posts it a MessagePort (`Client.postMessage`), which it
 * hands on to the Worker; calls then go service worker <-> Worker directly (lib/app/evaluator/port-evaluator).
 */
import { createEvaluatorHost } from '../../lib/app/evaluator/evaluator-host';
import { startEvaluatorWorker } from '../worker/spawn';

const host = createEvaluatorHost({ spawn: startEvaluatorWorker });

navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
  if (event.origin !== location.origin) return; // only this extension's service worker
  host.accept(event.data, event.ports);
});
// Messages posted before this script ran were queued; this delivers them (addEventListener alone does not).
navigator.serviceWorker.startMessages();

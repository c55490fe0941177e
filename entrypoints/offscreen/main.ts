/**
 * Chrome's offscreen document (reasons WORKERS and BATTERY_STATUS): hosts the evaluator Worker, which the service
 * worker cannot start. It carries no evaluation traffic itself: the service worker posts it a MessagePort
 * (`Client.postMessage`), which it hands on to the Worker; calls then go service worker <-> Worker directly
 * (lib/app/adapters/evaluator/port-evaluator). It also answers one runtime message, the battery's state (`navigator.getBattery`
 * exists in documents only), which a topic watch asks before a scheduled check.
 */
import { type BatteryAnswer, createEvaluatorHost, isBatteryQuery } from '../../lib/app';
import { startEvaluatorWorker } from '../worker/spawn';

const host = createEvaluatorHost({ spawn: startEvaluatorWorker });

navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
  if (event.origin !== location.origin) return; // only this extension's service worker
  host.accept(event.data, event.ports);
});
// Messages posted before this script ran were queued; this delivers them (addEventListener alone does not).
navigator.serviceWorker.startMessages();

browser.runtime.onMessage.addListener((message: unknown) => {
  if (!isBatteryQuery(message)) return undefined; // not ours
  const nav = navigator as Navigator & { getBattery?: () => Promise<{ charging: boolean; level: number }> };
  const read: Promise<BatteryAnswer> = nav.getBattery
    ? nav.getBattery().then(
        (b) => ({ charging: b.charging, level: b.level }),
        () => null,
      )
    : Promise.resolve(null);
  return read;
});

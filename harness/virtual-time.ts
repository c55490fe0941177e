/**
 * Running engine code on a VirtualClock from Node: the discrete-event driver (the engine cannot tell when promise
 * callbacks have settled; a macrotask turn can). Used by tests and the benchmark; the lab's network model drives the
 * same way.
 */
import type { VirtualClock } from '../lib/engine';

/**
 * Runs `work` to its end on `clock`: lets every pending promise callback run (one macrotask turn), then fires the next
 * timer, and so on. Nothing waits for real. Rejects if nothing is scheduled while the work is not done (a stall).
 */
export async function runOnVirtualClock<T>(clock: VirtualClock, work: Promise<T>): Promise<T> {
  let finished = false;
  const result = work.finally(() => {
    finished = true;
  });
  while (!finished) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!finished && !clock.fireNext()) {
      throw new Error(`stalled at ${clock.now()} ms: no timer is set and the work is not done`);
    }
  }
  return result;
}

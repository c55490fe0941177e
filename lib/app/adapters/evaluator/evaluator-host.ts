/**
 * The offscreen document's half of Chrome's evaluator (see port-evaluator.ts for the service worker's half): it keeps
 * one Worker and connects it to each port the service worker hands over.
 */
import { isEvaluatorPortHandoff, type EvaluatorCrashNotice, type WorkerPortHandoff } from '../../model/protocol';

/** The part of a Worker the host uses (a real Worker, or a fake in tests). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  terminate(): void;
}

export interface EvaluatorHost {
  /**
   * Handles one message from the service worker: true when it was a port hand-off (connected to the Worker), false
   * when it was not addressed here or lacked its ports.
   */
  accept(message: unknown, ports: readonly MessagePort[]): boolean;
  /** Workers started so far. */
  readonly spawned: number;
}

/**
 * The offscreen document's half: keeps one Worker and connects it to each port the service worker hands over (a
 * restarted service worker gets the running Worker back; `replace` gets a new one). A crashed Worker is dropped and
 * reported on the latest control port, so the service worker retries at once instead of waiting for its deadline.
 */
export function createEvaluatorHost(options: { spawn(onCrash: (reason: string) => void): WorkerLike }): EvaluatorHost {
  let worker: WorkerLike | null = null;
  let generation = 0;
  let spawned = 0;
  let control: MessagePort | null = null;
  const notice = (reason: string): EvaluatorCrashNotice => ({ type: 'forager/evaluator-crashed', reason });
  const drop = () => {
    const old = worker;
    worker = null;
    generation++;
    try {
      old?.terminate();
    } catch {
      // already gone
    }
  };
  return {
    get spawned() {
      return spawned;
    },
    accept(message, ports) {
      if (!isEvaluatorPortHandoff(message) || ports.length < 2) return false;
      const [evaluator, nextControl] = ports;
      control?.close(); // one service worker at a time: the previous connection is over
      control = nextControl;
      if (message.replace) drop();
      if (!worker) {
        const mine = ++generation;
        try {
          spawned++;
          worker = options.spawn((reason) => {
            if (mine !== generation) return;
            drop();
            control?.postMessage(notice(reason));
          });
        } catch (error) {
          worker = null;
          control.postMessage(notice(`could not start: ${error instanceof Error ? error.message : String(error)}`));
          evaluator.close();
          return true;
        }
      }
      const handoff: WorkerPortHandoff = { type: 'forager/worker-port' };
      worker.postMessage(handoff, [evaluator]);
      return true;
    },
  };
}

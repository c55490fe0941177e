/**
 * Starts the evaluator Worker: `startEvaluatorWorker` for the offscreen document (Chrome), which only hands ports to
 * it, and `spawnEvaluatorWorker` (wrapped with comlink as an EvaluatorHandle for lib/app/adapters/evaluator/guarded-evaluator)
 * for Firefox's background page, which calls it itself.
 */
import * as Comlink from 'comlink';
import { type EvaluatorHandle, transferableCopy } from '../../lib/app';
import type { EvaluatorWorkerApi } from './evaluator.worker';
import EvaluatorWorker from './evaluator.worker.ts?worker';

/** One Worker; `onCrash` fires when it dies on its own (an uncaught error or a message it cannot decode). */
export function startEvaluatorWorker(onCrash: (reason: string) => void): Worker {
  const worker = new EvaluatorWorker();
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    onCrash(event.message || 'worker error');
  });
  worker.addEventListener('messageerror', () => onCrash('worker could not read a message'));
  return worker;
}

/** One Worker behind comlink, as the guarded evaluator wants it. */
export function spawnEvaluatorWorker(onCrash: (reason: string) => void): EvaluatorHandle {
  const worker = startEvaluatorWorker(onCrash);
  const remote = Comlink.wrap<EvaluatorWorkerApi>(worker);
  return {
    evaluate(input) {
      // The bytes move to the Worker instead of being copied a second time by structured clone.
      const { input: own, transfer } = transferableCopy(input);
      return remote.evaluate(Comlink.transfer(own, transfer));
    },
    analyseTopic(topic, hints) {
      return remote.analyseTopic(topic, hints);
    },
    terminate() {
      worker.terminate();
    },
  };
}

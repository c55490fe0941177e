/**
 * An Evaluator in front of something that can hang or die (a Web Worker). Each call has a deadline; a call that
 * misses it is rejected (the crawl records the page as an 'evaluation' skip) and the worker, which may be stuck in
 * a loop, is replaced. A worker that crashes is replaced too. Calls caught up in a restart that were not the cause
 * are tried once more on the new worker, so one bad page costs one page, not the whole queue.
 *
 * Environment-free: the worker comes from `spawn`, so this runs under Node tests with a fake.
 */
import type { EvaluationInput, Evaluator, PageEvaluation, Topic, TopicHints } from '../../../engine';

/** One live evaluator instance (e.g. a Worker wrapped with comlink). */
export interface EvaluatorHandle {
  evaluate(input: EvaluationInput): Promise<PageEvaluation>;
  /** The topic analysed where the language data is (lib/engine text/topic-analysis.ts). */
  analyseTopic(topic: Topic, hints: TopicHints): Promise<Topic>;
  /** Kills it; pending calls on it will never settle (they are handled here). */
  terminate(): void;
}

export interface GuardedEvaluatorOptions {
  /** Makes a new instance; call `onCrash` when it dies on its own (Worker 'error' event). */
  spawn(onCrash: (reason: string) => void): EvaluatorHandle;
  /** Deadline of one call, queueing included. Default 15 000 ms (well below the 30 s a service worker survives). */
  timeoutMs?: number;
}

export interface GuardedEvaluator extends Required<Evaluator> {
  /** Instances started so far (1 after the first call; more after timeouts or crashes). */
  readonly spawned: number;
  /** Terminates the instance and rejects everything pending. The evaluator can be used again afterwards. */
  dispose(reason?: string): void;
}

/** One call to the instance: an evaluation or a topic's analysis. */
interface Call {
  work(handle: EvaluatorHandle): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  generation: number;
  retried: boolean;
}

/** Creates an evaluator that survives hung and crashing instances. */
export function createGuardedEvaluator(options: GuardedEvaluatorOptions): GuardedEvaluator {
  const timeoutMs = options.timeoutMs ?? 15_000;
  let handle: EvaluatorHandle | null = null;
  let generation = 0;
  let spawned = 0;
  const pending = new Set<Call>();

  const settle = (call: Call, error: Error | null, value?: unknown) => {
    if (!pending.delete(call)) return;
    if (call.timer !== undefined) clearTimeout(call.timer);
    if (error) call.reject(error);
    else call.resolve(value);
  };

  const ensure = (): EvaluatorHandle => {
    if (handle) return handle;
    generation++;
    spawned++;
    const mine = generation;
    try {
      handle = options.spawn((reason) => {
        if (mine === generation && handle) restart(`evaluator crashed: ${reason}`, null);
      });
    } catch (error) {
      handle = null;
      throw error;
    }
    return handle;
  };

  const submit = (call: Call) => {
    let h: EvaluatorHandle;
    try {
      h = ensure();
    } catch (error) {
      settle(call, new Error(`evaluator could not start: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    const mine = generation;
    call.generation = mine;
    if (call.timer !== undefined) clearTimeout(call.timer);
    call.timer = setTimeout(() => {
      settle(call, new Error(`evaluation timed out after ${timeoutMs} ms`));
      restart('evaluator restarted after a timeout', call);
    }, timeoutMs);
    let result: Promise<unknown>;
    try {
      result = call.work(h);
    } catch (error) {
      result = Promise.reject(error);
    }
    // Only the instance this submission went to may settle it: after a restart the call may already be resubmitted
    // (call.generation moved on), and the old instance's late failure must not settle the retry.
    result.then(
      (value) => {
        if (mine === generation) settle(call, null, value);
      },
      (error: unknown) => {
        if (mine === generation) settle(call, error instanceof Error ? error : new Error(String(error)));
      },
    );
  };

  const call = <T>(work: (h: EvaluatorHandle) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const c: Call = { work, resolve: resolve as (v: unknown) => void, reject, timer: undefined, generation: 0, retried: false };
      pending.add(c);
      submit(c);
    });

  /** Replaces the instance; the others pending on it get one more try (the culprit, if known, is already settled). */
  const restart = (reason: string, culprit: Call | null) => {
    const old = handle;
    handle = null;
    const oldGeneration = generation;
    generation++; // results from the old instance are ignored from now on
    try {
      old?.terminate();
    } catch {
      // already dead
    }
    for (const call of [...pending]) {
      if (call === culprit || call.generation !== oldGeneration) continue;
      if (call.retried) settle(call, new Error(reason));
      else {
        call.retried = true;
        submit(call);
      }
    }
  };

  return {
    get spawned() {
      return spawned;
    },
    evaluate(input) {
      return call<PageEvaluation>((h) => h.evaluate(input));
    },
    analyseTopic(topic, hints = {}) {
      return call<Topic>((h) => h.analyseTopic(topic, hints));
    },
    dispose(reason = 'evaluator disposed') {
      const old = handle;
      handle = null;
      generation++;
      try {
        old?.terminate();
      } catch {
        // already dead
      }
      for (const call of [...pending]) settle(call, new Error(reason));
    },
  };
}

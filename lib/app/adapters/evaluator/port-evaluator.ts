/**
 * Chrome: the service worker has no Worker, so the evaluator Worker lives in the offscreen document; this module holds
 * the browser-independent parts of reaching it:
 *
 * - `offscreenEnsurer`: the guarded creation of the one offscreen document;
 * - `createPortEvaluator`: an Evaluator that talks to the Worker directly over a MessagePort (comlink, page bytes
 *   transferred), not through runtime messaging. Runtime messages are JSON (bytes as base64), go to every extension
 *   page, and cost a hop through the offscreen document's main thread each; a port is structured clone, point to
 *   point, ~0.1 ms a round trip. The port is made here and delivered once per Worker (see `deliver`); the
 *   offscreen document is only looked up again when there is no live port.
 *
 * Runs under Node tests: MessageChannel is a global there too.
 */
import * as Comlink from 'comlink';
import { isEvaluatorCrashNotice } from '../../model/protocol';
import type { EvaluationInput, PageEvaluation, Topic, TopicHints } from '../../../engine';
import { createGuardedEvaluator, type GuardedEvaluator } from './guarded-evaluator';

export interface OffscreenApi {
  /** True when the offscreen document exists (runtime.getContexts with contextTypes OFFSCREEN_DOCUMENT). */
  exists(): Promise<boolean>;
  /** offscreen.createDocument(...). */
  create(): Promise<void>;
}

/**
 * Returns `ensure()`: makes sure the offscreen document exists, creating it at most once even when many calls race
 * (the in-flight promise is shared; Chrome allows a single offscreen document and throws on a second create).
 */
export function offscreenEnsurer(api: OffscreenApi): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  return () => {
    if (inFlight) return inFlight;
    inFlight = (async () => {
      if (await api.exists()) return;
      try {
        await api.create();
      } catch (error) {
        // Lost a race with another context (or a previous worker's creation still settling): fine if it exists now.
        if (!(await api.exists())) throw error;
      }
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** What the evaluator Worker serves with comlink (entrypoints/worker/evaluator.worker.ts). */
export interface EvaluatorEndpointApi {
  evaluate(input: EvaluationInput): PageEvaluation | Promise<PageEvaluation>;
  analyseTopic(topic: Topic, hints: TopicHints): Topic | Promise<Topic>;
  ping(): 'pong' | Promise<'pong'>;
}

/** The far ends of a new connection, for the Worker's host. */
export interface EvaluatorPorts {
  /** To be handed to the Worker, which serves comlink calls on it. */
  evaluator: MessagePort;
  /** The host posts an EvaluatorCrashNotice here when its Worker dies. */
  control: MessagePort;
}

export interface PortEvaluatorOptions {
  /** Makes sure the Worker's host exists (the offscreen document); called only when a new port is needed. */
  ensureReady(): Promise<void>;
  /**
   * Transfers `ports` to the Worker's host (Chrome: `Client.postMessage(EvaluatorPortHandoff, [evaluator, control])`).
   * `replace`: the previous Worker missed a deadline or could not be reached; terminate it and start a new one.
   */
  deliver(ports: EvaluatorPorts, replace: boolean): Promise<void>;
  /** Deadline of one evaluation, queueing included. Default 15 000 ms (below the 30 s a service worker survives). */
  timeoutMs?: number;
  /** Deadline for a new port to answer a ping (host lookup and Worker start included). Default 10 000 ms. */
  connectTimeoutMs?: number;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * An Evaluator that calls the Worker over a MessagePort of its own. Built on the guarded evaluator: a call past its
 * deadline, a crash notice from the host, or a port that cannot be set up (no host, no answer to a ping) replaces the
 * connection, and the next one asks the host for a fresh Worker. Calls caught up in a replacement are retried once.
 * A dead port that says nothing (the offscreen document closed under it) is found by the call deadline.
 */
export function createPortEvaluator(options: PortEvaluatorOptions): GuardedEvaluator {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  /** Set when a connection is given up: the Worker behind it may be stuck, so the next one asks for a new Worker. */
  let replaceNext = false;
  return createGuardedEvaluator({
    timeoutMs: options.timeoutMs ?? 15_000,
    spawn(onCrash) {
      const replace = replaceNext;
      replaceNext = false;
      const calls = new MessageChannel();
      const control = new MessageChannel();
      let closed = false;
      control.port1.addEventListener('message', (event: MessageEvent) => {
        if (!closed && isEvaluatorCrashNotice(event.data)) onCrash(event.data.reason);
      });
      control.port1.start();
      const remote = Comlink.wrap<EvaluatorEndpointApi>(calls.port1);
      const ready = (async () => {
        await options.ensureReady();
        await options.deliver({ evaluator: calls.port2, control: control.port2 }, replace);
        // Queued messages wait for the far end to start listening; a ping proves it does (and the Worker is not stuck).
        await withTimeout(remote.ping(), connectTimeoutMs, 'connecting to the evaluator');
      })();
      ready.catch((error: unknown) => {
        if (!closed) onCrash(`not reachable (${error instanceof Error ? error.message : String(error)})`);
      });
      return {
        async evaluate(input) {
          await ready;
          const { input: own, transfer } = transferableCopy(input);
          return remote.evaluate(Comlink.transfer(own, transfer));
        },
        async analyseTopic(topic, hints) {
          await ready;
          return remote.analyseTopic(topic, hints);
        },
        terminate() {
          closed = true;
          replaceNext = true;
          // Closing our ends is all we can do here; the host drops its Worker on the next hand-off with replace.
          calls.port1.close();
          control.port1.close();
        },
      };
    },
  });
}

/*
 * Evaluation inputs on their way to the evaluator Worker. They cross by structured clone (a MessagePort or the
 * Worker's own channel, never Chrome's JSON runtime messaging), so the body travels as bytes and its buffer is
 * transferred, not copied.
 */
/**
 * A copy of the input whose body sits in an ArrayBuffer of its own, plus that buffer to transfer: the transfer then
 * moves exactly these bytes and never detaches memory the caller may still hold (the crawl keeps the input, and a
 * call caught up in a Worker restart is sent again). Copying a page costs about a millisecond at the fetcher's 1 MiB cap,
 * less than evaluating it.
 */
export function transferableCopy(input: EvaluationInput): { input: EvaluationInput; transfer: ArrayBuffer[] } {
  const own = input.body.slice();
  return { input: { ...input, body: own }, transfer: [own.buffer as ArrayBuffer] };
}

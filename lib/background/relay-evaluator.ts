/**
 * Chrome: the service worker has no Worker, so evaluation is relayed to the offscreen document (which runs the
 * Worker) over runtime messaging. This module holds the two browser-independent parts: the guarded creation of the
 * one offscreen document, and the Evaluator that sends inputs there with a deadline.
 */
import type { OffscreenRequest, Reply } from '../protocol';
import type { EvaluationInput, Evaluator, PageEvaluation } from '../types';
import { toWire } from './wire';

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

export interface RelayEvaluatorOptions {
  ensureReady(): Promise<void>;
  /** runtime.sendMessage; resolves to the offscreen document's reply. */
  send(message: OffscreenRequest): Promise<unknown>;
  /** Deadline of one relayed call. Default 20 000 ms: above the offscreen side's own 15 s, below Chrome's 30 s. */
  timeoutMs?: number;
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

function isReply(value: unknown): value is Reply<PageEvaluation> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/**
 * An Evaluator that relays to the offscreen document. A missing receiver (document closed, not yet listening) is
 * retried once after re-ensuring the document; every failure ends as a thrown Error, which the crawl records as an
 * 'evaluation' skip.
 */
export function createRelayEvaluator(options: RelayEvaluatorOptions): Evaluator {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const once = async (input: EvaluationInput): Promise<PageEvaluation> => {
    await options.ensureReady();
    const reply = await withTimeout(
      options.send({ target: 'offscreen', type: 'evaluate', input: toWire(input) }),
      timeoutMs,
      'evaluation',
    );
    if (!isReply(reply)) throw new ReceiverMissing();
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  };
  return {
    async evaluate(input) {
      try {
        return await once(input);
      } catch (error) {
        const missing =
          error instanceof ReceiverMissing ||
          (error instanceof Error && /receiving end does not exist|could not establish connection/i.test(error.message));
        if (!missing) throw error;
        return once(input);
      }
    },
  };
}

class ReceiverMissing extends Error {
  constructor() {
    super('the offscreen evaluator did not answer');
  }
}

/**
 * The evaluator Web Worker: parses and scores pages off the main thread. Reached through comlink from the offscreen
 * document (Chrome) or the background page (Firefox). Imported with Vite's `?worker` suffix (see ./spawn.ts): WXT
 * rewrites import.meta.url, so `new Worker(new URL(...))` would point nowhere.
 */
import * as Comlink from 'comlink';
import { evaluatePage } from '../../lib/html/evaluate';
import type { EvaluationInput, PageEvaluation } from '../../lib/types';

const api = {
  /** Evaluates one page; errors (malformed input) reject the call and leave the worker running. */
  evaluate(input: EvaluationInput): PageEvaluation {
    return evaluatePage(input);
  },
  ping(): 'pong' {
    return 'pong';
  },
};

export type EvaluatorWorkerApi = typeof api;

Comlink.expose(api);

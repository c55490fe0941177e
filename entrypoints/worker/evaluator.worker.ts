/**
 * The evaluator Web Worker: parses and scores pages off the main thread, served with comlink. Firefox's background
 * page calls it over the Worker's own channel; in Chrome the offscreen document hands it a MessagePort whose other
 * end the service worker holds (a `WorkerPortHandoff`), so calls go service worker -> Worker directly.
 * Imported with Vite's `?worker` suffix (see ./spawn.ts): WXT rewrites import.meta.url, so `new Worker(new URL(...))`
 * would point nowhere.
 */
import * as Comlink from 'comlink';
import { type EvaluatorEndpointApi, isWorkerPortHandoff } from '../../lib/app';
import { analyseTopic, evaluatePage, withLanguageData } from '../../lib/engine';
import type { EvaluationInput, PageEvaluation, Topic, TopicHints } from '../../lib/engine';

const api = {
  /**
   * Evaluates one page, loading the language data its language needs first (a chunk per language, fetched once);
   * errors (malformed input) reject the call and leave the worker running.
   */
  evaluate(input: EvaluationInput): Promise<PageEvaluation> {
    return withLanguageData(() => evaluatePage(input));
  },
  /** A topic's language and analysed words (the service worker has no language data: lib/engine text/topic-analysis.ts). */
  analyseTopic(topic: Topic, hints: TopicHints): Promise<Topic> {
    return withLanguageData(() => analyseTopic(topic, hints));
  },
  ping(): 'pong' {
    return 'pong';
  },
} satisfies EvaluatorEndpointApi;

export type EvaluatorWorkerApi = typeof api;

// The host's own channel (comlink ignores messages that are not its own, such as the hand-off below).
Comlink.expose(api);

/** The service worker's port: one at a time (a restarted service worker sends a new one; the old end is dead). */
let servicePort: MessagePort | null = null;
self.addEventListener('message', (event: MessageEvent) => {
  const port = event.ports[0];
  if (!isWorkerPortHandoff(event.data) || !port) return;
  servicePort?.close();
  servicePort = port;
  Comlink.expose(api, port);
});

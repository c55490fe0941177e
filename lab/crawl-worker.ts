/**
 * A worker thread that runs lab crawls (see ./workers.ts): it receives CrawlTasks, runs them with its own
 * per-topic evaluation caches, and posts back CrawlOutcomes.
 */
import { parentPort } from 'node:worker_threads';
import { EvaluatorCaches, runCrawlTask, type CrawlTask } from './run';

if (!parentPort) throw new Error('crawl-worker.ts must run in a worker thread');
const port = parentPort;
const caches = new EvaluatorCaches();

port.on('message', (msg: { type: 'run'; task: CrawlTask }) => {
  if (msg.type !== 'run') return;
  const { task } = msg;
  runCrawlTask(task, caches.get(task.topicId)).then(
    (outcome) => port.postMessage({ type: 'done', outcome }),
    (err: unknown) =>
      port.postMessage({
        type: 'error',
        index: task.index,
        message: err instanceof Error ? (err.stack ?? err.message) : String(err),
      }),
  );
});

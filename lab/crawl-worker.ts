/**
 * A worker thread that runs lab crawls (see ./workers.ts): it receives CrawlTasks, runs them with its own
 * per-topic evaluation caches, and posts back CrawlOutcomes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { simulatedWeb } from './docweb/server';
import { CachingEvaluator, runCrawlTask, type CrawlTask } from './run';
import type { SiteConfig } from './sites';

if (!parentPort) throw new Error('crawl-worker.ts must run in a worker thread');
const port = parentPort;
// One cache of page readings for every crawl of this thread, whatever its topic.
const evaluator = new CachingEvaluator();
// Crawls on the simulated network are served from this thread's own copy of the sites (same origins, same bytes).
const webData = (workerData as { web?: { sites: SiteConfig[]; redirectStubs: boolean } } | null)?.web;
const web = webData ? simulatedWeb({ sites: webData.sites, redirectStubs: webData.redirectStubs }) : undefined;

port.on('message', (msg: { type: 'run'; task: CrawlTask }) => {
  if (msg.type !== 'run') return;
  const { task } = msg;
  runCrawlTask(task, evaluator, undefined, web).then(
    (outcome) => port.postMessage({ type: 'done', outcome }),
    (err: unknown) =>
      port.postMessage({
        type: 'error',
        index: task.index,
        message: err instanceof Error ? (err.stack ?? err.message) : String(err),
      }),
  );
});

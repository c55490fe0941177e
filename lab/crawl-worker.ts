/**
 * A worker thread that runs lab crawls (see ./workers.ts): it receives CrawlTasks, runs them with its own cache of
 * page readings (every topic's crawls share it), and posts back CrawlOutcomes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { simulatedWeb } from './docweb/server';
import { CachingEvaluator, runCrawlTask, type CrawlTask } from './run';
import type { SiteConfig } from './sites';

if (!parentPort) throw new Error('crawl-worker.ts must run in a worker thread');
const port = parentPort;
// One cache of page readings for every crawl of this thread, whatever its topic.
const data = workerData as { web?: { sites: SiteConfig[]; redirectStubs: boolean }; readingCacheBytes?: number } | null;
const evaluator = new CachingEvaluator(data?.readingCacheBytes);
/** Bytes of rewritten files this thread's web keeps behind the answers kept as sent. */
const WORKER_WEB_CACHE_BYTES = 32 * 2 ** 20;
// Crawls on the simulated network are served from this thread's own copy of the sites (same origins, same bytes).
// The answers they are sent are kept in front of the web (lab/simnet.ts SentAnswers): its own cache of rewritten
// files can be small.
const webData = data?.web;
const web = webData
  ? simulatedWeb({ sites: webData.sites, redirectStubs: webData.redirectStubs, cacheBytes: WORKER_WEB_CACHE_BYTES })
  : undefined;

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

/**
 * Spreads lab crawls over worker threads so a run uses every core: the server and the bookkeeping stay in the main
 * thread, each worker runs `parallel` crawls at a time. Workers are handed jobs of topics they have already
 * evaluated pages for, so their evaluation caches stay useful.
 */
import { Worker } from 'node:worker_threads';
import type { CrawlOutcome, JobQueue } from './run';

/** Runs every queued task in `count` workers; resolves when all are done, rejects on the first crawl error. */
export async function runInWorkers(
  queue: JobQueue,
  count: number,
  parallel: number,
  onOutcome: (o: CrawlOutcome) => void,
  signal?: AbortSignal,
): Promise<void> {
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const fail = (err: Error) => reject(err);
      signal?.addEventListener('abort', () => reject(new Error('lab run aborted')), { once: true });
      for (let w = 0; w < count; w++) {
        // The .mjs bootstrap registers tsx in the worker, then loads crawl-worker.ts.
        const worker = new Worker(new URL('./crawl-worker.mjs', import.meta.url));
        workers.push(worker);
        const topics = new Set<string>();
        const feed = () => {
          const task = queue.take(topics);
          if (!task) {
            if (running === 0 && queue.size === 0) resolve();
            return;
          }
          topics.add(task.topicId);
          running++;
          worker.postMessage({ type: 'run', task });
        };
        worker.on(
          'message',
          (msg: { type: 'done'; outcome: CrawlOutcome } | { type: 'error'; index: number; message: string }) => {
            running--;
            if (msg.type === 'error') {
              fail(new Error(`crawl #${msg.index} failed in a worker: ${msg.message}`));
              return;
            }
            onOutcome(msg.outcome);
            feed();
          },
        );
        worker.on('error', fail);
        worker.on('exit', (code) => {
          if (code !== 0) fail(new Error(`crawl worker exited with code ${code}`));
        });
        for (let i = 0; i < parallel; i++) feed();
      }
      if (running === 0) resolve();
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

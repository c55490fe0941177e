/**
 * Spreads the lab's work over worker threads so it uses every core: crawls (the server and the bookkeeping stay in the
 * main thread, each worker runs `parallel` crawls at a time; each worker takes whole topics from its own stretch of
 * a chain of topics on the same sites (JobQueue in ./run.ts), so its cache of page readings serves topic after topic)
 * and the corpus index's page evaluations.
 */
import { Worker } from 'node:worker_threads';
import type { SiteConfig } from './sites';

/**
 * What the crawl workers take jobs from (run.ts's JobQueue): a job for a lane, or none left. Declared here, not
 * imported, so this module depends on neither the corpus nor the runner (both load it on demand).
 */
export interface JobSource<Task> {
  take(lane: number): Task | undefined;
  readonly size: number;
}

/** A worker thread running one of the lab's TypeScript worker scripts (through ./ts-worker.mjs, which loads tsx). */
export function tsWorker(
  script: string,
  data: Record<string, unknown> = {},
  heap: { oldMb?: number; youngMb?: number } = {},
): Worker {
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), {
    workerData: { ...data, script: new URL(script, import.meta.url).href },
    resourceLimits: {
      ...(heap.oldMb ? { maxOldGenerationSizeMb: heap.oldMb } : {}),
      ...(heap.youngMb ? { maxYoungGenerationSizeMb: heap.youngMb } : {}),
    },
  });
}

/**
 * Young generation of a crawl worker (V8's default: 48 MB, 16 MB semi-spaces). A crawl allocates a few hundred MB
 * (`bench/lab-steady.ts --allocations`), most of it short-lived (link words, scores, fetch records), beside a heap of
 * GBs of readings; a larger young generation lets more of it die before it is promoted, which the old generation's
 * collections, walking the readings, would then have to clear. Measured side by side (two `lab run`s of the test
 * split's tenth at once, one worker each, Task 2, the 11 strategies): 9% less CPU with 192 MB, every crawl the same;
 * 576 MB was no better (`bench/RESULTS.md`, "A larger young generation for the crawl workers").
 */
const CRAWL_WORKER_YOUNG_GENERATION_MB = 192;

/** Heap a crawl worker gets beside its reading cache: the simulated web's sent answers (512 MB) and the crawls. */
const CRAWL_WORKER_HEAP_BESIDES_READINGS_MB = 2048;

/**
 * Evaluates `blocks` blocks of `blockSize` candidates in `count` workers (./index-worker.ts), handing out blocks as
 * workers finish; `onBlock` gets each block's results as it arrives (in any order).
 */
export async function evaluateInWorkers<Candidate, Result>(
  data: { sites: SiteConfig[]; redirectStubs: boolean; candidates: Candidate[] },
  blocks: number,
  blockSize: number,
  count: number,
  onBlock: (block: number, results: Result[]) => void,
): Promise<void> {
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let done = 0;
      const feed = (w: Worker) => {
        if (next >= blocks) return;
        const block = next++;
        w.postMessage({ block, from: block * blockSize, to: Math.min((block + 1) * blockSize, data.candidates.length) });
      };
      for (let i = 0; i < Math.min(count, blocks); i++) {
        const w = tsWorker('./index-worker.ts', data);
        workers.push(w);
        w.on('message', (msg: { block: number; results?: Result[]; error?: string }) => {
          if (msg.error !== undefined) {
            reject(new Error(`corpus index worker failed on block ${msg.block}: ${msg.error}`));
            return;
          }
          onBlock(msg.block, msg.results!);
          if (++done === blocks) resolve();
          else feed(w);
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (code !== 0 && done < blocks) reject(new Error(`corpus index worker exited with code ${code}`));
        });
        feed(w);
      }
      if (blocks === 0) resolve();
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Runs every queued task in `count` workers; resolves when all are done, rejects on the first crawl error. */
export async function runInWorkers<Task, Outcome>(
  queue: JobSource<Task>,
  count: number,
  parallel: number,
  onOutcome: (o: Outcome) => void,
  signal?: AbortSignal,
  /** For crawls on the simulated network: the sites each worker serves from memory. */
  web?: { sites?: SiteConfig[]; redirectStubs: boolean },
  /** Bytes of page readings each worker keeps (default: the CachingEvaluator's); its heap grows with it. */
  readingCacheBytes?: number,
): Promise<void> {
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const fail = (err: Error) => reject(err);
      signal?.addEventListener('abort', () => reject(new Error('lab run aborted')), { once: true });
      for (let w = 0; w < count; w++) {
        const worker = tsWorker(
          './crawl-worker.ts',
          { ...(web ? { web } : {}), ...(readingCacheBytes ? { readingCacheBytes } : {}) },
          {
            youngMb: CRAWL_WORKER_YOUNG_GENERATION_MB,
            ...(readingCacheBytes
              ? { oldMb: Math.ceil(readingCacheBytes / 2 ** 20) + CRAWL_WORKER_HEAP_BESIDES_READINGS_MB }
              : {}),
          },
        );
        workers.push(worker);
        const lane = w;
        const feed = () => {
          const task = queue.take(lane);
          if (!task) {
            if (running === 0 && queue.size === 0) resolve();
            return;
          }
          running++;
          worker.postMessage({ type: 'run', task });
        };
        worker.on('message', (msg: { type: 'done'; outcome: Outcome } | { type: 'error'; index: number; message: string }) => {
          running--;
          if (msg.type === 'error') {
            fail(new Error(`crawl #${msg.index} failed in a worker: ${msg.message}`));
            return;
          }
          onOutcome(msg.outcome);
          feed();
        });
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

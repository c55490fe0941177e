/**
 * A worker thread that evaluates pages for the corpus index (see ./corpus.ts): it serves the sites from memory (the
 * same bytes as the HTTP server) and answers each block of candidates with their evaluations.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type Candidate, evaluateCandidates } from './corpus';
import { simulatedWeb } from './docweb/server';
import type { SiteConfig } from './sites';

if (!parentPort) throw new Error('index-worker.ts must run in a worker thread');
const port = parentPort;
const data = workerData as { sites: SiteConfig[]; redirectStubs: boolean; candidates: Candidate[] };
const web = simulatedWeb({ sites: data.sites, redirectStubs: data.redirectStubs });
const candidateIndex = new Map(data.candidates.map((c, i) => [c.id, i]));

port.on('message', (msg: { block: number; from: number; to: number }) => {
  try {
    port.postMessage({ block: msg.block, results: evaluateCandidates(web, data.candidates, candidateIndex, msg.from, msg.to) });
  } catch (err) {
    port.postMessage({ block: msg.block, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});

// Worker bootstrap: worker threads do not inherit tsx's loader, so register it here, then load the TypeScript worker
// named by workerData.script (a file URL).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.script);

// Entry of the server's worker threads (started by worker-thread.ts). A worker thread does not
// inherit the main thread's TypeScript loader (`node --import tsx`), so it registers tsx
// itself, then runs the module its starter named.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);

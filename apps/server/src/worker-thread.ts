import { Worker, workerData } from 'node:worker_threads';

/**
 * Starts a TypeScript module on a worker thread of its own (through worker-entry.mjs,
 * which gives the thread the TypeScript loader); `data` reaches it as `workerInput()`.
 */
export function startWorker(module: URL, name: string, data?: unknown): Worker {
  const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
    name,
    workerData: { module: module.href, data },
  });
  running.set(worker, name);
  worker.once('exit', () => running.delete(worker));
  return worker;
}

const running = new Map<Worker, string>();

/** The worker threads running now, by name (bench/ingest.ts reports how busy each is). */
export const runningWorkers = () => [...running].map(([worker, name]) => ({ worker, name }));

/** Inside a worker started by startWorker: the data its starter gave. */
export const workerInput = <T>(): T => (workerData as { data: T }).data;

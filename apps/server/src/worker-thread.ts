import { Worker } from 'node:worker_threads';

const running = new Map<Worker, string>();

/**
 * Starts a TypeScript module on a worker thread of its own, through worker-entry.mjs, which
 * gives the thread the TypeScript loader first.
 */
export function startWorker(module: URL, name: string): Worker {
  const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
    name,
    workerData: { module: module.href },
  });
  running.set(worker, name);
  worker.once('exit', () => running.delete(worker));
  return worker;
}

/** The worker threads running now, by name (bench/ingest.ts reports how busy each is). */
export const runningWorkers = () => [...running].map(([worker, name]) => ({ worker, name }));

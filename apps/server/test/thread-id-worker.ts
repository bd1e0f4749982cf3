import { readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** A worker thread that says which thread it is (worker-thread.test.ts). */
parentPort?.postMessage(Number(readlinkSync('/proc/thread-self').split('/').pop()));

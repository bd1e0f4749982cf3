// Entry of the server's worker threads (started by worker-thread.ts). A worker thread does not
// inherit the main thread's TypeScript loader (`node --import tsx`), so it registers tsx
// itself, then runs the module its starter named.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

/**
 * How much lower a worker thread's scheduling priority is than the server's own thread (a
 * nice value added; 5 weighs a thread a third of one at the default when they share a core).
 */
const NICE_ABOVE_SERVER = 5;

/**
 * The server's own thread answers the console; its worker threads (the broker, the telemetry
 * parser) do the devices' bulk work. When the cores are short, as in a telemetry burst, the
 * console's requests should not wait for a time slice behind that work, so each worker lowers
 * its own thread's priority. On Linux a nice value belongs to a thread, which setpriority
 * names by its thread id (/proc/thread-self). Elsewhere, or where it is refused, the thread
 * keeps the default priority.
 */
function yieldToServerThread() {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return;
    setPriority(tid, Math.min(19, getPriority(tid) + NICE_ABOVE_SERVER));
  } catch {
    // Not Linux, or not allowed: the default priority.
  }
}

yieldToServerThread();
register();
await import(workerData.module);

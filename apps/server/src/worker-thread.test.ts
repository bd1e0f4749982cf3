import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startWorker } from './worker-thread';

/** A thread's nice value, from /proc: the field after the process state's seventeen others. */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
  // The command name, in parentheses, may hold spaces: count the fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[16]);
}

describe.skipIf(!existsSync('/proc/thread-self'))('worker threads (Linux)', () => {
  it('run at a lower priority than the server thread, which answers the console', async () => {
    const worker = startWorker(new URL('../test/thread-id-worker.ts', import.meta.url), 'test');
    try {
      const [tid] = (await once(worker, 'message')) as [number];
      expect(tid).toBeGreaterThan(0);
      expect(niceOf(tid)).toBe(Math.min(19, getPriority() + 5));
    } finally {
      await worker.terminate();
    }
  });
});

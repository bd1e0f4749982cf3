import { sleep } from './time';

/** What a process holds: resident set, and the V8 heap plus buffers outside it. */
export type Memory = { rss: number; heapUsed: number; external: number };

/**
 * Memory after two full collections (the process must run with --expose-gc), so garbage
 * waiting to be collected is not counted as held.
 */
export async function memoryNow(): Promise<Memory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 2; i++) {
    gc();
    await sleep(50);
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
}

/** Kilobytes per item of the growth from `before` to `after`. */
export function perItem(before: Memory, after: Memory, items: number) {
  const kb = (bytes: number) => bytes / 1024 / Math.max(1, items);
  return {
    rss: kb(after.rss - before.rss),
    heap: kb(after.heapUsed - before.heapUsed),
    /** V8 heap plus memory outside it that JS objects hold (buffers). */
    js: kb(after.heapUsed + after.external - before.heapUsed - before.external),
  };
}

import { sleep } from './time';

export type Progress = {
  /** The last value read. */
  value: number;
  /** performance.now() of the poll that first saw the last increase. */
  lastIncreaseAt: number;
  /** True when the target was reached (false: progress stalled). */
  complete: boolean;
};

/**
 * Polls a counter every `intervalMs` until it reaches `target`, or until it has not grown
 * for `stallMs` (lost messages: the figure then counts what arrived, up to its last arrival).
 */
export async function waitForCount(
  read: () => number,
  target: number,
  { stallMs = 5000, intervalMs = 5 } = {},
): Promise<Progress> {
  let value = read();
  let lastIncreaseAt = performance.now();
  for (;;) {
    if (value >= target) return { value, lastIncreaseAt, complete: true };
    if (performance.now() - lastIncreaseAt > stallMs) return { value, lastIncreaseAt, complete: false };
    await sleep(intervalMs);
    const next = read();
    if (next > value) lastIncreaseAt = performance.now();
    value = next;
  }
}

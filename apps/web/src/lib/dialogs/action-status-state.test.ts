import { describe, expect, it } from 'vitest';
import {
  type ActionItem,
  actionStatusReducer,
  initialActionStatus,
  stepRank,
  summarize,
} from './action-status-state';

/** A source's item: the state keeps the fields of its own (a device command's device and action). */
type CommandItem = ActionItem & { device_id: number; action: string };

const step = (id: string, status: ActionItem['status'], extra: Partial<CommandItem> = {}): CommandItem => ({
  id,
  device_id: 7,
  action: 'cli',
  status,
  ...extra,
});

const run = (...events: Parameters<typeof actionStatusReducer>[1][]) =>
  events.reduce(actionStatusReducer, initialActionStatus);

describe("'Action status' steps (product §4): pending → sent → acked → done | failed | cancelled | expired", () => {
  it('follows the steps of each command in the order the commands appeared', () => {
    const state = run(
      { type: 'update', item: step('a', 'pending') },
      { type: 'update', item: step('b', 'pending') },
      { type: 'update', item: step('a', 'sent') },
      { type: 'update', item: step('a', 'acked') },
      { type: 'update', item: step('a', 'done', { output: 'up 3 days' }) },
    );
    expect(state.order).toEqual(['a', 'b']);
    expect(state.items.a).toMatchObject({ status: 'done', output: 'up 3 days' });
    expect(state.items.b!.status).toBe('pending');
    expect(summarize(state)).toEqual({ total: 2, open: 1, done: 1, failed: 0, cancelled: 0 });
  });

  it('never moves a command backwards, whatever order the steps arrive in', () => {
    const state = run(
      { type: 'update', item: step('a', 'acked') },
      { type: 'update', item: step('a', 'sent') },
      { type: 'update', item: step('a', 'pending') },
    );
    expect(state.items.a!.status).toBe('acked');
  });

  it('keeps a final state, and fills in its output when a repeat carries it', () => {
    const state = run(
      { type: 'update', item: step('a', 'done') },
      { type: 'update', item: step('a', 'acked') },
      { type: 'update', item: step('a', 'failed', { error: 'late' }) },
      { type: 'update', item: step('a', 'done', { output: 'ok' }) },
    );
    expect(state.items.a).toMatchObject({ status: 'done', output: 'ok' });
    expect(state.items.a!.error).toBeUndefined();
  });

  it('merges the snapshot read from the API with steps that came live before or after it', () => {
    const live = run({ type: 'update', item: step('a', 'acked') });
    const state = actionStatusReducer(live, {
      type: 'snapshot',
      items: [step('a', 'sent'), step('b', 'cancelled'), step('c', 'expired')],
    });
    expect(state.order).toEqual(['a', 'b', 'c']);
    expect(state.items.a!.status).toBe('acked');
    expect(summarize(state)).toEqual({ total: 3, open: 1, done: 0, failed: 1, cancelled: 1 });
  });

  it('ignores unknown states and leaves the state untouched by a repeat', () => {
    const once = run({ type: 'update', item: step('a', 'sent') });
    expect(actionStatusReducer(once, { type: 'update', item: step('a', 'sent') })).toBe(once);
    expect(
      actionStatusReducer(once, { type: 'update', item: { ...step('x', 'sent'), status: 'weird' as never } }),
    ).toBe(once);
    expect(stepRank('pending')).toBeLessThan(stepRank('sent'));
    expect(stepRank('acked')).toBeLessThan(stepRank('expired'));
  });
});

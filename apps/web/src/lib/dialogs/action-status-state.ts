/**
 * The state behind the 'Action status' dialog (product §4): the items of work one request
 * started, each moving pending → sent → acked → done | failed | cancelled | expired. Steps
 * arrive on the request's channel and, once, as a snapshot read from the API; either may
 * come first or twice, so a step never moves an item backwards and a final state is never left.
 * What the items are, where they are read and how they are named is the feature's: its
 * `ActionStatusSource`.
 */
import type { ChannelEventName, ChannelEvents } from '@fleetgate/shared/events';

export const ACTION_STEPS = ['pending', 'sent', 'acked'] as const;
export const FINAL_STEPS = ['done', 'failed', 'cancelled', 'expired'] as const;
export type ActionStep = (typeof ACTION_STEPS)[number] | (typeof FINAL_STEPS)[number];

/**
 * One item of work as the dialog follows it. A source's items may carry more fields (a
 * device command its device and action): the state keeps them and hands them back to it.
 */
export type ActionItem = {
  /** Unique within the request (a command id). */
  id: string;
  status: ActionStep;
  output?: string | null;
  error?: string | null;
};

export type ActionStatusState = { order: string[]; items: Record<string, ActionItem> };

export type ActionStatusEvent =
  | { type: 'update'; item: ActionItem }
  | { type: 'snapshot'; items: ActionItem[] };

export const initialActionStatus: ActionStatusState = { order: [], items: {} };

export function isFinalStep(status: string): boolean {
  return (FINAL_STEPS as readonly string[]).includes(status);
}

/** How far a step is along the way: the three open steps in order, then any final one. */
export function stepRank(status: string): number {
  const open = (ACTION_STEPS as readonly string[]).indexOf(status);
  if (open >= 0) return open;
  return isFinalStep(status) ? ACTION_STEPS.length : -1;
}

function merge(current: ActionItem | undefined, next: ActionItem): ActionItem {
  if (!current) return next;
  if (isFinalStep(current.status)) {
    // Final: only the output or error of the same outcome may fill in.
    return current.status === next.status
      ? { ...current, output: current.output ?? next.output, error: current.error ?? next.error }
      : current;
  }
  if (stepRank(next.status) < stepRank(current.status)) return current;
  const unchanged =
    next.status === current.status &&
    (next.output ?? current.output) === current.output &&
    (next.error ?? current.error) === current.error;
  if (unchanged) return current;
  return {
    ...current,
    ...next,
    output: next.output ?? current.output ?? null,
    error: next.error ?? current.error ?? null,
  };
}

function apply(state: ActionStatusState, item: ActionItem): ActionStatusState {
  if (stepRank(item.status) < 0) return state;
  const current = state.items[item.id];
  const merged = merge(current, item);
  if (merged === current) return state;
  return {
    order: current ? state.order : [...state.order, item.id],
    items: { ...state.items, [item.id]: merged },
  };
}

export function actionStatusReducer(state: ActionStatusState, event: ActionStatusEvent): ActionStatusState {
  if (event.type === 'update') return apply(state, event.item);
  return event.items.reduce(apply, state);
}

/** Counts per outcome, for the dialog's summary line. */
export function summarize(state: ActionStatusState) {
  const items = state.order.map((id) => state.items[id]!);
  return {
    total: items.length,
    open: items.filter((i) => !isFinalStep(i.status)).length,
    done: items.filter((i) => i.status === 'done').length,
    failed: items.filter((i) => i.status === 'failed' || i.status === 'expired').length,
    cancelled: items.filter((i) => i.status === 'cancelled').length,
  };
}

/** The realtime event that reports a step on the channel, and the item it tells of (null: none of ours). */
export type ActionStatusFeed<T extends ActionItem> = {
  [E in ChannelEventName]: { name: E; toItem(payload: ChannelEvents[E]): T | null };
}[ChannelEventName];

/** `data-*` attributes a feature puts on a row, for its own tests and tools. */
export type DataAttributes = Record<`data-${string}`, string | number>;

/**
 * Where 'Action status' takes its items from: the feature that started the work says how to
 * read them, follow them and act on them (device commands, firmware rollouts, tasks...).
 * The dialog knows nothing of what the items are.
 */
export type ActionStatusSource<T extends ActionItem = ActionItem> = {
  /** The channel the request answered with (`meta.channel`); the dialog names it. */
  channel: string;
  /** How steps arrive live; without it the dialog names the channel and the summary only. */
  event?: ActionStatusFeed<T>;
  /** The items as they stand, read once the channel is live (and at once, in case it never is). */
  snapshot?(): Promise<T[]>;
  /** What an item is, in words ('Depot router · Reboot'). */
  label(item: T): string;
  /** More attributes of an item's row. */
  attributes?(item: T): DataAttributes;
  /** Withdraws an item that has not started: offered while it is pending. */
  cancel?(item: T): Promise<unknown>;
  /** The file a finished item produced, when it has one: offered as a download once it is done. */
  download?(item: T): (() => Promise<unknown>) | null;
};

/** A subject the request did not reach, with the server's reason: it has no item to follow. */
export type RefusedItem = { key: string; label: string; reason: string; attributes?: DataAttributes };

/**
 * The state behind the 'Action status' dialog (product §4): the commands one request started,
 * each moving pending → sent → acked → done | failed | cancelled | expired. Steps arrive on
 * the action's channel and, once, as a snapshot read from the API; either may come first
 * or twice, so a step never moves a command backwards and a final state is never left.
 */

export const ACTION_STEPS = ['pending', 'sent', 'acked'] as const;
export const FINAL_STEPS = ['done', 'failed', 'cancelled', 'expired'] as const;
export type ActionStep = (typeof ACTION_STEPS)[number] | (typeof FINAL_STEPS)[number];

/** One command as the dialog shows it (the fields of a `DeviceActionUpdated` event or a command row). */
export type ActionItem = {
  command_id: string;
  device_id: number;
  action: string;
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
  const current = state.items[item.command_id];
  const merged = merge(current, item);
  if (merged === current) return state;
  return {
    order: current ? state.order : [...state.order, item.command_id],
    items: { ...state.items, [item.command_id]: merged },
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

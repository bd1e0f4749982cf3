import type { DeviceAction } from '@fleetgate/shared/devices/actions';
import type { PublicContext } from '../service-context';
import { commandsRepository } from './commands.repository';

/**
 * What the notices use of the server. They run when a command ends, outside any request:
 * no caller, so not a ServiceContext.
 */
type NoticeContext = Pick<PublicContext, 'db' | 'log' | 'notifications'>;

/**
 * Actions whose end the person who started them hears of in the bell. A device's name
 * sent on an edit and a CLI command (its output is in its window) end without a word.
 */
const NOTICED: Partial<Record<DeviceAction, string>> = {
  reboot: 'Reboot',
  set_password: 'Device password change',
  export_backup: 'Backup export',
  export_event_log: 'Event log export',
  export_troubleshoot: 'Troubleshoot export',
  monitoring_period: 'Monitoring period change',
};

/** Ends arriving this close together (a batch's replies) are looked at once. */
const SETTLE_MS = 250;

/** 'Reboot finished: 2 of 3 devices done.' */
export function batchFinishedText(label: string, done: number, total: number): string {
  return `${label} finished: ${done} of ${total} ${total === 1 ? 'device' : 'devices'} done.`;
}

export const batchNoticesService = {
  /**
   * When the last command of an action has ended (done, failed, cancelled or expired), the
   * person who started it gets a notification saying how it went, once, whichever server
   * saw the end (the notification's once key).
   */
  async batchEnded(ctx: NoticeContext, batchId: string) {
    const summary = await commandsRepository.batchSummary(ctx.db, batchId);
    const label = summary ? NOTICED[summary.action as DeviceAction] : undefined;
    if (!summary || !label || summary.open > 0 || summary.createdBy === null) return;
    await ctx.notifications.notify([summary.createdBy], {
      type: 'message',
      summary: batchFinishedText(label, summary.done, summary.total),
      data: { batch_id: batchId, action: summary.action },
      once: `batch:${batchId}`,
    });
  },
};

/**
 * The listener of ended commands (app.ts adds it to deviceTaps.commandEnded): the ends of
 * one action arriving within SETTLE_MS are looked at once. `ctx` is read when they are,
 * so it may be the app before its notifications plugin has registered.
 */
export function batchFinishedNotices(ctx: NoticeContext): (batchId: string) => void {
  const waiting = new Set<string>();
  return (batchId) => {
    if (waiting.has(batchId)) return;
    waiting.add(batchId);
    setTimeout(() => {
      waiting.delete(batchId);
      batchNoticesService
        .batchEnded(ctx, batchId)
        .catch((error: unknown) => ctx.log.warn({ err: error, batchId }, 'action notice failed'));
    }, SETTLE_MS).unref();
  };
}

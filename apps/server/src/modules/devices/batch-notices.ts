import type { DeviceAction } from '@fleetgate/shared/devices/actions';
import type { FastifyInstance } from 'fastify';
import { commandsRepository } from './commands.repository';

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

/**
 * When the last command of an action ends (done, failed, cancelled or expired), the person
 * who started it gets a notification saying how it went, once, whichever server saw the
 * end (the notification's once key).
 */
export function batchFinishedNotices(app: FastifyInstance): (batchId: string) => void {
  const waiting = new Set<string>();
  const check = async (batchId: string) => {
    const summary = await commandsRepository.batchSummary(app.db, batchId);
    const label = summary ? NOTICED[summary.action as DeviceAction] : undefined;
    if (!summary || !label || summary.open > 0 || summary.createdBy === null) return;
    await app.notifications.notify([summary.createdBy], {
      type: 'message',
      summary: batchFinishedText(label, summary.done, summary.total),
      data: { batch_id: batchId, action: summary.action },
      once: `batch:${batchId}`,
    });
  };
  return (batchId) => {
    if (waiting.has(batchId)) return;
    waiting.add(batchId);
    setTimeout(() => {
      waiting.delete(batchId);
      check(batchId).catch((error: unknown) => app.log.warn({ err: error, batchId }, 'action notice failed'));
    }, SETTLE_MS).unref();
  };
}

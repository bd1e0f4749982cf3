import { type CommandState, type DeviceAction, SECRET_PARAMS } from '@fleetgate/shared/devices/actions';
import type { OkBody } from '@fleetgate/shared/schemas/api';
import type { BulkResult, Command } from '@fleetgate/shared/schemas/devices';
import type { CommandRecord } from './commands.repository';

/** What the API shows of a command: secrets redacted, the file as a name only. */
export function presentCommand(row: CommandRecord): Command {
  const secrets = SECRET_PARAMS[row.action as DeviceAction] ?? [];
  const params = Object.fromEntries(
    Object.entries(row.params).map(([k, v]) => [k, secrets.includes(k) ? '********' : v]),
  );
  return {
    id: row.id,
    device_id: row.deviceId,
    batch_id: row.batchId,
    action: row.action,
    status: row.status as CommandState,
    params,
    output: row.output,
    error: row.error,
    result: row.result,
    file_name: row.fileName,
    created_by: row.createdBy,
    created_at: row.createdAt,
    sent_at: row.sentAt,
    acked_at: row.ackedAt,
    finished_at: row.finishedAt,
    expires_at: row.expiresAt,
  };
}

/** A bulk action's answer: one result per asked device, and the channel its progress goes out on. */
export function presentBulk(outcome: {
  channel: string | undefined;
  results: BulkResult[];
}): OkBody<BulkResult[]> {
  return {
    success: true as const,
    data: outcome.results,
    meta: { total: outcome.results.length, ...(outcome.channel ? { channel: outcome.channel } : {}) },
  };
}

/** '2 of 3 devices accepted the action'. */
export function bulkMessage(results: BulkResult[]): string {
  return `${results.filter((x) => x.success).length} of ${results.length} devices accepted the action`;
}

import { randomUUID } from 'node:crypto';
import { ACTION_TTL_SECONDS, type DeviceAction } from '@fleetgate/shared/devices/actions';
import { deviceChannels } from '@fleetgate/shared/devices/events';
import type { Db } from '#src/db/database';
import type { AuditEntry } from '../audit/audit.service';
import { callerAudit, type ServiceContext } from '../service-context';
import { type CommandRecord, commandsRepository } from './commands.repository';

export type CommandTarget = { id: number; companyId: number };

/** Command rows written but not yet sent, with the audit entry that records them. */
export type CommandBatch = { batchId: string; rows: CommandRecord[]; audit: AuditEntry };

/**
 * The two halves of every device action, for the services whose change the commands belong
 * to (a device edit's `set_info`, a bulk action): the rows are written in the change's
 * transaction, and sent only once it has committed.
 */
export const commandBatches = {
  /**
   * Writes one batch of command rows on `tx`, the transaction of the change they belong to;
   * the rows of one request share a batch id, whose realtime channel the response names.
   */
  async write(
    ctx: ServiceContext,
    tx: Db,
    targets: CommandTarget[],
    action: DeviceAction,
    params: Record<string, unknown>,
    ttlSeconds?: number,
  ): Promise<CommandBatch> {
    const batchId = randomUUID();
    const expiresAt = new Date(Date.now() + (ttlSeconds ?? ACTION_TTL_SECONDS[action]) * 1000);
    const rows = await commandsRepository.insertMany(
      tx,
      targets.map((t) => ({
        deviceId: t.id,
        companyId: t.companyId,
        batchId,
        action,
        params,
        expiresAt,
        createdBy: ctx.caller.principal.id,
      })),
    );
    const audit = callerAudit(ctx, {
      action: `device.command.${action}`,
      companyId: ctx.caller.principal.company.id,
      targetType: 'device',
      targetId: targets.map((t) => t.id).join(','),
      details: { batch_id: batchId, commands: rows.length },
    });
    return { batchId, rows, audit };
  },

  /**
   * Once a batch is committed: its channels hear of it (product §4 'Action status') and the
   * gateway sends it to the devices online; the others get it when they return.
   */
  send(ctx: ServiceContext, batch: CommandBatch) {
    ctx.gateway.commands.dispatch(batch.rows);
    return { batchId: batch.batchId, channel: deviceChannels.action(batch.batchId), rows: batch.rows };
  },
};

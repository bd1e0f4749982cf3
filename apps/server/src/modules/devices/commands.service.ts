import { randomUUID } from 'node:crypto';
import { ACTION_TTL_SECONDS, type DeviceAction } from '@fleetgate/shared/devices/actions';
import { deviceChannels } from '@fleetgate/shared/devices/events';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { notifyCommand } from '../../gateway/notify';
import type { AuthContext } from '../../plugins/auth';
import { type AuditEntry, audited, auditIdentity } from '../audit/audit.service';
import { type CommandRecord, commandsRepository } from './commands.repository';

export type CommandTarget = { id: number; companyId: number };

/** Command rows written but not yet sent, with the audit entry that records them. */
export type CommandBatch = { batchId: string; rows: CommandRecord[]; audit: AuditEntry };

/**
 * Writes one batch of command rows on `tx`, the transaction of the change they belong to;
 * nothing is sent until `sendCommands`, after it commits.
 */
export async function writeCommands(
  tx: Db,
  auth: AuthContext,
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
      createdBy: auth.principal.id,
    })),
  );
  const audit: AuditEntry = {
    action: `device.command.${action}`,
    ...auditIdentity(auth),
    companyId: auth.principal.company.id,
    targetType: 'device',
    targetId: targets.map((t) => t.id).join(','),
    details: { batch_id: batchId, commands: rows.length },
  };
  return { batchId, rows, audit };
}

/** Once a batch is committed: its channels hear of it and the gateway sends it to devices online. */
export function sendCommands(app: FastifyInstance, batch: CommandBatch) {
  for (const row of batch.rows) notifyCommand(app.deviceNotify, row);
  app.gateway.commands.kick(batch.rows.map((r) => r.deviceId));
  return { batchId: batch.batchId, channel: deviceChannels.action(batch.batchId), rows: batch.rows };
}

/**
 * Every device action is a row first (issue 5 §5): the rows of one request share a batch
 * id, whose realtime channel the response names (`meta.channel`, spec §4 'Action status').
 * Once committed with their audit row, the gateway is asked to send them to the devices
 * that are online; the others get them when they return.
 */
export async function createCommands(
  app: FastifyInstance,
  auth: AuthContext,
  targets: CommandTarget[],
  action: DeviceAction,
  params: Record<string, unknown>,
  ttlSeconds?: number,
) {
  const batch = await audited(
    app.db,
    (tx) => writeCommands(tx, auth, targets, action, params, ttlSeconds),
    (written) => written.audit,
  );
  return sendCommands(app, batch);
}

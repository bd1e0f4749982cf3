import { randomUUID } from 'node:crypto';
import { ACTION_TTL_SECONDS, type DeviceAction } from '@fleetgate/shared/devices/actions';
import { deviceChannels } from '@fleetgate/shared/devices/events';
import type { FastifyInstance } from 'fastify';
import { notifyCommand, realtimeNotifier } from '../../gateway/notify';
import type { AuthContext } from '../../plugins/auth';
import { auditIdentity, recordAudit } from '../audit/audit.service';
import { commandsRepository } from './commands.repository';

export type CommandTarget = { id: number; companyId: number };

/**
 * Every device action is a row first (issue 5 §5): the rows of one request share a batch
 * id, whose realtime channel the response names (`meta.channel`, spec §4 'Action status').
 * Once committed, the gateway is asked to send them to the devices that are online; the
 * others get them when they return.
 */
export async function createCommands(
  app: FastifyInstance,
  auth: AuthContext,
  targets: CommandTarget[],
  action: DeviceAction,
  params: Record<string, unknown>,
  ttlSeconds?: number,
) {
  const batchId = randomUUID();
  const expiresAt = new Date(Date.now() + (ttlSeconds ?? ACTION_TTL_SECONDS[action]) * 1000);
  const identity = auditIdentity(auth);
  const rows = await commandsRepository.insertMany(
    app.db,
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
  await recordAudit(app.db, {
    action: `device.command.${action}`,
    ...identity,
    companyId: auth.principal.company.id,
    targetType: 'device',
    targetId: targets.map((t) => t.id).join(','),
    details: { batch_id: batchId, commands: rows.length },
  });
  const notify = realtimeNotifier(app);
  for (const row of rows) notifyCommand(notify, row);
  app.gateway.commands.kick(rows.map((r) => r.deviceId));
  return { batchId, channel: deviceChannels.action(batchId), rows };
}

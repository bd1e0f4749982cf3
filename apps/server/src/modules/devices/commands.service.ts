import { DEVICE_GENERATED_PASSWORD_LENGTH, type DeviceAction } from '@fleetgate/shared/devices/actions';
import type { BulkActionBody, BulkResult, setPasswordBody } from '@fleetgate/shared/schemas/devices';
import type { z } from 'zod';
import { generatePassword } from '#src/auth/passwords';
import { conflict, notFound } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import type { ServiceContext } from '../service-context';
import { type CommandTarget, commandBatches } from './command-batches';
import { commandsRepository } from './commands.repository';
import { devicesRepository } from './devices.repository';
import { devicesService } from './devices.service';

const notReached = (id: number): BulkResult => ({
  device_id: id,
  success: false,
  errors: [{ code: 'NOT_FOUND', message: 'Device not found', source: 'device_id' }],
});

/**
 * Device actions (product §4 'Action status', §7 bulk actions): every action is a row first,
 * so a device that is offline gets it when it returns. Also the command history, the
 * commands of one action, one command and its file, and cancelling one.
 */
export const commandsService = {
  /**
   * One action on devices: the rows and their audit row commit together, then the gateway
   * is asked to send them to the devices online.
   */
  async create(
    ctx: ServiceContext,
    targets: CommandTarget[],
    action: DeviceAction,
    params: Record<string, unknown>,
    ttlSeconds?: number,
  ) {
    const batch = await audited(
      ctx.db,
      (tx) => commandBatches.write(ctx, tx, targets, action, params, ttlSeconds),
      (written) => written.audit,
    );
    return commandBatches.send(ctx, batch);
  },

  /**
   * Runs a bulk body and answers one result per asked device (product §7 bulk actions); a
   * device the caller does not reach fails alone. `unregister` and `reset_identity` act on
   * the server only; the others become commands, whose channel the answer names.
   */
  async bulk(ctx: ServiceContext, body: BulkActionBody) {
    const ids = [...new Set(body.device_id)];
    if (body.action === 'unregister' || body.action === 'reset_identity') {
      const done =
        body.action === 'unregister'
          ? await devicesService.unregister(ctx, ids)
          : await devicesService.resetIdentities(ctx, ids);
      const ok = new Set(done.map((d) => d.id));
      return {
        channel: undefined,
        results: ids.map(
          (id): BulkResult => (ok.has(id) ? { device_id: id, success: true } : notReached(id)),
        ),
      };
    }
    const targets = await devicesRepository.idsInScope(ctx.db, scopeOf(ctx.caller), ids);
    const reached = new Map(targets.map((t) => [t.id, t]));
    if (targets.length === 0) return { channel: undefined, results: ids.map(notReached) };
    const { channel, rows } = await this.create(
      ctx,
      targets.map((t) => ({ id: t.id, companyId: t.companyId })),
      body.action,
      body.params ?? {},
      body.ttl_seconds,
    );
    const byDevice = new Map(rows.map((row) => [row.deviceId, row.id]));
    const results = ids.map((id): BulkResult => {
      const command = byDevice.get(id);
      return reached.has(id) && command
        ? { device_id: id, success: true, command_id: command }
        : notReached(id);
    });
    return { channel, results };
  },

  /** Sets the device password on each device: a `set_password` action. */
  setPasswords(ctx: ServiceContext, body: z.infer<typeof setPasswordBody>) {
    return this.bulk(ctx, {
      action: 'set_password',
      device_id: body.device_id,
      params: { password: body.password },
      ...(body.ttl_seconds ? { ttl_seconds: body.ttl_seconds } : {}),
    });
  },

  /** A password to offer for devices (product §5: 16 characters). */
  newPassword() {
    return generatePassword(DEVICE_GENERATED_PASSWORD_LENGTH);
  },

  /** Command history of a device the caller reaches, newest first. */
  async history(
    ctx: ServiceContext,
    deviceId: number,
    page: { limit: number; offset: number; status?: string[] | undefined },
  ) {
    const device = await devicesService.find(ctx, deviceId);
    return commandsRepository.listForDevice(ctx.db, device.id, page);
  },

  /** The commands of one action request (its channel), where 'Action status' starts. */
  async batch(ctx: ServiceContext, batchId: string) {
    const rows = await commandsRepository.listBatch(ctx.db, scopeOf(ctx.caller), batchId);
    if (rows.length === 0) throw notFound('Action');
    return rows;
  },

  async get(ctx: ServiceContext, commandId: string) {
    const row = await commandsRepository.findInScope(ctx.db, scopeOf(ctx.caller), commandId);
    if (!row) throw notFound('Command');
    return row;
  },

  /** The file an export command returned. */
  async file(ctx: ServiceContext, commandId: string) {
    const row = await commandsRepository.findInScope(ctx.db, scopeOf(ctx.caller), commandId);
    if (!row?.fileData || !row.fileName) throw notFound('File');
    return { name: row.fileName, data: Buffer.from(row.fileData, 'base64') };
  },

  /** Cancels a command that has not reached its device; its channels hear of it. */
  async cancel(ctx: ServiceContext, commandId: string) {
    const outcome = await commandsRepository.cancel(ctx.db, scopeOf(ctx.caller), commandId);
    if (!outcome.found) throw notFound('Command');
    if (!outcome.cancelled)
      throw conflict(`The command is ${outcome.row.status}; only pending commands can be cancelled`);
    ctx.gateway.commands.announce(outcome.row);
    return outcome.row;
  },
};

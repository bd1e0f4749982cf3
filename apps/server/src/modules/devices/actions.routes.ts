import { DEVICE_GENERATED_PASSWORD_LENGTH } from '@fleetgate/shared/devices/actions';
import { okBody } from '@fleetgate/shared/schemas/api';
import {
  bulkActionBody,
  bulkResultSchema,
  commandSchema,
  setPasswordBody,
} from '@fleetgate/shared/schemas/devices';
import { commaList, pageQuerySchema } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generatePassword } from '../../auth/passwords';
import { notifyCommand } from '../../gateway/notify';
import { conflict, notFound } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import type { AuthContext } from '../../plugins/auth';
import { scopeOf } from '../policy/scope';
import { commandsRepository, presentCommand } from './commands.repository';
import { createCommands } from './commands.service';
import { devicesRepository } from './devices.repository';
import { resetIdentities, unregisterDevices } from './devices.service';

const commandParams = z.object({ commandId: z.uuid() });
type BulkResult = z.infer<typeof bulkResultSchema>;

const notReached = (id: number): BulkResult => ({
  device_id: id,
  success: false,
  errors: [{ code: 'NOT_FOUND', message: 'Device not found', source: 'device_id' }],
});

/** Runs a bulk body and answers one result per asked device (spec §7 bulk actions). */
async function runBulk(app: FastifyInstance, auth: AuthContext, body: z.infer<typeof bulkActionBody>) {
  const ids = [...new Set(body.device_id)];
  const scope = scopeOf(auth);
  if (body.action === 'unregister' || body.action === 'reset_identity') {
    const done =
      body.action === 'unregister'
        ? await unregisterDevices(app, auth, ids)
        : await resetIdentities(app, auth, ids);
    const ok = new Set(done.map((d) => d.id));
    return {
      channel: undefined,
      results: ids.map((id) => (ok.has(id) ? { device_id: id, success: true } : notReached(id))),
    };
  }
  const targets = await devicesRepository.idsInScope(app.db, scope, ids);
  const reached = new Map(targets.map((t) => [t.id, t]));
  if (targets.length === 0) return { channel: undefined, results: ids.map(notReached) };
  const { channel, rows } = await createCommands(
    app,
    auth,
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
}

/** Device actions: bulk commands, device passwords, command history and cancel (issue 5 §5). */
export async function deviceActionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/devices/actions',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Bulk action {action, device_id[]} with a result per device; progress on meta.channel',
        body: bulkActionBody,
        response: { 200: okBody(z.array(bulkResultSchema)) },
      },
    },
    async (request) => {
      const { channel, results } = await runBulk(app, requireAuth(request), request.body);
      const ok = results.filter((x) => x.success).length;
      return {
        success: true as const,
        data: results,
        meta: { total: results.length, ...(channel ? { channel } : {}) },
        message: `${ok} of ${results.length} devices accepted the action`,
      };
    },
  );

  r.post(
    '/api/devices/passwords/generate',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'A generated device password (16 characters, spec §5)',
        response: { 200: okBody(z.object({ password: z.string() })) },
      },
    },
    async () => ({
      success: true as const,
      data: { password: generatePassword(DEVICE_GENERATED_PASSWORD_LENGTH) },
    }),
  );

  r.post(
    '/api/devices/passwords/set',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Set the device password on each device (a command per device)',
        body: setPasswordBody,
        response: { 200: okBody(z.array(bulkResultSchema)) },
      },
    },
    async (request) => {
      const { device_id, password, ttl_seconds } = request.body;
      const { channel, results } = await runBulk(app, requireAuth(request), {
        action: 'set_password',
        device_id,
        params: { password },
        ...(ttl_seconds ? { ttl_seconds } : {}),
      });
      return {
        success: true as const,
        data: results,
        meta: { total: results.length, ...(channel ? { channel } : {}) },
      };
    },
  );

  r.get(
    '/api/devices/:id/commands',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Command history of a device, newest first',
        params: z.object({ id: z.coerce.number().int().min(1) }),
        querystring: pageQuerySchema.extend({ status: commaList.optional() }),
        response: { 200: okBody(z.array(commandSchema)) },
      },
    },
    async (request) => {
      const device = await devicesRepository.findInScope(
        app.db,
        scopeOf(requireAuth(request)),
        request.params.id,
      );
      if (!device) throw notFound('Device');
      const { rows, total } = await commandsRepository.listForDevice(app.db, device.id, request.query);
      return { success: true as const, data: rows.map(presentCommand), meta: { total } };
    },
  );

  r.get(
    '/api/devices/actions/:batchId',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary:
          "The commands of one action request (its meta.channel): where 'Action status' starts before live steps",
        params: z.object({ batchId: z.uuid() }),
        response: { 200: okBody(z.array(commandSchema)) },
      },
    },
    async (request) => {
      const rows = await commandsRepository.listBatch(
        app.db,
        scopeOf(requireAuth(request)),
        request.params.batchId,
      );
      if (rows.length === 0) throw notFound('Action');
      return { success: true as const, data: rows.map(presentCommand), meta: { total: rows.length } };
    },
  );

  r.get(
    '/api/devices/commands/:commandId',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'One command with its output',
        params: commandParams,
        response: { 200: okBody(commandSchema) },
      },
    },
    async (request) => {
      const row = await commandsRepository.findInScope(
        app.db,
        scopeOf(requireAuth(request)),
        request.params.commandId,
      );
      if (!row) throw notFound('Command');
      return { success: true as const, data: presentCommand(row) };
    },
  );

  r.get(
    '/api/devices/commands/:commandId/file',
    {
      config: { access: { permission: 'view_devices' } },
      schema: { tags: ['devices'], summary: 'The file an export command returned', params: commandParams },
    },
    async (request, reply) => {
      const row = await commandsRepository.findInScope(
        app.db,
        scopeOf(requireAuth(request)),
        request.params.commandId,
      );
      if (!row?.fileData || !row.fileName) throw notFound('File');
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${row.fileName}"`)
        .send(Buffer.from(row.fileData, 'base64'));
    },
  );

  r.post(
    '/api/devices/commands/:commandId/cancel',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Cancel a command that has not reached its device',
        params: commandParams,
        response: { 200: okBody(commandSchema) },
      },
    },
    async (request) => {
      const outcome = await commandsRepository.cancel(
        app.db,
        scopeOf(requireAuth(request)),
        request.params.commandId,
      );
      if (!outcome.found) throw notFound('Command');
      if (!outcome.cancelled)
        throw conflict(`The command is ${outcome.row.status}; only pending commands can be cancelled`);
      notifyCommand(app.deviceNotify, outcome.row);
      return {
        success: true as const,
        data: presentCommand(outcome.row),
        message: 'Command cancelled successfully',
      };
    },
  );
}

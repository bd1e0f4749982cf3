import { okBody } from '@fleetgate/shared/schemas/api';
import {
  bulkActionBody,
  bulkResultSchema,
  commandListQuerySchema,
  commandSchema,
  generatedPasswordSchema,
  setPasswordBody,
} from '@fleetgate/shared/schemas/devices';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { bulkMessage, presentBulk, presentCommand } from './commands.presenter';
import { commandsService } from './commands.service';

const commandParams = z.object({ commandId: z.uuid() });

/** Device actions: bulk actions, device passwords, command history, an action's commands, cancel. */
export async function deviceActionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const view = { access: { permission: 'view_devices' as const } };
  const manage = { access: { permission: 'manage_devices' as const } };

  r.post(
    '/api/devices/actions',
    {
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'Bulk action {action, device_id[]} with a result per device; progress on meta.channel',
        body: bulkActionBody,
        response: { 200: okBody(z.array(bulkResultSchema)) },
      },
    },
    async (request) => {
      const outcome = await commandsService.bulk(ctx(request), request.body);
      return { ...presentBulk(outcome), message: bulkMessage(outcome.results) };
    },
  );

  r.post(
    '/api/devices/passwords/generate',
    {
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'A generated device password (16 characters, product §5)',
        response: { 200: okBody(generatedPasswordSchema) },
      },
    },
    async () => ({ success: true as const, data: { password: commandsService.newPassword() } }),
  );

  r.post(
    '/api/devices/passwords/set',
    {
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'Set the device password on each device (a command per device)',
        body: setPasswordBody,
        response: { 200: okBody(z.array(bulkResultSchema)) },
      },
    },
    async (request) => presentBulk(await commandsService.setPasswords(ctx(request), request.body)),
  );

  r.get(
    '/api/devices/:id/commands',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Command history of a device, newest first',
        params: idParams,
        querystring: commandListQuerySchema,
        response: { 200: okBody(z.array(commandSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await commandsService.history(ctx(request), request.params.id, request.query);
      return { success: true as const, data: rows.map(presentCommand), meta: { total } };
    },
  );

  r.get(
    '/api/devices/actions/:batchId',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary:
          "The commands of one action request (its meta.channel): where 'Action status' starts before live steps",
        params: z.object({ batchId: z.uuid() }),
        response: { 200: okBody(z.array(commandSchema)) },
      },
    },
    async (request) => {
      const rows = await commandsService.batch(ctx(request), request.params.batchId);
      return { success: true as const, data: rows.map(presentCommand), meta: { total: rows.length } };
    },
  );

  r.get(
    '/api/devices/commands/:commandId',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'One command with its output',
        params: commandParams,
        response: { 200: okBody(commandSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentCommand(await commandsService.get(ctx(request), request.params.commandId)),
    }),
  );

  r.get(
    '/api/devices/commands/:commandId/file',
    {
      config: view,
      schema: { tags: ['devices'], summary: 'The file an export command returned', params: commandParams },
    },
    async (request, reply) => {
      const file = await commandsService.file(ctx(request), request.params.commandId);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .send(file.data);
    },
  );

  r.post(
    '/api/devices/commands/:commandId/cancel',
    {
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'Cancel a command that has not reached its device',
        params: commandParams,
        response: { 200: okBody(commandSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: presentCommand(await commandsService.cancel(ctx(request), request.params.commandId)),
      message: 'Command cancelled successfully',
    }),
  );
}

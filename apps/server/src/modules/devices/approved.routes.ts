import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import { approveDeviceBody, approvedDeviceSchema } from '@fleetgate/shared/schemas/devices';
import { listQuerySchema } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { approvedService } from './approved.service';

/**
 * The super admin's approved-devices list (product §2 auth.devices, §7 /devices/authorized):
 * serial and MAC pairs that register themselves into a company on first contact.
 */
export async function approvedDevicesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const superAdmin = { access: { permission: 'super_admin' as const } };

  r.get(
    '/api/devices/authorized',
    {
      config: superAdmin,
      schema: {
        tags: ['devices'],
        summary:
          'Approved devices: search serial, MAC, company and note (q); sort by serial, mac, company_name, created_at or registered_at',
        querystring: listQuerySchema,
        response: { 200: okBody(z.array(approvedDeviceSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await approvedService.list(ctx(request), request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.post(
    '/api/devices/authorized',
    {
      config: superAdmin,
      schema: {
        tags: ['devices'],
        summary: 'Approve a serial and MAC for a company',
        body: approveDeviceBody,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      const approval = await approvedService.approve(ctx(request), request.body);
      return {
        success: true as const,
        data: { id: approval.id },
        message: 'Approved device created successfully',
      };
    },
  );

  r.delete(
    '/api/devices/authorized/:id',
    {
      config: superAdmin,
      schema: {
        tags: ['devices'],
        summary: 'Remove an approval',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await approvedService.remove(ctx(request), request.params.id),
      message: 'Approved device removed successfully',
    }),
  );
}

import { normalizeMac } from '@fleetgate/shared/devices/messages';
import { okBody } from '@fleetgate/shared/schemas/api';
import { approveDeviceBody, approvedDeviceSchema } from '@fleetgate/shared/schemas/devices';
import { pageQuerySchema } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conflict, notFound } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import { audited, auditIdentity } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { approvedRepository } from './approved.repository';
import { devicesRepository } from './devices.repository';

/**
 * The super admin's approved-devices list (spec §2 auth.devices, §7 /devices/authorized):
 * serial and MAC pairs that register themselves into a company on first contact.
 */
export async function approvedDevicesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/devices/authorized',
    {
      config: { access: { permission: 'super_admin' } },
      schema: {
        tags: ['devices'],
        summary: 'Approved devices',
        querystring: pageQuerySchema,
        response: { 200: okBody(z.array(approvedDeviceSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await approvedRepository.list(app.db, request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.post(
    '/api/devices/authorized',
    {
      config: { access: { permission: 'super_admin' } },
      schema: {
        tags: ['devices'],
        summary: 'Approve a serial and MAC for a company',
        body: approveDeviceBody,
        response: { 200: okBody(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { serial, mac, company_id, note } = request.body;
      if (company_id !== undefined && !(await companyInScope(app.db, scopeOf(auth), company_id))) {
        throw notFound('Company');
      }
      // An approval says where a new device goes; it never moves one that is registered.
      if ((await devicesRepository.existingSerials(app.db, [serial])).size) {
        throw conflict('A device with this serial number is registered already', 'serial');
      }
      const row = await audited(
        app.db,
        async (tx) => {
          const inserted = await approvedRepository.insert(tx, {
            serial,
            mac: normalizeMac(mac)!,
            companyId: company_id ?? null,
            note: note ?? '',
            createdBy: auth.principal.id,
          });
          if (!inserted) throw conflict('This serial number is approved already', 'serial');
          return inserted;
        },
        (inserted) => ({
          action: 'device.approve',
          ...auditIdentity(auth),
          companyId: company_id ?? null,
          targetType: 'approved_device',
          targetId: inserted.id,
          details: { serial },
        }),
      );
      return {
        success: true as const,
        data: { id: row.id },
        message: 'Approved device created successfully',
      };
    },
  );

  r.delete(
    '/api/devices/authorized/:id',
    {
      config: { access: { permission: 'super_admin' } },
      schema: {
        tags: ['devices'],
        summary: 'Remove an approval',
        params: z.object({ id: z.coerce.number().int().min(1) }),
        response: { 200: okBody(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const row = await audited(
        app.db,
        async (tx) => {
          const removed = await approvedRepository.remove(tx, request.params.id);
          if (!removed) throw notFound('Approved device');
          return removed;
        },
        (removed) => ({
          action: 'device.approval_remove',
          ...auditIdentity(requireAuth(request)),
          targetType: 'approved_device',
          targetId: removed.id,
        }),
      );
      return { success: true as const, data: row, message: 'Approved device removed successfully' };
    },
  );
}

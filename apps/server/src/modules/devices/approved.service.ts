import { normalizeMac } from '@fleetgate/shared/devices/messages';
import type { approveDeviceBody } from '@fleetgate/shared/schemas/devices';
import type { z } from 'zod';
import { conflict, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { audited } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { approvedRepository } from './approved.repository';
import { devicesRepository } from './devices.repository';

/**
 * The super admin's approved-devices list (product §2 auth.devices, §7 /devices/authorized):
 * serial and MAC pairs that register themselves into a company on first contact
 * (gateway/device-auth.ts).
 */
export const approvedService = {
  list(ctx: ServiceContext, query: ListQuery) {
    return approvedRepository.list(ctx.db, query);
  },

  /** Approves a serial and MAC for a company the caller reaches, or for none yet. */
  async approve(ctx: ServiceContext, body: z.infer<typeof approveDeviceBody>) {
    const { serial, mac, company_id, note } = body;
    if (company_id !== undefined && !(await companyInScope(ctx.db, scopeOf(ctx.caller), company_id))) {
      throw notFound('Company');
    }
    // An approval says where a new device goes; it never moves one that is registered.
    if ((await devicesRepository.existingSerials(ctx.db, [serial])).size) {
      throw conflict('A device with this serial number is registered already', 'serial');
    }
    return audited(
      ctx.db,
      async (tx) => {
        const inserted = await approvedRepository.insert(tx, {
          serial,
          mac: normalizeMac(mac)!,
          companyId: company_id ?? null,
          note: note ?? '',
          createdBy: ctx.caller.principal.id,
        });
        if (!inserted) throw conflict('This serial number is approved already', 'serial');
        return inserted;
      },
      (inserted) =>
        callerAudit(ctx, {
          action: 'device.approve',
          companyId: company_id ?? null,
          targetType: 'approved_device',
          targetId: inserted.id,
          details: { serial },
        }),
    );
  },

  async remove(ctx: ServiceContext, id: number) {
    return audited(
      ctx.db,
      async (tx) => {
        const removed = await approvedRepository.remove(tx, id);
        if (!removed) throw notFound('Approved device');
        return removed;
      },
      (removed) =>
        callerAudit(ctx, {
          action: 'device.approval_remove',
          targetType: 'approved_device',
          targetId: removed.id,
        }),
    );
  },
};

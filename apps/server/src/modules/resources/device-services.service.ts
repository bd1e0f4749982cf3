import {
  CREDIT_TYPE_IDS,
  type ResourceType,
  resourceType,
  typeByName,
  typeNameFor,
} from '@fleetgate/shared/resources';
import type {
  ActivateServiceBody,
  ActivateServicesBody,
  MoveDeviceResourcesBody,
} from '@fleetgate/shared/schemas/resources';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#src/db/database';
import type { Gateway } from '#src/gateway/gateway';
import { badRequest } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { devicesService } from '../devices/devices.service';
import type { Notifier } from '../notifications/notifier';
import { callerAudit, type ServiceContext } from '../service-context';
import { warnIfLow } from './data-usage.service';
import { deviceServicesRepository } from './device-services.repository';
import { type EntryInput, InsufficientBalance, post } from './ledger.repository';
import { resourcesRepository } from './resources.repository';
import { guardBalance, isSuperAdmin, ledgerIdentity } from './resources.service';

/** How many ended services one sweep handles; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

type ServiceRow = NonNullable<Awaited<ReturnType<typeof deviceServicesRepository.find>>>;

function present(row: ServiceRow, packs: { type: number | null; balance: number }[], superAdmin: boolean) {
  const type = row.serviceTypeId === null ? undefined : resourceType(row.serviceTypeId);
  return {
    device_id: row.id,
    company_id: row.companyId,
    active: row.active,
    service_until: row.serviceUntil,
    service_type: type?.id ?? null,
    service_type_name: type ? typeNameFor(type, superAdmin) : null,
    trial: row.serviceTypeId === null,
    auto_renew: row.autoRenew,
    data_packs: packs
      .filter((p) => p.type !== null && p.balance > 0)
      .map((p) => ({
        credit_type: p.type!,
        credit_type_name: typeNameFor(resourceType(p.type!)!, superAdmin),
        left: p.balance,
      })),
  };
}

const DAY_MS = 86_400_000;

/** A credit or pack switches a service on; a data pack (where allowed) goes to the device. */
function serviceType(ctx: ServiceContext, name: string, dataPacks: boolean): ResourceType {
  const type = typeByName(name, isSuperAdmin(ctx));
  if (!type) throw badRequest('Resource type not found', 'credit_type_name');
  if (type.license_type === 'data_pack' && dataPacks) return type;
  if (type.license_type !== 'credit' && type.license_type !== 'management_pack')
    throw badRequest('Only a credit or a management pack switches a device’s service on', 'credit_type_name');
  return type;
}

/**
 * One unit of the type from the device's company, for the device: a credit or pack is spent
 * on its service (its period grows by the type's days); a data pack stays with the device.
 */
async function spendOnDevice(
  tx: Db,
  device: { id: number; company_id: number },
  type: ResourceType,
  now: Date,
  entry: Pick<EntryInput, 'action' | 'actorUserId' | 'subjectUserId'>,
) {
  const dataPack = type.license_type === 'data_pack';
  const entryId = await post(
    tx,
    { ...entry, resourceTypeId: type.id, amount: 1, sourceCompanyId: device.company_id, deviceId: device.id },
    [
      { account: { kind: 'company', companyId: device.company_id, type: type.id }, amount: -1 },
      {
        account: dataPack
          ? { kind: 'device', deviceId: device.id, type: type.id }
          : { kind: 'issuer', type: type.id },
        amount: 1,
      },
    ],
  );
  if (!dataPack) await deviceServicesRepository.extend(tx, device.id, type.duration_days!, type.id, now);
  return entryId;
}

/**
 * Device services (product §2 device.services, 'manage services'; §8 code 15): a credit or a
 * management pack activated on a device keeps it served for the type's period; when the
 * period ends the sweeper renews it from the company's credits (if asked) or switches it off,
 * and the gateway then refuses it with code 15 until a new activation.
 */
export const deviceServicesService = {
  async get(ctx: ServiceContext, deviceId: number) {
    const device = await devicesService.find(ctx, deviceId);
    const [row, packs] = await Promise.all([
      deviceServicesRepository.find(ctx.db, device.id),
      resourcesRepository.deviceBalances(ctx.db, device.id),
    ]);
    return present(row!, packs, isSuperAdmin(ctx));
  },

  async activate(ctx: ServiceContext, deviceId: number, input: ActivateServiceBody) {
    const device = await devicesService.find(ctx, deviceId);
    const type = serviceType(ctx, input.credit_type_name, true);
    const dataPack = type.license_type === 'data_pack';
    await guardBalance(
      ctx,
      () =>
        audited(
          ctx.db,
          async (tx) => {
            const entryId = await spendOnDevice(tx, device, type, new Date(), {
              action: 'activate',
              ...ledgerIdentity(ctx),
            });
            if (!dataPack && input.auto_renew !== undefined)
              await deviceServicesRepository.setAutoRenew(tx, device.id, input.auto_renew);
            return entryId;
          },
          (entryId) =>
            callerAudit(ctx, {
              action: dataPack ? 'device.data_pack_activate' : 'device.service_activate',
              companyId: device.company_id,
              targetType: 'device',
              targetId: device.id,
              details: { credit_type: type.id, entry: entryId },
            }),
        ),
      'credit_type_name',
    );
    if (!dataPack) await warnIfLow(ctx, device.company_id);
    return this.get(ctx, device.id);
  },

  /**
   * 'Manage services' on several devices (the devices table's selection): one unit of a credit
   * or pack type per device, each from its own company, all in one transaction: if any company
   * has too few, nothing changes.
   */
  async activateMany(ctx: ServiceContext, input: ActivateServicesBody) {
    const ids = [...new Set(input.device_id)];
    const found: Awaited<ReturnType<typeof devicesService.find>>[] = [];
    for (const id of ids) found.push(await devicesService.find(ctx, id));
    const type = serviceType(ctx, input.credit_type_name, false);
    // Said for the whole selection first; the transaction below still holds it under races.
    const needed = new Map<number, number>();
    for (const device of found) needed.set(device.company_id, (needed.get(device.company_id) ?? 0) + 1);
    const held = await resourcesRepository.balancesOf(ctx.db, [...needed.keys()]);
    for (const [companyId, count] of needed) {
      const left = held.find((b) => b.companyId === companyId && b.type === type.id)?.balance ?? 0;
      if (left < count) {
        const name = typeNameFor(type, isSuperAdmin(ctx));
        throw badRequest(
          `Not enough ${name.charAt(0).toLowerCase()}${name.slice(1)}: ${left} left for ${count} devices`,
          'credit_type_name',
        );
      }
    }
    const now = new Date();
    await guardBalance(
      ctx,
      () =>
        audited(
          ctx.db,
          async (tx) => {
            for (const device of found) {
              await spendOnDevice(tx, device, type, now, { action: 'activate', ...ledgerIdentity(ctx) });
              if (input.auto_renew !== undefined)
                await deviceServicesRepository.setAutoRenew(tx, device.id, input.auto_renew);
            }
          },
          () =>
            found.map((device) =>
              callerAudit(ctx, {
                action: 'device.service_activate',
                companyId: device.company_id,
                targetType: 'device',
                targetId: device.id,
                details: { credit_type: type.id, bulk: true },
              }),
            ),
        ),
      'credit_type_name',
    );
    for (const companyId of new Set(found.map((d) => d.company_id))) await warnIfLow(ctx, companyId);
    return {
      activated: found.length,
      credit_type: type.id,
      credit_type_name: typeNameFor(type, isSuperAdmin(ctx)),
    };
  },

  /**
   * 'Move device resources': the whole days left of a credit's period (the source's service
   * ends now and the target's grows by them), or one unused connection data pack. A
   * management pack never moves (it stays with the device it was activated on), nor a trial.
   */
  async moveResources(ctx: ServiceContext, input: MoveDeviceResourcesBody) {
    if (input.source === input.target)
      throw badRequest('Source and target must be different devices', 'target');
    const from = await devicesService.find(ctx, input.source);
    const to = await devicesService.find(ctx, input.target);
    const now = new Date();
    if (input.resource.toLowerCase() === 'days') {
      const row = (await deviceServicesRepository.find(ctx.db, from.id))!;
      if (!row.active || row.serviceTypeId === null || !CREDIT_TYPE_IDS.includes(row.serviceTypeId))
        throw badRequest(
          'Only the remaining days of an active credit can move to another device',
          'resource',
        );
      const days = Math.floor((row.serviceUntil!.getTime() - now.getTime()) / DAY_MS);
      if (days < 1) throw badRequest('The source device has no whole day of service left', 'resource');
      const typeId = row.serviceTypeId;
      await audited(
        ctx.db,
        async (tx) => {
          await deviceServicesRepository.endNow(tx, from.id, now);
          await deviceServicesRepository.extend(tx, to.id, days, typeId, now);
          return resourcesRepository.recordEntry(tx, {
            action: 'move_days',
            resourceTypeId: typeId,
            amount: days,
            sourceCompanyId: from.company_id,
            targetCompanyId: to.company_id,
            deviceId: from.id,
            targetDeviceId: to.id,
            ...ledgerIdentity(ctx),
          });
        },
        (entryId) =>
          callerAudit(ctx, {
            action: 'device.service_move_days',
            companyId: from.company_id,
            targetType: 'device',
            targetId: from.id,
            details: { days, target: to.id, entry: entryId },
          }),
      );
      ctx.gateway.disconnect(from.serial);
      return {
        resource: 'days',
        amount: days,
        source: await this.get(ctx, from.id),
        target: await this.get(ctx, to.id),
      };
    }
    const type = typeByName(input.resource, isSuperAdmin(ctx));
    if (type?.license_type !== 'data_pack')
      throw badRequest(
        'Only the remaining days of a credit or an unused connection data pack can move',
        'resource',
      );
    await guardBalance(
      ctx,
      () =>
        audited(
          ctx.db,
          (tx) =>
            post(
              tx,
              {
                action: 'move_pack',
                resourceTypeId: type.id,
                amount: 1,
                sourceCompanyId: from.company_id,
                targetCompanyId: to.company_id,
                deviceId: from.id,
                targetDeviceId: to.id,
                ...ledgerIdentity(ctx),
              },
              [
                { account: { kind: 'device', deviceId: from.id, type: type.id }, amount: -1 },
                { account: { kind: 'device', deviceId: to.id, type: type.id }, amount: 1 },
              ],
            ),
          (entryId) =>
            callerAudit(ctx, {
              action: 'device.data_pack_move',
              companyId: from.company_id,
              targetType: 'device',
              targetId: from.id,
              details: { credit_type: type.id, target: to.id, entry: entryId },
            }),
        ),
      'resource',
    );
    return {
      resource: typeNameFor(type, isSuperAdmin(ctx)),
      amount: 1,
      source: await this.get(ctx, from.id),
      target: await this.get(ctx, to.id),
    };
  },

  async setAutoRenew(ctx: ServiceContext, deviceId: number, autoRenew: boolean) {
    const device = await devicesService.find(ctx, deviceId);
    await audited(
      ctx.db,
      (tx) => deviceServicesRepository.setAutoRenew(tx, device.id, autoRenew),
      () =>
        callerAudit(ctx, {
          action: 'device.service_auto_renew',
          companyId: device.company_id,
          targetType: 'device',
          targetId: device.id,
          details: { auto_renew: autoRenew },
        }),
    );
    return this.get(ctx, device.id);
  },
};

/**
 * One pass over the services that ended before `now`: each renews from its company's credits
 * (free ones first) when it asks to and credits are left, else it is switched off and its
 * session ends. Safe to run on several servers at once: every change is conditional.
 */
export async function sweepServices(
  deps: { db: Db; gateway: Gateway; log: FastifyBaseLogger; notifications: Notifier },
  now = new Date(),
) {
  let renewed = 0;
  let ended = 0;
  for (const row of await deviceServicesRepository.due(deps.db, now, SWEEP_BATCH)) {
    if (row.autoRenew && (await renew(deps.db, row, now))) {
      renewed++;
      await warnIfLow(deps, row.companyId);
      continue;
    }
    const off = await audited(
      deps.db,
      (tx) => deviceServicesRepository.switchOff(tx, row.id, now),
      (done) =>
        done
          ? {
              action: 'device.service_end',
              actorUserId: null,
              companyId: row.companyId,
              targetType: 'device',
              targetId: row.id,
            }
          : null,
    );
    if (!off) continue;
    ended++;
    deps.gateway.disconnect(off.serial);
  }
  if (renewed || ended) deps.log.info({ renewed, ended }, 'device services swept');
  return { renewed, ended };
}

/** Renews one service from its company's credits; false when none is left. */
async function renew(db: Db, row: ServiceRow, now: Date): Promise<boolean> {
  for (const typeId of CREDIT_TYPE_IDS) {
    try {
      await audited(
        db,
        (tx) =>
          spendOnDevice(tx, { id: row.id, company_id: row.companyId }, resourceType(typeId)!, now, {
            action: 'renew',
          }),
        () => ({
          action: 'device.service_renew',
          actorUserId: null,
          companyId: row.companyId,
          targetType: 'device',
          targetId: row.id,
          details: { credit_type: typeId },
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof InsufficientBalance)) throw error;
    }
  }
  return false;
}

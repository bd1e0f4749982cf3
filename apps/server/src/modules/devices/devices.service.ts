import { normalizeMac } from '@fleetgate/shared/devices/messages';
import type { RegisterDeviceBody, updateDeviceBody } from '@fleetgate/shared/schemas/devices';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '#src/http/errors';
import { type AuditEntry, audited } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { deviceServicesRepository } from '../resources/device-services.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { approvedRepository } from './approved.repository';
import { type CommandBatch, commandBatches } from './command-batches';
import {
  candidatePairs,
  checkCandidate,
  type ImportRowResult,
  importCandidates,
  rowConflict,
} from './device-import';
import { devicesRepository } from './devices.repository';
import { type DeviceListParams, iterateDevices, listDevices } from './devices-list.repository';
import { SERIAL_IN_FLEET, SERIAL_UNAVAILABLE, serialAvailabilityService } from './serial-availability';

/** Rows a CSV export holds at most. */
const EXPORT_MAX_ROWS = 100_000;

type DeviceChanges = z.infer<typeof updateDeviceBody>;

/** A device's audit entry: the caller, the device and its company. */
const deviceAudit = (
  ctx: ServiceContext,
  action: string,
  device: { id: number; companyId: number },
  details?: Record<string, unknown>,
) =>
  callerAudit(ctx, {
    action,
    companyId: device.companyId,
    targetType: 'device',
    targetId: device.id,
    details,
  });

/**
 * Devices (product §3 Device): the list, the device page, registration, changes and
 * unregistration. Every read and change is scoped to the caller's companies; another
 * company's device answers 404.
 */
export const devicesService = {
  /** A page of the devices list, each device with the tags the caller reaches when asked for. */
  async list(ctx: ServiceContext, params: DeviceListParams, withTags: boolean) {
    const scope = scopeOf(ctx.caller);
    const page = await listDevices(ctx.db, scope, params);
    // One more query, and only for the table's Tags column.
    const tags = withTags
      ? await devicesRepository.tagsOf(
          ctx.db,
          scope,
          page.rows.map((row) => row.id),
        )
      : new Map();
    return { ...page, rows: page.rows.map((row) => ({ ...row, tags: tags.get(row.id) ?? [] })) };
  },

  /** The filtered list for the CSV export, at most EXPORT_MAX_ROWS devices, read as it is sent. */
  async *exportRows(ctx: ServiceContext, params: Omit<DeviceListParams, 'limit' | 'offset' | 'cursor'>) {
    let n = 0;
    for await (const row of iterateDevices(ctx.db, scopeOf(ctx.caller), params)) {
      yield row;
      if (++n >= EXPORT_MAX_ROWS) return;
    }
  },

  /** Models in scope with their counts (the model filter's options). */
  models(ctx: ServiceContext) {
    return devicesRepository.modelCounts(ctx.db, scopeOf(ctx.caller));
  },

  /** A device the caller reaches, with its company and last state; 404 otherwise. */
  async find(ctx: ServiceContext, id: number) {
    const device = await devicesRepository.findInScope(ctx.db, scopeOf(ctx.caller), id);
    if (!device) throw notFound('Device');
    return device;
  },

  /** The device page: the device and the tags the caller reaches. */
  async get(ctx: ServiceContext, id: number) {
    const device = await this.find(ctx, id);
    const tags = await devicesRepository.tagsOf(ctx.db, scopeOf(ctx.caller), [device.id]);
    return { device, tags: tags.get(device.id) ?? [] };
  },

  /** Registers one device ('Add device') into a company the caller reaches. */
  async register(ctx: ServiceContext, body: RegisterDeviceBody) {
    const companyId = body.company_id ?? ctx.caller.principal.company.id;
    if (!(await companyInScope(ctx.db, scopeOf(ctx.caller), companyId))) throw notFound('Company');
    const mac = normalizeMac(body.mac)!;
    const verdicts = await serialAvailabilityService.verdicts(ctx, companyId, [{ serial: body.serial, mac }]);
    const verdict = verdicts.get(body.serial)!;
    await serialAvailabilityService.countUnavailable(
      ctx,
      verdict.ok || verdict.message === SERIAL_IN_FLEET ? 0 : 1,
    );
    if (!verdict.ok) throw conflict(verdict.message, 'serial');
    return audited(
      ctx.db,
      async (tx) => {
        const device = await devicesRepository.insert(tx, {
          companyId,
          serial: body.serial,
          mac,
          name: body.name ?? body.serial,
          description: body.description ?? '',
          model: body.model?.toUpperCase() ?? null,
          createdBy: ctx.caller.principal.id,
        });
        // Lost a race with another registration of the same serial: the same answer as any taken one.
        if (!device) throw conflict(SERIAL_UNAVAILABLE, 'serial');
        if (verdict.approvalId !== null)
          await approvedRepository.markRegistered(tx, verdict.approvalId, device.id);
        return device;
      },
      (device) => deviceAudit(ctx, 'device.register', device, { serial: device.serial }),
    );
  },

  /**
   * Registers devices from CSV text ('Add device from file') and answers one result
   * per row (device-import.ts reads the file). Rows are independent: a bad row does not
   * stop the others.
   */
  async import(ctx: ServiceContext, text: string, companyId: number | undefined): Promise<ImportRowResult[]> {
    const target = companyId ?? ctx.caller.principal.company.id;
    if (!(await companyInScope(ctx.db, scopeOf(ctx.caller), target))) throw notFound('Company');
    const candidates = importCandidates(text);
    const verdicts = await serialAvailabilityService.verdicts(ctx, target, candidatePairs(candidates));
    // Counted before anything is written: a file of other tenants' serials registers nothing.
    const unavailable = [...verdicts.values()].filter(
      (v) => !v.ok && v.message === SERIAL_UNAVAILABLE,
    ).length;
    await serialAvailabilityService.countUnavailable(ctx, unavailable);
    // The rows written and the import's audit row commit together or not at all.
    return audited(
      ctx.db,
      async (tx) => {
        const results: ImportRowResult[] = [];
        const seen = new Set<string>();
        for (const candidate of candidates) {
          const checked = checkCandidate(candidate, seen);
          if (!checked.ok) {
            results.push(checked.result);
            continue;
          }
          const { base, body } = checked;
          const verdict = verdicts.get(body.serial);
          if (verdict && !verdict.ok) {
            results.push(rowConflict(base, verdict.message));
            continue;
          }
          const device = await devicesRepository.insert(tx, {
            companyId: target,
            serial: body.serial,
            mac: normalizeMac(body.mac)!,
            name: body.name ?? body.serial,
            description: body.description ?? '',
            model: body.model?.toUpperCase() ?? null,
            createdBy: ctx.caller.principal.id,
          });
          if (!device) {
            results.push(rowConflict(base, SERIAL_UNAVAILABLE));
            continue;
          }
          if (verdict?.ok && verdict.approvalId !== null) {
            await approvedRepository.markRegistered(tx, verdict.approvalId, device.id);
          }
          results.push({ ...base, success: true, device_id: device.id });
        }
        return results;
      },
      (results) =>
        callerAudit(ctx, {
          action: 'device.import',
          companyId: target,
          targetType: 'company',
          targetId: target,
          details: { rows: results.length, created: results.filter((r) => r.success).length },
        }),
    );
  },

  /**
   * Updates name, description and monitoring of a device. A new name or description is
   * also sent to the device (a `set_info` command, whose channel the answer names).
   */
  async update(ctx: ServiceContext, id: number, body: DeviceChanges) {
    const current = await this.find(ctx, id);
    const name = body.name ?? current.name;
    const description = body.description ?? current.description;
    const infoChanged = name !== current.name || description !== current.description;
    const device = { id, companyId: current.company_id };
    // The new values, their `set_info` command and both audit rows commit together.
    const batch = await audited(
      ctx.db,
      async (tx): Promise<CommandBatch | undefined> => {
        await devicesRepository.update(tx, id, {
          name,
          description,
          ...(body.monitoring_enabled !== undefined ? { monitoringEnabled: body.monitoring_enabled } : {}),
        });
        if (!infoChanged) return undefined;
        return commandBatches.write(ctx, tx, [device], 'set_info', { name, description });
      },
      (written): AuditEntry[] => [
        deviceAudit(ctx, 'device.update', device, body),
        ...(written ? [written.audit] : []),
      ],
    );
    // product §8 code 14: a device whose monitoring is disabled is refused from now on.
    if (body.monitoring_enabled === false) ctx.gateway.disconnect(current.serial);
    if (!batch) return { channel: undefined };
    return { channel: commandBatches.send(ctx, batch).channel };
  },

  /** Whether the device holds an active credit; without one its session ends (product §8 code 15). */
  async setCredit(ctx: ServiceContext, id: number, active: boolean) {
    const current = await this.find(ctx, id);
    // Switching on needs a service period left: a credit or pack is what buys one.
    const service = await deviceServicesRepository.find(ctx.db, current.id);
    if (active && !(service?.serviceUntil && service.serviceUntil > new Date()))
      throw badRequest(
        'The device’s service has ended: activate a credit or a management pack first',
        'active',
      );
    await audited(
      ctx.db,
      (tx) => devicesRepository.update(tx, current.id, { creditActive: active }),
      () => deviceAudit(ctx, 'device.credit', { id: current.id, companyId: current.company_id }, { active }),
    );
    if (!active) ctx.gateway.disconnect(current.serial);
    return { id: current.id, credit_active: active };
  },

  /** Unregisters devices the caller reaches; their sessions end and their data goes. */
  async unregister(ctx: ServiceContext, ids: number[]) {
    const removed = await audited(
      ctx.db,
      (tx) => devicesRepository.remove(tx, scopeOf(ctx.caller), ids),
      (gone) =>
        gone.length
          ? callerAudit(ctx, {
              action: 'device.unregister',
              companyId: ctx.caller.principal.company.id,
              targetType: 'device',
              targetId: gone.map((d) => d.id).join(','),
              details: { serials: gone.map((d) => d.serial) },
            })
          : null,
    );
    for (const d of removed) ctx.gateway.disconnect(d.serial);
    return removed;
  },

  /** Unregisters one device; 404 when the caller does not reach it. */
  async remove(ctx: ServiceContext, id: number) {
    const removed = await this.unregister(ctx, [id]);
    if (removed.length === 0) throw notFound('Device');
  },

  /**
   * Forgets devices' secrets so that their next contact with serial and MAC issues new ones
   * (a replaced or factory-reset unit). Their sessions end now.
   */
  async resetIdentities(ctx: ServiceContext, ids: number[]) {
    const targets = await devicesRepository.idsInScope(ctx.db, scopeOf(ctx.caller), ids);
    await audited(
      ctx.db,
      async (tx) => {
        for (const d of targets) {
          await devicesRepository.update(tx, d.id, {
            secretHash: null,
            pendingSecretHash: null,
            secretIssuedAt: null,
          });
        }
      },
      () =>
        targets.length
          ? callerAudit(ctx, {
              action: 'device.identity_reset',
              companyId: ctx.caller.principal.company.id,
              targetType: 'device',
              targetId: targets.map((d) => d.id).join(','),
            })
          : null,
    );
    for (const d of targets) ctx.gateway.disconnect(d.serial);
    return targets;
  },
};

import { normalizeMac } from '@fleetgate/shared/devices/messages';
import { type RegisterDeviceBody, registerDeviceBody } from '@fleetgate/shared/schemas/devices';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../../http/errors';
import type { AuthContext } from '../../plugins/auth';
import { type AuditEntry, audited, auditIdentity } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { approvedRepository } from './approved.repository';
import { type CommandBatch, sendCommands, writeCommands } from './commands.service';
import { parseCsv } from './csv';
import { devicesRepository } from './devices.repository';
import { countUnavailable, SERIAL_IN_FLEET, SERIAL_UNAVAILABLE, serialVerdicts } from './serial-availability';

type ErrorItem = { code: string; message: string; source?: string };

/** Rows a single import may hold. */
export const IMPORT_MAX_ROWS = 10_000;
const IMPORT_COLUMNS = ['serial', 'mac', 'name', 'description', 'model'] as const;

/** Registers one device into a company the caller reaches (issue 5 §3 'Add device'). */
export async function registerDevice(app: FastifyInstance, auth: AuthContext, body: RegisterDeviceBody) {
  const scope = scopeOf(auth);
  const companyId = body.company_id ?? auth.principal.company.id;
  if (!(await companyInScope(app.db, scope, companyId))) throw notFound('Company');
  const mac = normalizeMac(body.mac)!;
  const verdict = (await serialVerdicts(app, auth, companyId, [{ serial: body.serial, mac }])).get(
    body.serial,
  )!;
  await countUnavailable(app, auth, verdict.ok || verdict.message === SERIAL_IN_FLEET ? 0 : 1);
  if (!verdict.ok) throw conflict(verdict.message, 'serial');
  return audited(
    app.db,
    async (tx) => {
      const device = await devicesRepository.insert(tx, {
        companyId,
        serial: body.serial,
        mac,
        name: body.name ?? body.serial,
        description: body.description ?? '',
        model: body.model?.toUpperCase() ?? null,
        createdBy: auth.principal.id,
      });
      // Lost a race with another registration of the same serial: the same answer as any taken one.
      if (!device) throw conflict(SERIAL_UNAVAILABLE, 'serial');
      if (verdict.approvalId !== null)
        await approvedRepository.markRegistered(tx, verdict.approvalId, device.id);
      return device;
    },
    (device) => ({
      action: 'device.register',
      ...auditIdentity(auth),
      companyId,
      targetType: 'device',
      targetId: device.id,
      details: { serial: device.serial },
    }),
  );
}

export type ImportRowResult = {
  line: number;
  serial: string;
  mac: string;
  success: boolean;
  device_id?: number;
  errors?: ErrorItem[];
};

/**
 * Registers devices from CSV text (issue 5 §3 'Add device from file') and answers one
 * result per row. Columns: serial, mac, name, description, model; a header row naming
 * them may reorder them. Rows are independent: a bad row does not stop the others.
 */
export async function importDevices(
  app: FastifyInstance,
  auth: AuthContext,
  text: string,
  companyId: number | undefined,
): Promise<ImportRowResult[]> {
  const target = companyId ?? auth.principal.company.id;
  if (!(await companyInScope(app.db, scopeOf(auth), target))) throw notFound('Company');
  const rows = parseCsv(text);
  let columns: readonly string[] = IMPORT_COLUMNS;
  if (rows[0]?.fields.some((f) => f.toLowerCase() === 'serial')) {
    columns = rows[0].fields.map((f) => f.toLowerCase());
    rows.shift();
  }
  if (rows.length > IMPORT_MAX_ROWS) {
    throw conflict(`A file may hold at most ${IMPORT_MAX_ROWS} devices`, 'file');
  }
  const candidates = rows.map(({ line, fields }) => {
    const value = (name: string) => fields[columns.indexOf(name)] || undefined;
    return {
      line,
      raw: {
        serial: value('serial'),
        mac: value('mac'),
        name: value('name'),
        description: value('description'),
        model: value('model'),
      },
    };
  });
  const verdicts = await serialVerdicts(
    app,
    auth,
    target,
    candidates.flatMap(({ raw }) => {
      const mac = raw.mac ? normalizeMac(raw.mac) : undefined;
      return raw.serial && mac ? [{ serial: raw.serial, mac }] : [];
    }),
  );
  // Counted before anything is written: a file of other tenants' serials registers nothing.
  const unavailable = [...verdicts.values()].filter((v) => !v.ok && v.message === SERIAL_UNAVAILABLE).length;
  await countUnavailable(app, auth, unavailable);
  // The rows written and the import's audit row commit together or not at all.
  return audited(
    app.db,
    async (tx) => {
      const results: ImportRowResult[] = [];
      const seen = new Set<string>();
      for (const { line, raw } of candidates) {
        const base = { line, serial: raw.serial ?? '', mac: raw.mac ?? '' };
        const parsed = registerDeviceBody.safeParse(
          Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)),
        );
        if (!parsed.success) {
          results.push({
            ...base,
            success: false,
            errors: parsed.error.issues.map((i) => ({
              code: 'VALIDATION_ERROR',
              message: i.message,
              source: String(i.path[0] ?? 'row'),
            })),
          });
          continue;
        }
        const serial = parsed.data.serial;
        if (seen.has(serial)) {
          results.push({
            ...base,
            success: false,
            errors: [{ code: 'CONFLICT', message: 'Serial number repeats an earlier row', source: 'serial' }],
          });
          continue;
        }
        seen.add(serial);
        const verdict = verdicts.get(serial);
        if (verdict && !verdict.ok) {
          results.push({
            ...base,
            success: false,
            errors: [{ code: 'CONFLICT', message: verdict.message, source: 'serial' }],
          });
          continue;
        }
        const device = await devicesRepository.insert(tx, {
          companyId: target,
          serial,
          mac: normalizeMac(parsed.data.mac)!,
          name: parsed.data.name ?? serial,
          description: parsed.data.description ?? '',
          model: parsed.data.model?.toUpperCase() ?? null,
          createdBy: auth.principal.id,
        });
        if (!device) {
          results.push({
            ...base,
            success: false,
            errors: [{ code: 'CONFLICT', message: SERIAL_UNAVAILABLE, source: 'serial' }],
          });
          continue;
        }
        if (verdict?.ok && verdict.approvalId !== null) {
          await approvedRepository.markRegistered(tx, verdict.approvalId, device.id);
        }
        results.push({ ...base, success: true, device_id: device.id });
      }
      return results;
    },
    (results) => ({
      action: 'device.import',
      ...auditIdentity(auth),
      companyId: target,
      targetType: 'company',
      targetId: target,
      details: { rows: results.length, created: results.filter((r) => r.success).length },
    }),
  );
}

/** Unregisters devices the caller reaches; their sessions end and their data goes. */
export async function unregisterDevices(app: FastifyInstance, auth: AuthContext, ids: number[]) {
  const removed = await audited(
    app.db,
    (tx) => devicesRepository.remove(tx, scopeOf(auth), ids),
    (gone) =>
      gone.length
        ? {
            action: 'device.unregister',
            ...auditIdentity(auth),
            companyId: auth.principal.company.id,
            targetType: 'device',
            targetId: gone.map((d) => d.id).join(','),
            details: { serials: gone.map((d) => d.serial) },
          }
        : null,
  );
  for (const d of removed) app.gateway.disconnect(d.serial);
  return removed;
}

/**
 * Forgets a device's secret so that its next contact with serial and MAC issues a new
 * one (a replaced or factory-reset unit). Its session ends now.
 */
export async function resetIdentities(app: FastifyInstance, auth: AuthContext, ids: number[]) {
  const targets = await devicesRepository.idsInScope(app.db, scopeOf(auth), ids);
  await audited(
    app.db,
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
        ? {
            action: 'device.identity_reset',
            ...auditIdentity(auth),
            companyId: auth.principal.company.id,
            targetType: 'device',
            targetId: targets.map((d) => d.id).join(','),
          }
        : null,
  );
  for (const d of targets) app.gateway.disconnect(d.serial);
  return targets;
}

/**
 * Updates name, description and monitoring of a device. A new name or description is
 * also sent to the device (a `set_info` command, whose channel the response names).
 */
export async function updateDevice(
  app: FastifyInstance,
  auth: AuthContext,
  id: number,
  body: {
    name?: string | undefined;
    description?: string | undefined;
    monitoring_enabled?: boolean | undefined;
  },
) {
  const scope = scopeOf(auth);
  const current = await devicesRepository.findInScope(app.db, scope, id);
  if (!current) throw notFound('Device');
  const name = body.name ?? current.name;
  const description = body.description ?? current.description;
  const infoChanged = name !== current.name || description !== current.description;
  // The new values, their `set_info` command and both audit rows commit together.
  const batch = await audited(
    app.db,
    async (tx): Promise<CommandBatch | undefined> => {
      await devicesRepository.update(tx, id, {
        name,
        description,
        ...(body.monitoring_enabled !== undefined ? { monitoringEnabled: body.monitoring_enabled } : {}),
      });
      if (!infoChanged) return undefined;
      return writeCommands(tx, auth, [{ id, companyId: current.company_id }], 'set_info', {
        name,
        description,
      });
    },
    (written): AuditEntry[] => [
      {
        action: 'device.update',
        ...auditIdentity(auth),
        companyId: current.company_id,
        targetType: 'device',
        targetId: id,
        details: body,
      },
      ...(written ? [written.audit] : []),
    ],
  );
  // spec §8 code 14: a device whose monitoring is disabled is refused from now on.
  if (body.monitoring_enabled === false) app.gateway.disconnect(current.serial);
  if (!batch) return { channel: undefined };
  const { channel } = sendCommands(app, batch);
  return { channel };
}

import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import { okBody } from '@fleetgate/shared/schemas/api';
import {
  deviceCreditBody,
  deviceDetailSchema,
  deviceFiltersSchema,
  deviceSchema,
  importRowResultSchema,
  registerDeviceBody,
  updateDeviceBody,
} from '@fleetgate/shared/schemas/devices';
import { commaIntList } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest, notFound } from '../../http/errors';
import { listQuerySchema, pickFields } from '../../http/list-query';
import { requireAuth } from '../../plugins/access';
import { audited, auditIdentity } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { csvLine } from './csv';
import { presentDeviceDetail } from './devices.presenter';
import { devicesRepository } from './devices.repository';
import { importDevices, registerDevice, unregisterDevices, updateDevice } from './devices.service';
import { iterateDevices, listDevices } from './devices-list.repository';

const idParams = z.object({ id: z.coerce.number().int().min(1) });
const listQuery = listQuerySchema.extend(deviceFiltersSchema.shape).extend({
  /** Devices carrying any of these tags (issue 5 §7 tag filter). */
  tag_id: commaIntList.optional(),
});
type ListQueryIn = z.infer<typeof listQuery>;

const listParams = (q: ListQueryIn) => ({
  limit: q.limit,
  offset: q.offset,
  sort: q.sort,
  q: q.q,
  searchFields: q['search-fields'],
  status: q.status,
  model: q.model,
  companyId: q.company_id,
  firmware: q.firmware,
  tagId: q.tag_id,
  cursor: q.cursor,
});

/** A tag on the device page header (spec §3 Tag). */

const EXPORT_COLUMNS = [
  'id',
  'name',
  'serial',
  'mac',
  'model',
  'firmware',
  'imei',
  'status_text',
  'company_name',
  'last_seen_at',
  'signal',
  'temperature',
  'operator',
  'wan_ip',
  'description',
] as const;
const EXPORT_MAX_ROWS = 100_000;

/** The devices list, the device page, registration and unregistration (issue 5 §3, §7, §8). */
export async function devicesRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_FILE_SIZE_BYTES, files: 1, fields: 5 } });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/devices',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Devices the caller reaches: filters, sort, search, offset or keyset paging',
        querystring: listQuery,
        response: { 200: okBody(z.array(deviceSchema.partial())) },
      },
    },
    async (request) => {
      const q = request.query;
      const scope = scopeOf(requireAuth(request));
      const { rows, total, totalCapped, nextCursor } = await listDevices(app.db, scope, listParams(q));
      // The page's tags in one more query, only when asked for (the table's Tags column).
      const tags =
        !q.fields || q.fields.includes('tags')
          ? await devicesRepository.tagsOf(
              app.db,
              scope,
              rows.map((row) => row.id),
            )
          : new Map();
      return {
        success: true as const,
        data: pickFields(
          rows.map((row) => ({ ...row, tags: tags.get(row.id) ?? [] })),
          q.fields,
        ),
        meta: {
          total,
          ...(totalCapped ? { total_capped: true } : {}),
          ...(nextCursor ? { next_cursor: nextCursor } : {}),
        },
      };
    },
  );

  r.get(
    '/api/devices/export',
    {
      config: { access: { permission: 'view_devices' } },
      schema: { tags: ['devices'], summary: 'The filtered devices list as CSV', querystring: listQuery },
    },
    async (request, reply) => {
      const q = request.query;
      const { limit: _l, offset: _o, cursor: _c, ...params } = listParams(q);
      const rows = iterateDevices(app.db, scopeOf(requireAuth(request)), params);
      async function* lines() {
        yield csvLine([...EXPORT_COLUMNS]);
        let n = 0;
        for await (const row of rows) {
          yield csvLine(EXPORT_COLUMNS.map((c) => row[c]));
          if (++n >= EXPORT_MAX_ROWS) return;
        }
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="devices.csv"')
        .send(Readable.from(lines()));
    },
  );

  r.get(
    '/api/devices/statistics',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Device models in scope with counts (model filter options)',
        response: {
          200: okBody(z.array(z.object({ model: z.string().nullable(), count: z.number().int() }))),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await devicesRepository.modelCounts(app.db, scopeOf(requireAuth(request))),
    }),
  );

  r.get(
    '/api/devices/:id',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'One device with its capabilities (spec §3), last state and tags',
        params: idParams,
        response: { 200: okBody(deviceDetailSchema) },
      },
    },
    async (request) => {
      const scope = scopeOf(requireAuth(request));
      const row = await devicesRepository.findInScope(app.db, scope, request.params.id);
      if (!row) throw notFound('Device');
      const tags = await devicesRepository.tagsOf(app.db, scope, [row.id]);
      return { success: true as const, data: { ...presentDeviceDetail(row), tags: tags.get(row.id) ?? [] } };
    },
  );

  r.post(
    '/api/devices',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Add a device by serial and MAC',
        body: registerDeviceBody,
        response: { 200: okBody(z.object({ id: z.number().int(), serial: z.string(), mac: z.string() })) },
      },
    },
    async (request) => {
      const device = await registerDevice(app, requireAuth(request), request.body);
      return {
        success: true as const,
        data: { id: device.id, serial: device.serial, mac: device.mac },
        message: 'Device created successfully',
      };
    },
  );

  r.post(
    '/api/devices/import',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Add devices from a CSV file (serial, mac[, name, description, model]); one result per row',
        consumes: ['multipart/form-data'],
        querystring: z.object({ company_id: z.coerce.number().int().min(1).optional() }),
        response: { 200: okBody(z.array(importRowResultSchema)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data', 'file');
      const file = await request.file();
      if (!file) throw badRequest('Not a CSV file selected', 'file');
      // spec §5: a CSV upload must be a CSV.
      if (!/\.csv$/i.test(file.filename) && !/csv|text\/plain/.test(file.mimetype)) {
        throw badRequest('Not a CSV file selected', 'file');
      }
      let buffer: Buffer;
      try {
        buffer = await file.toBuffer();
      } catch {
        throw AppError.of(413, 'PAYLOAD_TOO_LARGE', 'File size must be lower than 80MB', 'file');
      }
      const field = file.fields.company_id;
      const fromField =
        field && !Array.isArray(field) && field.type === 'field' ? Number(field.value) : undefined;
      const companyId = request.query.company_id ?? (Number.isInteger(fromField) ? fromField : undefined);
      const results = await importDevices(app, auth, buffer.toString('utf8'), companyId);
      const created = results.filter((x) => x.success).length;
      return {
        success: true as const,
        data: results,
        meta: { total: results.length, created },
        message: `${created} of ${results.length} devices created`,
      };
    },
  );

  r.put(
    '/api/devices/:id',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Change name, description or monitoring; a new name or description is sent to the device',
        params: idParams,
        body: updateDeviceBody,
        response: { 200: okBody(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const { channel } = await updateDevice(app, requireAuth(request), request.params.id, request.body);
      return {
        success: true as const,
        data: { id: request.params.id },
        ...(channel ? { meta: { channel } } : {}),
        message: 'Device updated successfully',
      };
    },
  );

  r.put(
    '/api/devices/:id/credit',
    {
      config: { access: { permission: 'update_device_credit_status' } },
      schema: {
        tags: ['devices'],
        summary: 'Whether the device holds an active credit (spec §8 code 15 refuses it otherwise)',
        params: idParams,
        body: deviceCreditBody,
        response: { 200: okBody(z.object({ id: z.number().int(), credit_active: z.boolean() })) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const current = await devicesRepository.findInScope(app.db, scopeOf(auth), request.params.id);
      if (!current) throw notFound('Device');
      await audited(
        app.db,
        (tx) => devicesRepository.update(tx, current.id, { creditActive: request.body.active }),
        () => ({
          action: 'device.credit',
          ...auditIdentity(auth),
          companyId: current.company_id,
          targetType: 'device',
          targetId: current.id,
          details: { active: request.body.active },
        }),
      );
      if (!request.body.active) app.gateway.disconnect(current.serial);
      return { success: true as const, data: { id: current.id, credit_active: request.body.active } };
    },
  );

  r.delete(
    '/api/devices/:id',
    {
      config: { access: { permission: 'manage_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Unregister a device',
        params: idParams,
        response: { 200: okBody(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const removed = await unregisterDevices(app, requireAuth(request), [request.params.id]);
      if (removed.length === 0) throw notFound('Device');
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Device removed successfully',
      };
    },
  );
}

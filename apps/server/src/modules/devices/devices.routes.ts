import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  type DeviceListQuery,
  deviceCreatedSchema,
  deviceCreditBody,
  deviceCreditSchema,
  deviceDetailSchema,
  deviceImportQuerySchema,
  deviceListBodySchema,
  deviceListQuerySchema,
  deviceModelCountSchema,
  importRowResultSchema,
  registerDeviceBody,
  updateDeviceBody,
} from '@fleetgate/shared/schemas/devices';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest } from '#src/http/errors';
import { idParams } from '../../http/params';
import { brandService } from '../brand/brand.service';
import { serviceContext } from '../service-context';
import { devicesCsv, presentDeviceDetail, presentDevicePage, presentImport } from './devices.presenter';
import { devicesService } from './devices.service';
import type { DeviceListParams } from './devices-list.repository';

const listParams = (q: DeviceListQuery): DeviceListParams => ({
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

/**
 * The CSV text of an import upload and the company it goes to (the query's, else the
 * form's `company_id` field). product §5: a CSV upload must be a CSV.
 */
async function csvUpload(request: FastifyRequest<{ Querystring: z.infer<typeof deviceImportQuerySchema> }>) {
  if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data', 'file');
  const file = await request.file();
  if (!file) throw badRequest('Not a CSV file selected', 'file');
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
  return { text: buffer.toString('utf8'), companyId };
}

/** The devices list and its CSV export, the device page, registration, changes and unregistration. */
export async function devicesRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_FILE_SIZE_BYTES, files: 1, fields: 5 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const view = { access: { permission: 'view_devices' as const } };
  const manage = { access: { permission: 'manage_devices' as const } };

  r.get(
    '/api/devices',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Devices the caller reaches: filters, sort, search, offset or keyset paging',
        querystring: deviceListQuerySchema,
        response: { 200: deviceListBodySchema },
      },
    },
    async (request) => {
      const { fields } = request.query;
      const withTags = !fields || fields.includes('tags');
      const page = await devicesService.list(ctx(request), listParams(request.query), withTags);
      return presentDevicePage(page, fields);
    },
  );

  r.get(
    '/api/devices/export',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'The filtered devices list as CSV',
        querystring: deviceListQuerySchema,
      },
    },
    async (request, reply) => {
      const { limit: _l, offset: _o, cursor: _c, ...params } = listParams(request.query);
      const context = ctx(request);
      const brand = await brandService.forHost(context, request.hostname);
      const rows = devicesService.exportRows(context, params);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="devices.csv"')
        .send(Readable.from(devicesCsv(rows, brand)));
    },
  );

  r.get(
    '/api/devices/statistics',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Device models in scope with counts (model filter options)',
        response: { 200: okBody(z.array(deviceModelCountSchema)) },
      },
    },
    async (request) => ({ success: true as const, data: await devicesService.models(ctx(request)) }),
  );

  r.get(
    '/api/devices/:id',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'One device with its capabilities (product §3), last state and tags',
        params: idParams,
        response: { 200: okBody(deviceDetailSchema) },
      },
    },
    async (request) => {
      const { device, tags } = await devicesService.get(ctx(request), request.params.id);
      return { success: true as const, data: presentDeviceDetail(device, tags) };
    },
  );

  r.post(
    '/api/devices',
    {
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'Add a device by serial and MAC',
        body: registerDeviceBody,
        response: { 200: okBody(deviceCreatedSchema) },
      },
    },
    async (request) => {
      const device = await devicesService.register(ctx(request), request.body);
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
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'Add devices from a CSV file (serial, mac[, name, description, model]); one result per row',
        consumes: ['multipart/form-data'],
        querystring: deviceImportQuerySchema,
        response: { 200: okBody(z.array(importRowResultSchema)) },
      },
    },
    async (request) => {
      const context = ctx(request);
      const { text, companyId } = await csvUpload(request);
      return presentImport(await devicesService.import(context, text, companyId));
    },
  );

  r.put(
    '/api/devices/:id',
    {
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'Change name, description or monitoring; a new name or description is sent to the device',
        params: idParams,
        body: updateDeviceBody,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      const { channel } = await devicesService.update(ctx(request), request.params.id, request.body);
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
        summary: 'Whether the device holds an active credit (product §8 code 15 refuses it otherwise)',
        params: idParams,
        body: deviceCreditBody,
        response: { 200: okBody(deviceCreditSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await devicesService.setCredit(ctx(request), request.params.id, request.body.active),
    }),
  );

  r.delete(
    '/api/devices/:id',
    {
      config: manage,
      schema: {
        tags: ['devices'],
        summary: 'Unregister a device',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      await devicesService.remove(ctx(request), request.params.id);
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Device removed successfully',
      };
    },
  );
}

import { okBody } from '@fleetgate/shared/schemas/api';
import {
  attemptListQuerySchema,
  attemptSchema,
  chartPointSchema,
  dailyUsageQuerySchema,
  dailyUsageSchema,
  deviceEventSchema,
  deviceMetricsSchema,
  telemetryQuery,
} from '@fleetgate/shared/schemas/device-data';
import { pageQuerySchema } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { telemetryService } from './telemetry.service';

/** What the device page reads: telemetry, metrics, events, connection attempts. */
export async function deviceDataRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const view = { access: { permission: 'view_devices' as const } };

  r.get(
    '/api/devices/:id/telemetry',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Telemetry between two times, raw or averaged per bucket (charts)',
        params: idParams,
        querystring: telemetryQuery,
        response: { 200: okBody(z.array(chartPointSchema)) },
      },
    },
    async (request) => {
      const rows = await telemetryService.series(ctx(request), request.params.id, request.query);
      return { success: true as const, data: rows, meta: { total: rows.length } };
    },
  );

  r.get(
    '/api/devices/:id/metrics',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Last reported state and mobile data used in the last day and 30 days',
        params: idParams,
        response: { 200: okBody(deviceMetricsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await telemetryService.metrics(ctx(request), request.params.id),
    }),
  );

  r.get(
    '/api/devices/:id/data-usage',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Mobile data used per calendar day of a time zone (data-usage tab)',
        params: idParams,
        querystring: dailyUsageQuerySchema,
        response: { 200: okBody(z.array(dailyUsageSchema)) },
      },
    },
    async (request) => {
      const { days, tz } = request.query;
      const rows = await telemetryService.dailyUsage(ctx(request), request.params.id, days, tz);
      return { success: true as const, data: rows, meta: { total: rows.length } };
    },
  );

  r.get(
    '/api/devices/:id/events',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Events of a device, newest first (activity tab)',
        params: idParams,
        querystring: pageQuerySchema,
        response: { 200: okBody(z.array(deviceEventSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await telemetryService.events(ctx(request), request.params.id, request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.get(
    '/api/devices/:id/connection-attempts',
    {
      config: view,
      schema: {
        tags: ['devices'],
        summary: 'Connection attempts of one device (product §8 codes)',
        params: idParams,
        querystring: pageQuerySchema,
        response: { 200: okBody(z.array(attemptSchema)) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { rows, total } = await telemetryService.deviceAttempts(ctx(request), id, request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.get(
    '/api/devices/connection-attempts',
    {
      config: { access: { permission: 'view_device_logs' } },
      schema: {
        tags: ['devices'],
        summary: 'Connection attempts of the companies in scope; unknown serials for the super admin only',
        querystring: attemptListQuerySchema,
        response: { 200: okBody(z.array(attemptSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await telemetryService.attempts(ctx(request), request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );
}

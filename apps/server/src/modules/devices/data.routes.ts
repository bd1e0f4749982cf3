import { hasPermission } from '@fleetgate/shared/permissions';
import { okBody } from '@fleetgate/shared/schemas/api';
import {
  attemptSchema,
  deviceEventSchema,
  telemetryPointSchema,
  telemetryQuery,
} from '@fleetgate/shared/schemas/devices';
import { pageQuerySchema } from '@fleetgate/shared/schemas/list';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import type { AuthContext } from '../../plugins/auth';
import { scopeOf } from '../policy/scope';
import { attemptsRepository } from './attempts.repository';
import { devicesRepository } from './devices.repository';
import { eventsRepository } from './events.repository';
import { telemetryRepository } from './telemetry.repository';

const idParams = z.object({ id: z.coerce.number().int().min(1) });
const usage = z.object({ rx: z.number(), tx: z.number() });
/** A chart point: the shared columns plus values read from the stored message (device page metrics). */
const chartPointSchema = telemetryPointSchema.extend({
  rsrp: z.number().nullable(),
  rsrq: z.number().nullable(),
  sinr: z.number().nullable(),
  ain: z.number().nullable(),
  acl: z.number().nullable(),
  speed: z.number().nullable(),
  alt: z.number().nullable(),
  satellites: z.number().nullable(),
});

/** An IANA zone name the runtime knows (the console sends the user's zone). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

async function deviceOr404(app: FastifyInstance, auth: AuthContext, id: number) {
  const device = await devicesRepository.findInScope(app.db, scopeOf(auth), id);
  if (!device) throw notFound('Device');
  return device;
}

/** What the device page reads: telemetry, metrics, events, connection attempts. */
export async function deviceDataRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/devices/:id/telemetry',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Telemetry between two times, raw or averaged per bucket (charts)',
        params: idParams,
        querystring: telemetryQuery,
        response: { 200: okBody(z.array(chartPointSchema)) },
      },
    },
    async (request) => {
      const device = await deviceOr404(app, requireAuth(request), request.params.id);
      const to = request.query.to ? new Date(request.query.to) : new Date();
      const from = request.query.from ? new Date(request.query.from) : new Date(to.getTime() - 86_400_000);
      if (from > to) throw badRequest('from must be before to', 'from');
      const rows = await telemetryRepository.series(app.db, device.id, {
        from,
        to,
        limit: request.query.limit,
        ...(request.query.bucket ? { bucket: request.query.bucket } : {}),
      });
      return { success: true as const, data: rows, meta: { total: rows.length } };
    },
  );

  r.get(
    '/api/devices/:id/metrics',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Last reported state and mobile data used in the last day and 30 days',
        params: idParams,
        response: {
          200: okBody(
            z.object({
              state: z.record(z.string(), z.unknown()).nullable(),
              state_at: z.date().nullable(),
              data_usage: z.object({ last_24h: usage, last_30d: usage }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const device = await deviceOr404(app, requireAuth(request), request.params.id);
      const now = new Date();
      const [day, month] = await Promise.all([
        telemetryRepository.dataUsage(app.db, device.id, new Date(now.getTime() - 86_400_000), now),
        telemetryRepository.dataUsage(app.db, device.id, new Date(now.getTime() - 30 * 86_400_000), now),
      ]);
      return {
        success: true as const,
        data: {
          state: device.state ?? null,
          state_at: device.state_at,
          data_usage: { last_24h: day, last_30d: month },
        },
      };
    },
  );

  r.get(
    '/api/devices/:id/data-usage',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Mobile data used per calendar day of a time zone (data-usage tab)',
        params: idParams,
        querystring: z.object({
          days: z.coerce.number().int().min(1).max(92).default(30),
          tz: z.string().max(64).refine(isTimeZone, 'Unknown time zone').default('UTC'),
        }),
        response: { 200: okBody(z.array(z.object({ day: z.string(), rx: z.number(), tx: z.number() }))) },
      },
    },
    async (request) => {
      const device = await deviceOr404(app, requireAuth(request), request.params.id);
      const to = new Date();
      // One day more than asked, so that the first day has its baseline.
      const from = new Date(to.getTime() - (request.query.days + 1) * 86_400_000);
      const rows = await telemetryRepository.dailyUsage(app.db, device.id, from, to, request.query.tz);
      const days = rows.slice(-request.query.days);
      return { success: true as const, data: days, meta: { total: days.length } };
    },
  );

  r.get(
    '/api/devices/:id/events',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Events of a device, newest first (activity tab)',
        params: idParams,
        querystring: pageQuerySchema,
        response: { 200: okBody(z.array(deviceEventSchema)) },
      },
    },
    async (request) => {
      const device = await deviceOr404(app, requireAuth(request), request.params.id);
      const { rows, total } = await eventsRepository.listForDevice(app.db, device.id, request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.get(
    '/api/devices/:id/connection-attempts',
    {
      config: { access: { permission: 'view_devices' } },
      schema: {
        tags: ['devices'],
        summary: 'Connection attempts of one device (spec §8 codes)',
        params: idParams,
        querystring: pageQuerySchema,
        response: { 200: okBody(z.array(attemptSchema)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const device = await deviceOr404(app, auth, request.params.id);
      const { rows, total } = await attemptsRepository.list(app.db, scopeOf(auth), {
        ...request.query,
        deviceId: device.id,
        includeUnowned: false,
      });
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
        querystring: pageQuerySchema.extend({ serial: z.string().trim().max(64).optional() }),
        response: { 200: okBody(z.array(attemptSchema)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { rows, total } = await attemptsRepository.list(app.db, scopeOf(auth), {
        ...request.query,
        includeUnowned: hasPermission(auth.principal.permissions, 'super_admin'),
      });
      return { success: true as const, data: rows, meta: { total } };
    },
  );
}

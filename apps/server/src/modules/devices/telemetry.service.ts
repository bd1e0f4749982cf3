import { hasPermission } from '@fleetgate/shared/permissions';
import { badRequest } from '#src/http/errors';
import { scopeOf } from '../policy/scope';
import type { ServiceContext } from '../service-context';
import { attemptsRepository } from './attempts.repository';
import { devicesService } from './devices.service';
import { eventsRepository } from './events.repository';
import { telemetryRepository } from './telemetry.repository';

const DAY_MS = 86_400_000;

type Page = { limit: number; offset: number };

/**
 * What devices reported, as the device page reads it: telemetry, metrics, data usage,
 * events and connection attempts. A device the caller does not reach answers 404.
 */
export const telemetryService = {
  /** Points between two times (default: the day before `to`), raw or averaged per bucket. */
  async series(
    ctx: ServiceContext,
    deviceId: number,
    query: { from?: string | undefined; to?: string | undefined; bucket?: number | undefined; limit: number },
  ) {
    const device = await devicesService.find(ctx, deviceId);
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
    if (from > to) throw badRequest('from must be before to', 'from');
    return telemetryRepository.series(ctx.db, device.id, {
      from,
      to,
      limit: query.limit,
      ...(query.bucket ? { bucket: query.bucket } : {}),
    });
  },

  /** The last reported state, and the mobile data used in the last day and 30 days. */
  async metrics(ctx: ServiceContext, deviceId: number) {
    const device = await devicesService.find(ctx, deviceId);
    const now = new Date();
    const [day, month] = await Promise.all([
      telemetryRepository.dataUsage(ctx.db, device.id, new Date(now.getTime() - DAY_MS), now),
      telemetryRepository.dataUsage(ctx.db, device.id, new Date(now.getTime() - 30 * DAY_MS), now),
    ]);
    return {
      state: device.state ?? null,
      state_at: device.state_at,
      data_usage: { last_24h: day, last_30d: month },
    };
  },

  /** Mobile data used per calendar day of `timeZone`, the last `days` days. */
  async dailyUsage(ctx: ServiceContext, deviceId: number, days: number, timeZone: string) {
    const device = await devicesService.find(ctx, deviceId);
    const to = new Date();
    // One day more than asked, so that the first day has its baseline.
    const from = new Date(to.getTime() - (days + 1) * DAY_MS);
    const rows = await telemetryRepository.dailyUsage(ctx.db, device.id, from, to, timeZone);
    return rows.slice(-days);
  },

  /** Events of a device, newest first (activity tab). */
  async events(ctx: ServiceContext, deviceId: number, page: Page) {
    const device = await devicesService.find(ctx, deviceId);
    return eventsRepository.listForDevice(ctx.db, device.id, page);
  },

  /** Connection attempts of one device (product §8 codes). */
  async deviceAttempts(ctx: ServiceContext, deviceId: number, page: Page) {
    const device = await devicesService.find(ctx, deviceId);
    return attemptsRepository.list(ctx.db, scopeOf(ctx.caller), {
      ...page,
      deviceId: device.id,
      includeUnowned: false,
    });
  },

  /**
   * Connection attempts of the companies in scope; those of serials no company owns only
   * for the super admin.
   */
  attempts(ctx: ServiceContext, query: Page & { serial?: string | undefined }) {
    return attemptsRepository.list(ctx.db, scopeOf(ctx.caller), {
      ...query,
      includeUnowned: hasPermission(ctx.caller.principal.permissions, 'super_admin'),
    });
  },
};

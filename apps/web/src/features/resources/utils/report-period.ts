import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** A period as the credit report dialog asks for it: two calendar days, `YYYY-MM-DD`, both included. */
export type ReportPeriod = { from: string; to: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day written `YYYY-MM-DD` that exists (not 2025-02-30), as the server checks it. */
export const isDay = (value: string | undefined): value is string =>
  value !== undefined && DAY.test(value) && dayjs.utc(value).format('YYYY-MM-DD') === value;

/** The period a report starts with: the first of this month to today, in the user's zone. */
export function defaultPeriod(zone: string, now: Date = new Date()): ReportPeriod {
  const today = dayjs(now).tz(zone);
  return { from: today.startOf('month').format('YYYY-MM-DD'), to: today.format('YYYY-MM-DD') };
}

/** Why a period cannot be asked for (an i18n key of 'resources'), or null when it can. */
export function periodProblem(period: Partial<ReportPeriod>): string | null {
  if (!isDay(period.from) || !isDay(period.to)) return 'report.periodRequired';
  if (period.from > period.to) return 'report.periodOrder';
  return null;
}

/** Midnight at the start of a calendar day in the zone, as an ISO instant. */
const startOfDay = (day: string, zone: string) => dayjs.tz(day, zone).toISOString();
/** The calendar day after (date arithmetic only, so no daylight-saving hour is lost or gained). */
const dayAfter = (day: string) => dayjs.utc(day).add(1, 'day').format('YYYY-MM-DD');

/**
 * A period as the instants GET /credits and GET /credits/report take: from the start of the
 * first day to the start of the day after the last (the server's `to` is exclusive), in the
 * user's zone, so that the last day counts whole. Either end may be open in the history's filter.
 */
export function periodFilter(period: Partial<ReportPeriod>, zone: string): { from?: string; to?: string } {
  return {
    ...(isDay(period.from) ? { from: startOfDay(period.from, zone) } : {}),
    ...(isDay(period.to) ? { to: startOfDay(dayAfter(period.to), zone) } : {}),
  };
}

/** The credit report's period, both ends given (checked with periodProblem first). */
export function periodQuery(period: ReportPeriod, zone: string): { from: string; to: string } {
  return { from: startOfDay(period.from, zone), to: startOfDay(dayAfter(period.to), zone) };
}

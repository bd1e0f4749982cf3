import { z } from 'zod';
import { pageQuerySchema } from './list';
import { anyObject, atLeast, atMost, atMostChars, fields, instant, numeric, text, whole } from './messages';

/**
 * What the device page reads besides the device itself: telemetry and its charts, the last
 * state and the mobile data used, events and connection attempts (product §8 codes).
 */

const isoTime = (label: string) =>
  z.iso.datetime({ offset: true, error: `${label} must be a date and time such as 2025-01-31T12:00:00Z` });
const count = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, atLeast(label, min))
    .max(max, atMost(label, max));

export const telemetryQuery = fields('Query', {
  /** ISO time; default 24 hours before `to`. */
  from: isoTime('From').optional(),
  to: isoTime('To').optional(),
  /** Average into buckets of this many seconds (charts); raw points when absent. */
  bucket: count('Bucket', 10, 86_400).optional(),
  limit: count('Limit', 1, 5000).default(1000),
});

export const telemetryPointSchema = fields('Telemetry point', {
  at: instant('Time'),
  signal: numeric('Signal').nullable(),
  temperature: numeric('Temperature').nullable(),
  rx_bytes: numeric('Received bytes').nullable(),
  tx_bytes: numeric('Sent bytes').nullable(),
  lat: numeric('Latitude').nullable(),
  lon: numeric('Longitude').nullable(),
  uptime: numeric('Uptime').nullable(),
});

/** A chart point: the telemetry columns plus values read from the stored message (device page metrics). */
export const chartPointSchema = telemetryPointSchema.extend({
  rsrp: numeric('RSRP').nullable(),
  rsrq: numeric('RSRQ').nullable(),
  sinr: numeric('SINR').nullable(),
  ain: numeric('Analog input').nullable(),
  acl: numeric('Acceleration').nullable(),
  speed: numeric('Speed').nullable(),
  alt: numeric('Altitude').nullable(),
  satellites: numeric('Satellites').nullable(),
});
export type ChartPoint = z.infer<typeof chartPointSchema>;

/** Mobile data received and sent, in bytes. */
export const dataUsageSchema = fields('Data usage', {
  rx: numeric('Received bytes'),
  tx: numeric('Sent bytes'),
});
export type DataUsage = z.infer<typeof dataUsageSchema>;

/** GET /devices/{id}/metrics: the last reported state and the mobile data of the last day and 30 days. */
export const deviceMetricsSchema = fields('Metrics', {
  state: anyObject('State').nullable(),
  state_at: instant('State time').nullable(),
  data_usage: fields('Data usage', { last_24h: dataUsageSchema, last_30d: dataUsageSchema }),
});
export type DeviceMetrics = z.infer<typeof deviceMetricsSchema>;

/** An IANA zone name the runtime knows (the console sends the user's zone). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** GET /devices/{id}/data-usage: how many calendar days, in which time zone. */
export const dailyUsageQuerySchema = fields('Query', {
  days: count('Days', 1, 92).default(30),
  tz: text('Time zone')
    .max(64, atMostChars('Time zone', 64))
    .refine(isTimeZone, 'Unknown time zone')
    .default('UTC'),
});

/** Mobile data used on one calendar day (`YYYY-MM-DD` of the asked zone). */
export const dailyUsageSchema = fields('Daily usage', {
  day: text('Day'),
  rx: numeric('Received bytes'),
  tx: numeric('Sent bytes'),
});
export type DailyUsage = z.infer<typeof dailyUsageSchema>;

export const attemptSchema = fields('Connection attempt', {
  id: whole('Id'),
  at: instant('Time'),
  success: whole('Success code'),
  text: text('Text'),
  reason: text('Reason').nullable(),
  status: whole('Status'),
  serial: text('Serial number'),
  mac: text('MAC address').nullable(),
  device_id: whole('Device id').nullable(),
  company_id: whole('Company id').nullable(),
  company_name: text('Company name').nullable(),
  source_alias: text('Source alias'),
  source_name: text('Source name').nullable(),
});
export type ConnectionAttempt = z.infer<typeof attemptSchema>;

/** GET /devices/connection-attempts: a page, and the attempts of one serial number. */
export const attemptListQuerySchema = pageQuerySchema.extend({
  serial: text('Serial number').trim().max(64, atMostChars('Serial number', 64)).optional(),
});

export const deviceEventSchema = fields('Event', {
  id: whole('Id'),
  at: instant('Time'),
  type: text('Type'),
  severity: text('Severity'),
  message: text('Message'),
  data: anyObject('Data').nullable(),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;

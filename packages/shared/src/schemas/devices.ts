import { z } from 'zod';
import {
  actionParamsSchemas,
  COMMAND_STATES,
  COMMAND_TTL_MAX_SECONDS,
  COMMAND_TTL_MIN_SECONDS,
  type DEVICE_ACTIONS,
  DEVICE_DESCRIPTION_MAX,
  DEVICE_NAME_MAX,
} from '../devices/actions';
import { FIRMWARE_FILTER_MESSAGE, firmwareFilterOf } from '../devices/firmware';
import { MAC_PATTERN } from '../devices/messages';
import { SERIAL_PATTERN } from '../devices/topics';
import {
  hasNoForbiddenChars,
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
} from '../limits';
import { commaIntList, commaList } from './list';

/** REST contracts of the devices API (issue 5), shared by the server routes and the console. */

export const serialSchema = z
  .string()
  .trim()
  .regex(SERIAL_PATTERN, 'Serial number must be 4 to 32 letters, digits, dashes or underscores');
export const macSchema = z
  .string()
  .trim()
  .regex(MAC_PATTERN, 'MAC address must be six hex pairs, e.g. 00:1E:42:12:34:56');
export const deviceNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(DEVICE_NAME_MAX)
  .refine(hasNoForbiddenChars, 'Name contains forbidden characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);
/** Multi-line text: line breaks are allowed, invisible and text-direction characters are not. */
export const deviceDescriptionSchema = z
  .string()
  .trim()
  .max(DEVICE_DESCRIPTION_MAX)
  .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE);

/** Sort keys of the devices list; the first group allows keyset paging (non-null columns). */
export const DEVICE_KEYSET_SORTS = ['id', 'name', 'serial', 'mac', 'status', 'created_at'] as const;
export const DEVICE_SORTS = [
  ...DEVICE_KEYSET_SORTS,
  'model',
  'firmware',
  'last_seen_at',
  'company_name',
] as const;
export const DEVICE_SEARCH_FIELDS = ['name', 'serial', 'mac', 'imei'] as const;

/** Filters of the devices list (besides limit, offset, sort, q, search-fields, fields). */
export const deviceFiltersSchema = z.object({
  status: commaIntList.optional(),
  model: commaList.optional(),
  company_id: commaIntList.optional(),
  /** Versions ('07.06' finds 07.06.x) or whole firmware names (devices/firmware.ts). */
  firmware: commaList
    .refine((list) => list.every((v) => firmwareFilterOf(v) !== null), FIRMWARE_FILTER_MESSAGE)
    .optional(),
  /** Keyset cursor from `meta.next_cursor`; replaces offset. */
  cursor: z.string().max(512).optional(),
});

/** A tag on a device, as the devices table and the device page show it. */
export const deviceTagSchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });

/** One row of the devices list and the device page header. */
export const deviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  serial: z.string(),
  mac: z.string(),
  model: z.string().nullable(),
  original_model: z.string().nullable(),
  firmware: z.string().nullable(),
  imei: z.string().nullable(),
  esim: z.boolean(),
  status: z.number().int(),
  status_text: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  monitoring_enabled: z.boolean(),
  monitoring_period: z.number().int(),
  credit_active: z.boolean(),
  last_seen_at: z.date().nullable(),
  created_at: z.date(),
  signal: z.number().nullable(),
  temperature: z.number().nullable(),
  operator: z.string().nullable(),
  wan_type: z.string().nullable(),
  wan_ip: z.string().nullable(),
  uptime: z.number().nullable(),
  /** The device's tags that the caller reaches (tags of another company are not shown). */
  tags: z.array(deviceTagSchema),
});
export type DeviceRow = z.infer<typeof deviceSchema>;

export const capabilitiesSchema = z.object({
  device_series: z.string().nullable(),
  fw_version: z.string().nullable(),
  has_wifi: z.boolean(),
  has_gps: z.boolean(),
  has_rutos: z.boolean(),
  has_mobile: z.boolean(),
  port_count: z.number().int(),
  has_lan: z.boolean(),
  has_hotspot: z.boolean(),
  sim_count: z.number().int(),
  has_io: z.boolean(),
  has_ddns: z.boolean(),
  has_data_usage: z.boolean(),
  has_l2tp: z.boolean(),
  has_second_modem: z.boolean(),
  has_network_map: z.boolean(),
  has_esim: z.boolean(),
  has_webfilter: z.boolean(),
  has_vpn: z.boolean(),
  has_legacy_alerts: z.boolean(),
  has_legacy_vpn: z.boolean(),
});

/** The device page: the row, the capabilities of spec §3 and the last reported state. */
export const deviceDetailSchema = deviceSchema.extend({
  capabilities: capabilitiesSchema,
  sims: z.array(z.record(z.string(), z.unknown())),
  hostname: z.string().nullable(),
  agent: z.string().nullable(),
  connected_at: z.date().nullable(),
  secret_issued: z.boolean(),
  state: z.record(z.string(), z.unknown()).nullable(),
  state_at: z.date().nullable(),
});

export const registerDeviceBody = z.strictObject({
  serial: serialSchema,
  mac: macSchema,
  /** Defaults to the caller's company. */
  company_id: z.number().int().min(1).optional(),
  name: deviceNameSchema.optional(),
  description: deviceDescriptionSchema.optional(),
  /** A model name shown instead of the vendor's (spec §1 branded_devices). */
  model: z.string().trim().min(1).max(32).refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE).optional(),
});
export type RegisterDeviceBody = z.infer<typeof registerDeviceBody>;

export const updateDeviceBody = z.strictObject({
  name: deviceNameSchema.optional(),
  description: deviceDescriptionSchema.optional(),
  monitoring_enabled: z.boolean().optional(),
});

export const deviceCreditBody = z.strictObject({ active: z.boolean() });

const ttl = z.number().int().min(COMMAND_TTL_MIN_SECONDS).max(COMMAND_TTL_MAX_SECONDS).optional();
const deviceIds = z.array(z.number().int().min(1)).min(1, 'Select at least one device').max(1000);

function commandVariant<A extends (typeof DEVICE_ACTIONS)[number], P extends z.ZodType>(
  action: A,
  params: P,
) {
  return z.strictObject({ action: z.literal(action), device_id: deviceIds, params, ttl_seconds: ttl });
}

/**
 * Bulk device actions of spec §7: `{action, device_id[]}` plus the action's parameters.
 * `unregister` and `reset_identity` act on the server only; the others become commands
 * (name and description change through PUT /api/devices/{id}).
 */
export const bulkActionBody = z.discriminatedUnion('action', [
  commandVariant('reboot', actionParamsSchemas.reboot.optional()),
  commandVariant('set_password', actionParamsSchemas.set_password),
  commandVariant('export_backup', actionParamsSchemas.export_backup.optional()),
  commandVariant('export_event_log', actionParamsSchemas.export_event_log.optional()),
  commandVariant('export_troubleshoot', actionParamsSchemas.export_troubleshoot.optional()),
  commandVariant('monitoring_period', actionParamsSchemas.monitoring_period),
  commandVariant('cli', actionParamsSchemas.cli),
  z.strictObject({ action: z.literal('unregister'), device_id: deviceIds }),
  z.strictObject({ action: z.literal('reset_identity'), device_id: deviceIds }),
]);
export type BulkActionBody = z.infer<typeof bulkActionBody>;

export const errorItemSchema = z.object({
  code: z.string(),
  message: z.string(),
  source: z.string().optional(),
});

/** Per-device outcome of a bulk action. */
export const bulkResultSchema = z.object({
  device_id: z.number().int(),
  success: z.boolean(),
  command_id: z.string().optional(),
  errors: z.array(errorItemSchema).optional(),
});

/** Per-row outcome of a CSV import. */
export const importRowResultSchema = z.object({
  line: z.number().int(),
  serial: z.string(),
  mac: z.string(),
  success: z.boolean(),
  device_id: z.number().int().optional(),
  errors: z.array(errorItemSchema).optional(),
});

export const setPasswordBody = z.strictObject({
  device_id: deviceIds,
  password: z.string().min(8).max(64),
  ttl_seconds: ttl,
});

export const commandSchema = z.object({
  id: z.string(),
  device_id: z.number().int(),
  batch_id: z.string(),
  action: z.string(),
  status: z.enum(COMMAND_STATES),
  params: z.record(z.string(), z.unknown()),
  output: z.string().nullable(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  file_name: z.string().nullable(),
  created_by: z.number().int().nullable(),
  created_at: z.date(),
  sent_at: z.date().nullable(),
  acked_at: z.date().nullable(),
  finished_at: z.date().nullable(),
  expires_at: z.date(),
});

export const telemetryQuery = z.object({
  /** ISO time; default 24 hours before `to`. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Average into buckets of this many seconds (charts); raw points when absent. */
  bucket: z.coerce.number().int().min(10).max(86_400).optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});

export const telemetryPointSchema = z.object({
  at: z.date(),
  signal: z.number().nullable(),
  temperature: z.number().nullable(),
  rx_bytes: z.number().nullable(),
  tx_bytes: z.number().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  uptime: z.number().nullable(),
});

export const attemptSchema = z.object({
  id: z.number().int(),
  at: z.date(),
  success: z.number().int(),
  text: z.string(),
  reason: z.string().nullable(),
  status: z.number().int(),
  serial: z.string(),
  mac: z.string().nullable(),
  device_id: z.number().int().nullable(),
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  source_alias: z.string(),
  source_name: z.string().nullable(),
});

export const deviceEventSchema = z.object({
  id: z.number().int(),
  at: z.date(),
  type: z.string(),
  severity: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).nullable(),
});

export const approvedDeviceSchema = z.object({
  id: z.number().int(),
  serial: z.string(),
  mac: z.string(),
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  note: z.string(),
  created_at: z.date(),
  registered_at: z.date().nullable(),
  device_id: z.number().int().nullable(),
});

export const approveDeviceBody = z.strictObject({
  serial: serialSchema,
  mac: macSchema,
  company_id: z.number().int().min(1).optional(),
  note: z.string().trim().max(200).refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE).optional(),
});

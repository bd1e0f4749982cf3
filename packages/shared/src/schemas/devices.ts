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
import { DEVICE_KEYSET_SORTS, DEVICE_SEARCH_FIELDS, DEVICE_SORTS } from '../devices/list-keys';
import { MAC_PATTERN } from '../devices/messages';
import { SERIAL_PATTERN } from '../devices/topics';
import {
  hasNoForbiddenChars,
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
} from '../limits';
import { okBody } from './api';
import { commaIntList, commaList, idFilter, listQuerySchema, pageQuerySchema } from './list';
import {
  anyObject,
  atMostChars,
  body,
  fields,
  flag,
  instant,
  isRequired,
  listOf,
  numeric,
  oneOf,
  text,
  whole,
} from './messages';

export { DEVICE_KEYSET_SORTS, DEVICE_SEARCH_FIELDS, DEVICE_SORTS };

/** REST contracts of the devices API, shared by the server routes and the console. */

export const serialSchema = text('Serial number')
  .trim()
  .regex(SERIAL_PATTERN, 'Serial number must be 4 to 32 letters, digits, dashes or underscores');
export const macSchema = text('MAC address')
  .trim()
  .regex(MAC_PATTERN, 'MAC address must be six hex pairs, e.g. 00:1E:42:12:34:56');
export const deviceNameSchema = text('Name')
  .trim()
  .min(1, 'Name is required')
  .max(DEVICE_NAME_MAX, atMostChars('Name', DEVICE_NAME_MAX))
  .refine(hasNoForbiddenChars, 'Name contains forbidden characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);
/** Multi-line text: line breaks are allowed, invisible and text-direction characters are not. */
export const deviceDescriptionSchema = text('Description')
  .trim()
  .max(DEVICE_DESCRIPTION_MAX, atMostChars('Description', DEVICE_DESCRIPTION_MAX))
  .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE);

/** Filters of the devices list (besides limit, offset, sort, q, search-fields, fields). */
export const deviceFiltersSchema = fields('Filters', {
  status: commaIntList.optional(),
  model: commaList.optional(),
  company_id: commaIntList.optional(),
  /** Versions ('07.06' finds 07.06.x) or whole firmware names (devices/firmware.ts). */
  firmware: commaList
    .refine((list) => list.every((v) => firmwareFilterOf(v) !== null), FIRMWARE_FILTER_MESSAGE)
    .optional(),
  /** Keyset cursor from `meta.next_cursor`; replaces offset. */
  cursor: text('Cursor').max(512, atMostChars('Cursor', 512)).optional(),
});

/** GET /devices and its CSV export: the list parameters, the filters and the devices of these tags. */
export const deviceListQuerySchema = listQuerySchema.extend(deviceFiltersSchema.shape).extend({
  /** Devices carrying any of these tags (product §2 tags.main → devices). */
  tag_id: commaIntList.optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;

/** A tag on a device, as the devices table and the device page show it. */
export const deviceTagSchema = fields('Tag', {
  id: whole('Tag id'),
  name: text('Tag name'),
  color: text('Tag colour'),
});

/** One row of the devices list and the device page header. */
export const deviceSchema = fields('Device', {
  id: whole('Id'),
  name: text('Name'),
  description: text('Description'),
  serial: text('Serial number'),
  mac: text('MAC address'),
  model: text('Model').nullable(),
  original_model: text('Original model').nullable(),
  firmware: text('Firmware').nullable(),
  imei: text('IMEI').nullable(),
  esim: flag('eSIM'),
  status: whole('Status'),
  status_text: text('Status text'),
  company_id: whole('Company id'),
  company_name: text('Company name'),
  monitoring_enabled: flag('Monitoring enabled'),
  monitoring_period: whole('Monitoring period'),
  credit_active: flag('Credit active'),
  last_seen_at: instant('Last seen at').nullable(),
  created_at: instant('Created at'),
  signal: numeric('Signal').nullable(),
  temperature: numeric('Temperature').nullable(),
  operator: text('Operator').nullable(),
  wan_type: text('WAN type').nullable(),
  wan_ip: text('WAN IP').nullable(),
  uptime: numeric('Uptime').nullable(),
  /** The device's tags that the caller reaches (tags of another company are not shown). */
  tags: listOf(deviceTagSchema, 'Tags'),
});
export type DeviceRow = z.infer<typeof deviceSchema>;

/** `meta` of GET /devices: the total (exact up to a cap) and the keyset cursor of the next page. */
export const deviceListMetaSchema = fields('Meta', {
  total: whole('Total'),
  /** Present when `total` stopped at the cap: there are more. */
  total_capped: z.literal(true, { error: 'Total capped must be true' }).optional(),
  /** Present when the sort allows keyset paging and there is a next page. */
  next_cursor: text('Next cursor').optional(),
});
export type DeviceListMeta = z.infer<typeof deviceListMetaSchema>;

/** The body of GET /devices: the rows (only the asked `fields` of each) and the meta above. */
export const deviceListBodySchema = okBody(listOf(deviceSchema.partial(), 'Devices')).extend({
  meta: deviceListMetaSchema,
});
export type DeviceListBody = z.infer<typeof deviceListBodySchema>;

export const capabilitiesSchema = fields('Capabilities', {
  device_series: text('Device series').nullable(),
  fw_version: text('Firmware version').nullable(),
  has_wifi: flag('Has Wi-Fi'),
  has_gps: flag('Has GPS'),
  has_rutos: flag('Has RutOS'),
  has_mobile: flag('Has mobile'),
  port_count: whole('Port count'),
  has_lan: flag('Has LAN'),
  has_hotspot: flag('Has hotspot'),
  sim_count: whole('SIM count'),
  has_io: flag('Has I/O'),
  has_ddns: flag('Has dynamic DNS'),
  has_data_usage: flag('Has data usage'),
  has_l2tp: flag('Has L2TP'),
  has_second_modem: flag('Has second modem'),
  has_network_map: flag('Has network map'),
  has_esim: flag('Has eSIM'),
  has_webfilter: flag('Has web filter'),
  has_vpn: flag('Has VPN'),
  has_legacy_alerts: flag('Has legacy alerts'),
  has_legacy_vpn: flag('Has legacy VPN'),
});

/** The device page: the row, the capabilities of product §3 and the last reported state. */
export const deviceDetailSchema = deviceSchema.extend({
  capabilities: capabilitiesSchema,
  sims: listOf(anyObject('SIM'), 'SIMs'),
  hostname: text('Hostname').nullable(),
  agent: text('Agent').nullable(),
  connected_at: instant('Connected at').nullable(),
  secret_issued: flag('Secret issued'),
  state: anyObject('State').nullable(),
  state_at: instant('State time').nullable(),
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

/** GET /devices/statistics: the models in scope with their device counts (the model filter's options). */
export const deviceModelCountSchema = fields('Model count', {
  model: text('Model').nullable(),
  count: whole('Count'),
});
export type DeviceModelCount = z.infer<typeof deviceModelCountSchema>;

/** A company chosen by id. */
const companyIdSchema = whole('Company').min(1, isRequired('Company'));

export const registerDeviceBody = body({
  serial: serialSchema,
  mac: macSchema,
  /** Defaults to the caller's company. */
  company_id: companyIdSchema.optional(),
  name: deviceNameSchema.optional(),
  description: deviceDescriptionSchema.optional(),
  /** A model name shown instead of the vendor's (product §1 branded_devices). */
  model: text('Model')
    .trim()
    .min(1, 'Model is required')
    .max(32, atMostChars('Model', 32))
    .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE)
    .optional(),
});
export type RegisterDeviceBody = z.infer<typeof registerDeviceBody>;

/** What adding a device answers. */
export const deviceCreatedSchema = fields('Device', {
  id: whole('Id'),
  serial: text('Serial number'),
  mac: text('MAC address'),
});
export type DeviceCreated = z.infer<typeof deviceCreatedSchema>;

/** POST /devices/import: the company the file's devices go to (else the form's `company_id` field). */
export const deviceImportQuerySchema = fields('Query', { company_id: idFilter('Company').optional() });

export const updateDeviceBody = body({
  name: deviceNameSchema.optional(),
  description: deviceDescriptionSchema.optional(),
  monitoring_enabled: flag('Monitoring enabled').optional(),
});

export const deviceCreditBody = body({ active: flag('Credit active') });

/** What setting a device's credit answers. */
export const deviceCreditSchema = fields('Device', { id: whole('Id'), credit_active: flag('Credit active') });
export type DeviceCredit = z.infer<typeof deviceCreditSchema>;

const ttl = whole('Time to live')
  .min(COMMAND_TTL_MIN_SECONDS, `Time to live must be at least ${COMMAND_TTL_MIN_SECONDS} seconds`)
  .max(COMMAND_TTL_MAX_SECONDS, `Time to live must be at most ${COMMAND_TTL_MAX_SECONDS} seconds`)
  .optional();
const deviceIds = listOf(whole('Device').min(1, 'Device ids are positive whole numbers'), 'Devices')
  .min(1, 'Select at least one device')
  .max(1000, 'At most 1000 devices at a time');

function commandVariant<A extends (typeof DEVICE_ACTIONS)[number], P extends z.ZodType>(
  action: A,
  params: P,
) {
  return body({
    action: z.literal(action, { error: `Action must be ${action}` }),
    device_id: deviceIds,
    params,
    ttl_seconds: ttl,
  });
}

/**
 * Bulk device actions of product §7: `{action, device_id[]}` plus the action's parameters.
 * `unregister` and `reset_identity` act on the server only; the others become commands
 * (name and description change through PUT /api/devices/{id}).
 */
export const bulkActionBody = z.discriminatedUnion(
  'action',
  [
    commandVariant('reboot', actionParamsSchemas.reboot.optional()),
    commandVariant('set_password', actionParamsSchemas.set_password),
    commandVariant('export_backup', actionParamsSchemas.export_backup.optional()),
    commandVariant('export_event_log', actionParamsSchemas.export_event_log.optional()),
    commandVariant('export_troubleshoot', actionParamsSchemas.export_troubleshoot.optional()),
    commandVariant('monitoring_period', actionParamsSchemas.monitoring_period),
    commandVariant('cli', actionParamsSchemas.cli),
    body({ action: z.literal('unregister'), device_id: deviceIds }),
    body({ action: z.literal('reset_identity'), device_id: deviceIds }),
  ],
  { error: 'Choose a device action' },
);
export type BulkActionBody = z.infer<typeof bulkActionBody>;

export const errorItemSchema = fields('Error', {
  code: text('Error code'),
  message: text('Error message'),
  source: text('Error source').optional(),
});

/** Per-device outcome of a bulk action. */
export const bulkResultSchema = fields('Result', {
  device_id: whole('Device id'),
  success: flag('Success'),
  command_id: text('Command id').optional(),
  errors: listOf(errorItemSchema, 'Errors').optional(),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

/** Per-row outcome of a CSV import. */
export const importRowResultSchema = fields('Result', {
  line: whole('Line'),
  serial: text('Serial number'),
  mac: text('MAC address'),
  success: flag('Success'),
  device_id: whole('Device id').optional(),
  errors: listOf(errorItemSchema, 'Errors').optional(),
});
export type ImportRowResult = z.infer<typeof importRowResultSchema>;

export const setPasswordBody = body({
  device_id: deviceIds,
  password: actionParamsSchemas.set_password.shape.password,
  ttl_seconds: ttl,
});

/** A generated device password (16 characters, product §5). */
export const generatedPasswordSchema = fields('Result', { password: text('Password') });

export const commandSchema = fields('Command', {
  id: text('Id'),
  device_id: whole('Device id'),
  batch_id: text('Batch id'),
  action: text('Action'),
  status: oneOf(COMMAND_STATES, 'Status'),
  params: anyObject('Parameters'),
  output: text('Output').nullable(),
  error: text('Error').nullable(),
  result: anyObject('Result').nullable(),
  file_name: text('File name').nullable(),
  created_by: whole('Created by').nullable(),
  created_at: instant('Created at'),
  sent_at: instant('Sent at').nullable(),
  acked_at: instant('Acknowledged at').nullable(),
  finished_at: instant('Finished at').nullable(),
  expires_at: instant('Expires at'),
});
export type Command = z.infer<typeof commandSchema>;

/** GET /devices/{id}/commands: a page, and commands in these states. */
export const commandListQuerySchema = pageQuerySchema.extend({ status: commaList.optional() });

export const approvedDeviceSchema = fields('Approved device', {
  id: whole('Id'),
  serial: text('Serial number'),
  mac: text('MAC address'),
  company_id: whole('Company id').nullable(),
  company_name: text('Company name').nullable(),
  note: text('Note'),
  created_at: instant('Created at'),
  registered_at: instant('Registered at').nullable(),
  device_id: whole('Device id').nullable(),
});
export type ApprovedDevice = z.infer<typeof approvedDeviceSchema>;

export const approveDeviceBody = body({
  serial: serialSchema,
  mac: macSchema,
  company_id: companyIdSchema.optional(),
  note: text('Note')
    .trim()
    .max(200, atMostChars('Note', 200))
    .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE)
    .optional(),
});

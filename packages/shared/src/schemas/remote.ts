import { z } from 'zod';
import { isReachableHost, REMOTE_PROTOCOLS } from '../devices/tunnel';
import { commaList, idFilter, listQuerySchema } from './list';
import { atMostChars, body, fields, flag, instant, oneOf, text, whole } from './messages';

export const REMOTE_NAME_MAX = 64;

const protocolSchema = oneOf(REMOTE_PROTOCOLS, 'Protocol');
const nameSchema = text('Name')
  .trim()
  .min(1, 'Name is required')
  .max(REMOTE_NAME_MAX, atMostChars('Name', REMOTE_NAME_MAX));
const hostSchema = text('Host')
  .trim()
  .min(1, 'Host is required')
  .refine(
    isReachableHost,
    'Host must be 127.0.0.1 (the device) or a private LAN address such as 192.168.1.10',
  );
const portSchema = whole('Port')
  .min(1, 'Port must be between 1 and 65535')
  .max(65_535, 'Port must be between 1 and 65535');

/**
 * 'Add remote' (product §2 dialog; POST /devices/remote-access): a named service of a device or
 * of its LAN. The port defaults by protocol (product §9) and is required for plain TCP.
 */
export const remoteEntryBodySchema = body({
  device_id: z.coerce
    .number({ error: 'Device is required' })
    .int('Device is required')
    .min(1, 'Device is required'),
  name: nameSchema,
  protocol: protocolSchema,
  host: hostSchema.default('127.0.0.1'),
  port: portSchema.optional(),
  enabled: flag('Enabled').default(true),
}).refine((entry) => entry.protocol !== 'tcp' || entry.port !== undefined, {
  path: ['port'],
  message: 'Port is required for plain TCP',
});
export type RemoteEntryBody = z.infer<typeof remoteEntryBodySchema>;

/** Editing an entry: any of its fields but the device. */
export const remoteEntryUpdateSchema = body({
  name: nameSchema.optional(),
  protocol: protocolSchema.optional(),
  host: hostSchema.optional(),
  port: portSchema.optional(),
  enabled: flag('Enabled').optional(),
});
export type RemoteEntryUpdate = z.infer<typeof remoteEntryUpdateSchema>;

/** GET /devices/remote-access: the list parameters, by device and protocol (product §7 selector lists). */
export const remoteEntryListQuerySchema = listQuerySchema.extend({
  device_id: idFilter('Device').optional(),
  protocol: commaList.pipe(z.array(protocolSchema)).optional(),
});
export type RemoteEntryListQuery = z.infer<typeof remoteEntryListQuerySchema>;

/** A remote entry (product §3 'remote access item'). */
export const remoteEntrySchema = fields('Remote entry', {
  id: whole('Id'),
  device_id: whole('Device'),
  device_name: text('Device name'),
  device_serial: text('Serial'),
  device_status: whole('Device status'),
  company_id: whole('Company'),
  company_name: text('Company name'),
  name: text('Name'),
  protocol: protocolSchema,
  host: text('Host'),
  port: whole('Port'),
  enabled: flag('Enabled'),
  created_at: instant('Created at'),
});
export type RemoteEntry = z.infer<typeof remoteEntrySchema>;

/** GET /remote/sessions: the access history's filters (product §2 service.connect-history). */
export const remoteSessionListQuerySchema = listQuerySchema.extend({
  device_id: idFilter('Device').optional(),
  active: z.enum(['true', 'false'], { error: 'active must be true or false' }).optional(),
});
export type RemoteSessionListQuery = z.infer<typeof remoteSessionListQuerySchema>;

/** One session of the access history: who, which device and entry, how long, the bytes each way. */
export const remoteSessionSchema = fields('Remote session', {
  id: text('Id'),
  company_id: whole('Company'),
  company_name: text('Company name').nullable(),
  device_id: whole('Device'),
  device_name: text('Device name').nullable(),
  entry_id: whole('Entry').nullable(),
  entry_name: text('Entry name').nullable(),
  user_email: text('User').nullable(),
  actor_email: text('Impersonated by').nullable(),
  protocol: text('Protocol'),
  host: text('Host'),
  port: whole('Port'),
  login: text('Login').nullable(),
  host_key: text('Host key').nullable(),
  started_at: instant('Started at'),
  ended_at: instant('Ended at').nullable(),
  bytes_to_device: whole('Bytes to the device'),
  bytes_from_device: whole('Bytes from the device'),
  end_reason: text('How it ended').nullable(),
});
export type RemoteSession = z.infer<typeof remoteSessionSchema>;

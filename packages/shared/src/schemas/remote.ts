import { z } from 'zod';
import { isReachableHost, REMOTE_PROTOCOLS } from '../devices/tunnel';
import { commaList, idFilter, listQuerySchema } from './list';
import { atMostChars, body, fields, flag, instant, listOf, oneOf, text, whole } from './messages';

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
  entry_id: idFilter('Entry').optional(),
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
  recorded: flag('Recorded'),
  share_link_id: text('Share link').nullable(),
});
export type RemoteSession = z.infer<typeof remoteSessionSchema>;

export const FORWARD_MINUTES_MAX = 24 * 60;
const FORWARD_MINUTES = `A port forward lasts 1 to ${FORWARD_MINUTES_MAX} minutes`;
const ALLOWED_ADDRESS = 'Allowed addresses must be IP addresses or ranges such as 203.0.113.0/24';

/** An IPv4 or IPv6 address, or a range of one in CIDR form. */
function isAddressOrRange(text: string): boolean {
  const [address, bits, extra] = text.split('/');
  if (extra !== undefined || !address) return false;
  const v4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(address);
  const v6 = !v4 && /^[0-9a-f:]+$/i.test(address) && address.includes(':') && address.split('::').length <= 2;
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
}

/**
 * A port forward (POST /remote/forwards): a device's own service (`device_id`, the SSH port
 * unless `port` says) or a remote entry (`entry_id`), for 1 minute to a day, optionally only
 * for some client addresses.
 */
export const portForwardBodySchema = body({
  device_id: z.coerce.number({ error: 'Device is required' }).int().min(1).optional(),
  entry_id: z.coerce.number({ error: 'Entry must be a number' }).int().min(1).optional(),
  port: portSchema.optional(),
  minutes: z.coerce
    .number({ error: FORWARD_MINUTES })
    .int(FORWARD_MINUTES)
    .min(1, FORWARD_MINUTES)
    .max(FORWARD_MINUTES_MAX, FORWARD_MINUTES),
  allow_from: listOf(
    text('Allowed address').trim().refine(isAddressOrRange, ALLOWED_ADDRESS),
    'Allowed addresses',
  )
    .max(20, 'At most 20 allowed addresses')
    .default([]),
}).refine((b) => (b.device_id === undefined) !== (b.entry_id === undefined), {
  path: ['device_id'],
  message: 'Choose a device or a remote entry',
});
export type PortForwardBody = z.infer<typeof portForwardBodySchema>;

/** An open port forward: where to connect (host and port) and what it reaches until when. */
export const portForwardSchema = fields('Port forward', {
  id: text('Id'),
  device_id: whole('Device'),
  device_name: text('Device name'),
  entry_id: whole('Entry').nullable(),
  entry_name: text('Entry name').nullable(),
  protocol: protocolSchema,
  target_host: text('Target host'),
  target_port: whole('Target port'),
  host: text('Host'),
  port: whole('Port'),
  allow_from: listOf(text('Allowed address'), 'Allowed addresses'),
  connections: whole('Open connections'),
  user_email: text('Opened by'),
  created_at: instant('Created at'),
  expires_at: instant('Expires at'),
});
export type PortForward = z.infer<typeof portForwardSchema>;

/** The longest path the file browser sends to a device (PATH_MAX of Linux). */
export const SFTP_PATH_MAX = 4096;

/**
 * A path on the device, as SFTP names it. The device is the authority on its own files (a
 * router's SFTP reaches its whole file system); the console only refuses what no path may
 * hold: a NUL byte (refused by `text`), which would cut the name short on the device.
 */
export const sftpPathSchema = (label = 'Path') =>
  text(label).min(1, `${label} is required`).max(SFTP_PATH_MAX, atMostChars(label, SFTP_PATH_MAX));

/**
 * Opening the file browser (POST /remote/sftp): a device's own SSH service or an ssh or sftp
 * remote entry, signed in to as a user of the device.
 */
export const sftpOpenBodySchema = body({
  device_id: z.coerce.number({ error: 'Device is required' }).int().min(1).optional(),
  entry_id: z.coerce.number({ error: 'Entry must be a number' }).int().min(1).optional(),
  port: portSchema.optional(),
  username: text('User name').trim().min(1, 'User name is required').max(64, atMostChars('User name', 64)),
  password: text('Password').max(256, atMostChars('Password', 256)),
}).refine((b) => (b.device_id === undefined) !== (b.entry_id === undefined), {
  path: ['device_id'],
  message: 'Choose a device or a remote entry',
});
export type SftpOpenBody = z.infer<typeof sftpOpenBodySchema>;

/** An open file browser: its session (one row of the access history) and where it starts. */
export const sftpSessionSchema = fields('SFTP session', {
  id: text('Id'),
  host_key: text('Host key'),
  home: text('Home folder'),
});
export type SftpSession = z.infer<typeof sftpSessionSchema>;

export const SFTP_ENTRY_TYPES = ['file', 'directory', 'link', 'other'] as const;

/** One entry of a device folder. */
export const sftpEntrySchema = fields('File', {
  name: text('Name'),
  path: text('Path'),
  type: oneOf(SFTP_ENTRY_TYPES, 'Type'),
  size: whole('Size'),
  modified_at: instant('Modified'),
  permissions: text('Permissions'),
});
export type SftpEntry = z.infer<typeof sftpEntrySchema>;

export const sftpPathQuerySchema = fields('Query', { path: sftpPathSchema() });
export const sftpRenameBodySchema = body({ from: sftpPathSchema('From'), to: sftpPathSchema('To') });
export const sftpMkdirBodySchema = body({ path: sftpPathSchema() });

export const SHARE_LINK_MINUTES_MAX = 24 * 60;
const SHARE_MINUTES = `A share link lasts 1 to ${SHARE_LINK_MINUTES_MAX} minutes`;
/** The protocols a share link opens (product §2: the ssh and desktop launchers take a key). */
export const SHAREABLE_PROTOCOLS = ['ssh', 'vnc'] as const;

/** A share link (POST /remote/share-links): one SSH or VNC entry, for 1 minute to a day. */
export const shareLinkBodySchema = body({
  entry_id: z.coerce
    .number({ error: 'Entry is required' })
    .int('Entry is required')
    .min(1, 'Entry is required'),
  minutes: z.coerce
    .number({ error: SHARE_MINUTES })
    .int(SHARE_MINUTES)
    .min(1, SHARE_MINUTES)
    .max(SHARE_LINK_MINUTES_MAX, SHARE_MINUTES),
});
export type ShareLinkBody = z.infer<typeof shareLinkBodySchema>;

/** A share link as listed: never its key, which is shown once when made. */
export const shareLinkSchema = fields('Share link', {
  id: text('Id'),
  entry_id: whole('Entry'),
  entry_name: text('Entry name'),
  device_id: whole('Device'),
  device_name: text('Device name'),
  created_by_email: text('Created by').nullable(),
  created_at: instant('Created at'),
  expires_at: instant('Expires at'),
  revoked_at: instant('Revoked at').nullable(),
  last_used_at: instant('Last used').nullable(),
  uses: whole('Uses'),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** A new share link: its address with the key, shown this once. */
export const shareLinkCreatedSchema = shareLinkSchema.extend({ url: text('Link') });

/** What a key's holder sees before connecting (GET /remote/share/{key}): what it opens, until when. */
export const sharedTargetSchema = fields('Shared target', {
  device_name: text('Device name'),
  entry_name: text('Entry name'),
  protocol: oneOf(SHAREABLE_PROTOCOLS, 'Protocol'),
  expires_at: instant('Expires at'),
});

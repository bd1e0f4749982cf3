import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { devices } from './devices';
import { users } from './users';

const bytes = (name: string) => bigint(name, { mode: 'number' });

/**
 * Remote entries (product §2 remote.access, the 'add remote' dialog): the named services of a
 * device or of its LAN that users may open, each with its protocol, host and port.
 */
export const remoteEntries = pgTable(
  'remote_entries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    protocol: text('protocol').notNull(),
    /** The device itself (127.0.0.1) or an address of its LAN. */
    host: text('host').notNull(),
    port: integer('port').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('remote_entries_device_idx').on(t.deviceId),
    check('remote_entries_port_check', sql`${t.port} between 1 and 65535`),
  ],
);

/**
 * Share links (product §2: the ssh and desktop launchers with a key skip sign-in): a random key,
 * kept only as its SHA-256, that opens one SSH or VNC entry until it expires (a day at most)
 * or is revoked. It acts for its creator's sign-in session: sessions opened with it are the
 * creator's, and ending that sign-in ends the link.
 */
export const remoteShareLinks = pgTable(
  'remote_share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => remoteEntries.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sign-in session the link acts for. */
    sessionId: text('session_id').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    uses: integer('uses').notNull().default(0),
  },
  (t) => [index('remote_share_links_entry_idx').on(t.entryId)],
);

/**
 * Remote sessions (product §2 service.connect-history, the device's access tab): one row per
 * session over any protocol, who opened it (the user acted as, and the real person when
 * impersonating), what it reached, when, the bytes each way and how it ended.
 */
export const remoteSessions = pgTable(
  'remote_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The device's company when the session opened: the history's scope and the data's payer. */
    companyId: integer('company_id').notNull(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    entryId: integer('entry_id').references(() => remoteEntries.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    protocol: text('protocol').notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    /** The login name the user gave the device, when the protocol has one. */
    login: text('login'),
    /** The SSH host key's fingerprint the device presented. */
    hostKey: text('host_key'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    bytesToDevice: bytes('bytes_to_device').notNull().default(0),
    bytesFromDevice: bytes('bytes_from_device').notNull().default(0),
    /** How it ended, in words ('The session ended', 'Ended by an administrator', an error). */
    endReason: text('end_reason'),
    /** A terminal session's output was recorded (asciicast v2, DATA_DIR/recordings/{id}.cast). */
    recorded: boolean('recorded').notNull().default(false),
    /** The share link it was opened with, if any (its user is the link's creator). */
    shareLinkId: uuid('share_link_id').references(() => remoteShareLinks.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('remote_sessions_company_idx').on(t.companyId, t.startedAt),
    index('remote_sessions_device_idx').on(t.deviceId, t.startedAt),
  ],
);

/**
 * SSH host keys pinned on first use per device and address: a later session that meets another
 * key is stopped and told so, as OpenSSH's known_hosts does.
 */
export const remoteHostKeys = pgTable(
  'remote_host_keys',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    fingerprint: text('fingerprint').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.host, t.port] })],
);

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

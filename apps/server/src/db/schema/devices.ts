import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './companies';

const tz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Devices (product §3 Device). A device is known by serial and MAC (ARCHITECTURE §5); after
 * its first contact only its secret authenticates it (`secret_hash`, SHA-256 of a 256-bit
 * random secret). `status` holds the numbers of product §4.
 */
export const devices = pgTable(
  'devices',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    serial: text('serial').notNull(),
    /** Upper case, ':'-separated. */
    mac: text('mac').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    model: text('model'),
    originalModel: text('original_model'),
    firmware: text('firmware'),
    imei: text('imei'),
    esim: boolean('esim').notNull().default(false),
    hostname: text('hostname'),
    agent: text('agent'),
    sims: jsonb('sims').$type<Record<string, unknown>[]>().notNull().default([]),
    status: smallint('status').notNull().default(2),
    lastSeenAt: tz('last_seen_at'),
    connectedAt: tz('connected_at'),
    bootId: text('boot_id'),
    /** Connection id of the current MQTT session: a late last will of an older one is ignored. */
    sessionId: text('session_id'),
    monitoringEnabled: boolean('monitoring_enabled').notNull().default(true),
    monitoringPeriod: integer('monitoring_period').notNull().default(300),
    /** Product §8 code 15 refuses a device without an active credit. */
    creditActive: boolean('credit_active').notNull().default(true),
    /**
     * When the device's service ends (a trial at registration, then each credit or pack
     * activated on it); past it the service sweeper renews it or switches it off.
     */
    serviceUntil: tz('service_until'),
    /** The resource type of the last activation; null while on trial. */
    serviceTypeId: integer('service_type_id'),
    /** Renew from the company's credits when the service ends. */
    autoRenew: boolean('auto_renew').notNull().default(false),
    secretHash: text('secret_hash'),
    /** Issued on first contact, promoted to `secret_hash` when the device first uses it. */
    pendingSecretHash: text('pending_secret_hash'),
    secretIssuedAt: tz('secret_issued_at'),
    createdBy: integer('created_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_serial_key').on(t.serial),
    index('devices_company_name_idx').on(t.companyId, t.name, t.id),
    index('devices_name_idx').on(t.name, t.id),
    index('devices_company_status_idx').on(t.companyId, t.status, t.id),
    index('devices_created_idx').on(t.createdAt, t.id),
    // Substring search on name, serial, MAC and IMEI (ARCHITECTURE §6: pg_trgm).
    index('devices_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('devices_serial_trgm_idx').using('gin', sql`${t.serial} gin_trgm_ops`),
    index('devices_mac_trgm_idx').using('gin', sql`${t.mac} gin_trgm_ops`),
    index('devices_imei_trgm_idx').using('gin', sql`${t.imei} gin_trgm_ops`),
  ],
);

/**
 * The sorted search index of the devices list (bench/list.ts, docs/performance.md §2): one
 * narrow row per device, kept by triggers on `devices` (migration 0005) and never touched
 * by telemetry, so its pages stay all-visible and the list can walk `(name, device_id)`
 * in order with an index-only scan, testing `text` (name, serial, MAC and IMEI, lower
 * case, tab-separated) in the index itself. A pattern matching half a million devices
 * then costs a walk to its first page instead of collecting and sorting every match.
 */
export const deviceSearch = pgTable(
  'device_search',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull(),
    name: text('name').notNull(),
    text: text('text').notNull(),
  },
  // Every column in the key: a walk reads company and text from the index, not the table.
  // One index only: with a narrower one beside it, the planner walks that one and reads
  // the table for `text`, a guess that is only cheap when matches are spread evenly.
  (t) => [index('device_search_walk_idx').on(t.name, t.deviceId, t.companyId, t.text)],
);

/**
 * How many device_search rows each company has in each stretch of the name order: the
 * stretch starting at (lo_name, lo_id) and ending where the next one starts. A deep page
 * by offset adds these up to find the stretch its first row is in, then walks only that
 * stretch (devices-list.repository.ts), instead of every row it skips. Triggers on device_search keep
 * the counts exact (migration 0011); `rebalance` in device-search.repository.ts redraws the
 * stretches when they have grown uneven. The stretch from ('', 0) always exists, held by a
 * row of company 0 (no company has that id), so every name falls in one.
 */
export const deviceSearchBuckets = pgTable(
  'device_search_buckets',
  {
    loName: text('lo_name').notNull(),
    loId: integer('lo_id').notNull(),
    companyId: integer('company_id').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.loName, t.loId, t.companyId] })],
);

/** The last reported state of a device (one row each), updated with every telemetry batch. */
export const deviceState = pgTable('device_state', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  at: tz('at').notNull(),
  signal: real('signal'),
  temperature: real('temperature'),
  uptime: integer('uptime'),
  operator: text('operator'),
  networkType: text('network_type'),
  wanType: text('wan_type'),
  wanIp: text('wan_ip'),
  rxBytes: bigint('rx_bytes', { mode: 'number' }),
  txBytes: bigint('tx_bytes', { mode: 'number' }),
  lat: doublePrecision('lat'),
  lon: doublePrecision('lon'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
});

/**
 * Append-only telemetry keyed by (device, time); old rows go with the retention job. Written
 * with COPY (telemetry.repository.ts writeEncoded).
 */
export const deviceTelemetry = pgTable(
  'device_telemetry',
  {
    // No foreign key: its check per point was a fifth of the cost of writing one
    // (bench/ingest.ts). A trigger on devices deletes a removed device's points
    // (migration 0009), and ids are never reused.
    deviceId: integer('device_id').notNull(),
    at: tz('at').notNull(),
    signal: real('signal'),
    temperature: real('temperature'),
    uptime: integer('uptime'),
    rxBytes: bigint('rx_bytes', { mode: 'number' }),
    txBytes: bigint('tx_bytes', { mode: 'number' }),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    // The other series the charts draw (docs/device-protocol.md §4.3), as columns rather than
    // the whole message: a point is a fifth of the size and a quarter cheaper to write
    // (bench/ingest.ts, docs/decisions.md).
    rsrp: real('rsrp'),
    rsrq: real('rsrq'),
    sinr: real('sinr'),
    /** The first analog input, V. */
    ain: real('ain'),
    /** The first current loop, mA. */
    acl: real('acl'),
    speed: real('speed'),
    alt: real('alt'),
    satellites: smallint('satellites'),
  },
  (t) => [
    primaryKey({ name: 'device_telemetry_pkey', columns: [t.deviceId, t.at] }),
    index('device_telemetry_at_brin').using('brin', t.at),
  ],
);

/** Things that happened on a device, reported by it or observed by the gateway. */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull(),
    at: tz('at').notNull().defaultNow(),
    type: text('type').notNull(),
    severity: text('severity').notNull().default('info'),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
  },
  (t) => [index('device_events_device_at_idx').on(t.deviceId, t.at)],
);

/**
 * Durable device commands: a row first, then a message. `seq` orders a
 * device's commands; the device deduplicates by `id`.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull(),
    /** The commands one request created; its realtime channel is named after it. */
    batchId: uuid('batch_id').notNull(),
    action: text('action').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    /** pending → sent → acked → done | failed | cancelled | expired */
    status: text('status').notNull().default('pending'),
    output: text('output'),
    error: text('error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    fileName: text('file_name'),
    fileType: text('file_type'),
    /** base64, as the device sent it. */
    fileData: text('file_data'),
    attempts: integer('attempts').notNull().default(0),
    createdBy: integer('created_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
    sentAt: tz('sent_at'),
    ackedAt: tz('acked_at'),
    finishedAt: tz('finished_at'),
    expiresAt: tz('expires_at').notNull(),
  },
  (t) => [
    index('device_commands_device_seq_idx').on(t.deviceId, t.seq),
    index('device_commands_open_idx')
      .on(t.deviceId, t.seq)
      .where(sql`${t.status} in ('pending', 'sent', 'acked')`),
    index('device_commands_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('pending', 'sent', 'acked')`),
    index('device_commands_batch_idx').on(t.batchId),
  ],
);

/**
 * Every connection attempt, accepted or refused, with the codes of product §8. Visible to
 * the owning company; attempts with no company (unknown serials) to the super admin only.
 */
export const deviceConnectionAttempts = pgTable(
  'device_connection_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: tz('at').notNull().defaultNow(),
    serial: text('serial').notNull(),
    mac: text('mac'),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    companyId: integer('company_id'),
    /** The success code of product §8. */
    success: smallint('success').notNull(),
    /** 1 accepted, 0 refused. */
    status: smallint('status').notNull(),
    reason: text('reason'),
    /** Transport: mqtt, mqtt-ws, broker. */
    sourceAlias: text('source_alias').notNull(),
    /** Remote address. */
    sourceName: text('source_name'),
  },
  (t) => [
    index('device_attempts_company_at_idx').on(t.companyId, t.at),
    index('device_attempts_device_at_idx').on(t.deviceId, t.at),
    index('device_attempts_at_idx').on(t.at),
  ],
);

/**
 * The super admin's approved-devices list (route auth.devices): serial and MAC pairs
 * that register themselves into the named company on first contact.
 */
export const approvedDevices = pgTable(
  'approved_devices',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    serial: text('serial').notNull(),
    mac: text('mac').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    note: text('note').notNull().default(''),
    createdBy: integer('created_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
    registeredAt: tz('registered_at'),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('approved_devices_serial_key').on(t.serial)],
);

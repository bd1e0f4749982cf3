import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { allOf } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { deviceState, devices } from '#src/db/schema/devices';
import { deviceTags, tags } from '#src/db/schema/tags';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

/** Columns of a device row as the API shows it (product §3 Device plus list columns). */
export const deviceRowColumns = {
  id: devices.id,
  name: devices.name,
  description: devices.description,
  serial: devices.serial,
  mac: devices.mac,
  model: devices.model,
  original_model: devices.originalModel,
  firmware: devices.firmware,
  imei: devices.imei,
  esim: devices.esim,
  status: devices.status,
  company_id: devices.companyId,
  company_name: companies.name,
  monitoring_enabled: devices.monitoringEnabled,
  monitoring_period: devices.monitoringPeriod,
  credit_active: devices.creditActive,
  last_seen_at: devices.lastSeenAt,
  created_at: devices.createdAt,
  signal: deviceState.signal,
  temperature: deviceState.temperature,
  operator: deviceState.operator,
  wan_type: deviceState.wanType,
  wan_ip: deviceState.wanIp,
  uptime: deviceState.uptime,
};

export type DeviceRecord = typeof devices.$inferSelect;

/** Only this file and devices-list.repository.ts read and write the devices table. */
export const devicesRepository = {
  /** A device the caller reaches, with company and last state; undefined otherwise (→ 404). */
  async findInScope(db: Db, scope: Scope, id: number) {
    const [row] = await db
      .select({
        ...deviceRowColumns,
        sims: devices.sims,
        hostname: devices.hostname,
        agent: devices.agent,
        connected_at: devices.connectedAt,
        secret_hash: devices.secretHash,
        state: deviceState.payload,
        state_at: deviceState.at,
      })
      .from(devices)
      .innerJoin(companies, eq(companies.id, devices.companyId))
      .leftJoin(deviceState, eq(deviceState.deviceId, devices.id))
      .where(and(eq(devices.id, id), companyColumnInScope(devices.companyId, scope)))
      .limit(1);
    return row;
  },

  /** The tags of each device, by name; a tag of a company out of the caller's scope stays hidden. */
  async tagsOf(db: Db, scope: Scope, deviceIds: number[]) {
    const byDevice = new Map<number, { id: number; name: string; color: string }[]>();
    if (deviceIds.length === 0) return byDevice;
    const rows = await db
      .select({ deviceId: deviceTags.deviceId, id: tags.id, name: tags.name, color: tags.color })
      .from(deviceTags)
      .innerJoin(tags, eq(tags.id, deviceTags.tagId))
      .where(and(inArray(deviceTags.deviceId, deviceIds), companyColumnInScope(tags.companyId, scope)))
      .orderBy(tags.name);
    for (const { deviceId, ...tag } of rows) byDevice.set(deviceId, [...(byDevice.get(deviceId) ?? []), tag]);
    return byDevice;
  },

  /** The ids (and companies) among `ids` that the caller reaches. */
  async idsInScope(db: Db, scope: Scope, ids: number[]) {
    if (ids.length === 0) return [];
    return db
      .select({ id: devices.id, companyId: devices.companyId, serial: devices.serial, name: devices.name })
      .from(devices)
      .where(and(inArray(devices.id, ids), companyColumnInScope(devices.companyId, scope)));
  },

  async findBySerial(db: Db, serial: string): Promise<DeviceRecord | undefined> {
    const [row] = await db.select().from(devices).where(eq(devices.serial, serial)).limit(1);
    return row;
  },

  async findById(db: Db, id: number): Promise<DeviceRecord | undefined> {
    const [row] = await db.select().from(devices).where(eq(devices.id, id)).limit(1);
    return row;
  },

  /** What the gateway needs to know about a device on every message. */
  async identityBySerial(db: Db, serial: string) {
    const [row] = await db
      .select({
        id: devices.id,
        companyId: devices.companyId,
        serial: devices.serial,
        status: devices.status,
        secretHash: devices.secretHash,
        sessionId: devices.sessionId,
      })
      .from(devices)
      .where(eq(devices.serial, serial))
      .limit(1);
    return row;
  },

  /** Registers a device; undefined when the serial is taken (unique index). */
  async insert(
    db: Db,
    values: {
      companyId: number;
      serial: string;
      mac: string;
      name: string;
      description?: string;
      model?: string | null;
      createdBy?: number | null;
    },
  ) {
    const [row] = await db
      .insert(devices)
      .values({
        companyId: values.companyId,
        serial: values.serial,
        mac: values.mac,
        name: values.name,
        description: values.description ?? '',
        model: values.model ?? null,
        createdBy: values.createdBy ?? null,
      })
      .onConflictDoNothing({ target: devices.serial })
      .returning();
    return row;
  },

  async update(db: Db, id: number, values: Partial<typeof devices.$inferInsert>, where?: SQL) {
    const [row] = await db
      .update(devices)
      .set({ ...values, updatedAt: new Date() })
      .where(allOf(eq(devices.id, id), where))
      .returning();
    return row;
  },

  async remove(db: Db, scope: Scope, ids: number[]) {
    if (ids.length === 0) return [];
    return db
      .delete(devices)
      .where(and(inArray(devices.id, ids), companyColumnInScope(devices.companyId, scope)))
      .returning({ id: devices.id, serial: devices.serial, companyId: devices.companyId });
  },

  /** A device's status and the connection it was last online on (presence). */
  async presenceOf(db: Db, id: number) {
    const [row] = await db
      .select({ status: devices.status, sessionId: devices.sessionId })
      .from(devices)
      .where(eq(devices.id, id))
      .limit(1);
    return row;
  },

  /** Online on connection `conn` (null: the embedded broker's own view); answers the row. */
  async markOnline(db: Db, id: number, conn: string | null, now: Date) {
    const [row] = await db
      .update(devices)
      .set({
        status: DEVICE_STATUS.online,
        connectedAt: now,
        lastSeenAt: now,
        sessionId: conn,
        updatedAt: now,
      })
      .where(eq(devices.id, id))
      .returning();
    return row;
  },

  /**
   * Offline, if it is online and `conn` is its last connection (or unknown): a late end of
   * an older connection changes nothing. Answers the row when it changed.
   */
  async markOffline(db: Db, id: number, conn: string | null, now: Date) {
    const [row] = await db
      .update(devices)
      .set({ status: DEVICE_STATUS.offline, updatedAt: now })
      .where(
        and(
          eq(devices.id, id),
          eq(devices.status, DEVICE_STATUS.online),
          conn ? or(isNull(devices.sessionId), eq(devices.sessionId, conn)) : undefined,
        ),
      )
      .returning();
    return row;
  },

  /** Forgets the secrets of these devices: their next contact is a first contact again. */
  async forgetSecrets(db: Db, serials: string[]): Promise<void> {
    if (serials.length === 0) return;
    await db
      .update(devices)
      .set({ secretHash: null, pendingSecretHash: null, secretIssuedAt: null })
      .where(inArray(devices.serial, serials));
  },

  async idsBySerial(db: Db, serials: string[]): Promise<number[]> {
    if (serials.length === 0) return [];
    const rows = await db.select({ id: devices.id }).from(devices).where(inArray(devices.serial, serials));
    return rows.map((r) => r.id);
  },

  /** Which of these serials are registered already. */
  async existingSerials(db: Db, serials: string[]): Promise<Set<string>> {
    if (serials.length === 0) return new Set();
    const rows = await db
      .select({ serial: devices.serial })
      .from(devices)
      .where(inArray(devices.serial, serials));
    return new Set(rows.map((r) => r.serial));
  },

  /** Registered serials among `serials`, and whether each device is in the caller's reach. */
  async registeredSerials(
    db: Db,
    scope: Scope,
    serials: string[],
  ): Promise<Map<string, { inScope: boolean }>> {
    if (serials.length === 0) return new Map();
    const rows = await db
      .select({
        serial: devices.serial,
        inScope: sql<boolean>`${companyColumnInScope(devices.companyId, scope)}`,
      })
      .from(devices)
      .where(inArray(devices.serial, serials));
    return new Map(rows.map((r) => [r.serial, { inScope: r.inScope }]));
  },

  /** Every online device becomes offline (start of the embedded broker). */
  async markAllOffline(db: Db) {
    await db.update(devices).set({ status: 0 }).where(eq(devices.status, 1));
  },

  /** Models in scope with their counts (product §7 selector /devices/statistics). */
  async modelCounts(db: Db, scope: Scope) {
    return db
      .select({ model: devices.model, count: sql<number>`count(*)::int` })
      .from(devices)
      .where(companyColumnInScope(devices.companyId, scope))
      .groupBy(devices.model)
      .orderBy(devices.model);
  },
};

import { and, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { devices } from '#src/db/schema/devices';
import { remoteEntries, remoteHostKeys, remoteSessions, remoteShareLinks } from '#src/db/schema/remote';
import { users } from '#src/db/schema/users';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

type EntryField = 'id' | 'name' | 'protocol' | 'host' | 'port' | 'enabled' | 'created_at' | 'device_name';

const entryListSpec: ListSpec<EntryField> = {
  columns: {
    id: remoteEntries.id,
    name: remoteEntries.name,
    protocol: remoteEntries.protocol,
    host: remoteEntries.host,
    port: remoteEntries.port,
    enabled: remoteEntries.enabled,
    created_at: remoteEntries.createdAt,
    device_name: devices.name,
  },
  sortable: ['id', 'name', 'protocol', 'host', 'port', 'enabled', 'created_at', 'device_name'],
  searchable: ['name', 'host', 'device_name'],
  defaultSearch: ['name', 'device_name'],
  defaultSort: 'name',
  idColumn: remoteEntries.id,
};

const entryRow = {
  id: remoteEntries.id,
  device_id: remoteEntries.deviceId,
  device_name: devices.name,
  device_serial: devices.serial,
  device_status: devices.status,
  company_id: devices.companyId,
  company_name: companies.name,
  name: remoteEntries.name,
  protocol: sql<
    'ssh' | 'sftp' | 'telnet' | 'http' | 'https' | 'vnc' | 'rdp' | 'tcp'
  >`${remoteEntries.protocol}`,
  host: remoteEntries.host,
  port: remoteEntries.port,
  enabled: remoteEntries.enabled,
  created_at: remoteEntries.createdAt,
};

type SessionField = 'started_at' | 'ended_at' | 'protocol' | 'device_name' | 'user_email';

const actor = alias(users, 'actor');

const sessionListSpec: ListSpec<SessionField> = {
  columns: {
    started_at: remoteSessions.startedAt,
    ended_at: remoteSessions.endedAt,
    protocol: remoteSessions.protocol,
    device_name: devices.name,
    user_email: users.email,
  },
  sortable: ['started_at', 'ended_at', 'protocol', 'device_name', 'user_email'],
  searchable: ['device_name', 'user_email', 'protocol'],
  defaultSearch: ['device_name', 'user_email'],
  defaultSort: '-started_at',
  idColumn: remoteSessions.id,
};

const sessionRow = {
  id: remoteSessions.id,
  company_id: remoteSessions.companyId,
  company_name: companies.name,
  device_id: remoteSessions.deviceId,
  device_name: devices.name,
  entry_id: remoteSessions.entryId,
  entry_name: remoteEntries.name,
  user_email: users.email,
  actor_email: actor.email,
  protocol: remoteSessions.protocol,
  host: remoteSessions.host,
  port: remoteSessions.port,
  login: remoteSessions.login,
  host_key: remoteSessions.hostKey,
  started_at: remoteSessions.startedAt,
  ended_at: remoteSessions.endedAt,
  bytes_to_device: remoteSessions.bytesToDevice,
  bytes_from_device: remoteSessions.bytesFromDevice,
  end_reason: remoteSessions.endReason,
  recorded: remoteSessions.recorded,
  share_link_id: remoteSessions.shareLinkId,
};

/** Entries with their device and its company: what every read of entries shows. */
const entriesFrom = (db: Db) =>
  db
    .select(entryRow)
    .from(remoteEntries)
    .innerJoin(devices, eq(devices.id, remoteEntries.deviceId))
    .innerJoin(companies, eq(companies.id, devices.companyId));

/** Sessions with the names they show (company, device, entry, user, impersonator). */
const sessionsFrom = (db: Db) =>
  db
    .select(sessionRow)
    .from(remoteSessions)
    .leftJoin(companies, eq(companies.id, remoteSessions.companyId))
    .leftJoin(devices, eq(devices.id, remoteSessions.deviceId))
    .leftJoin(remoteEntries, eq(remoteEntries.id, remoteSessions.entryId))
    .leftJoin(users, eq(users.id, remoteSessions.userId))
    .leftJoin(actor, eq(actor.id, remoteSessions.actorUserId));

export type NewSession = {
  companyId: number;
  deviceId: number;
  entryId: number | null;
  userId: number;
  actorUserId: number | null;
  protocol: string;
  host: string;
  port: number;
  login: string | null;
  shareLinkId?: string | null;
};

const shareLinkRow = {
  id: remoteShareLinks.id,
  entry_id: remoteShareLinks.entryId,
  entry_name: remoteEntries.name,
  device_id: remoteEntries.deviceId,
  device_name: devices.name,
  company_id: devices.companyId,
  created_by_email: users.email,
  created_at: remoteShareLinks.createdAt,
  expires_at: remoteShareLinks.expiresAt,
  revoked_at: remoteShareLinks.revokedAt,
  last_used_at: remoteShareLinks.lastUsedAt,
  uses: remoteShareLinks.uses,
};

/** Share links with their entry, device and creator. */
const shareLinksFrom = (db: Db) =>
  db
    .select(shareLinkRow)
    .from(remoteShareLinks)
    .innerJoin(remoteEntries, eq(remoteEntries.id, remoteShareLinks.entryId))
    .innerJoin(devices, eq(devices.id, remoteEntries.deviceId))
    .leftJoin(users, eq(users.id, remoteShareLinks.createdBy));

/** Only this file reads and writes remote entries, sessions, share links and pinned host keys. */
export const remoteRepository = {
  async listEntries(
    db: Db,
    scope: Scope,
    query: ListQuery,
    filters: { deviceId?: number; protocol?: string[] },
  ) {
    const plan = listPlan(entryListSpec, query);
    const where = allOf(
      companyColumnInScope(devices.companyId, scope),
      plan.search,
      filters.deviceId ? eq(remoteEntries.deviceId, filters.deviceId) : undefined,
      filters.protocol?.length ? inArray(remoteEntries.protocol, filters.protocol) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      entriesFrom(db)
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db
        .select({ n: count() })
        .from(remoteEntries)
        .innerJoin(devices, eq(devices.id, remoteEntries.deviceId))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0, fields: plan.fields };
  },

  async findEntry(db: Db, scope: Scope, id: number) {
    const [row] = await entriesFrom(db)
      .where(and(eq(remoteEntries.id, id), companyColumnInScope(devices.companyId, scope)))
      .limit(1);
    return row;
  },

  async insertEntry(
    db: Db,
    values: {
      deviceId: number;
      name: string;
      protocol: string;
      host: string;
      port: number;
      enabled: boolean;
    },
  ) {
    const [row] = await db.insert(remoteEntries).values(values).returning({ id: remoteEntries.id });
    return row!.id;
  },

  async updateEntry(
    db: Db,
    id: number,
    changes: Partial<{ name: string; protocol: string; host: string; port: number; enabled: boolean }>,
  ) {
    await db
      .update(remoteEntries)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(remoteEntries.id, id));
  },

  async deleteEntry(db: Db, id: number) {
    await db.delete(remoteEntries).where(eq(remoteEntries.id, id));
  },

  async startSession(db: Db, session: NewSession) {
    const [row] = await db.insert(remoteSessions).values(session).returning({ id: remoteSessions.id });
    return row!.id;
  },

  /** Adds metered bytes to a live session's counts. */
  async addBytes(db: Db, id: string, toDevice: number, fromDevice: number) {
    await db
      .update(remoteSessions)
      .set({
        bytesToDevice: sql`${remoteSessions.bytesToDevice} + ${toDevice}`,
        bytesFromDevice: sql`${remoteSessions.bytesFromDevice} + ${fromDevice}`,
      })
      .where(eq(remoteSessions.id, id));
  },

  async markRecorded(db: Db, id: string) {
    await db.update(remoteSessions).set({ recorded: true }).where(eq(remoteSessions.id, id));
  },

  async setHostKey(db: Db, id: string, hostKey: string) {
    await db.update(remoteSessions).set({ hostKey }).where(eq(remoteSessions.id, id));
  },

  /** Ends a session once: a second end (both sides closing) changes nothing. */
  async endSession(db: Db, id: string, reason: string) {
    await db
      .update(remoteSessions)
      .set({ endedAt: new Date(), endReason: reason })
      .where(and(eq(remoteSessions.id, id), isNull(remoteSessions.endedAt)));
  },

  async listSessions(
    db: Db,
    scope: Scope,
    query: ListQuery,
    filters: { deviceId?: number; entryId?: number; active?: boolean },
  ) {
    const plan = listPlan(sessionListSpec, query);
    const where = allOf(
      companyColumnInScope(remoteSessions.companyId, scope),
      plan.search,
      filters.deviceId ? eq(remoteSessions.deviceId, filters.deviceId) : undefined,
      filters.entryId ? eq(remoteSessions.entryId, filters.entryId) : undefined,
      filters.active === undefined
        ? undefined
        : filters.active
          ? isNull(remoteSessions.endedAt)
          : isNotNull(remoteSessions.endedAt),
    );
    const [rows, [total]] = await Promise.all([
      sessionsFrom(db)
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db
        .select({ n: count() })
        .from(remoteSessions)
        .leftJoin(devices, eq(devices.id, remoteSessions.deviceId))
        .leftJoin(users, eq(users.id, remoteSessions.userId))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0, fields: plan.fields };
  },

  async findSession(db: Db, scope: Scope, id: string) {
    const [row] = await sessionsFrom(db)
      .where(and(eq(remoteSessions.id, id), companyColumnInScope(remoteSessions.companyId, scope)))
      .limit(1);
    return row;
  },

  /** The key pinned for a device's address, or undefined before the first session. */
  async pinnedKey(db: Db, deviceId: number, host: string, port: number) {
    const [row] = await db
      .select({ fingerprint: remoteHostKeys.fingerprint })
      .from(remoteHostKeys)
      .where(
        and(
          eq(remoteHostKeys.deviceId, deviceId),
          eq(remoteHostKeys.host, host),
          eq(remoteHostKeys.port, port),
        ),
      )
      .limit(1);
    return row?.fingerprint;
  },

  /** Pins a key on first use; an existing pin is kept (answers the pinned one). */
  async pinKey(db: Db, deviceId: number, host: string, port: number, fingerprint: string) {
    await db.insert(remoteHostKeys).values({ deviceId, host, port, fingerprint }).onConflictDoNothing();
    return this.pinnedKey(db, deviceId, host, port);
  },

  async insertShareLink(
    db: Db,
    values: { entryId: number; createdBy: number; sessionId: string; keyHash: string; expiresAt: Date },
  ) {
    const [row] = await db.insert(remoteShareLinks).values(values).returning({ id: remoteShareLinks.id });
    return row!.id;
  },

  /** The share links of an entry in scope, newest first. */
  async listShareLinks(db: Db, scope: Scope, entryId: number) {
    return shareLinksFrom(db)
      .where(and(eq(remoteShareLinks.entryId, entryId), companyColumnInScope(devices.companyId, scope)))
      .orderBy(sql`${remoteShareLinks.createdAt} desc`)
      .limit(100);
  },

  async findShareLink(db: Db, scope: Scope, id: string) {
    const [row] = await shareLinksFrom(db)
      .where(and(eq(remoteShareLinks.id, id), companyColumnInScope(devices.companyId, scope)))
      .limit(1);
    return row;
  },

  /** A link by its key's hash, with what opening it needs: the sign-in it acts for, the entry's state. */
  async shareLinkByKey(db: Db, keyHash: string) {
    const [row] = await db
      .select({
        ...shareLinkRow,
        created_by: remoteShareLinks.createdBy,
        session_id: remoteShareLinks.sessionId,
        protocol: remoteEntries.protocol,
        enabled: remoteEntries.enabled,
        host: remoteEntries.host,
        port: remoteEntries.port,
      })
      .from(remoteShareLinks)
      .innerJoin(remoteEntries, eq(remoteEntries.id, remoteShareLinks.entryId))
      .innerJoin(devices, eq(devices.id, remoteEntries.deviceId))
      .leftJoin(users, eq(users.id, remoteShareLinks.createdBy))
      .where(eq(remoteShareLinks.keyHash, keyHash))
      .limit(1);
    return row;
  },

  async revokeShareLink(db: Db, id: string) {
    await db
      .update(remoteShareLinks)
      .set({ revokedAt: new Date() })
      .where(and(eq(remoteShareLinks.id, id), isNull(remoteShareLinks.revokedAt)));
  },

  async shareLinkUsed(db: Db, id: string) {
    await db
      .update(remoteShareLinks)
      .set({ uses: sql`${remoteShareLinks.uses} + 1`, lastUsedAt: new Date() })
      .where(eq(remoteShareLinks.id, id));
  },
};

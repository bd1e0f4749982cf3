import type { DeviceAction } from '@fleetgate/shared/devices/actions';
import { type CommandState, OPEN_COMMAND_STATES, SECRET_PARAMS } from '@fleetgate/shared/devices/actions';
import { and, asc, count, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { deviceCommands } from '#src/db/schema/devices';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

export type CommandRecord = typeof deviceCommands.$inferSelect;

const OPEN = OPEN_COMMAND_STATES as CommandState[];

/** Parameters once a command has ended: secrets are not kept (the device has them). */
function redacted(row: {
  action: string;
  params: Record<string, unknown>;
}): Record<string, unknown> | undefined {
  const secrets = SECRET_PARAMS[row.action as DeviceAction];
  if (!secrets) return undefined;
  return Object.fromEntries(Object.entries(row.params).filter(([k]) => !secrets.includes(k)));
}

export type Transition = {
  status: CommandState;
  output?: string | null;
  error?: string | null;
  result?: Record<string, unknown> | null;
  file?: { name: string; type: string; data: string } | null;
};

/** Only this file reads and writes device commands. */
export const commandsRepository = {
  async insertMany(
    db: Db,
    rows: {
      deviceId: number;
      companyId: number;
      batchId: string;
      action: string;
      params: Record<string, unknown>;
      expiresAt: Date;
      createdBy: number | null;
    }[],
  ) {
    if (rows.length === 0) return [];
    return db.insert(deviceCommands).values(rows).returning();
  },

  /** Whether one of `userIds` started the action (its channel is theirs to follow). */
  async batchStartedBy(db: Db, batchId: string, userIds: number[]): Promise<boolean> {
    if (userIds.length === 0) return false;
    const [row] = await db
      .select({ id: deviceCommands.id })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.batchId, batchId), inArray(deviceCommands.createdBy, userIds)))
      .limit(1);
    return row !== undefined;
  },

  /** How one action's commands stand: how many are still open, and how the others ended. */
  async batchSummary(db: Db, batchId: string) {
    const [row] = await db
      .select({
        action: sql<string>`min(${deviceCommands.action})`,
        createdBy: sql<number | null>`min(${deviceCommands.createdBy})`,
        total: count(),
        open: sql<number>`count(*) filter (where ${inArray(deviceCommands.status, OPEN)})::int`,
        done: sql<number>`count(*) filter (where ${deviceCommands.status} = 'done')::int`,
      })
      .from(deviceCommands)
      .where(eq(deviceCommands.batchId, batchId));
    return row && row.total > 0 ? row : undefined;
  },

  /** Open commands of a device in the order the device must run them. */
  async openForDevice(db: Db, deviceId: number) {
    return db
      .select()
      .from(deviceCommands)
      .where(
        and(
          eq(deviceCommands.deviceId, deviceId),
          inArray(deviceCommands.status, OPEN),
          sql`${deviceCommands.expiresAt} > now()`,
        ),
      )
      .orderBy(asc(deviceCommands.seq));
  },

  /** Devices that have open commands (start-up sweep). */
  async devicesWithOpenCommands(db: Db) {
    const rows = await db
      .selectDistinct({ deviceId: deviceCommands.deviceId })
      .from(deviceCommands)
      .where(inArray(deviceCommands.status, OPEN));
    return rows.map((r) => r.deviceId);
  },

  /** Marks a command sent (first send) or counts a re-send. */
  async markSent(db: Db, id: string) {
    const [row] = await db
      .update(deviceCommands)
      .set({
        status: sql`case when ${deviceCommands.status} = 'pending' then 'sent' else ${deviceCommands.status} end`,
        sentAt: sql`coalesce(${deviceCommands.sentAt}, now())`,
        attempts: sql`${deviceCommands.attempts} + 1`,
      })
      .where(and(eq(deviceCommands.id, id), inArray(deviceCommands.status, OPEN)))
      .returning();
    return row;
  },

  /**
   * Applies a device reply. Only a command of that device that is still open moves, so a
   * repeated reply (the device re-sends after a reconnect) changes nothing.
   */
  async applyReply(db: Db, deviceId: number, id: string, t: Transition) {
    const from: CommandState[] = t.status === 'acked' ? ['pending', 'sent'] : OPEN;
    const final = t.status !== 'acked';
    return db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(deviceCommands)
        .where(and(eq(deviceCommands.id, id), eq(deviceCommands.deviceId, deviceId)))
        .for('update')
        .limit(1);
      if (!current || !from.includes(current.status as CommandState)) return undefined;
      const params = final ? redacted(current) : undefined;
      const [row] = await tx
        .update(deviceCommands)
        .set({
          status: t.status,
          ackedAt: current.ackedAt ?? new Date(),
          sentAt: current.sentAt ?? new Date(),
          ...(final ? { finishedAt: new Date() } : {}),
          ...(t.output !== undefined ? { output: t.output } : {}),
          ...(t.error !== undefined ? { error: t.error } : {}),
          ...(t.result !== undefined ? { result: t.result } : {}),
          ...(t.file ? { fileName: t.file.name, fileType: t.file.type, fileData: t.file.data } : {}),
          ...(params ? { params } : {}),
        })
        .where(eq(deviceCommands.id, id))
        .returning();
      return row;
    });
  },

  /** Cancels a command that has not reached the device yet. */
  async cancel(db: Db, scope: Scope, id: string) {
    return db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(deviceCommands)
        .where(and(eq(deviceCommands.id, id), companyColumnInScope(deviceCommands.companyId, scope)))
        .for('update')
        .limit(1);
      if (!current) return { found: false as const };
      if (current.status !== 'pending') return { found: true as const, row: current, cancelled: false };
      const [row] = await tx
        .update(deviceCommands)
        .set({
          status: 'cancelled',
          finishedAt: new Date(),
          ...(redacted(current) ? { params: redacted(current) } : {}),
        })
        .where(eq(deviceCommands.id, id))
        .returning();
      return { found: true as const, row: row!, cancelled: true };
    });
  },

  /** Open commands past their TTL become expired; returns them. */
  async expireDue(db: Db, now = new Date()) {
    const due = await db
      .select({ id: deviceCommands.id, action: deviceCommands.action, params: deviceCommands.params })
      .from(deviceCommands)
      .where(and(inArray(deviceCommands.status, OPEN), lt(deviceCommands.expiresAt, now)))
      .limit(1000);
    const expired: CommandRecord[] = [];
    for (const c of due) {
      const [row] = await db
        .update(deviceCommands)
        .set({ status: 'expired', finishedAt: now, ...(redacted(c) ? { params: redacted(c) } : {}) })
        .where(and(eq(deviceCommands.id, c.id), inArray(deviceCommands.status, OPEN)))
        .returning();
      if (row) expired.push(row);
    }
    return expired;
  },

  async findInScope(db: Db, scope: Scope, id: string) {
    const [row] = await db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.id, id), companyColumnInScope(deviceCommands.companyId, scope)))
      .limit(1);
    return row;
  },

  /** The commands one request created (its `meta.channel`), in the caller's scope. */
  async listBatch(db: Db, scope: Scope, batchId: string) {
    return db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.batchId, batchId), companyColumnInScope(deviceCommands.companyId, scope)))
      .orderBy(asc(deviceCommands.seq))
      .limit(1000);
  },

  async listForDevice(db: Db, deviceId: number, page: { limit: number; offset: number; status?: string[] }) {
    const where: SQL | undefined = and(
      eq(deviceCommands.deviceId, deviceId),
      page.status?.length ? inArray(deviceCommands.status, page.status) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(deviceCommands)
        .where(where)
        .orderBy(desc(deviceCommands.seq))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(deviceCommands).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },
};

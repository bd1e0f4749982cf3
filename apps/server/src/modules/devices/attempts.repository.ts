import { attemptText } from '@fleetgate/shared/devices/status';
import { and, count, desc, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { companies } from '#src/db/schema/companies';
import { deviceConnectionAttempts } from '#src/db/schema/devices';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

export type AttemptInput = {
  serial: string;
  mac?: string | null;
  deviceId?: number | null;
  companyId?: number | null;
  success: number;
  accepted: boolean;
  reason?: string | null;
  sourceAlias: string;
  sourceName?: string | null;
};

const t = deviceConnectionAttempts;

/** Only this file reads and writes connection attempts (product §3 Connection attempt, §8 codes). */
export const attemptsRepository = {
  async record(db: Db, a: AttemptInput) {
    await db.insert(t).values({
      serial: a.serial.slice(0, 64),
      mac: a.mac ?? null,
      deviceId: a.deviceId ?? null,
      companyId: a.companyId ?? null,
      success: a.success,
      status: a.accepted ? 1 : 0,
      reason: a.reason ?? null,
      sourceAlias: a.sourceAlias,
      sourceName: a.sourceName ?? null,
    });
  },

  /**
   * Attempts the caller may see: those of companies in scope; attempts that named no
   * registered device (no company) only with `includeUnowned` (the super admin).
   */
  async list(
    db: Db,
    scope: Scope,
    q: { limit: number; offset: number; deviceId?: number; serial?: string; includeUnowned: boolean },
  ) {
    const visible = q.includeUnowned
      ? or(companyColumnInScope(t.companyId, scope), isNull(t.companyId))
      : companyColumnInScope(t.companyId, scope);
    const where: SQL | undefined = and(
      visible,
      q.deviceId === undefined ? undefined : eq(t.deviceId, q.deviceId),
      q.serial === undefined ? undefined : eq(t.serial, q.serial),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({
          id: t.id,
          at: t.at,
          success: t.success,
          reason: t.reason,
          status: t.status,
          serial: t.serial,
          mac: t.mac,
          device_id: t.deviceId,
          company_id: t.companyId,
          company_name: companies.name,
          source_alias: t.sourceAlias,
          source_name: t.sourceName,
        })
        .from(t)
        .leftJoin(companies, eq(companies.id, t.companyId))
        .where(where)
        .orderBy(desc(t.at), desc(t.id))
        .limit(q.limit)
        .offset(q.offset),
      db.select({ n: count() }).from(t).where(where),
    ]);
    return {
      rows: rows.map((r) => ({ ...r, text: attemptText(r.success, r.reason) })),
      total: total?.n ?? 0,
    };
  },
};

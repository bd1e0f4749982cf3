import { and, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { allOf } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { devices } from '#src/db/schema/devices';
import { dataUsage } from '#src/db/schema/resources';
import { users } from '#src/db/schema/users';
import type { Scope } from '../policy/scope';
import { companiesInScope, companyColumnInScope } from '../policy/scope.repository';

export type UsageFilters = { companyId?: number[]; deviceId?: number; from?: string; to?: string };

/** Company data spent per day, device and purpose, and what companies have left. */
export const dataUsageRepository = {
  /** Adds metered bytes to the day's row of the device and purpose. */
  async add(
    tx: Db,
    row: {
      companyId: number;
      deviceId: number;
      day: string;
      purpose: 'remote_access' | 'vpn';
      bytes: number;
      unpaidBytes: number;
    },
  ) {
    await tx
      .insert(dataUsage)
      .values(row)
      .onConflictDoUpdate({
        target: [dataUsage.companyId, dataUsage.day, dataUsage.deviceId, dataUsage.purpose],
        set: {
          bytes: sql`${dataUsage.bytes} + ${row.bytes}`,
          unpaidBytes: sql`${dataUsage.unpaidBytes} + ${row.unpaidBytes}`,
        },
      });
  },

  async history(db: Db, scope: Scope, page: { limit: number; offset: number }, filters: UsageFilters) {
    const where = allOf(
      companyColumnInScope(dataUsage.companyId, scope),
      filters.companyId?.length ? inArray(dataUsage.companyId, filters.companyId) : undefined,
      filters.deviceId ? eq(dataUsage.deviceId, filters.deviceId) : undefined,
      filters.from ? gte(dataUsage.day, filters.from) : undefined,
      filters.to ? lte(dataUsage.day, filters.to) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({
          day: dataUsage.day,
          company_id: dataUsage.companyId,
          company_name: companies.name,
          device_id: sql<number | null>`nullif(${dataUsage.deviceId}, 0)`,
          device_name: devices.name,
          purpose: dataUsage.purpose,
          bytes: dataUsage.bytes,
          unpaid_bytes: dataUsage.unpaidBytes,
        })
        .from(dataUsage)
        .innerJoin(companies, eq(companies.id, dataUsage.companyId))
        .leftJoin(devices, eq(devices.id, dataUsage.deviceId))
        .where(where)
        .orderBy(desc(dataUsage.day), dataUsage.companyId, dataUsage.deviceId, dataUsage.purpose)
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(dataUsage).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /** Each company of the scope with its data left and the bytes it spent since `since`. */
  async overview(db: Db, scope: Scope, page: { limit: number; offset: number }, since: string, search?: SQL) {
    // Written out: inside a subquery drizzle may leave columns unqualified, and `id` would then be the inner table's.
    const spent = sql<string>`coalesce((select sum(u.bytes) from data_usage u where u.company_id = companies.id and u.day >= ${since}), 0)`;
    const left = sql<string>`coalesce((select a.balance from ledger_accounts a where a.kind = 'company' and a.company_id = companies.id and a.resource_type_id is null), 0)`;
    const where = and(companiesInScope(scope), search);
    const [rows, [total]] = await Promise.all([
      db
        .select({ company_id: companies.id, company_name: companies.name, remaining: left, spent })
        .from(companies)
        .where(where)
        .orderBy(companies.path)
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(companies).where(where),
    ]);
    return {
      rows: rows.map((r) => ({ ...r, remaining: Number(r.remaining), spent: Number(r.spent) })),
      total: total?.n ?? 0,
    };
  },

  /** The company's users, who are told when its resources run low. */
  async usersOf(db: Db, companyId: number) {
    const rows = await db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId));
    return rows.map((r) => r.id);
  },
};

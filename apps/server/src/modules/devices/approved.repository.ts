import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { approvedDevices } from '#src/db/schema/devices';
import type { ListQuery } from '#src/http/list-query';

const t = approvedDevices;

type ApprovedField =
  | 'id'
  | 'serial'
  | 'mac'
  | 'company_id'
  | 'company_name'
  | 'note'
  | 'created_at'
  | 'registered_at'
  | 'device_id';

/** Sort and search of the approved-devices table (product §5 table rules). */
const approvedListSpec: ListSpec<ApprovedField> = {
  columns: {
    id: t.id,
    serial: t.serial,
    mac: t.mac,
    company_id: t.companyId,
    company_name: companies.name,
    note: t.note,
    created_at: t.createdAt,
    registered_at: t.registeredAt,
    device_id: t.deviceId,
  },
  sortable: ['serial', 'mac', 'company_name', 'created_at', 'registered_at'],
  searchable: ['serial', 'mac', 'company_name', 'note'],
  defaultSearch: ['serial', 'mac', 'company_name', 'note'],
  // Newest approvals first, as the list has always shown them.
  defaultSort: '-created_at',
  idColumn: t.id,
};

/** Only this file reads and writes the approved-devices list (route auth.devices). */
export const approvedRepository = {
  async list(db: Db, query: ListQuery) {
    const plan = listPlan(approvedListSpec, query);
    const [rows, [total]] = await Promise.all([
      db
        .select(approvedListSpec.columns)
        .from(t)
        .leftJoin(companies, eq(companies.id, t.companyId))
        .where(plan.search)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(t).leftJoin(companies, eq(companies.id, t.companyId)).where(plan.search),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /** Adds an approval; undefined when the serial is listed already. */
  async insert(
    db: Db,
    v: { serial: string; mac: string; companyId: number | null; note: string; createdBy: number },
  ) {
    const [row] = await db.insert(t).values(v).onConflictDoNothing({ target: t.serial }).returning();
    return row;
  },

  async remove(db: Db, id: number) {
    const [row] = await db.delete(t).where(eq(t.id, id)).returning({ id: t.id });
    return row;
  },

  /** An approval not yet used, for a device connecting with an unknown serial. */
  async openForSerial(db: Db, serial: string) {
    const [row] = await db
      .select()
      .from(t)
      .where(and(eq(t.serial, serial), isNull(t.registeredAt)))
      .limit(1);
    return row;
  },

  /** Approvals not yet used among `serials`: each serial belongs to its approved company. */
  async openForSerials(db: Db, serials: string[]) {
    if (serials.length === 0) return [];
    return db
      .select({ id: t.id, serial: t.serial, mac: t.mac, companyId: t.companyId })
      .from(t)
      .where(and(inArray(t.serial, serials), isNull(t.registeredAt)));
  },

  async markRegistered(db: Db, id: number, deviceId: number) {
    await db.update(t).set({ registeredAt: new Date(), deviceId }).where(eq(t.id, id));
  },
};

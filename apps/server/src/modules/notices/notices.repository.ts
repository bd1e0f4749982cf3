import type { NoticeStatus, NoticeType } from '@fleetgate/shared/schemas/notices';
import { and, count, desc, eq, gt, isNotNull, isNull, lte, type SQL } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { allOf, listPlan } from '#src/db/list-sql';
import { notices } from '#src/db/schema/notifications';
import type { ListQuery } from '#src/http/list-query';

export type NoticeRow = typeof notices.$inferSelect;

const listSpec = {
  columns: {
    id: notices.id,
    type: notices.type,
    message: notices.message,
    enabled_at: notices.enabledAt,
    created_at: notices.createdAt,
    updated_at: notices.updatedAt,
  },
  sortable: ['id', 'type', 'enabled_at', 'created_at', 'updated_at'] as const,
  searchable: ['message', 'type'] as const,
  defaultSearch: ['message'] as const,
  defaultSort: '-created_at',
  idColumn: notices.id,
};

function statusFilter(status: NoticeStatus | undefined, now: Date): SQL | undefined {
  if (status === 'disabled') return isNull(notices.enabledAt);
  if (status === 'scheduled') return gt(notices.enabledAt, now);
  if (status === 'enabled') return and(isNotNull(notices.enabledAt), lte(notices.enabledAt, now));
  return undefined;
}

/** Global notices are system-wide (product §3): no company scope, the route permission gates them. */
export const noticesRepository = {
  /** Enabled notices (enabled_at reached), newest first (product §4 Global notice alert). */
  active(db: Db, now: Date, limit: number) {
    return db
      .select()
      .from(notices)
      .where(and(isNotNull(notices.enabledAt), lte(notices.enabledAt, now)))
      .orderBy(desc(notices.enabledAt), desc(notices.id))
      .limit(limit);
  },

  async list(
    db: Db,
    query: ListQuery,
    filters: { status?: NoticeStatus; type?: NoticeType },
    now: Date,
  ): Promise<{ rows: NoticeRow[]; total: number }> {
    const plan = listPlan(listSpec, query);
    const where = allOf(
      plan.search,
      statusFilter(filters.status, now),
      filters.type ? eq(notices.type, filters.type) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(notices)
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(notices).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async find(db: Db, id: number): Promise<NoticeRow | undefined> {
    const [row] = await db.select().from(notices).where(eq(notices.id, id)).limit(1);
    return row;
  },

  async insert(
    db: Db,
    values: { type: NoticeType; message: string; enabledAt: Date | null; createdBy: number },
  ): Promise<NoticeRow> {
    const [row] = await db.insert(notices).values(values).returning();
    return row!;
  },

  async update(
    db: Db,
    id: number,
    values: Partial<{ type: NoticeType; message: string; enabledAt: Date | null }>,
  ): Promise<NoticeRow | undefined> {
    const [row] = await db
      .update(notices)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(notices.id, id))
      .returning();
    return row;
  },

  async remove(db: Db, id: number): Promise<NoticeRow | undefined> {
    const [row] = await db.delete(notices).where(eq(notices.id, id)).returning();
    return row;
  },
};

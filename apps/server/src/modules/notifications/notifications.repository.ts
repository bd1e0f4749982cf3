import { and, count, desc, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { companies } from '#src/db/schema/companies';
import { notifications } from '#src/db/schema/notifications';
import { users } from '#src/db/schema/users';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = Pick<typeof notifications.$inferInsert, 'userId' | 'type' | 'summary' | 'data'>;

/** Rows per INSERT when a message goes to a large company tree. */
const INSERT_CHUNK = 1000;

/** Only this file reads and writes the notifications table. */
export const notificationsRepository = {
  async insertMany(db: Db, rows: readonly NewNotification[]): Promise<NotificationRow[]> {
    const stored: NotificationRow[] = [];
    await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        stored.push(
          ...(await tx
            .insert(notifications)
            .values(rows.slice(i, i + INSERT_CHUNK))
            // A notification sent once per key: a second sending stores nothing.
            .onConflictDoNothing()
            .returning()),
        );
      }
    });
    return stored;
  },

  /** One user's notifications, newest first, with their total and unseen counts. */
  async page(db: Db, userId: number, limit: number, offset: number) {
    const [rows, [counts]] = await Promise.all([
      db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(limit)
        .offset(offset),
      db
        .select({
          total: count(),
          unseen: sql<number>`count(*) filter (where ${notifications.seenAt} is null)`.mapWith(Number),
        })
        .from(notifications)
        .where(eq(notifications.userId, userId)),
    ]);
    return { rows, total: counts?.total ?? 0, unseen: counts?.unseen ?? 0 };
  },

  /** Marks seen those of `ids` that belong to the user and are unseen; answers how many. */
  async markSeen(db: Db, userId: number, ids: readonly number[], now: Date): Promise<number> {
    const updated = await db
      .update(notifications)
      .set({ seenAt: now })
      .where(
        and(
          eq(notifications.userId, userId),
          inArray(notifications.id, [...ids]),
          isNull(notifications.seenAt),
        ),
      )
      .returning({ id: notifications.id });
    return updated.length;
  },

  /** Ids of every user of the company and the companies under it. */
  async userIdsInSubtree(db: Db, companyPath: string): Promise<number[]> {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(like(companies.path, `${companyPath}%`))
      .orderBy(users.id);
    return rows.map((r) => r.id);
  },

  /** The materialised path of a company ('/1/5/'), or undefined. */
  async companyPath(db: Db, companyId: number): Promise<string | undefined> {
    const [row] = await db
      .select({ path: companies.path })
      .from(companies)
      .where(eq(companies.id, companyId))
      .limit(1);
    return row?.path;
  },

  /** Those of `ids` that are users. */
  async existingUserIds(db: Db, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, [...ids]));
    return rows.map((r) => r.id);
  },
};

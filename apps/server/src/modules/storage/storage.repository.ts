import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { userStorage } from '#src/db/schema/storage';

export const storageRepository = {
  async page(db: Db, userId: number, limit: number, offset: number) {
    const [rows, [total]] = await Promise.all([
      db
        .select({ key: userStorage.key, value: userStorage.value })
        .from(userStorage)
        .where(eq(userStorage.userId, userId))
        .orderBy(asc(userStorage.key))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(userStorage).where(eq(userStorage.userId, userId)),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async count(db: Db, userId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(userStorage).where(eq(userStorage.userId, userId));
    return row?.n ?? 0;
  },

  async exists(db: Db, userId: number, key: string): Promise<boolean> {
    const [row] = await db
      .select({ key: userStorage.key })
      .from(userStorage)
      .where(and(eq(userStorage.userId, userId), eq(userStorage.key, key)))
      .limit(1);
    return row !== undefined;
  },

  async upsert(db: Db, userId: number, key: string, value: unknown): Promise<void> {
    const now = new Date();
    await db
      .insert(userStorage)
      .values({ userId, key, value, updatedAt: now })
      .onConflictDoUpdate({ target: [userStorage.userId, userStorage.key], set: { value, updatedAt: now } });
  },

  async remove(db: Db, userId: number, key: string): Promise<boolean> {
    const deleted = await db
      .delete(userStorage)
      .where(and(eq(userStorage.userId, userId), eq(userStorage.key, key)))
      .returning({ key: userStorage.key });
    return deleted.length > 0;
  },
};

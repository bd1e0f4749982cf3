import { eq } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { settings } from '#src/db/schema/settings';

export const settingsRepository = {
  async get(db: Db, key: string): Promise<unknown> {
    const [row] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, key))
      .limit(1);
    return row?.value;
  },

  async put(db: Db, key: string, value: unknown): Promise<void> {
    const now = new Date();
    await db
      .insert(settings)
      .values({ key, value, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
  },
};

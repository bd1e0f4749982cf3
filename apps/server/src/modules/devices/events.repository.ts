import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { deviceEvents } from '#src/db/schema/devices';

export type DeviceEventInput = typeof deviceEvents.$inferInsert;

/** Only this file reads and writes device events. */
export const eventsRepository = {
  async insert(db: Db, event: DeviceEventInput) {
    const [row] = await db.insert(deviceEvents).values(event).returning();
    return row!;
  },

  async listForDevice(db: Db, deviceId: number, page: { limit: number; offset: number }) {
    const where = eq(deviceEvents.deviceId, deviceId);
    const [rows, [total]] = await Promise.all([
      db
        .select({
          id: deviceEvents.id,
          at: deviceEvents.at,
          type: deviceEvents.type,
          severity: deviceEvents.severity,
          message: deviceEvents.message,
          data: deviceEvents.data,
        })
        .from(deviceEvents)
        .where(where)
        .orderBy(desc(deviceEvents.at), desc(deviceEvents.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(deviceEvents).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },
};

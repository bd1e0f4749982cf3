import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { devices } from '#src/db/schema/devices';

const serviceColumns = {
  id: devices.id,
  serial: devices.serial,
  companyId: devices.companyId,
  active: devices.creditActive,
  serviceUntil: devices.serviceUntil,
  serviceTypeId: devices.serviceTypeId,
  autoRenew: devices.autoRenew,
};

/**
 * A device's service: its period, what paid for it, and whether it renews. The devices
 * module owns the rest of the row; this file writes only these columns and `credit_active`.
 */
export const deviceServicesRepository = {
  async find(db: Db, id: number) {
    const [row] = await db.select(serviceColumns).from(devices).where(eq(devices.id, id));
    return row;
  },

  /** Adds days to the service from its end, or from `now` when it has ended, and switches it on. */
  async extend(tx: Db, id: number, days: number, typeId: number, now: Date) {
    const [row] = await tx
      .update(devices)
      .set({
        serviceUntil: sql`greatest(coalesce(${devices.serviceUntil}, ${now}), ${now}::timestamptz) + make_interval(days => ${days})`,
        serviceTypeId: typeId,
        creditActive: true,
      })
      .where(eq(devices.id, id))
      .returning(serviceColumns);
    return row!;
  },

  async setAutoRenew(tx: Db, id: number, autoRenew: boolean) {
    await tx.update(devices).set({ autoRenew }).where(eq(devices.id, id));
  },

  /** Devices whose service is on but whose period ended before `now`, oldest first. */
  due(db: Db, now: Date, limit: number) {
    return db
      .select(serviceColumns)
      .from(devices)
      .where(and(eq(devices.creditActive, true), lt(devices.serviceUntil, now)))
      .orderBy(asc(devices.serviceUntil))
      .limit(limit);
  },

  /** Ends the service now: its remaining days went to another device. */
  async endNow(tx: Db, id: number, now: Date) {
    await tx.update(devices).set({ serviceUntil: now, creditActive: false }).where(eq(devices.id, id));
  },

  /** Switches the service off if it is still on and still ended (a renewal in between wins). */
  async switchOff(tx: Db, id: number, now: Date) {
    const [row] = await tx
      .update(devices)
      .set({ creditActive: false })
      .where(and(eq(devices.id, id), eq(devices.creditActive, true), lt(devices.serviceUntil, now)))
      .returning(serviceColumns);
    return row;
  },
};

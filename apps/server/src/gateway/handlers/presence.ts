import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { and, eq, isNull, or } from 'drizzle-orm';
import { devices } from '../../db/schema/devices';
import type { DeviceIdentity } from '../../modules/devices/devices.repository';
import type { GatewayContext } from '../context';
import { notifyStatus } from '../notify';

/** The device is connected: status 1 (spec §4), the session remembered, the change pushed. */
export async function markOnline(
  ctx: GatewayContext,
  device: DeviceIdentity,
  conn: string | null,
): Promise<void> {
  const now = new Date();
  const [before] = await ctx.db
    .select({ status: devices.status })
    .from(devices)
    .where(eq(devices.id, device.id))
    .limit(1);
  if (!before) return;
  const [row] = await ctx.db
    .update(devices)
    .set({ status: DEVICE_STATUS.online, connectedAt: now, lastSeenAt: now, sessionId: conn, updatedAt: now })
    .where(eq(devices.id, device.id))
    .returning();
  if (!row || before.status === DEVICE_STATUS.online) return;
  await ctx.recordEvent(device, { type: 'connection.online', message: 'Device connected', at: now });
  notifyStatus(ctx.notify, row);
}

/**
 * The device went away. A late last will of an older session (another `conn`) is
 * ignored, and so is any offline report while this server holds a live session.
 */
export async function markOffline(
  ctx: GatewayContext,
  device: DeviceIdentity,
  conn: string | null,
  reason: string,
): Promise<void> {
  if (ctx.connected(device.serial) === true) return;
  const now = new Date();
  const [row] = await ctx.db
    .update(devices)
    .set({ status: DEVICE_STATUS.offline, updatedAt: now })
    .where(
      and(
        eq(devices.id, device.id),
        eq(devices.status, DEVICE_STATUS.online),
        conn ? or(isNull(devices.sessionId), eq(devices.sessionId, conn)) : undefined,
      ),
    )
    .returning();
  if (!row) return;
  await ctx.recordEvent(device, {
    type: 'connection.offline',
    message: `Device disconnected (${reason})`,
    at: now,
  });
  notifyStatus(ctx.notify, row);
}

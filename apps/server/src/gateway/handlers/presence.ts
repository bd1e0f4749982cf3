import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import type { GatewayContext, PresenceTurns } from '../context';
import { notifyStatus } from '../notify';
import type { DeviceIdentity } from '../ports';

/**
 * Presence changes of one serial, one at a time in the order they are asked for. Each
 * looks at the broker's view when its turn comes, not when its message arrived: an
 * 'online' whose handling began before the connection ended cannot land after the
 * change the end made (docs/device-protocol.md §4.2).
 */
export function presenceTurns(): PresenceTurns {
  const last = new Map<string, Promise<void>>();
  return (serial, change) => {
    const run = (last.get(serial) ?? Promise.resolve()).then(change);
    const settled = run.catch(() => {});
    last.set(serial, settled);
    void settled.then(() => {
      if (last.get(serial) === settled) last.delete(serial);
    });
    return run;
  };
}

/**
 * The device is connected: status 1 (product §4), the session remembered, the change pushed.
 * `conn` is the connection id of the device's own status message, null when the broker
 * reported the connection (embedded broker); `replayed` when that message is a retained
 * one the broker handed to a server that just subscribed.
 */
export function markOnline(
  ctx: GatewayContext,
  device: DeviceIdentity,
  conn: string | null,
  { replayed = false } = {},
): Promise<void> {
  return ctx.presenceTurn(device.serial, async () => {
    // Embedded broker: whatever the device said, it is online only while connected.
    if (ctx.connected(device.serial) === false) return;
    const now = new Date();
    const before = await ctx.store.presence.presenceOf(device.id);
    if (!before) return;
    // External broker: a connection whose end was seen stays ended. Its retained 'online'
    // comes again whenever a server (re)subscribes, long after an offline not retained.
    const seenEnding = before.status === DEVICE_STATUS.offline && conn !== null && before.sessionId === conn;
    if (replayed && seenEnding) return;
    const row = await ctx.store.presence.markOnline(device.id, conn, now);
    if (!row || before.status === DEVICE_STATUS.online) return;
    await ctx.recordEvent(device, { type: 'connection.online', message: 'Device connected', at: now });
    notifyStatus(ctx.notify, row);
  });
}

/**
 * The device went away. Nothing changes while this server's broker holds a live connection
 * of the device (a newer one replaced the connection that ended). An offline status the
 * device or its will sent names its connection (`conn`): one of an older connection than
 * the last 'online' (a late will) is ignored; the embedded broker reports every end itself.
 */
export function markOffline(
  ctx: GatewayContext,
  device: DeviceIdentity,
  conn: string | null,
  reason: string,
): Promise<void> {
  return ctx.presenceTurn(device.serial, async () => {
    if (ctx.connected(device.serial) === true) return;
    const now = new Date();
    const row = await ctx.store.presence.markOffline(device.id, conn, now);
    if (!row) return;
    await ctx.recordEvent(device, {
      type: 'connection.offline',
      message: `Device disconnected (${reason})`,
      at: now,
    });
    notifyStatus(ctx.notify, row);
  });
}

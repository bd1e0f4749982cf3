import { type DeviceAction, FINAL_COMMAND_STATES } from '@fleetgate/shared/devices/actions';
import {
  DEVICE_REALTIME_EVENTS,
  type DeviceRealtimeEventMap,
  deviceChannels,
} from '@fleetgate/shared/devices/events';
import type { FastifyInstance } from 'fastify';
import type { DeviceCommand } from './ports';

/** Publishes one typed device event on a realtime channel. */
export type Notify = <E extends keyof DeviceRealtimeEventMap>(
  channel: string,
  event: E,
  payload: DeviceRealtimeEventMap[E],
) => void;

type RealtimePublisher = { publish(channel: string, event: string, payload: unknown): unknown };

/**
 * Sends device events through the server's realtime layer (`app.realtime.publish`), found
 * at call time so the gateway works whether or not realtime is registered (API tests).
 */
export function realtimeNotifier(app: FastifyInstance): Notify {
  return (channel, event, payload) => {
    const realtime = (app as unknown as { realtime?: RealtimePublisher }).realtime;
    try {
      void realtime?.publish(channel, event, payload);
    } catch (error) {
      app.log.warn({ err: error, channel, event }, 'realtime publish failed');
    }
  };
}

/**
 * Listeners of what the gateway reports, server-side (the bell's notices, the demo): each
 * event once, though it goes out on two channels.
 */
export type DeviceTaps = {
  /**
   * A command of the batch reached a final state (done, failed, cancelled, expired), with
   * the update that says so (status, output, error).
   */
  commandEnded: Set<(batchId: string, update?: DeviceRealtimeEventMap['DeviceActionUpdated']) => void>;
  /** A device's status changed (first publish only: its company's channel). */
  statusChanged: Set<(change: DeviceRealtimeEventMap['DeviceStatusChanged']) => void>;
};

export const deviceTaps = (): DeviceTaps => ({ commandEnded: new Set(), statusChanged: new Set() });

/** `notify`, telling the taps too. */
export function tapped(notify: Notify, taps: DeviceTaps): Notify {
  return (channel, event, payload) => {
    notify(channel, event, payload);
    if (event === DEVICE_REALTIME_EVENTS.actionUpdated) {
      const update = payload as DeviceRealtimeEventMap['DeviceActionUpdated'];
      if (
        channel === deviceChannels.action(update.batch_id) &&
        FINAL_COMMAND_STATES.includes(update.status)
      ) {
        for (const tap of taps.commandEnded) tap(update.batch_id, update);
      }
    } else if (event === DEVICE_REALTIME_EVENTS.statusChanged) {
      const change = payload as DeviceRealtimeEventMap['DeviceStatusChanged'];
      if (channel === deviceChannels.company(change.company_id))
        for (const tap of taps.statusChanged) tap(change);
    }
  };
}

/** A command changed state: its action channel (product §4 'Action status') and its device's. */
export function notifyCommand(notify: Notify, row: DeviceCommand): void {
  const payload = {
    batch_id: row.batchId,
    command_id: row.id,
    device_id: row.deviceId,
    action: row.action as DeviceAction,
    status: row.status as DeviceRealtimeEventMap['DeviceActionUpdated']['status'],
    output: row.output,
    error: row.error,
    at: new Date().toISOString(),
  };
  notify(deviceChannels.action(row.batchId), DEVICE_REALTIME_EVENTS.actionUpdated, payload);
  notify(deviceChannels.device(row.deviceId), DEVICE_REALTIME_EVENTS.actionUpdated, payload);
}

/** A device's status or identity changed: its company's channel (devices table) and its own. */
export function notifyStatus(
  notify: Notify,
  d: {
    id: number;
    companyId: number;
    status: number;
    lastSeenAt: Date | null;
    model?: string | null;
    firmware?: string | null;
  },
): void {
  const payload = {
    device_id: d.id,
    company_id: d.companyId,
    status: d.status,
    last_seen_at: d.lastSeenAt ? d.lastSeenAt.toISOString() : null,
    ...(d.model !== undefined ? { model: d.model } : {}),
    ...(d.firmware !== undefined ? { firmware: d.firmware } : {}),
  };
  notify(deviceChannels.company(d.companyId), DEVICE_REALTIME_EVENTS.statusChanged, payload);
  notify(deviceChannels.device(d.id), DEVICE_REALTIME_EVENTS.statusChanged, payload);
}

import type { CommandState, DeviceAction } from './actions';

/**
 * Realtime events the device side publishes to browsers (through the server's realtime
 * layer). Channels are strings; who may subscribe to which is the realtime layer's rule:
 * an action channel belongs to the user who started the action, a company channel to the
 * users who reach that company, a device channel to the users who reach the device.
 */
export const DEVICE_REALTIME_EVENTS = {
  /** A command changed state (product §4 'Action status' dialog). */
  actionUpdated: 'DeviceActionUpdated',
  /** A device went online or offline, or changed identity (model, firmware). */
  statusChanged: 'DeviceStatusChanged',
  /** New telemetry for one device (device page charts). */
  telemetry: 'DeviceTelemetry',
  /** The device reported an event, or the gateway recorded one (activity tab). */
  event: 'DeviceEventRecorded',
} as const;

export const deviceChannels = {
  /**
   * The channel returned as `meta.channel` by a mutation that starts device work: the
   * `action.{id}` shape of the realtime layer (`actionChannel` in ../events.ts).
   */
  action: (batchId: string) => `action.${batchId}`,
  /** Status changes of every device of a company (devices table). */
  company: (companyId: number) => `private-company-devices.${companyId}`,
  /** Everything about one device (device page). */
  device: (deviceId: number) => `private-device.${deviceId}`,
} as const;

export type DeviceActionUpdate = {
  batch_id: string;
  command_id: string;
  device_id: number;
  action: DeviceAction;
  status: CommandState;
  output?: string | null;
  error?: string | null;
  at: string;
};

export type DeviceStatusChange = {
  device_id: number;
  company_id: number;
  status: number;
  last_seen_at: string | null;
  model?: string | null;
  firmware?: string | null;
};

export type DeviceTelemetryPush = {
  device_id: number;
  at: string;
  signal?: number | null;
  temperature?: number | null;
  rx_bytes?: number | null;
  tx_bytes?: number | null;
  lat?: number | null;
  lon?: number | null;
};

export type DeviceEventPush = {
  device_id: number;
  id: number;
  at: string;
  type: string;
  severity: string;
  message: string;
};

/** Event name → payload, for typed emitters and handlers. */
export type DeviceRealtimeEventMap = {
  DeviceActionUpdated: DeviceActionUpdate;
  DeviceStatusChanged: DeviceStatusChange;
  DeviceTelemetry: DeviceTelemetryPush;
  DeviceEventRecorded: DeviceEventPush;
};

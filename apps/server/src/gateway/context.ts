import type { FastifyBaseLogger } from 'fastify';
import type { CommandDispatcher } from './command-dispatcher';
import type { Notify } from './notify';
import type { DeviceIdentity, DeviceStore } from './ports';
import type { TelemetryWriter } from './telemetry-writer';

/** Publishes to a device topic (QoS 1, never retained). */
export type DevicePublisher = (topic: string, payload: string) => Promise<void>;

/** Runs a presence change of a serial after the earlier ones of that serial have finished. */
export type PresenceTurns = (serial: string, change: () => Promise<void>) => Promise<void>;

/** What every message handler gets. */
export type GatewayContext = {
  /** The devices module's side (ports.ts): the only way to the database. */
  store: DeviceStore;
  log: FastifyBaseLogger;
  notify: Notify;
  telemetry: TelemetryWriter;
  commands: CommandDispatcher;
  publish: DevicePublisher;
  /**
   * Whether a session of this serial is connected to this server's broker right now;
   * undefined when the broker is external and only status messages tell.
   */
  connected: (serial: string) => boolean | undefined;
  /** Presence changes of a device run one at a time (handlers/presence.ts). */
  presenceTurn: PresenceTurns;
  /** Records a device event and pushes it to the device's channel. */
  recordEvent: (
    device: Pick<DeviceIdentity, 'id' | 'companyId'>,
    event: { type: string; severity?: string; message: string; data?: Record<string, unknown>; at?: Date },
  ) => Promise<void>;
};

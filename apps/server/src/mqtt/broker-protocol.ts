import type { DeviceSession } from '../gateway/access-table';

/**
 * The messages between the server's thread and the broker's thread (broker-thread.ts).
 * A connection is named by a number the broker's thread gives it; devices' messages travel
 * in batches, their payloads in one transferred buffer.
 */

export type ToBroker =
  | { t: 'start'; port: number; host: string; maxFrame: number }
  /** The answer to an `auth` question. */
  | { t: 'auth'; id: number; session?: DeviceSession; refused?: { reason: string; returnCode: number } }
  /** A QoS 1 message of an `up` batch the gateway has handled (the device's next one may come). */
  | { t: 'handled'; id: number }
  /** Telemetry waits (QoS 0 publishes are acknowledged to the broker only after `release`). */
  | { t: 'hold' }
  | { t: 'release' }
  | { t: 'publish'; id: number; topic: string; payload: string; qos: 0 | 1; retain: boolean }
  | { t: 'disconnect'; serial: string }
  /** An MQTT-over-WebSocket connection the HTTP server accepted, and its bytes. */
  | { t: 'wsOpen'; conn: number; address: string | undefined }
  | { t: 'wsData'; conn: number; chunk: Uint8Array }
  | { t: 'wsEnd'; conn: number }
  | { t: 'close' };

export type FromBroker =
  | { t: 'listening'; port: number }
  | { t: 'failed'; message: string; code: string | undefined }
  | {
      t: 'auth';
      id: number;
      clientId: string;
      username: string | undefined;
      password: string | undefined;
      ws: boolean;
      address: string | undefined;
    }
  /** A device's connection is ready (its session), or ended. */
  | { t: 'ready'; conn: number; session: DeviceSession }
  | { t: 'ended'; conn: number; serial: string }
  /**
   * Devices' messages, in the order the broker took them: `acks[i]` is 0 for a QoS 0 message,
   * else the id to answer in `handled`; payload i is `bytes[ends[i-1] .. ends[i]]`.
   */
  | { t: 'up'; topics: string[]; acks: number[]; bytes: Uint8Array; ends: Uint32Array }
  | { t: 'published'; id: number; error?: string }
  | { t: 'refused'; op: 'publish' | 'subscribe'; serial: string | undefined; topic: string; reason: string }
  | { t: 'log'; level: 'debug' | 'warn' | 'error'; clientId: string | undefined; message: string }
  | { t: 'wsWrite'; conn: number; chunk: Uint8Array }
  | { t: 'wsClose'; conn: number }
  /** The broker has more of a WebSocket's bytes than it has read: stop reading it, until resumed. */
  | { t: 'wsPause'; conn: number }
  | { t: 'wsResume'; conn: number }
  | { t: 'closed' };

/**
 * What the device gateway hears of the broker (broker.ts answers the rest itself): the
 * thread's reports, and `stopped` when the thread ended unexpectedly, taking every
 * connection with it (it is started again).
 */
export type BrokerReport =
  | Exclude<FromBroker, { t: 'listening' | 'failed' | 'published' | 'closed' }>
  | { t: 'stopped'; error: string };

/** One handler per message kind (CONVENTIONS: typed maps, not one long switch). */
export type HandlerMap<M extends { t: string }> = { [K in M['t']]: (message: Extract<M, { t: K }>) => void };

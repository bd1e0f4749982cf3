import { DEVICE_REALTIME_EVENTS, deviceChannels } from '@fleetgate/shared/devices/events';
import type { StateMessage } from '@fleetgate/shared/devices/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import type { DeviceIdentity } from '../modules/devices/devices.repository';
import {
  type StateRow,
  type TelemetryRow,
  telemetryRepository,
} from '../modules/devices/telemetry.repository';
import type { Notify } from './notify';

export type TelemetryWriterOptions = {
  /** Flush at least this often (ms). */
  flushMs?: number;
  /** Flush as soon as this many points wait. */
  maxBatch?: number;
  /** Points kept while the database is unreachable; older ones are dropped beyond it. */
  maxBuffered?: number;
  /** Points waiting for a write above which transports hold connections (`room`). */
  highWater?: number;
  /** The longest a connection is held for room (ms): keep-alives must still get through. */
  maxHoldMs?: number;
  /** Points written per transaction at most. */
  maxWrite?: number;
};

/** A device clock further off than this is not trusted; the receive time is used instead. */
const MAX_CLOCK_SKEW_MS = 24 * 3600_000;

export function messageTime(at: string | number | undefined, received: Date): Date {
  if (at === undefined) return received;
  const t = typeof at === 'number' ? (at < 1e12 ? at * 1000 : at) : Date.parse(at);
  return Number.isFinite(t) && Math.abs(t - received.getTime()) <= MAX_CLOCK_SKEW_MS ? new Date(t) : received;
}

const stateRow = ({ row, message }: { row: TelemetryRow; message: StateMessage }): StateRow => ({
  ...row,
  operator: message.operator ?? null,
  networkType: message.network_type ?? null,
  wanType: message.wan?.type ?? null,
  wanIp: message.wan?.ip ?? null,
});

/**
 * Telemetry is written in batches (issue 5 §2): points collect in memory and go to the
 * database in one transaction every `flushMs` or every `maxBatch` points, whichever
 * comes first. A server crash loses at most one interval of telemetry (QoS 0 semantics);
 * commands, replies and events are written before they are acknowledged.
 */
export class TelemetryWriter {
  private points: TelemetryRow[] = [];
  /** Each device's newest point and message: its last state, built when written. */
  private latest = new Map<number, { row: TelemetryRow; message: StateMessage }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private readonly maxBuffered: number;
  private readonly highWater: number;
  private readonly maxHoldMs: number;
  private readonly maxWrite: number;
  private queued = false;
  private failing = false;
  private waiting: { promise: Promise<void>; release: () => void } | undefined;
  written = 0;
  dropped = 0;
  /** Times a transport was asked to hold its connections (backpressure). */
  held = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly notify: Notify,
    options: TelemetryWriterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1000;
    this.maxBatch = options.maxBatch ?? 2000;
    this.maxBuffered = options.maxBuffered ?? 100_000;
    this.highWater = options.highWater ?? this.maxBatch * 2;
    // Well inside a device's keep-alive (60 s in apps/device-sim).
    this.maxHoldMs = options.maxHoldMs ?? 10_000;
    this.maxWrite = options.maxWrite ?? this.maxBatch * 2;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  add(device: Pick<DeviceIdentity, 'id'>, state: StateMessage, received = new Date()): void {
    const at = messageTime(state.at, received);
    const row = {
      deviceId: device.id,
      at,
      signal: state.signal ?? null,
      temperature: state.temperature ?? null,
      uptime: state.uptime ?? null,
      rxBytes: state.data?.rx ?? null,
      txBytes: state.data?.tx ?? null,
      lat: state.gps?.lat ?? null,
      lon: state.gps?.lon ?? null,
      payload: state as Record<string, unknown>,
    };
    this.points.push(row);
    if (this.points.length > this.maxBuffered) {
      // The oldest tenth goes at once: one splice instead of a shift per point, which
      // costs a copy of the whole buffer each time (bench/ingest.ts, PostgreSQL burst).
      const excess = this.points.length - Math.floor(this.maxBuffered * 0.9);
      this.points.splice(0, excess);
      this.dropped += excess;
    }
    const previous = this.latest.get(device.id);
    if (!previous || (previous.row.at as Date) <= at) this.latest.set(device.id, { row, message: state });
    if (this.points.length >= this.maxBatch) void this.flush();
  }

  /**
   * Backpressure (issue 5 §2, bench/ingest.ts): undefined while there is room, else a
   * promise that resolves when the next write takes the waiting points. Transports then
   * hold the connection's next message, TCP slows the devices down, and a burst is written
   * instead of shed. Never while writes fail (a database outage sheds, as before), and
   * never longer than `maxHoldMs`, so keep-alives still get through.
   */
  room(): Promise<void> | undefined {
    if (this.points.length < this.highWater || this.failing) return undefined;
    if (!this.waiting) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      const timer = setTimeout(() => this.release(), this.maxHoldMs);
      timer.unref();
      this.waiting = {
        promise,
        release: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.held++;
      void this.flush();
    }
    return this.waiting.promise;
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.release();
  }

  /** Writes what is waiting; calls made while a write is queued share it. */
  flush(): Promise<void> {
    if (!this.queued) {
      this.queued = true;
      this.flushing = this.flushing.then(async () => {
        // One turn of the event loop between writes: with PGlite a write holds the thread,
        // and timers, HTTP and keep-alives must get their turn in a burst (bench/ingest.ts).
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.queued = false;
        return this.write();
      });
    }
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.points.length === 0) return;
    // At most `maxWrite` points per transaction: a PGlite write holds the thread for its
    // whole length, so a backlog goes in several writes with the event loop's turns between.
    const points = this.points.length > this.maxWrite ? this.points.splice(0, this.maxWrite) : this.points;
    if (points === this.points) this.points = [];
    else void this.flush();
    const states = [...this.latest.values()].map(stateRow);
    this.latest = new Map();
    // Held connections may send more once the points left waiting are below the mark.
    if (this.points.length < this.highWater) this.release();
    try {
      await telemetryRepository.writeBatch(this.db, points, states);
      this.written += points.length;
      this.failing = false;
    } catch (error) {
      this.failing = true;
      this.release();
      // A device unregistered meanwhile fails its state's foreign key: retry device by device once.
      this.log.warn(
        { err: error, points: points.length },
        'telemetry batch failed; retrying device by device',
      );
      const byDevice = new Map<number, TelemetryRow[]>();
      for (const p of points) {
        const own = byDevice.get(p.deviceId);
        if (own) own.push(p);
        else byDevice.set(p.deviceId, [p]);
      }
      const stateOf = new Map(states.map((s) => [s.deviceId, s]));
      for (const [deviceId, own] of byDevice) {
        const state = stateOf.get(deviceId);
        try {
          await telemetryRepository.writeBatch(this.db, own, state ? [state] : []);
          this.written += own.length;
        } catch {
          this.dropped += own.length;
        }
      }
      return;
    }
    for (const s of states) {
      this.notify(deviceChannels.device(s.deviceId), DEVICE_REALTIME_EVENTS.telemetry, {
        device_id: s.deviceId,
        at: (s.at as Date).toISOString(),
        signal: s.signal ?? null,
        temperature: s.temperature ?? null,
        rx_bytes: s.rxBytes ?? null,
        tx_bytes: s.txBytes ?? null,
        lat: s.lat ?? null,
        lon: s.lon ?? null,
      });
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    this.release();
  }
}

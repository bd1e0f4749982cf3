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
};

/** A device clock further off than this is not trusted; the receive time is used instead. */
const MAX_CLOCK_SKEW_MS = 24 * 3600_000;

export function messageTime(at: string | number | undefined, received: Date): Date {
  if (at === undefined) return received;
  const t = typeof at === 'number' ? (at < 1e12 ? at * 1000 : at) : Date.parse(at);
  return Number.isFinite(t) && Math.abs(t - received.getTime()) <= MAX_CLOCK_SKEW_MS ? new Date(t) : received;
}

/**
 * Telemetry is written in batches (issue 5 §2): points collect in memory and go to the
 * database in one transaction every `flushMs` or every `maxBatch` points, whichever
 * comes first. A server crash loses at most one interval of telemetry (QoS 0 semantics);
 * commands, replies and events are written before they are acknowledged.
 */
export class TelemetryWriter {
  private points: TelemetryRow[] = [];
  private states = new Map<number, StateRow>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private readonly maxBuffered: number;
  written = 0;
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly notify: Notify,
    options: TelemetryWriterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1000;
    this.maxBatch = options.maxBatch ?? 2000;
    this.maxBuffered = options.maxBuffered ?? 100_000;
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
    const previous = this.states.get(device.id);
    if (!previous || (previous.at as Date) <= at) {
      this.states.set(device.id, {
        ...row,
        operator: state.operator ?? null,
        networkType: state.network_type ?? null,
        wanType: state.wan?.type ?? null,
        wanIp: state.wan?.ip ?? null,
      });
    }
    if (this.points.length >= this.maxBatch) void this.flush();
  }

  /** Writes what is waiting; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.points.length === 0) return;
    const points = this.points;
    const states = [...this.states.values()];
    this.points = [];
    this.states = new Map();
    try {
      await telemetryRepository.writeBatch(this.db, points, states);
      this.written += points.length;
    } catch (error) {
      // Devices unregistered meanwhile break the foreign key: retry without them once.
      this.log.warn({ err: error, points: points.length }, 'telemetry batch failed; retrying point by point');
      for (const state of states) {
        const own = points.filter((p) => p.deviceId === state.deviceId);
        try {
          await telemetryRepository.writeBatch(this.db, own, [state]);
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
  }
}

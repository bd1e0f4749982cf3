import { DEVICE_REALTIME_EVENTS, deviceChannels } from '@fleetgate/shared/devices/events';
import type { FastifyBaseLogger } from 'fastify';
import { splitByDevice } from '../db/telemetry-copy';
import type { Notify } from './notify';
import type { DeviceIdentity, TelemetryStore } from './ports';
import { type Prepare, TelemetryPreparer } from './telemetry-preparer';
import { type PreparedBatch, packReports } from './telemetry-reports';

export type TelemetryWriterOptions = {
  /** Flush at least this often (ms). */
  flushMs?: number;
  /** Cut a batch as soon as this many reports wait. */
  maxBatch?: number;
  /** Reports kept while the database is unreachable; older ones are dropped beyond it. */
  maxBuffered?: number;
  /** Reports waiting for a write above which transports hold connections (`room`). */
  highWater?: number;
  /** The longest a connection is held for room (ms): keep-alives must still get through. */
  maxHoldMs?: number;
  /** Reports per batch (one transaction) at most. */
  maxWrite?: number;
  /**
   * While more batches wait, the devices' last states are written at most this often (ms),
   * with the points of a later batch: a burst writes each device's state once a second,
   * not with every thousand points.
   */
  statesEveryMs?: number;
  /** Prepares a batch; by default on the telemetry worker's thread. */
  prepare?: Prepare;
  /**
   * Someone is waiting for an answer on this thread (http/foreground.ts): undefined, or a
   * promise to wait on before the next write.
   */
  yieldTo?: () => Promise<void> | undefined;
};

type Report = { device: DeviceIdentity; payload: Uint8Array; received: number };

/** Reports cut from the queue, in the worker or prepared, waiting for their write. */
type Batch = {
  size: number;
  /** The sequence number of its last report (flush waits for it). */
  last: number;
  /** Undefined when the batch could not be prepared (its points are counted as dropped). */
  prepared: Promise<PreparedBatch | undefined>;
};

/** Reports checked by the worker: how many became points, and whose were dropped. */
export type CheckedListener = (accepted: number, rejected: DeviceIdentity[]) => void;

/**
 * Telemetry is written in batches. Reports (`up/state` payloads, raw) queue in memory;
 * every `maxBatch` reports or every `flushMs` they are cut into a batch that the telemetry
 * worker parses, checks and encodes (telemetry-reports.ts), and the batches are written in
 * order, one transaction each (the store's `write`), while the worker prepares the next.
 * A server crash loses at most one interval of telemetry (QoS 0 semantics); commands,
 * replies and events are written before they are acknowledged.
 */
export class TelemetryWriter {
  private pending: Report[] = [];
  private batches: Batch[] = [];
  private preparing = false;
  private writing = false;
  /** Reports queued so far (sequence numbers), and the last one a flush asked to cut. */
  private added = 0;
  private flushUpTo = 0;
  private settled = 0;
  private flushes: { upTo: number; resolve: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private readonly maxBuffered: number;
  private readonly highWater: number;
  private readonly maxHoldMs: number;
  private readonly maxWrite: number;
  private readonly statesEveryMs: number;
  /** Each device's newest state not yet written (its time, its JSON), kept for a later write. */
  private keptStates = new Map<number, { at: string; json: string }>();
  private statesWrittenAt = Number.NEGATIVE_INFINITY;
  private readonly preparer: TelemetryPreparer | undefined;
  private readonly prepare: Prepare;
  private readonly yieldTo: () => Promise<void> | undefined;
  private checked: CheckedListener = () => undefined;
  private failing = false;
  private waiting: { promise: Promise<void>; release: () => void } | undefined;
  written = 0;
  /** Reports not written: shed while the database was down, malformed, or failed. */
  dropped = 0;
  /** Reports received so far (the bench's "gateway had every message"). */
  get received(): number {
    return this.added;
  }
  /** Times a transport was asked to hold its connections (backpressure). */
  held = 0;

  constructor(
    private readonly store: TelemetryStore,
    private readonly log: FastifyBaseLogger,
    private readonly notify: Notify,
    options: TelemetryWriterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1000;
    this.maxBatch = options.maxBatch ?? 2000;
    this.maxBuffered = options.maxBuffered ?? 100_000;
    this.highWater = options.highWater ?? this.maxBatch * 6;
    // Well inside a device's keep-alive (60 s in apps/device-sim).
    this.maxHoldMs = options.maxHoldMs ?? 10_000;
    this.maxWrite = options.maxWrite ?? this.maxBatch * 2;
    this.statesEveryMs = options.statesEveryMs ?? 1000;
    this.yieldTo = options.yieldTo ?? (() => undefined);
    if (options.prepare) this.prepare = options.prepare;
    else {
      this.preparer = new TelemetryPreparer(log);
      this.prepare = this.preparer.prepare;
    }
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Called with every batch the worker has checked (the inbound router's counts and drop events). */
  onChecked(listener: CheckedListener): void {
    this.checked = listener;
  }

  /** A report as received: parsed and checked later, in the worker. */
  report(device: DeviceIdentity, payload: Uint8Array, received = Date.now()): void {
    this.pending.push({ device, payload, received });
    this.added++;
    const excess = this.backlog() - this.maxBuffered;
    if (excess > 0) {
      // The oldest tenth waiting goes at once: one splice instead of a shift per report,
      // which costs a copy of the whole queue each time (bench/ingest.ts, PostgreSQL burst).
      const shed = Math.min(this.pending.length, excess + Math.floor(this.maxBuffered * 0.1));
      this.pending.splice(0, shed);
      this.dropped += shed;
    }
    if (this.pending.length >= this.maxBatch) this.pump();
  }

  /** Reports waiting: queued, or cut into batches not yet taken by a write. */
  private backlog(): number {
    let waiting = this.pending.length;
    for (const batch of this.batches) waiting += batch.size;
    return waiting;
  }

  /**
   * Backpressure (bench/ingest.ts): undefined while there is room, else a promise that
   * resolves when a write takes the waiting reports. Transports then hold the connection's
   * next message, TCP slows the devices down, and a burst is written instead of shed. Never
   * while writes fail (a database outage sheds, as before), and never longer than
   * `maxHoldMs`, so keep-alives still get through. (The devices' traffic does not wait for
   * the console: with operators at work all day it would wait most of the time.)
   */
  room(): Promise<void> | undefined {
    if (this.backlog() < this.highWater || this.failing) return undefined;
    if (this.waiting) return this.waiting.promise;
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
    return promise;
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.release();
  }

  /** Resolves once every report queued before the call is written (or dropped). */
  flush(): Promise<void> {
    this.flushUpTo = this.added;
    const done = new Promise<void>((resolve) => this.flushes.push({ upTo: this.added, resolve }));
    this.pump();
    this.settle();
    return done;
  }

  /**
   * Moves the queue along: cuts a batch for the worker when none is being prepared (so a
   * backlog goes in batches of up to `maxWrite`), and starts the next write when none runs.
   */
  private pump(): void {
    const firstPending = this.added - this.pending.length + 1;
    if (
      !this.preparing &&
      this.pending.length > 0 &&
      (this.pending.length >= this.maxBatch || this.flushUpTo >= firstPending)
    ) {
      const reports = this.pending.splice(0, this.maxWrite);
      const last = firstPending + reports.length - 1;
      this.preparing = true;
      const prepared = this.prepare(packReports(reports)).then(
        (batch) => {
          try {
            this.checked(
              batch.points,
              batch.rejected.map((i) => reports[i]!.device),
            );
          } catch (error) {
            this.log.error({ err: error }, 'telemetry check listener failed');
          }
          return batch;
        },
        (error: unknown) => {
          this.log.error({ err: error, reports: reports.length }, 'telemetry batch could not be prepared');
          return undefined;
        },
      );
      this.batches.push({ size: reports.length, last, prepared });
      void prepared.finally(() => {
        this.preparing = false;
        this.pump();
      });
    }
    if (!this.writing && this.batches.length > 0) {
      this.writing = true;
      void this.writeNext().finally(() => {
        this.writing = false;
        // One turn of the event loop between writes: with PGlite a write holds the thread,
        // and timers, HTTP and keep-alives must get their turn in a burst (bench/ingest.ts).
        setImmediate(() => {
          this.pump();
          this.settle();
        });
      });
    }
  }

  /** Resolves the flushes whose reports are all written, or all of them once idle. */
  private settle(): void {
    const idle = !this.writing && !this.preparing && this.batches.length === 0 && this.pending.length === 0;
    const done = (f: { upTo: number }) => idle || f.upTo <= this.settled;
    for (const f of this.flushes) if (done(f)) f.resolve();
    this.flushes = this.flushes.filter((f) => !done(f));
  }

  private async writeNext(): Promise<void> {
    const batch = this.batches[0]!;
    const prepared = await batch.prepared;
    // A write holds the database (and with PGlite the thread) for a while: a person
    // waiting for the console goes first. The write starts from the event loop's check
    // phase, after its poll phase has read what came meanwhile, so a console request that
    // arrived during the last write is known here and not left waiting behind this one too.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const waiting = this.yieldTo();
    if (waiting) await waiting;
    this.batches.shift();
    // Held connections may send more once the reports left waiting are below the mark.
    if (this.backlog() < this.highWater) this.release();
    try {
      if (!prepared) {
        this.dropped += batch.size;
        // States kept back for this batch's write still go, if no batch follows to take them.
        if (this.batches.length === 0 && this.keptStates.size > 0) {
          const empty = { points: 0, copy: '', states: '[]', rejected: [], live: [], stateDocs: [] };
          await this.write({ ...empty, states: this.statesFor(empty) });
        }
        return;
      }
      this.dropped += prepared.rejected.length;
      await this.write({ ...prepared, states: this.statesFor(prepared) });
    } finally {
      this.settled = batch.last;
    }
  }

  /**
   * The states document to write with a batch: none while more batches wait and states went
   * less than `statesEveryMs` ago (this batch's newest states are kept for later, one per
   * device), else every device's newest. The last batch of a burst, or of a flush, always
   * writes them.
   */
  private statesFor(batch: PreparedBatch): string {
    batch.live.forEach(({ device_id, at }, i) => {
      const kept = this.keptStates.get(device_id);
      if (!kept || kept.at <= at) this.keptStates.set(device_id, { at, json: batch.stateDocs[i]! });
    });
    const now = performance.now();
    if (this.keptStates.size === 0) return '[]';
    if (this.batches.length > 0 && now - this.statesWrittenAt < this.statesEveryMs) return '[]';
    const states = `[${[...this.keptStates.values()].map((kept) => kept.json).join(',')}]`;
    this.keptStates.clear();
    this.statesWrittenAt = now;
    return states;
  }

  private async write(batch: PreparedBatch): Promise<void> {
    try {
      await this.store.write(batch);
      this.written += batch.points;
      this.failing = false;
    } catch (error) {
      this.failing = true;
      this.release();
      // A device unregistered meanwhile fails its state's foreign key: retry device by device once.
      this.log.warn(
        { err: error, points: batch.points },
        'telemetry batch failed; retrying device by device',
      );
      for (const own of splitByDevice(batch).values()) {
        try {
          await this.store.write(own);
          this.written += own.points;
        } catch {
          this.dropped += own.points;
        }
      }
      return;
    }
    for (const live of batch.live) {
      this.notify(deviceChannels.device(live.device_id), DEVICE_REALTIME_EVENTS.telemetry, live);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    this.release();
    await this.preparer?.close();
  }
}

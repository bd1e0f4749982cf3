import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { startWorker } from '../worker-thread';
import type { PreparedBatch, ReportBatch } from './telemetry-reports';

export type Prepare = (batch: ReportBatch) => Promise<PreparedBatch>;

type Reply = { id: number; prepared?: PreparedBatch; error?: string };

/**
 * Prepares telemetry batches on a worker thread of its own (telemetry-worker.ts), so the
 * server's thread only reads MQTT and writes to the database. Started on the first batch
 * (most test servers never need it); a worker that dies fails its batches and the next
 * batch starts a new one.
 */
export class TelemetryPreparer {
  private worker: Worker | undefined;
  private waiting = new Map<number, { resolve: (p: PreparedBatch) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor(private readonly log: FastifyBaseLogger) {}

  readonly prepare: Prepare = (batch) => {
    const worker = this.worker ?? this.start();
    const id = ++this.next;
    const prepared = new Promise<PreparedBatch>((resolve, reject) =>
      this.waiting.set(id, { resolve, reject }),
    );
    // The worker keeps the process alive only while it has work.
    if (this.waiting.size === 1) worker.ref();
    worker.postMessage({ id, batch }, [
      batch.bytes.buffer as ArrayBuffer,
      batch.ends.buffer as ArrayBuffer,
      batch.devices.buffer as ArrayBuffer,
      batch.received.buffer as ArrayBuffer,
    ]);
    return prepared;
  };

  private start(): Worker {
    const worker = startWorker(new URL('./telemetry-worker.ts', import.meta.url), 'telemetry');
    worker.unref();
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
    worker.on('message', ({ id, prepared, error }: Reply) => {
      const w = this.waiting.get(id);
      if (!w) return;
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (prepared) w.resolve(prepared);
      else w.reject(new Error(error ?? 'telemetry worker failed'));
    });
    worker.on('error', (error) => {
      this.log.error({ err: error }, 'telemetry worker failed');
      fail(error);
    });
    worker.on('exit', (code) => fail(new Error(`telemetry worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    for (const w of this.waiting.values()) w.reject(new Error('telemetry worker closed'));
    this.waiting.clear();
    await worker.terminate();
  }
}

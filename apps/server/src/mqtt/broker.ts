import type { Worker } from 'node:worker_threads';
import { MAX_FRAME_BYTES } from '@fleetgate/shared/devices/messages';
import { startWorker } from '../worker-thread';
import type { BrokerReport, FromBroker, ToBroker } from './broker-protocol';

/** What the broker's thread reports, as the device gateway hears it (embedded-transport.ts). */
export type BrokerListener = (message: BrokerReport) => void;

/** How long a closing broker may take to end its connections before its thread is stopped. */
const CLOSE_MAX_MS = 35_000;
/** A broker thread that ended unexpectedly starts again after this long (no crash loop). */
const RESTART_MS = 1_000;

/** Starts a broker thread; resolves with the port it listens on. */
function listening(worker: Worker, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const first = (message: FromBroker) => {
      if (message.t === 'listening') resolve(message.port);
      else if (message.t === 'failed')
        reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
      else return;
      worker.off('message', first);
      worker.off('error', reject);
    };
    worker.on('message', first);
    worker.once('error', reject);
    worker.postMessage({ t: 'start', port, host, maxFrame: MAX_FRAME_BYTES } satisfies ToBroker);
  });
}

/**
 * The embedded MQTT broker (ARCHITECTURE §1): Aedes on a thread of its own
 * (broker-thread.ts), inside the server process, so that parsing the devices' traffic never
 * holds the thread that answers the console (docs/decisions.md). The device gateway listens
 * to what it reports (`listen`) and answers through `send`. Every connection goes through a
 * frame guard: a frame over MAX_FRAME_BYTES closes it before it is buffered. A thread that
 * ends unexpectedly is reported (`stopped`: its connections went with it) and started again.
 */
export class EmbeddedBroker {
  private worker: Worker | undefined;
  private listener: BrokerListener | undefined;
  /** Reports that came before the gateway listened (a device may connect at once). */
  private early: BrokerReport[] = [];
  /** The TCP port the broker listens on (resolved when 0 was asked for). */
  port = 0;
  private publishing = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private closing: Promise<void> | undefined;

  private constructor(private readonly host: string) {}

  static async start(port: number, host: string): Promise<EmbeddedBroker> {
    const broker = new EmbeddedBroker(host);
    await broker.run(port);
    return broker;
  }

  private async run(port: number): Promise<void> {
    const worker = startWorker(new URL('./broker-thread.ts', import.meta.url), 'mqtt broker');
    this.worker = worker;
    let failure: Error | undefined;
    worker.on('message', (message: FromBroker) => {
      if (this.worker === worker) this.received(message);
    });
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', (code) => this.exited(worker, failure ?? new Error(`exit code ${code}`)));
    try {
      this.port = await listening(worker, port, this.host);
    } catch (error) {
      if (this.worker === worker) this.worker = undefined;
      await worker.terminate();
      throw error;
    }
  }

  private exited(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const p of this.publishing.values()) p.reject(new Error('the broker stopped'));
    this.publishing.clear();
    if (this.closing) return;
    this.deliver({ t: 'stopped', error: error.message });
    const restart = () => {
      if (this.closing) return;
      this.run(this.port).catch((failed: Error) => {
        this.deliver({
          t: 'log',
          level: 'error',
          clientId: undefined,
          message: `mqtt broker: ${failed.message}`,
        });
        setTimeout(restart, RESTART_MS * 5).unref();
      });
    };
    setTimeout(restart, RESTART_MS).unref();
  }

  /** The one listener of the broker's reports: the device gateway. */
  listen(listener: BrokerListener): void {
    this.listener = listener;
    const early = this.early;
    this.early = [];
    for (const message of early) listener(message);
  }

  send(message: ToBroker, transfer?: ArrayBuffer[]): void {
    this.worker?.postMessage(message, transfer);
  }

  /**
   * A report of the broker's thread. Public so that a test can replay one late, as a
   * connection's end may arrive after its successor's start.
   */
  received(message: FromBroker): void {
    if (message.t === 'published') {
      const waiting = this.publishing.get(message.id);
      this.publishing.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error));
      else waiting?.resolve();
      return;
    }
    if (message.t === 'listening' || message.t === 'failed' || message.t === 'closed') return;
    this.deliver(message);
  }

  private deliver(message: BrokerReport): void {
    if (this.listener) this.listener(message);
    else this.early.push(message);
  }

  /** Publishes as the server; resolves once the broker has handed the message on. */
  publish(topic: string, payload: string, options: { qos: 0 | 1; retain: boolean }): Promise<void> {
    if (!this.worker) return Promise.reject(new Error('the broker stopped'));
    const id = ++this.nextId;
    return new Promise<void>((resolve, reject) => {
      this.publishing.set(id, { resolve, reject });
      this.send({ t: 'publish', id, topic, payload, ...options });
    });
  }

  /** Ends every connection and the listener, then the thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const worker = this.worker;
      if (!worker) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CLOSE_MAX_MS);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        worker.on('message', (message: FromBroker) => {
          if (message.t === 'closed') done();
        });
        worker.once('exit', done);
        worker.postMessage({ t: 'close' } satisfies ToBroker);
      });
      await worker.terminate();
    })();
    return this.closing;
  }
}

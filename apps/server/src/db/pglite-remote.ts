import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { startWorker } from '../worker-thread';

export type PGliteWorkerData = { dataDir?: string };

/** QueryOptions that can cross threads: parsers as the type ids kept as text. */
export type RemoteQueryOptions = Pick<QueryOptions, 'rowMode' | 'blob' | 'paramTypes'> & {
  textTypes?: number[];
};

/** A PostgreSQL error as it crosses threads: its message and fields (`code`, `constraint`, …). */
export type RemoteError = { name: string; message: string } & Record<string, string | number>;

export type PGliteRequest =
  | { op: 'query'; id: number; tx?: number; sql: string; params?: unknown[]; options?: RemoteQueryOptions }
  | { op: 'exec'; id: number; tx?: number; sql: string }
  | { op: 'begin'; id: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'ready'; id: number }
  | { op: 'close'; id: number };

export type PGliteReply = { id: number; result?: unknown; error?: RemoteError };

type Unsent = PGliteRequest extends infer R ? (R extends PGliteRequest ? Omit<R, 'id'> : never) : never;

/** What drizzle's PGlite driver and rawTransaction ask of a PGlite or of one of its transactions. */
export type RemoteTransaction = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
};

const PROBE = '\u0000text';

/** The type ids a query's parsers keep as text; any other parser cannot cross threads. */
const textTypesOf = (() => {
  const known = new WeakMap<object, number[]>();
  return (parsers: NonNullable<QueryOptions['parsers']>): number[] => {
    let types = known.get(parsers);
    if (!types) {
      types = Object.entries(parsers).map(([type, parse]) => {
        if (parse(PROBE, Number(type)) !== PROBE)
          throw new Error(`PGlite parser for type ${type} cannot cross threads`);
        return Number(type);
      });
      known.set(parsers, types);
    }
    return types;
  };
})();

function remoteOptions(options: QueryOptions | undefined): RemoteQueryOptions | undefined {
  if (!options) return undefined;
  const { rowMode, blob, paramTypes, parsers, serializers, onNotice } = options;
  if (serializers || onNotice)
    throw new Error('PGlite serializers and notice callbacks cannot cross threads');
  return { rowMode, blob, paramTypes, textTypes: parsers ? textTypesOf(parsers) : undefined };
}

/**
 * PGlite on a worker thread of its own (pglite-worker.ts), with the surface the server
 * uses: `query`, `exec`, `transaction`, `close`. A transaction holds PGlite's one
 * connection until its work ends, so a query from elsewhere waits for it, as in-thread.
 * The worker keeps the process alive only while a request is out.
 */
export class RemotePGlite implements RemoteTransaction {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (e: Error) => void }
  >();
  private next = 0;
  private failure: Error | undefined;
  closed = false;

  /** Opens a database in `dataDir`, or in memory; resolves once PGlite is ready. */
  static async open(dataDir?: string): Promise<RemotePGlite> {
    const remote = new RemotePGlite({ dataDir });
    try {
      await remote.call({ op: 'ready' });
    } catch (error) {
      await remote.worker.terminate();
      throw error;
    }
    return remote;
  }

  private constructor(data: PGliteWorkerData) {
    const worker = startWorker(new URL('./pglite-worker.ts', import.meta.url), 'pglite', data);
    worker.unref();
    worker.on('message', ({ id, result, error }: PGliteReply) => {
      const waiting = this.waiting.get(id);
      if (!waiting) return;
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (error) waiting.reject(Object.assign(new Error(error.message), error));
      else waiting.resolve(result);
    });
    worker.on('error', (error) => this.fail(new Error(`the database thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.fail(new Error(`the database thread stopped (exit code ${code})`)));
    this.worker = worker;
  }

  private fail(error: Error) {
    this.failure ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(this.failure);
    this.waiting.clear();
  }

  private call(request: Unsent): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ ...request, id });
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.call({ op: 'query', tx, sql, params, options: remoteOptions(options) }) as Promise<
      Results<T>
    >;
  }

  exec(sql: string, tx?: number): Promise<Results[]> {
    return this.call({ op: 'exec', tx, sql }) as Promise<Results[]>;
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: 'begin' })) as number;
    const tx: RemoteTransaction = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
    };
    let result: T;
    try {
      result = await work(tx);
    } catch (error) {
      await this.call({ op: 'end', tx: id, commit: false }).catch(() => {});
      throw error;
    }
    await this.call({ op: 'end', tx: id, commit: true });
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      // A thread that already stopped has nothing left to close.
      if (!this.failure) await this.call({ op: 'close' });
    } finally {
      this.failure ??= new Error('the database is closed');
      await this.worker.terminate();
    }
  }
}

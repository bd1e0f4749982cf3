import { parentPort } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { workerInput } from '../worker-thread';
import type {
  PGliteReply,
  PGliteRequest,
  PGliteWorkerData,
  RemoteError,
  RemoteQueryOptions,
} from './pglite-remote';

/**
 * The database's thread (started by pglite-remote.ts): PGlite runs here, so its SQL (half
 * of the server's thread in a telemetry burst, docs/performance.md) no longer holds up
 * HTTP and MQTT. Requests are answered as they come; PGlite itself runs one at a time,
 * and an open transaction holds its lock until the server's thread ends it, as in-thread.
 */
const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');

const { dataDir } = workerInput<PGliteWorkerData>();
// pg_trgm: the migrations create it (device search, ARCHITECTURE §6); PGlite ships it as a module.
const database = PGlite.create(dataDir ?? 'memory://', { extensions: { pg_trgm } });
// A database that cannot open answers every request with why (the starter asks first).
database.catch(() => {});

type Open = { tx: Transaction; finish(commit: boolean): void; end?: number };
const transactions = new Map<number, Open>();
const ROLLBACK = Symbol('rollback');

const reply = (message: PGliteReply) => port.postMessage(message);

/** PostgreSQL's error fields, which the server's code reads (`code` above all). */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
] as const;

function remoteError(error: unknown): RemoteError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields: RemoteError = { name: error.name, message: error.message };
  for (const key of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return fields;
}

/** Drizzle's parsers keep some types as text; a function cannot cross threads, their type ids do. */
function queryOptions(options: RemoteQueryOptions | undefined): QueryOptions | undefined {
  if (!options) return undefined;
  const { rowMode, textTypes, blob } = options;
  const asText = (value: string) => value;
  return {
    rowMode,
    blob,
    parsers: textTypes ? Object.fromEntries(textTypes.map((type) => [type, asText])) : undefined,
  };
}

/** The transaction a request names, or the database itself. */
async function target(tx: number | undefined): Promise<PGlite | Transaction> {
  if (tx === undefined) return database;
  const open = transactions.get(tx);
  if (!open) throw new Error('the transaction is already over');
  return open.tx;
}

function begin(id: number) {
  let begun = false;
  database
    .then((db) =>
      db.transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            transactions.set(id, { tx, finish: (commit) => (commit ? resolve() : reject(ROLLBACK)) });
            begun = true;
            reply({ id, result: id });
          }),
      ),
    )
    .then(
      () => undefined,
      (error: unknown) => (error === ROLLBACK ? undefined : error),
    )
    .then((error) => {
      const open = transactions.get(id);
      transactions.delete(id);
      const to = begun ? open?.end : id;
      if (to === undefined) return;
      reply(error === undefined ? { id: to, result: null } : { id: to, error: remoteError(error) });
    });
}

async function answer(request: PGliteRequest): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const on = await target(request.tx);
      return on.query(request.sql, request.params, queryOptions(request.options));
    }
    case 'exec':
      return (await target(request.tx)).exec(request.sql);
    case 'ready':
      await database;
      return null;
    case 'close': {
      const db = await database;
      if (!db.closed) await db.close();
      return null;
    }
  }
}

port.on('message', (request: PGliteRequest) => {
  if (request.op === 'begin') return begin(request.id);
  if (request.op === 'end') {
    const open = transactions.get(request.tx);
    if (!open)
      return reply({ id: request.id, error: { name: 'Error', message: 'the transaction is already over' } });
    open.end = request.id;
    return open.finish(request.commit);
  }
  answer(request).then(
    (result) => reply({ id: request.id, result }),
    (error: unknown) => reply({ id: request.id, error: remoteError(error) }),
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningWorkers } from '../worker-thread';
import { RemotePGlite } from './pglite-remote';

/**
 * PGlite on its own thread answers as PGlite does in-thread (docs/decisions.md): results,
 * PostgreSQL's error fields, transactions holding the one connection, and failures.
 */
describe('RemotePGlite', () => {
  let db: RemotePGlite;

  beforeAll(async () => {
    db = await RemotePGlite.open();
    await db.exec('create table t (id int primary key, at timestamptz, note text)');
  });
  afterAll(() => db.close());

  it('answers queries with rows, in array mode, and keeps the types drizzle asks to keep as text', async () => {
    await db.query('insert into t values ($1, $2, $3)', [1, '2026-11-24T10:00:00Z', 'one']);
    const objects = await db.query<{ id: number; at: Date }>('select id, at from t where id = $1', [1]);
    expect(objects.rows).toEqual([{ id: 1, at: new Date('2026-11-24T10:00:00Z') }]);
    const asText = (value: string) => value;
    const arrays = await db.query<unknown[]>('select id, at from t where id = 1', [], {
      rowMode: 'array',
      parsers: { 1184: asText },
    });
    expect(arrays.rows).toEqual([[1, '2026-11-24 10:00:00+00']]);
  });

  it('refuses a parser that would change a value, since a function cannot cross threads', () => {
    expect(() => db.query('select 1', [], { parsers: { 23: (value: string) => Number(value) } })).toThrow(
      /cannot cross threads/,
    );
  });

  it("carries PostgreSQL's error fields across: the code, the constraint", async () => {
    const error = await db.query('insert into t values (1, null, null)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });
  });

  it('commits a transaction whose work resolves and rolls back one whose work throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into t values (2, null, $1)', ['kept']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t values (3, null, $1)', ['undone']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await db.query<{ id: number }>('select id from t where id in (2, 3) order by id');
    expect(rows).toEqual([{ id: 2 }]);
  });

  it('holds the one connection for a transaction: a query from elsewhere waits for it and sees its commit', async () => {
    let outside: Promise<unknown> | undefined;
    const order: string[] = [];
    await db.transaction(async (tx) => {
      await tx.query('insert into t values (4, null, null)');
      outside = db.query<{ n: number }>('select count(*)::int as n from t where id = 4').then((r) => {
        order.push('outside');
        return r.rows[0]!.n;
      });
      // The outside query cannot run while this transaction holds the connection.
      await tx.query('select pg_sleep(0.05)');
      order.push('transaction');
    });
    expect(await outside).toBe(1);
    expect(order).toEqual(['transaction', 'outside']);
  });

  it('refuses a query naming a transaction that is over', async () => {
    let kept: { query: RemotePGlite['query'] } | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('select 1')).rejects.toThrow('the transaction is already over');
  });

  it('fails what is waiting, and every later request, when its thread stops', async () => {
    const other = await RemotePGlite.open();
    // The newest database thread is the one `other` started.
    const thread = runningWorkers()
      .filter((w) => w.name === 'pglite')
      .at(-1)!.worker;
    const waiting = other.query('select pg_sleep(5)');
    await thread.terminate();
    await expect(waiting).rejects.toThrow(/the database thread stopped/);
    await expect(other.query('select 1')).rejects.toThrow(/the database thread stopped/);
    await other.close();
  });

  it('refuses requests once closed', async () => {
    const other = await RemotePGlite.open();
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow('the database is closed');
  });
});

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from './database';

/**
 * One transaction on the driver itself, for what drizzle cannot say: `COPY … FROM STDIN`,
 * the cheapest way to write many rows (bench/ingest.ts: a quarter of the cost of an
 * INSERT of the same rows). Both drivers: node-postgres streams the text through
 * pg-copy-streams, PGlite reads it from a blob.
 */
export type RawSession = {
  /** `COPY table (columns) FROM STDIN` of rows in COPY's text format (tab-separated, `\N` for null). */
  copy(table: string, columns: readonly string[], text: string): Promise<void>;
  execute(query: SQL): Promise<void>;
};

const dialect = new PgDialect();

const copyStatement = (table: string, columns: readonly string[], source: string) =>
  `COPY "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) FROM ${source}`;

export async function rawTransaction(db: Db, work: (session: RawSession) => Promise<void>): Promise<void> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof PGlite) {
    await client.transaction(async (tx: Transaction) => {
      await work({
        copy: async (table, columns, text) => {
          await tx.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([text]) });
        },
        execute: async (query) => {
          const { sql, params } = dialect.sqlToQuery(query);
          await tx.query(sql, params);
        },
      });
    });
    return;
  }
  if (!(client instanceof pg.Pool)) throw new Error('rawTransaction: unknown database driver');
  const connection = await client.connect();
  let broken = false;
  try {
    await connection.query('begin');
    await work({
      copy: (table, columns, text) =>
        pipeline(Readable.from([text]), connection.query(copyFrom(copyStatement(table, columns, 'STDIN')))),
      execute: async (query) => {
        const { sql, params } = dialect.sqlToQuery(query);
        await connection.query(sql, params);
      },
    });
    await connection.query('commit');
  } catch (error) {
    // A connection that cannot even roll back (a COPY cut off midway) is closed, not reused.
    broken = await connection.query('rollback').then(
      () => false,
      () => true,
    );
    throw error;
  } finally {
    connection.release(broken);
  }
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../src/db/database';

/**
 * A fresh database for one test file: in-memory PGlite by default, or, in the server-pg
 * project, a new database created on the PostgreSQL of TEST_DATABASE_URL and dropped at
 * the end.
 */
export async function openTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.FG_TEST_DB !== 'postgres' || !adminUrl) return openDatabase({ kind: 'pglite-memory' });

  const name = `fg_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PostgresListeners } from './postgres-listeners';
import * as audit from './schema/audit';
import * as brands from './schema/brands';
import * as companies from './schema/companies';
import * as devices from './schema/devices';
import * as impersonation from './schema/impersonation';
import * as invitations from './schema/invitations';
import * as mail from './schema/mail';
import * as mfa from './schema/mfa';
import * as notifications from './schema/notifications';
import * as remote from './schema/remote';
import * as resources from './schema/resources';
import * as roles from './schema/roles';
import * as sessions from './schema/sessions';
import * as settings from './schema/settings';
import * as storage from './schema/storage';
import * as tags from './schema/tags';
import * as tokens from './schema/tokens';
import * as users from './schema/users';

export const schema = {
  ...audit,
  ...brands,
  ...companies,
  ...devices,
  ...impersonation,
  ...invitations,
  ...mail,
  ...mfa,
  ...notifications,
  ...remote,
  ...resources,
  ...roles,
  ...sessions,
  ...settings,
  ...storage,
  ...tags,
  ...tokens,
  ...users,
};

/** One PostgreSQL dialect whichever driver runs underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The rows of a raw `db.execute` result: node-postgres and PGlite both answer `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** What a listener hears: a notification's payload, or that some may have been missed. */
export type NotificationListener = {
  onMessage(payload: string): void;
  /**
   * The connection that listens was lost and is back: notifications sent meanwhile are
   * gone, so whoever listens treats everything as changed.
   */
  onGap(): void;
};

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Follows `NOTIFY channel` (sent by triggers, delivered on commit to every process on
   * the same database); answers the function that stops listening.
   */
  listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>>;
  /** Sends `NOTIFY channel, payload` to every listener of every process on this database. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory'; snapshot?: Blob };

/** Extensions the migrations create: PGlite ships them as modules to load (device search, ARCHITECTURE §6). */
const PGLITE_EXTENSIONS = { pg_trgm };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** Opens the database and applies every committed migration. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // A broken connection must not crash the process; the next query reports it.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    const listeners = new PostgresListeners(options.url);
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      listen: (channel, listener) => listeners.listen(channel, listener),
      notify: (channel, payload) => notify(db as unknown as Db, channel, payload),
      close: async () => {
        await listeners.close();
        await pool.end();
      },
    };
  }
  let client: PGlite;
  if (options.kind === 'pglite') {
    mkdirSync(path.dirname(options.dataDir), { recursive: true });
    client = await PGlite.create(options.dataDir, { extensions: PGLITE_EXTENSIONS });
  } else {
    client = await PGlite.create({
      extensions: PGLITE_EXTENSIONS,
      ...(options.snapshot ? { loadDataDir: options.snapshot } : {}),
    });
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    notify: (channel, payload) => notify(db as unknown as Db, channel, payload),
    // One connection in this process: nothing is ever missed, so there is no gap.
    listen: async (channel, listener) => {
      const stop = await client.listen(channel, (payload) => listener.onMessage(payload));
      return async () => {
        if (!client.closed) await stop();
      };
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

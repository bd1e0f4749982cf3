import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { eq } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands } from '#src/db/schema/brands';
import { settings } from '#src/db/schema/settings';
import { storedSettings } from './brand.presenter';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
const BEFORE_BRANDS = '0018_brands_by_host';

/** A copy of the migrations folder that stops before 0018: a database as it was before brands. */
function migrationsBeforeBrands(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'fg-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')))
    copyFileSync(path.join(MIGRATIONS, file), path.join(folder, file));
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8'));
  const last = journal.entries.findIndex((e: { tag: string }) => e.tag === BEFORE_BRANDS);
  if (last < 1) throw new Error(`${BEFORE_BRANDS} is not in the journal`);
  journal.entries = journal.entries.slice(0, last);
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  return folder;
}

type Migrated = {
  // The two drivers' drizzle types differ; the queries below are the same on both.
  db: ReturnType<typeof drizzlePglite>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
};

/** An empty database of the project that the suite runs on: PGlite, or PostgreSQL in server-pg. */
async function emptyDatabase(): Promise<Migrated> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.FG_TEST_DB !== 'postgres' || !adminUrl) {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzlePglite(client);
    return {
      db,
      migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }),
      close: () => client.close(),
    };
  }
  const name = `fg_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  const db = drizzlePg(pool);
  return {
    db: db as unknown as Migrated['db'],
    migrate: (migrationsFolder) => migratePg(db, { migrationsFolder }),
    async close() {
      await pool.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

const before = migrationsBeforeBrands();
afterAll(() => rmSync(before, { recursive: true, force: true }));

describe('migration 0018_brands_by_host: the brand setting becomes the default brand', () => {
  let database: Migrated;
  beforeAll(async () => {
    database = await emptyDatabase();
  });
  afterAll(() => database.close());

  it('copies the saved brand into the default brand row and removes the setting', async () => {
    await database.migrate(before);
    await database.db.insert(settings).values([
      {
        key: 'brand',
        value: {
          app_name: 'Acme RMS',
          main_color: '#112233',
          default: false,
          // Saved before images had to be paths on the console: it falls back on its own.
          favicon: 'https://cdn.example.test/favicon.png',
        },
      },
      { key: 'smtp', value: { host: 'mail.example.test' } },
    ]);
    await database.migrate(MIGRATIONS);

    const rows = await database.db.select().from(brands);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ host: null, isDefault: true });
    expect(rows[0]?.settings).toEqual({
      app_name: 'Acme RMS',
      main_color: '#112233',
      favicon: 'https://cdn.example.test/favicon.png',
    });
    expect(storedSettings(rows[0]?.settings)).toMatchObject({
      app_name: 'Acme RMS',
      main_color: '#112233',
      favicon: DEFAULT_BRAND.favicon,
    });
    expect(await database.db.select().from(settings).where(eq(settings.key, 'brand'))).toEqual([]);
    expect(await database.db.select({ key: settings.key }).from(settings)).toEqual([{ key: 'smtp' }]);
  });
});

describe('migration 0018_brands_by_host on a console never branded', () => {
  it('makes a default brand of the product’s own look', async () => {
    const database = await emptyDatabase();
    try {
      await database.migrate(before);
      await database.migrate(MIGRATIONS);
      const rows = await database.db.select().from(brands);
      expect(rows).toMatchObject([{ host: null, isDefault: true, settings: {} }]);
    } finally {
      await database.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from '@fleetgate/server/app';
import { loadConfig } from '@fleetgate/server/config';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

export const ADMIN_EMAIL = 'admin@bench.local';
export const ADMIN_PASSWORD = 'bench-admin-password';

/** A database a benchmark runs on: the server's environment for it, and how to remove it. */
export type BenchDatabase = {
  label: 'PGlite' | 'PostgreSQL';
  env: Record<string, string>;
  dispose(): Promise<void>;
};

/** PGlite on disk in a fresh temp directory: what `npm start` uses by default. */
export function pgliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-bench-'));
  return {
    label: 'PGlite',
    env: { DATA_DIR: dir },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The PostgreSQL the environment names (DATABASE_URL, else TEST_DATABASE_URL), if any. */
export function postgresUrl(): string | undefined {
  return process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
}

const BENCH_DB = 'fleetgate_bench';

async function adminQuery(url: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh `fleetgate_bench` database on that PostgreSQL, created through its `postgres`
 * database and dropped by `dispose`, so the database other suites use is never touched.
 */
export async function postgresDatabase(url: string): Promise<BenchDatabase> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  await adminQuery(admin.toString(), `drop database if exists ${BENCH_DB} with (force)`);
  await adminQuery(admin.toString(), `create database ${BENCH_DB}`);
  const bench = new URL(url);
  bench.pathname = `/${BENCH_DB}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-bench-'));
  return {
    label: 'PostgreSQL',
    env: { DATABASE_URL: bench.toString(), DATA_DIR: dir },
    async dispose() {
      await adminQuery(admin.toString(), `drop database if exists ${BENCH_DB} with (force)`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The databases a benchmark runs on: PGlite, and PostgreSQL when the environment names
 * one; `only` ('pglite' or 'postgres') keeps one of them.
 */
export function benchDatabases(only?: string): (() => Promise<BenchDatabase>)[] {
  const url = postgresUrl();
  const all = [
    { name: 'pglite', open: async () => pgliteDatabase() },
    ...(url ? [{ name: 'postgres', open: () => postgresDatabase(url) }] : []),
  ];
  return all.filter((d) => !only || d.name === only).map((d) => d.open);
}

/**
 * The real server (`build` of apps/server/src/app.ts) on a bench database, with or without
 * the embedded broker. The broker and HTTP listen on free ports of 127.0.0.1, never 1883.
 */
export async function startServer(
  database: BenchDatabase,
  options: { broker: boolean; listen: boolean },
): Promise<FastifyInstance> {
  const config = loadConfig(
    {
      // Server logs stay quiet unless asked for (BENCH_LOG_LEVEL=warn): they would cost time.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOGIN_RATE_LIMIT: '10000',
      SECRET_KEY: 'bench-secret-key-0123456789abcdef0123',
      ...database.env,
    },
    { embeddedBroker: options.broker },
  );
  const app = await build(config);
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  return app;
}

/** The HTTP base URL of a listening server. */
export function httpUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server is not listening');
  return `http://127.0.0.1:${address.port}`;
}

/** The embedded broker's URL. */
export function brokerUrl(app: FastifyInstance): string {
  if (!app.broker) throw new Error('the server runs without the embedded broker');
  return `mqtt://127.0.0.1:${app.broker.port}`;
}

/**
 * Devices list latency at 100k and 1M generated devices: the real endpoint
 * (GET /api/devices through app.inject as the signed-in super admin: auth, policy scope,
 * query, count, serialisation) against hand-written SQL for the same page on the same
 * connection, and the bare count(*) the endpoint also pays for `meta.total`.
 *
 *   npm run bench:list [-- --sizes 100000,1000000 --pglite-max 1000000 --budget 6]
 *
 * Runs on PGlite on disk, and on PostgreSQL too when DATABASE_URL or TEST_DATABASE_URL is
 * set (in a database `fleetgate_bench` of its own, dropped afterwards).
 */
import { parseArgs } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createCompanies, generateDevices, generatedSerial } from './list-data';
import { count, ms, percentile, printMachine, printTable, verdict } from './support/report';
import { type BenchDatabase, benchDatabases, startServer } from './support/server';
import { type SignedIn, signInAsAdmin } from './support/session';

const PAGE = 25;
/** Page 2000 of 25 rows. */
const DEEP_OFFSET = 1999 * PAGE;
const TARGET_LIST_MS = 25;
const TARGET_SEARCH_MS = 50;
const TARGET_DEEP_RATIO = 1.5;

/** The columns the endpoint returns (devices.repository.ts deviceRowColumns), joined the same way. */
const PAGE_SELECT = sql.raw(`
  select d.id, d.name, d.description, d.serial, d.mac, d.model, d.original_model, d.firmware, d.imei,
         d.esim, d.status, d.company_id, c.name as company_name, d.monitoring_enabled,
         d.monitoring_period, d.credit_active, d.last_seen_at, d.created_at, s.signal, s.temperature,
         s.operator, s.wan_type, s.wan_ip, s.uptime
  from devices d join companies c on c.id = d.company_id left join device_state s on s.device_id = d.id`);
const ORDER = sql.raw('order by d.name, d.id');

type Case = {
  name: string;
  kind: 'list' | 'deep' | 'search';
  url: string;
  /** The same page in plain SQL (no scope filter: the super admin sees every company). */
  page: SQL;
  /** What `meta.total` costs on its own: every row, and within the caller's companies as the endpoint counts. */
  total: SQL;
  scopedTotal: SQL;
};

type Timing = { p50: number; p95: number; n: number };

type Row = {
  size: number;
  name: string;
  kind: Case['kind'];
  api: Timing;
  page: Timing;
  total: Timing;
  scopedTotal: Timing;
  same: boolean;
};

/** Rows of a raw query (both drivers answer `{ rows }`). */
async function query<T>(app: FastifyInstance, statement: SQL): Promise<T[]> {
  return ((await app.db.execute(statement)) as unknown as { rows: T[] }).rows;
}

const searchWhere = (pattern: string) =>
  sql`(d.name ilike ${pattern} or d.serial ilike ${pattern} or d.mac ilike ${pattern} or d.imei ilike ${pattern})`;

/** The five requests of the issue, each with its hand-written SQL. */
async function cases(app: FastifyInstance, admin: SignedIn, size: number): Promise<Case[]> {
  // The cursor the endpoint itself hands out after row DEEP_OFFSET (from the page before it).
  const before = await admin.get(`/api/devices?offset=${DEEP_OFFSET - PAGE}`);
  const cursor = (before.json() as { meta: { next_cursor: string } }).meta.next_cursor;
  const [last] = await query<{ name: string; id: number }>(
    app,
    sql`select d.name, d.id from devices d ${ORDER} offset ${DEEP_OFFSET - 1} limit 1`,
  );
  const rare = generatedSerial(Math.floor(size * 0.7));
  const common = 'RUT';
  const all = sql`select count(*) from devices d`;
  // The super admin's scope as policy/scope.ts writes it: every company under the root's path.
  const inScope = sql`d.company_id in (select id from companies where path like '/1/%')`;
  const scopedAll = sql`${all} where ${inScope}`;
  return [
    {
      name: 'first page (sort by name)',
      kind: 'list',
      url: '/api/devices',
      page: sql`${PAGE_SELECT} ${ORDER} limit ${PAGE}`,
      total: all,
      scopedTotal: scopedAll,
    },
    {
      name: `page 2000 by offset (${count(DEEP_OFFSET)})`,
      kind: 'deep',
      url: `/api/devices?offset=${DEEP_OFFSET}`,
      page: sql`${PAGE_SELECT} ${ORDER} limit ${PAGE} offset ${DEEP_OFFSET}`,
      total: all,
      scopedTotal: scopedAll,
    },
    {
      name: 'page 2000 by cursor (keyset)',
      kind: 'deep',
      url: `/api/devices?cursor=${encodeURIComponent(cursor)}`,
      page: sql`${PAGE_SELECT} where (d.name, d.id) > (${last!.name}, ${last!.id}) ${ORDER} limit ${PAGE}`,
      total: all,
      scopedTotal: scopedAll,
    },
    ...[
      { label: `rare '${rare}'`, q: rare },
      { label: `common '${common}'`, q: common },
    ].map(({ label, q }) => ({
      name: `search ${label}`,
      kind: 'search' as const,
      url: `/api/devices?q=${encodeURIComponent(q)}`,
      page: sql`${PAGE_SELECT} where ${searchWhere(`%${q}%`)} ${ORDER} limit ${PAGE}`,
      total: sql`${all} where ${searchWhere(`%${q}%`)}`,
      scopedTotal: sql`${scopedAll} and ${searchWhere(`%${q}%`)}`,
    })),
  ];
}

/**
 * Runs `fn` after a warm-up until 50 samples or `budgetMs` (at least 5 samples),
 * one at a time: latency of a lone request, not throughput.
 */
async function time(fn: () => Promise<unknown>, budgetMs: number): Promise<Timing> {
  await fn();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < 50 && (samples.length < 5 || performance.now() - started < budgetMs)) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), n: samples.length };
}

/** What any signed-in request costs (session, user, policy, serialiser): GET /api/user. */
const FLOOR_URL = '/api/user';

async function measure(app: FastifyInstance, size: number, budgetMs: number): Promise<Row[]> {
  const admin = await signInAsAdmin(app);
  const floor = await time(() => admin.get(FLOOR_URL), budgetMs);
  console.log(
    `${count(size)} rows: GET ${FLOOR_URL} (the floor of a signed-in request) p50 ${ms(floor.p50)} ms, p95 ${ms(floor.p95)} ms`,
  );
  const rows: Row[] = [];
  for (const c of await cases(app, admin, size)) {
    const apiIds = ((await admin.get(c.url)).json() as { data: { id: number }[] }).data.map((d) => d.id);
    const pageIds = (await query<{ id: number }>(app, c.page)).map((r) => Number(r.id));
    rows.push({
      size,
      name: c.name,
      kind: c.kind,
      same: apiIds.join() === pageIds.join(),
      api: await time(() => admin.get(c.url), budgetMs),
      page: await time(() => app.db.execute(c.page), budgetMs),
      total: await time(() => app.db.execute(c.total), budgetMs),
      scopedTotal: await time(() => app.db.execute(c.scopedTotal), budgetMs),
    });
  }
  return rows;
}

/** Generates the sizes one after another on one database (each adds rows to the last). */
async function runOn(database: BenchDatabase, sizes: number[], budgetMs: number): Promise<Row[]> {
  const app = await startServer(database, { broker: false, listen: false });
  const rows: Row[] = [];
  try {
    const companies = await createCompanies(app);
    let generated = 0;
    for (const size of sizes) {
      console.log(`${database.label}: generating devices ${count(generated + 1)}–${count(size)}`);
      const started = performance.now();
      await generateDevices(app, companies, { from: generated + 1, to: size }, (line) => console.log(line));
      generated = size;
      console.log(
        `${database.label}: ${count(size)} devices in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      rows.push(...(await measure(app, size, budgetMs)));
    }
  } finally {
    await app.close();
    await database.dispose();
  }
  return rows;
}

function report(label: string, rows: Row[]): void {
  console.log(`\n## ${label}\n`);
  printTable(
    [
      'rows',
      'request',
      'API p50',
      'API p95',
      'SQL page p50',
      'SQL page p95',
      'count(*) p95',
      'scoped count p95',
      'n',
      'same rows',
    ],
    rows.map((r) => [
      count(r.size),
      r.name,
      ms(r.api.p50),
      ms(r.api.p95),
      ms(r.page.p50),
      ms(r.page.p95),
      ms(r.total.p95),
      ms(r.scopedTotal.p95),
      String(r.api.n),
      r.same ? 'yes' : 'NO',
    ]),
    2,
  );
  console.log('\ntimes in ms; targets at the largest size:');
  const largest = Math.max(...rows.map((r) => r.size));
  const first = rows.find((r) => r.size === largest && r.kind === 'list')!;
  for (const r of rows.filter((r) => r.size === largest)) {
    const check =
      r.kind === 'list'
        ? `p95 ≤ ${TARGET_LIST_MS} ms ${verdict(r.api.p95 <= TARGET_LIST_MS)}`
        : r.kind === 'deep'
          ? `p95 ≤ ${TARGET_DEEP_RATIO}× first page (${(r.api.p95 / first.api.p95).toFixed(2)}×) ${verdict(r.api.p95 <= TARGET_DEEP_RATIO * first.api.p95)}`
          : `p95 ≤ ${TARGET_SEARCH_MS} ms ${verdict(r.api.p95 <= TARGET_SEARCH_MS)}`;
    console.log(`- ${count(largest)} rows, ${r.name}: ${check}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      sizes: { type: 'string', default: '100000,1000000' },
      'pglite-max': { type: 'string', default: '1000000' },
      budget: { type: 'string', default: '6' },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const pgliteMax = Number(values['pglite-max']);
  const budgetMs = Number(values.budget) * 1000;
  printMachine('Devices list');
  for (const open of benchDatabases(values.db)) {
    const database = await open();
    const own = database.label === 'PGlite' ? sizes.filter((s) => s <= pgliteMax) : sizes;
    report(database.label, await runOn(database, own, budgetMs));
  }
}

await main();

import type { StateMessage } from '@fleetgate/shared/devices/messages';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '#src/db/database';
import type { DeviceIdentity } from '#src/gateway/ports';
import { prepareReports } from '#src/gateway/telemetry-reports';
import { TelemetryWriter } from '#src/gateway/telemetry-writer';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTestApp, TestClient } from '#test/app';
import { createCompany } from '#test/factories';
import type { Scope } from '../policy/scope';
import { deviceBuckets } from './device-search.repository';
import { deviceStore } from './device-store';
import { DEVICE_COUNT_CAP, listDevices } from './devices-list.repository';
import { telemetryRepository } from './telemetry.repository';

/**
 * The devices list past its count cap (bench/list.ts): exact totals up to the
 * cap, `total_capped` beyond, and search pages right for rare and common patterns alike.
 */
let app: FastifyInstance;
let admin: TestClient;
const FLEET = DEVICE_COUNT_CAP + 50;

beforeAll(async () => {
  app = await buildTestApp();
  admin = await new TestClient(app).login(ADMIN_EMAIL, ADMIN_PASSWORD);
  // Names 'Cap 00000' … sort like their numbers; one device is named apart.
  await app.db.execute(sql`
    insert into devices (company_id, serial, mac, name)
    select 1, '88' || lpad(i::text, 8, '0'), '00:1E:42:' || upper(lpad(to_hex(i), 6, '0')), 'Cap ' || lpad(i::text, 5, '0')
    from generate_series(0, ${FLEET - 1}) as i`);
  await app.db.execute(sql`update devices set name = 'Lonely gateway' where name = 'Cap 04321'`);
}, 60_000);
afterAll(() => app.close());

const list = async (query: string) => {
  const response = await admin.get(`/api/devices?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as { data: { name: string }[]; meta: { total: number; total_capped?: boolean } };
};

describe('devices list beyond the count cap', () => {
  it('successful-capped-total: counts up to the cap and says there are more', async () => {
    const all = await list('limit=3&fields=name');
    expect(all.meta).toMatchObject({ total: DEVICE_COUNT_CAP, total_capped: true });
    expect(all.data.map((d) => d.name)).toEqual(['Cap 00000', 'Cap 00001', 'Cap 00002']);
  });

  it('successful-common-search: a pattern matching nearly every row pages in order, capped', async () => {
    const page = await list('q=cap&search-fields=name&limit=3&offset=3&sort=-name&fields=name');
    expect(page.meta).toMatchObject({ total: DEVICE_COUNT_CAP, total_capped: true });
    const last = FLEET - 1;
    const names = [3, 4, 5].map((k) => `Cap ${String(last - k).padStart(5, '0')}`);
    expect(page.data.map((d) => d.name)).toEqual(names);
  });

  it('successful-rare-search: a pattern matching a few rows is counted exactly and sorted', async () => {
    const lonely = await list('q=lonely&fields=name');
    expect(lonely.meta.total).toBe(1);
    expect(lonely.meta.total_capped).toBeUndefined();
    expect(lonely.data.map((d) => d.name)).toEqual(['Lonely gateway']);
    const few = await list('q=cap%200012&search-fields=name&sort=-name&fields=name');
    expect(few.meta.total).toBe(10);
    expect(few.data.map((d) => d.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Cap 0012${9 - i}`));
  });
});

/** The page in plain SQL: every field searched with ilike, sorted by name then id. */
async function reference(options: {
  q?: string;
  mac?: string;
  companies?: number[];
  desc?: boolean;
  offset: number;
}) {
  const like = (v: string) => `%${v}%`;
  const search = options.q
    ? sql`and (name ilike ${like(options.q)} or serial ilike ${like(options.q)} or mac ilike ${like(options.q)}
              or imei ilike ${like(options.q)} ${options.mac ? sql`or mac ilike ${like(options.mac)}` : sql``})`
    : sql``;
  const within = options.companies
    ? sql`and company_id = any(${`{${options.companies.join(',')}}`}::int[])`
    : sql``;
  const order = options.desc ? sql`name desc, id desc` : sql`name, id`;
  const result = await app.db.execute(
    sql`select name from devices where true ${search} ${within} order by ${order} limit 25 offset ${options.offset}`,
  );
  return (result as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
}

describe('devices list from the sorted search index (device_search, bench/list.ts)', () => {
  it('successful-walked-search: common patterns page like plain SQL, both ways, deep and by cursor', async () => {
    for (const [sort, desc] of [
      ['name', false],
      ['-name', true],
    ] as const) {
      for (const offset of [0, 25, 7000]) {
        const page = await list(`q=cap&sort=${sort}&offset=${offset}&fields=name`);
        expect(page.data.map((d) => d.name)).toEqual(await reference({ q: 'cap', desc, offset }));
        expect(page.meta).toMatchObject({ total: DEVICE_COUNT_CAP, total_capped: true });
      }
    }
    // A MAC typed without separators finds the MACs written with them.
    const mac = await list('q=1e42&offset=30&fields=name');
    expect(mac.data.map((d) => d.name)).toEqual(await reference({ q: '1e42', mac: '1e:42', offset: 30 }));
    const first = (await admin.get('/api/devices?q=CAP&fields=name')).json() as {
      meta: { next_cursor: string };
    };
    const second = await list(`q=CAP&fields=name&cursor=${first.meta.next_cursor}`);
    expect(second.data.map((d) => d.name)).toEqual(await reference({ q: 'cap', offset: 25 }));
  });

  it("successful-walked-scope: deep pages by offset keep to the caller's companies and the company filter", async () => {
    const acme = await createCompany(app, 'Walk Acme');
    const north = await createCompany(app, 'Walk Acme North', acme.id);
    const beta = await createCompany(app, 'Walk Beta');
    // Moving devices is an UPDATE OF company_id: the trigger moves their search rows too.
    await app.db.execute(sql`update devices set company_id = case when id % 3 = 0 then ${acme.id}::int
      when id % 3 = 1 then ${north.id}::int else ${beta.id}::int end where name like 'Cap 0%'`);
    const acmeSubtree: Scope = { companyId: acme.id, path: acme.path, subtree: true };
    const page = { limit: 25, offset: 500 };
    const scoped = await listDevices(app.db, acmeSubtree, page);
    expect(scoped.rows.map((r) => r.name)).toEqual(
      await reference({ companies: [acme.id, north.id], offset: 500 }),
    );
    const northOnly = await listDevices(app.db, acmeSubtree, {
      ...page,
      companyId: [north.id],
      sort: '-name',
    });
    expect(northOnly.rows.map((r) => r.name)).toEqual(
      await reference({ companies: [north.id], desc: true, offset: 500 }),
    );
    const acmeOnly: Scope = { companyId: acme.id, path: acme.path, subtree: false };
    const own = await listDevices(app.db, acmeOnly, { ...page, q: 'cap' });
    expect(own.rows.map((r) => r.name)).toEqual(
      await reference({ q: 'cap', companies: [acme.id], offset: 500 }),
    );
  });

  it('successful-search-rows-follow-devices: renames, new devices and deletions reach device_search', async () => {
    const rows = async () =>
      (
        (await app.db.execute(sql`select count(*)::int as n from devices d join device_search s on s.device_id = d.id
          and s.company_id = d.company_id and s.name = d.name
          and s.text = lower(d.name || chr(9) || d.serial || chr(9) || d.mac || chr(9) || coalesce(d.imei, ''))`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    const devices = async () =>
      (
        (await app.db.execute(sql`select count(*)::int as n from devices`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    await app.db.execute(
      sql`update devices set name = 'Zulu cap', imei = '356000000000001' where name = 'Cap 00007'`,
    );
    await app.db.execute(sql`delete from devices where name = 'Cap 00008'`);
    expect(await rows()).toBe(await devices());
    const last = await list('q=CAP&sort=-name&limit=1&fields=name');
    expect(last.data.map((d) => d.name)).toEqual(['Zulu cap']);
    const byImei = await list('q=356000000000001&fields=name');
    expect(byImei.data.map((d) => d.name)).toEqual(['Zulu cap']);
    // The common search reads the search rows (not the devices table): without its row a
    // device drops out of the walked page.
    await app.db.execute(sql`delete from device_search where name = 'Zulu cap'`);
    const walked = await list('q=CAP&sort=-name&limit=1&fields=name');
    expect(walked.data.map((d) => d.name)).not.toContain('Zulu cap');
    await app.db.execute(sql`update devices set name = 'Zulu cap 2' where name = 'Zulu cap'`);
    await app.db.execute(
      sql`insert into device_search select id, company_id, name, lower(name) from devices where name = 'Zulu cap 2'`,
    );
  });
});

describe('deep pages from the stretch counts (device_search_buckets, bench/list.ts)', () => {
  /** Whether every company's counts add up to its search rows (the triggers' invariant). */
  const countsMatch = async () => {
    const result = await app.db.execute(sql`
      select count(*)::int as wrong from (
        select company_id, count(*) as n from device_search group by 1
      ) s full join (
        select company_id, sum(n) as n from device_search_buckets where company_id <> 0 group by 1 having sum(n) <> 0
      ) b using (company_id)
      where s.n is distinct from b.n`);
    return (result as unknown as { rows: { wrong: number }[] }).rows[0]!.wrong === 0;
  };
  const pagesMatch = async (scope: Scope, companies: number[] | undefined, filter?: number[]) => {
    for (const desc of [false, true]) {
      for (const offset of [1, 24, 25, 333, 4000, 6999, 7020]) {
        const page = await listDevices(app.db, scope, {
          limit: 25,
          offset,
          sort: desc ? '-name' : 'name',
          companyId: filter,
        });
        expect(
          page.rows.map((r) => r.name),
          `offset ${offset}${desc ? ' desc' : ''}`,
        ).toEqual(await reference({ companies: filter ?? companies, desc, offset }));
      }
    }
  };

  it('successful-anchored-pages: deep pages by offset equal plain SQL in every scope, before and after the stretches are redrawn', async () => {
    const root: Scope = { companyId: 1, path: '/1/', subtree: true };
    const acme = await createCompany(app, 'Stretch Acme');
    const north = await createCompany(app, 'Stretch Acme North', acme.id);
    const acmeSubtree: Scope = { companyId: acme.id, path: acme.path, subtree: true };
    await app.db.execute(sql`update devices set company_id = case when id % 2 = 0 then ${acme.id}::int
      else ${north.id}::int end where name like 'Cap 1%'`);
    expect(await countsMatch()).toBe(true);
    await pagesMatch(root, undefined);
    // Stretches of 97 rows: a page's first row lands anywhere in one, or past the end.
    expect(await deviceBuckets.rebalance(app.db, { size: 97 })).toBe(true);
    expect((await deviceBuckets.shape(app.db)).largest).toBeLessThanOrEqual(97);
    expect(await countsMatch()).toBe(true);
    await pagesMatch(root, undefined);
    await pagesMatch(acmeSubtree, [acme.id, north.id]);
    await pagesMatch(acmeSubtree, undefined, [north.id]);
    // Renames across stretches, moves, a bulk insert and deletions keep the counts exact.
    await app.db.execute(sql`update devices set name = 'Aaa ' || name where name like 'Cap 05%'`);
    await app.db.execute(sql`update devices set company_id = ${acme.id}::int where name like 'Cap 06%'`);
    await app.db.execute(sql`
      insert into devices (company_id, serial, mac, name)
      select ${north.id}::int, '77' || lpad(i::text, 8, '0'), '00:1E:43:' || upper(lpad(to_hex(i), 6, '0')), 'Cap 0' || lpad(i::text, 4, '0') || 'b'
      from generate_series(0, 499) as i`);
    await app.db.execute(sql`delete from devices where name like 'Cap 03%'`);
    expect(await countsMatch()).toBe(true);
    await pagesMatch(root, undefined);
    await pagesMatch(acmeSubtree, [acme.id, north.id]);
    // An empty scope pages nothing; a page past the end is empty.
    const lonely = await createCompany(app, 'Stretch Empty');
    const empty = await listDevices(
      app.db,
      { companyId: lonely.id, path: lonely.path, subtree: true },
      {
        limit: 25,
        offset: 50,
      },
    );
    expect(empty.rows).toEqual([]);
    expect((await listDevices(app.db, root, { limit: 25, offset: 1_000_000 })).rows).toEqual([]);
  });

  it('successful-rebalance-when-uneven: the stretches are redrawn only once they have grown uneven', async () => {
    await deviceBuckets.rebalance(app.db, { size: 5000, force: true });
    expect(await deviceBuckets.rebalance(app.db, { size: 5000 })).toBe(false);
    // Every new device sorting after the last start lands in the last stretch.
    await app.db.execute(sql`
      insert into devices (company_id, serial, mac, name)
      select 1, '66' || lpad(i::text, 8, '0'), '00:1E:44:' || upper(lpad(to_hex(i), 6, '0')), 'Zz ' || i
      from generate_series(0, 5999) as i`);
    const { largest } = await deviceBuckets.shape(app.db);
    expect(largest).toBeGreaterThan(10_000);
    expect(await deviceBuckets.rebalance(app.db, { size: 5000 })).toBe(true);
    expect((await deviceBuckets.shape(app.db)).largest).toBeLessThanOrEqual(5000);
    expect(await countsMatch()).toBe(true);
    const deep = await listDevices(
      app.db,
      { companyId: 1, path: '/1/', subtree: true },
      {
        limit: 25,
        offset: 9990,
        sort: '-name',
      },
    );
    expect(deep.rows.map((r) => r.name)).toEqual(await reference({ desc: true, offset: 9990 }));
  });
});

describe('telemetry buffer while the database lags', () => {
  /** A report as a device would send it. */
  const send = (
    writer: TelemetryWriter,
    device: DeviceIdentity,
    state: StateMessage,
    received = new Date(),
  ) => writer.report(device, Buffer.from(JSON.stringify(state)), received.getTime());
  const identity = (id: number): DeviceIdentity => ({
    id,
    companyId: 1,
    serial: String(1_000_000_000 + id),
    status: 1,
    secretHash: null,
    sessionId: null,
  });

  it('successful-backpressure: above the high-water mark transports wait until a write takes the points', async () => {
    const writer = new TelemetryWriter(deviceStore(app.db).telemetry, app.log, () => undefined, {
      maxBatch: 1e6,
      highWater: 10,
    });
    const { rows } = (await app.db.execute(sql`select id from devices order by id limit 1`)) as unknown as {
      rows: { id: number }[];
    };
    const device = identity(rows[0]!.id);
    const base = Date.now() - 3_600_000;
    const add = (i: number) => send(writer, device, { at: new Date(base + i * 1000).toISOString() });
    for (let i = 0; i < 9; i++) add(i);
    expect(writer.room()).toBeUndefined();
    add(9);
    const room = writer.room();
    expect(room).toBeInstanceOf(Promise);
    expect(writer.room()).toBe(room);
    await room;
    await writer.flush();
    expect(writer).toMatchObject({ held: 1, written: 10, dropped: 0 });
    expect(writer.room()).toBeUndefined();
  });

  it('successful-console-first: a write waits while a console request is answered, then lands', async () => {
    let answered!: () => void;
    let consoleBusy: Promise<void> | undefined = new Promise<void>((resolve) => {
      answered = () => {
        consoleBusy = undefined;
        resolve();
      };
    });
    const writer = new TelemetryWriter(deviceStore(app.db).telemetry, app.log, () => undefined, {
      maxBatch: 1e6,
      yieldTo: () => consoleBusy,
    });
    const { rows } = (await app.db.execute(
      sql`select id from devices order by id desc limit 1`,
    )) as unknown as {
      rows: { id: number }[];
    };
    const device = identity(rows[0]!.id);
    send(writer, device, { at: new Date(Date.now() - 7_200_000).toISOString() });
    // The devices' traffic does not wait for the console: there is room.
    expect(writer.room()).toBeUndefined();
    const flushed = writer.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writer.written).toBe(0);
    answered();
    await flushed;
    expect(writer).toMatchObject({ written: 1, dropped: 0 });
    expect(writer.room()).toBeUndefined();
  });

  it('successful-states-once-a-second: in a burst the devices’ states wait for a later write, and the latest lands', async () => {
    const { rows } = (await app.db.execute(sql`select id from devices order by id limit 2`)) as unknown as {
      rows: { id: number }[];
    };
    const [a, b] = rows.map((r) => identity(r.id)) as [DeviceIdentity, DeviceIdentity];
    const store = deviceStore(app.db).telemetry;
    const written: string[] = [];
    let release!: () => void;
    const firstWrite = new Promise<void>((resolve) => {
      release = resolve;
    });
    let prepared = 0;
    const writer = new TelemetryWriter(
      {
        ...store,
        write: async (batch) => {
          written.push(batch.states);
          if (written.length === 1) await firstWrite;
          await store.write(batch);
        },
      },
      app.log,
      () => undefined,
      {
        maxBatch: 2,
        maxWrite: 2,
        statesEveryMs: 60_000,
        prepare: async (batch) => {
          prepared++;
          return prepareReports(batch);
        },
      },
    );
    const base = Date.now() - 600_000;
    for (let i = 0; i < 6; i++)
      send(writer, i % 2 ? b : a, { at: new Date(base + i * 1000).toISOString(), signal: -50 - i });
    const flushed = writer.flush();
    // The first write (states at once: none went yet) waits until every batch is ready.
    await vi.waitFor(() => expect(prepared).toBe(3));
    release();
    await flushed;

    expect(written).toHaveLength(3);
    expect(JSON.parse(written[0]!)).toHaveLength(2);
    // The second batch's states wait: a third is ready behind it.
    expect(written[1]).toBe('[]');
    // The last write takes the second's and its own: each device once, its latest.
    expect(JSON.parse(written[2]!).map((state: { signal: number }) => state.signal)).toEqual([-54, -55]);
    const states = (await app.db.execute(
      sql`select device_id, signal from device_state where device_id in (${a.id}, ${b.id}) order by device_id`,
    )) as unknown as { rows: { device_id: number; signal: number }[] };
    expect(states.rows).toEqual([
      { device_id: a.id, signal: -54 },
      { device_id: b.id, signal: -55 },
    ]);
    expect(writer).toMatchObject({ written: 6, dropped: 0 });
  });

  it('failing-backpressure-bounded: a stuck write holds connections at most maxHoldMs; failed writes hold none', async () => {
    const write = vi.spyOn(telemetryRepository, 'writeEncoded');
    const point = (w: TelemetryWriter, i: number) =>
      send(w, identity(1), { at: new Date(Date.now() - i).toISOString() });
    try {
      write.mockImplementation(() => new Promise(() => undefined));
      const slow = new TelemetryWriter(deviceStore(app.db).telemetry, app.log, () => undefined, {
        maxBatch: 1e6,
        highWater: 2,
        maxHoldMs: 50,
      });
      point(slow, 1);
      point(slow, 2);
      await slow.room(); // the first write takes these two, and never ends
      point(slow, 3);
      point(slow, 4);
      const started = performance.now();
      await slow.room();
      expect(performance.now() - started).toBeGreaterThanOrEqual(45);
      write.mockRejectedValue(new Error('database down'));
      const failing = new TelemetryWriter(deviceStore(app.db).telemetry, app.log, () => undefined, {
        maxBatch: 1e6,
        highWater: 2,
      });
      point(failing, 1);
      point(failing, 2);
      await failing.flush();
      point(failing, 3);
      point(failing, 4);
      expect(failing.room()).toBeUndefined();
      expect(failing.dropped).toBe(2);
    } finally {
      write.mockRestore();
    }
  });

  it('failing-prepare: a batch the worker could not prepare is counted as dropped, and the next is written', async () => {
    const { rows } = (await app.db.execute(sql`select id from devices order by id limit 1`)) as unknown as {
      rows: { id: number }[];
    };
    const device = identity(rows[0]!.id);
    let calls = 0;
    const checked: number[] = [];
    const writer = new TelemetryWriter(deviceStore(app.db).telemetry, app.log, () => undefined, {
      maxBatch: 1e6,
      prepare: async (batch) => {
        if (++calls === 1) throw new Error('worker gone');
        return prepareReports(batch);
      },
    });
    writer.onChecked((accepted, rejected) => checked.push(accepted, rejected.length));
    const base = Date.now() - 7_200_000;
    const add = (i: number) =>
      send(writer, device, { at: new Date(base + i * 1000).toISOString(), signal: -60 });
    for (let i = 0; i < 3; i++) add(i);
    await writer.flush();
    expect(writer).toMatchObject({ written: 0, dropped: 3 });
    for (let i = 3; i < 5; i++) add(i);
    writer.report(device, Buffer.from('{"signal":"strong"}'));
    await writer.flush();
    expect(writer).toMatchObject({ written: 2, dropped: 4 });
    expect(checked).toEqual([2, 1]);
    const [stored] = rowsOf<{ n: number }>(
      await app.db.execute(
        sql`select count(*)::int as n from device_telemetry where device_id = ${device.id} and at >= ${new Date(base).toISOString()}::timestamptz and at < ${new Date(base + 10_000).toISOString()}::timestamptz`,
      ),
    );
    expect(stored!.n).toBe(2);
  });

  it('failing-overflow: keeps the newest points and counts every dropped one', async () => {
    const writer = new TelemetryWriter(deviceStore(app.db).telemetry, app.log, () => undefined, {
      maxBuffered: 100,
      maxBatch: 1e6,
    });
    const received = new Date();
    for (let i = 0; i < 250; i++) send(writer, identity(1), { signal: -i }, received);
    const queued = (writer as unknown as { pending: { payload: Uint8Array }[] }).pending;
    const kept = queued.map((r) => JSON.parse(Buffer.from(r.payload).toString()) as { signal: number });
    expect(writer.dropped + kept.length).toBe(250);
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(kept.at(-1)?.signal).toBe(-249);
    expect(kept[0]?.signal).toBe(-(250 - kept.length));
  });
});

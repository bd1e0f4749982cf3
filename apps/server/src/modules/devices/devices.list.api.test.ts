import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTestApp, TestClient } from '../../../test/app';
import { TelemetryWriter } from '../../gateway/telemetry-writer';
import { DEVICE_COUNT_CAP } from './devices.list';

/**
 * The devices list past its count cap (issue 5 §7, bench/list.ts): exact totals up to the
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

describe('devices list beyond the count cap (issue 5 §7)', () => {
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

describe('telemetry buffer while the database lags (issue 5 §2)', () => {
  it('failing-overflow: keeps the newest points and counts every dropped one', async () => {
    const writer = new TelemetryWriter(app.db, app.log, () => undefined, { maxBuffered: 100, maxBatch: 1e6 });
    const received = new Date();
    for (let i = 0; i < 250; i++) writer.add({ id: 1 }, { signal: -i } as never, received);
    const kept = (writer as unknown as { points: { signal: number }[] }).points;
    expect(writer.dropped + kept.length).toBe(250);
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(kept.at(-1)?.signal).toBe(-249);
    expect(kept[0]?.signal).toBe(-(250 - kept.length));
  });
});

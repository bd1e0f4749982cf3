import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTags, tags } from '#src/db/schema/tags';
import { buildTestApp, type TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { telemetryRepository } from './telemetry.repository';

/** What the console's device page reads beyond the list: action batches and chart series. */

let app: FastifyInstance;
let acmeAdmin: TestClient;
let betaAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  acmeAdmin = await signedIn(app, 'admin@acme.test');
  betaAdmin = await signedIn(app, 'admin@beta.test');
});
afterAll(() => app.close());

async function addDevice(serial: string, mac: string): Promise<number> {
  const response = await acmeAdmin.post('/api/devices', { serial, mac, company_id: tree.acme.id });
  expect(response.statusCode).toBe(200);
  return response.json().data.id;
}

describe('action batches (product §4 Action status)', () => {
  it('successful-batch-read: answers the commands of one request, so the dialog starts from their state', async () => {
    const one = await addDevice('3300000001', '00:1E:42:33:00:01');
    const two = await addDevice('3300000002', '00:1E:42:33:00:02');
    const response = await acmeAdmin.post('/api/devices/actions', {
      action: 'reboot',
      device_id: [one, two],
    });
    const channel: string = response.json().meta.channel;
    const batchId = channel.replace(/^action\./, '');

    const batch = await acmeAdmin.get(`/api/devices/actions/${batchId}`);
    expect(batch.statusCode).toBe(200);
    expect(batch.json().meta.total).toBe(2);
    expect(
      batch
        .json()
        .data.map((c: { device_id: number; status: string; action: string }) => [
          c.device_id,
          c.action,
          c.status,
        ]),
    ).toEqual([
      [one, 'reboot', 'pending'],
      [two, 'reboot', 'pending'],
    ]);
  });

  it('failing-batch-read: another company, or no such batch, answers 404', async () => {
    const id = await addDevice('3300000003', '00:1E:42:33:00:03');
    const response = await acmeAdmin.post('/api/devices/actions', { action: 'reboot', device_id: [id] });
    const batchId = String(response.json().meta.channel).replace(/^action\./, '');
    expect((await betaAdmin.get(`/api/devices/actions/${batchId}`)).statusCode).toBe(404);
    expect(
      (await acmeAdmin.get('/api/devices/actions/3f2c9a4e-8b1d-4c6e-9f0a-1b2c3d4e5f60')).statusCode,
    ).toBe(404);
    expect((await acmeAdmin.get('/api/devices/actions/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('chart series (metrics tabs)', () => {
  it('successful-chart-series: adds signal quality, I/O and GPS values from their columns, raw and averaged', async () => {
    const id = await addDevice('3300000010', '00:1E:42:33:00:10');
    const now = Date.now();
    const point = (minutesAgo: number, ain: number, speed: number) => ({
      deviceId: id,
      at: new Date(now - minutesAgo * 60_000),
      signal: -70,
      rsrp: -95,
      rsrq: -11,
      sinr: 14,
      ain,
      acl: 12.5,
      speed,
      alt: 112,
      satellites: 9,
    });
    await telemetryRepository.writeBatch(app.db, [point(20, 12, 40), point(10, 13, 60)], []);
    // A point without these values (the device did not report them) reads as null.
    await telemetryRepository.writeBatch(app.db, [{ deviceId: id, at: new Date(now - 5 * 60_000) }], []);

    const raw = (await acmeAdmin.get(`/api/devices/${id}/telemetry`)).json().data;
    expect(raw).toHaveLength(3);
    expect(raw[0]).toMatchObject({ rsrp: -95, rsrq: -11, sinr: 14, ain: 12, acl: 12.5, speed: 40, alt: 112 });
    expect(raw[0].satellites).toBe(9);
    expect(raw[2]).toMatchObject({ ain: null, acl: null, speed: null, rsrp: null });

    const from = new Date(now - 3_600_000).toISOString();
    const hourly = (await acmeAdmin.get(`/api/devices/${id}/telemetry?bucket=3600&from=${from}`)).json().data;
    const ains = hourly.map((p: { ain: number | null }) => p.ain).filter((v: number | null) => v !== null);
    // Averages of 12 and 13 (one or two buckets, depending on where the hour turns).
    for (const v of ains) expect(v).toBeGreaterThanOrEqual(12);
    for (const v of ains) expect(v).toBeLessThanOrEqual(13);
    expect(ains.length).toBeGreaterThan(0);
  });
});

describe('data usage per day (data-usage tab)', () => {
  it('successful-daily-usage: sums counter increases per day of the zone, a reset counting from zero', async () => {
    const id = await addDevice('3300000030', '00:1E:42:33:00:30');
    const day = (offset: number, hour: number) => {
      const d = new Date();
      d.setUTCDate(d.getUTCDate() - offset);
      d.setUTCHours(hour, 0, 0, 0);
      return d;
    };
    const point = (at: Date, rx: number) => ({
      deviceId: id,
      at,
      rxBytes: rx,
      txBytes: rx / 10,
    });
    // Two days ago: 1000 → 1500 (+500). Yesterday: → 1800 (+300), reset to 100 (+100), → 400 (+300).
    await telemetryRepository.writeBatch(
      app.db,
      [
        point(day(2, 1), 1000),
        point(day(2, 5), 1500),
        point(day(1, 1), 1800),
        point(day(1, 2), 100),
        point(day(1, 3), 400),
      ],
      [],
    );
    const usage = (await acmeAdmin.get(`/api/devices/${id}/data-usage?days=7&tz=UTC`)).json().data;
    expect(usage).toEqual([
      { day: day(2, 0).toISOString().slice(0, 10), rx: 500, tx: 50 },
      { day: day(1, 0).toISOString().slice(0, 10), rx: 700, tx: 70 },
    ]);
    // The same points, in a zone 9 h ahead of UTC, fall on other days.
    const tokyo = (await acmeAdmin.get(`/api/devices/${id}/data-usage?days=7&tz=Asia/Tokyo`)).json().data;
    expect(tokyo.reduce((n: number, d: { rx: number }) => n + d.rx, 0)).toBe(1200);
    expect((await acmeAdmin.get(`/api/devices/${id}/data-usage?tz=Mars/Olympus`)).statusCode).toBe(400);
    expect((await betaAdmin.get(`/api/devices/${id}/data-usage`)).statusCode).toBe(404);
  });

  it('successful-one-total: the 30-day total of the metrics equals the days of the data-usage tab added up', async () => {
    const id = await addDevice('3300000031', '00:1E:42:33:00:31');
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000);
    // A point just before the 30 days (the baseline), steps inside them, a reset, and the
    // last day's step from a point just before that day.
    const counters: [number, number][] = [
      [30 * 24 + 2, 5000],
      [29 * 24, 5600],
      [20 * 24, 7000],
      [10 * 24, 300],
      [5 * 24, 900],
      [26, 1000],
      [2, 1500],
    ];
    await telemetryRepository.writeBatch(
      app.db,
      counters.map(([hoursAgo, rx]) => ({ deviceId: id, at: at(hoursAgo), rxBytes: rx, txBytes: rx * 2 })),
      [],
    );
    const metrics = (await acmeAdmin.get(`/api/devices/${id}/metrics`)).json().data.data_usage;
    // 5000 → 5600 (+600) → 7000 (+1400) → reset 300 (+300) → 900 (+600) → 1000 (+100) → 1500 (+500).
    expect(metrics.last_30d).toEqual({ rx: 3500, tx: 7000 });
    expect(metrics.last_24h).toEqual({ rx: 500, tx: 1000 });
    const days = (await acmeAdmin.get(`/api/devices/${id}/data-usage?days=31&tz=UTC`)).json().data as {
      rx: number;
      tx: number;
    }[];
    expect(days.reduce((n, d) => n + d.rx, 0)).toBe(metrics.last_30d.rx);
    expect(days.reduce((n, d) => n + d.tx, 0)).toBe(metrics.last_30d.tx);
  });
});

describe('device header tags', () => {
  it('successful-device-tags: the device page lists its tags, but not those of a company out of reach', async () => {
    const id = await addDevice('3300000020', '00:1E:42:33:00:20');
    const [mine] = await app.db
      .insert(tags)
      .values({ companyId: tree.acme.id, name: 'Depot', color: '#2f9e44' })
      .returning();
    const [foreign] = await app.db
      .insert(tags)
      .values({ companyId: tree.beta.id, name: 'Beta only', color: '#e03131' })
      .returning();
    await app.db.insert(deviceTags).values([
      { deviceId: id, tagId: mine!.id },
      { deviceId: id, tagId: foreign!.id },
    ]);
    const device = (await acmeAdmin.get(`/api/devices/${id}`)).json().data;
    expect(device.tags).toEqual([{ id: mine!.id, name: 'Depot', color: '#2f9e44' }]);

    // The table's tag filter: the tagged device only; a tag of another company matches nothing.
    const tagged = (await acmeAdmin.get(`/api/devices?tag_id=${mine!.id}`)).json();
    expect(tagged.data.map((d: { id: number }) => d.id)).toEqual([id]);
    expect(tagged.meta.total).toBe(1);
    expect((await acmeAdmin.get(`/api/devices?tag_id=${foreign!.id}`)).json().meta.total).toBe(0);
  });
});

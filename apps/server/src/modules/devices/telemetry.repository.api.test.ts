import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceState, devices, deviceTelemetry } from '#src/db/schema/devices';
import { buildTestApp } from '#test/app';
import { devicesRepository } from './devices.repository';
import { telemetryRepository } from './telemetry.repository';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

/** Device number `n` of these tests, in the root company. */
const batchDevice = (n: number, name: string) =>
  devicesRepository.insert(app.db, {
    companyId: 1,
    serial: `BATCH000${n}`,
    mac: `00:1E:42:BA:00:0${n}`,
    name,
  });

describe('telemetry batches', () => {
  it('successful-large-batch-write: stores a batch larger than one statement can bind', async () => {
    const device = await batchDevice(1, 'batch');
    const now = Date.now();
    // 7000 points × 17 columns: far over the 65 535 parameters one statement may bind.
    const points = Array.from({ length: 7000 }, (_, i) => ({
      deviceId: device!.id,
      at: new Date(now - i * 1000),
      signal: -70,
      temperature: 41.5,
      uptime: 86_400 - i,
      rxBytes: 1e6 - i,
      txBytes: 1e5 - i,
      lat: 54.68,
      lon: 25.27,
      rsrp: -100,
      payload: { signal: -70 },
    }));
    await telemetryRepository.writeBatch(app.db, points, [points[0]!]);

    const stored = await app.db
      .select()
      .from(deviceTelemetry)
      .where(eq(deviceTelemetry.deviceId, device!.id));
    expect(stored).toHaveLength(7000);
    const [state] = await app.db.select().from(deviceState).where(eq(deviceState.deviceId, device!.id));
    expect(state?.at.getTime()).toBe(now);
  });

  it('successful-repeated-points: a point sent again is skipped; the last state keeps its text intact', async () => {
    const device = await batchDevice(2, 'repeats');
    const id = device!.id;
    const base = Date.now() - 60_000;
    const point = (second: number, signal: number) => ({
      deviceId: id,
      at: new Date(base + second * 1000),
      signal,
      rsrp: signal - 30,
      satellites: 7,
    });
    // Twice the same second within one batch: the first one wins.
    await telemetryRepository.writeBatch(app.db, [point(0, -60), point(1, -61), point(0, -99)], []);
    // A stored second again beside a new one: the batch still lands, the stored point stays.
    const operator = 'Tab\there\nnew line \\ back\\slash "quoted" \u00e9';
    const state = { ...point(2, -62), operator, payload: { signal: -62, operator } };
    await telemetryRepository.writeBatch(app.db, [point(1, -98), point(2, -62)], [state]);
    const stored = await app.db
      .select({
        signal: deviceTelemetry.signal,
        rsrp: deviceTelemetry.rsrp,
        satellites: deviceTelemetry.satellites,
      })
      .from(deviceTelemetry)
      .where(eq(deviceTelemetry.deviceId, id))
      .orderBy(deviceTelemetry.at);
    expect(stored).toEqual([
      { signal: -60, rsrp: -90, satellites: 7 },
      { signal: -61, rsrp: -91, satellites: 7 },
      { signal: -62, rsrp: -92, satellites: 7 },
    ]);
    const [last] = await app.db.select().from(deviceState).where(eq(deviceState.deviceId, id));
    expect(last).toMatchObject({ signal: -62, operator, payload: { operator } });
  });

  it('successful-state-moves-forward: a late batch with an older report keeps the newer state and last-seen time', async () => {
    const device = await batchDevice(4, 'late');
    const now = Date.now();
    const point = (ago: number, signal: number) => ({
      deviceId: device!.id,
      at: new Date(now - ago),
      signal,
      operator: 'Telia',
      payload: { signal },
    });
    await telemetryRepository.writeBatch(app.db, [point(1000, -60)], [point(1000, -60)]);
    await telemetryRepository.writeBatch(app.db, [point(60_000, -90)], [point(60_000, -90)]);
    const [state] = await app.db.select().from(deviceState).where(eq(deviceState.deviceId, device!.id));
    expect(state).toMatchObject({ signal: -60, operator: 'Telia', payload: { signal: -60 } });
    const [row] = await app.db.select().from(devices).where(eq(devices.id, device!.id));
    expect(row?.lastSeenAt?.getTime()).toBe(now - 1000);
  });

  it('successful-points-follow-devices: a removed device takes its points with it (trigger, no foreign key)', async () => {
    const device = await batchDevice(3, 'removed');
    const at = new Date();
    const point = { deviceId: device!.id, at, signal: -70, payload: { signal: -70 } };
    await telemetryRepository.writeBatch(app.db, [point], [point]);
    const stored = () =>
      app.db.select().from(deviceTelemetry).where(eq(deviceTelemetry.deviceId, device!.id));
    expect(await stored()).toHaveLength(1);
    await app.db.delete(devices).where(eq(devices.id, device!.id));
    expect(await stored()).toHaveLength(0);
  });
});

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app';
import { deviceState, deviceTelemetry } from '../../db/schema/devices';
import { devicesRepository } from './devices.repository';
import { telemetryRepository } from './telemetry.repository';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

describe('telemetry batches (issue 5 §2)', () => {
  it('successful-large-batch-write: stores a batch larger than one statement can bind', async () => {
    const device = await devicesRepository.insert(app.db, {
      companyId: 1,
      serial: 'BATCH0001',
      mac: '00:1E:42:BA:00:01',
      name: 'batch',
    });
    const now = Date.now();
    // 7000 points × 10 columns is over the 65 535 parameters one statement may bind.
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
});

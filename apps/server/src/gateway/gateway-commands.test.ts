import { randomUUID } from 'node:crypto';
import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import type { CommandMessage } from '@fleetgate/shared/devices/messages';
import { MAX_FRAME_BYTES, PAYLOAD_LIMITS } from '@fleetgate/shared/devices/messages';
import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { topics } from '@fleetgate/shared/devices/topics';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClient } from '#test/app';
import { openTestDatabase } from '#test/database';
import {
  buildGatewayApp,
  keepOpen,
  onlineAgent,
  rawWithSecret,
  registerDirect,
  testIdentity,
  waitFor,
} from '#test/devices';
import { deviceCommands, deviceState, deviceTelemetry } from '../db/schema/devices';
import { commandsRepository } from '../modules/devices/commands.repository';
import { devicesRepository } from '../modules/devices/devices.repository';
import { telemetryRepository } from '../modules/devices/telemetry.repository';

let app: FastifyInstance;
let admin: TestClient;
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  app = await buildGatewayApp();
  admin = await new TestClient(app).login();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await app.close();
});

async function command(id: string) {
  const [row] = await app.db.select().from(deviceCommands).where(eq(deviceCommands.id, id));
  return row!;
}

async function cli(deviceId: number, text: string, extra: Record<string, unknown> = {}) {
  const response = await admin.post('/api/devices/actions', {
    action: 'cli',
    device_id: [deviceId],
    params: { command: text },
    ...extra,
  });
  expect(response.statusCode).toBe(200);
  return response.json().data[0].command_id as string;
}

async function waitOffline(deviceId: number) {
  await waitFor(
    async () => (await devicesRepository.findById(app.db, deviceId))?.status === DEVICE_STATUS.offline,
    {
      what: 'device offline',
    },
  );
}

describe('durable commands', () => {
  it('an offline device receives its queued commands in order when it returns', async () => {
    const identity = testIdentity();
    const device = await registerDirect(app, identity);
    const first = await onlineAgent(app, identity);
    await first.stop();
    await waitOffline(device.id);

    const ids: string[] = [];
    for (const word of ['one', 'two', 'three', 'four']) ids.push(await cli(device.id, `echo ${word}`));
    for (const id of ids) expect((await command(id)).status).toBe('pending');

    const seen: string[] = [];
    const agent = await onlineAgent(app, identity, {
      secret: first.secret!,
      before: (a) => a.on('command', (c: CommandMessage) => seen.push(c.id)),
    });
    agents.push(agent);
    await waitFor(async () => (await Promise.all(ids.map(command))).every((c) => c.status === 'done'), {
      what: 'all commands done',
    });
    expect(seen).toEqual(ids);
    expect((await Promise.all(ids.map(command))).map((c) => c.output)).toEqual([
      'one\n',
      'two\n',
      'three\n',
      'four\n',
    ]);
    const history = (await admin.get(`/api/devices/${device.id}/commands`)).json();
    expect(history.meta.total).toBe(4);
  });

  it('a command survives a server restart between commit and publish', async () => {
    const database = keepOpen(await openTestDatabase());
    const first = await buildGatewayApp({ database });
    const identity = testIdentity();
    const device = await registerDirect(first, identity);
    const agent = await onlineAgent(first, identity);
    const secret = agent.secret!;
    // The row is committed, and the server dies before it publishes anything.
    const [row] = await commandsRepository.insertMany(first.db, [
      {
        deviceId: device.id,
        companyId: 1,
        batchId: randomUUID(),
        action: 'cli',
        params: { command: 'echo survived' },
        expiresAt: new Date(Date.now() + 600_000),
        createdBy: null,
      },
    ]);
    await agent.stop(true);
    await first.close();

    const second = await buildGatewayApp({ database });
    try {
      const back = await onlineAgent(second, identity, { secret });
      const done = await waitFor(async () => {
        const [c] = await second.db.select().from(deviceCommands).where(eq(deviceCommands.id, row!.id));
        return c?.status === 'done' ? c : undefined;
      });
      expect(done.output).toBe('survived\n');
      await back.stop();
    } finally {
      await second.close();
      await database.reallyClose();
    }
  });

  it('expires open commands past their TTL; a returning device never gets them', async () => {
    const identity = testIdentity();
    const device = await registerDirect(app, identity);
    const first = await onlineAgent(app, identity);
    await first.stop();
    await waitOffline(device.id);
    const id = await cli(device.id, 'echo late', { ttl_seconds: 10 });
    await app.db
      .update(deviceCommands)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(deviceCommands.id, id));
    expect(await app.gateway.commands.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect((await command(id)).status).toBe('expired');

    const agent = await onlineAgent(app, identity, { secret: first.secret! });
    agents.push(agent);
    const probe = await cli(device.id, 'echo fresh');
    await waitFor(async () => (await command(probe)).status === 'done');
    expect((await command(id)).status).toBe('expired');
  });

  it('cancels a pending command, and only a pending one', async () => {
    const identity = testIdentity();
    const device = await registerDirect(app, identity);
    const id = await cli(device.id, 'echo never');
    const cancelled = await admin.post(`/api/devices/commands/${id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.status).toBe('cancelled');
    const again = await admin.post(`/api/devices/commands/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    const agent = await onlineAgent(app, identity);
    agents.push(agent);
    const probe = await cli(device.id, 'echo after');
    await waitFor(async () => (await command(probe)).status === 'done');
    expect((await command(id)).status).toBe('cancelled');
  });

  it('a device cannot move another device’s command with a forged reply', async () => {
    const victim = testIdentity();
    const forger = testIdentity();
    const v = await registerDirect(app, victim);
    await registerDirect(app, forger);
    const id = await cli(v.id, 'echo mine');
    const raw = await rawWithSecret(app, forger);
    await raw.client.publishAsync(
      topics.reply(forger.serial, id),
      JSON.stringify({ id, status: 'done', output: 'forged' }),
      {
        qos: 1,
      },
    );
    await raw.client.endAsync();
    expect((await command(id)).status).toBe('pending');
  });
});

describe('hostile payloads and telemetry', () => {
  it('drops malformed and oversized payloads without hurting the gateway, and writes telemetry in batches', async () => {
    const identity = testIdentity('RUT955');
    const device = await registerDirect(app, identity);
    const raw = await rawWithSecret(app, identity);
    const before = app.gateway.stats();
    const publish = (payload: string | Buffer) =>
      raw.client.publishAsync(topics.state(identity.serial), payload, { qos: 1 });
    await publish('{not json');
    await publish(JSON.stringify({ signal: 'strong' }));
    // Valid JSON that PostgreSQL cannot store (NUL): dropped alone, not failing the batch.
    await publish('{"signal":-50,"operator":"\\u0000"}');
    await publish(Buffer.alloc(PAYLOAD_LIMITS.state + 1, 0x20));
    await publish(JSON.stringify({ signal: -71, temperature: 41.5, data: { rx: 1000, tx: 200 } }));
    await waitFor(
      () =>
        app.gateway.stats().handled > before.handled &&
        app.gateway.stats().droppedMalformed >= before.droppedMalformed + 3,
    );
    const after = app.gateway.stats();
    expect(after.droppedMalformed - before.droppedMalformed).toBe(3);
    expect(after.droppedOversized - before.droppedOversized).toBe(1);
    await app.gateway.telemetry.flush();
    const [state] = await app.db.select().from(deviceState).where(eq(deviceState.deviceId, device.id));
    expect(state).toMatchObject({ signal: -71, temperature: 41.5, rxBytes: 1000 });
    const points = await app.db.select().from(deviceTelemetry).where(eq(deviceTelemetry.deviceId, device.id));
    expect(points).toHaveLength(1);

    // A frame larger than the broker accepts closes that connection, before it is buffered.
    const closed = new Promise<void>((resolve) => raw.client.once('close', () => resolve()));
    raw.client.publish(topics.state(identity.serial), Buffer.alloc(MAX_FRAME_BYTES + 1, 0x20), { qos: 0 });
    await closed;
    raw.client.end(true);

    // The gateway lives on: the device connects again and is served.
    const back = await onlineAgent(app, identity, { secret: raw.secret });
    agents.push(back);
    const probe = await cli(device.id, 'uname -a');
    const done = await waitFor(async () => {
      const c = await command(probe);
      return c.status === 'done' ? c : undefined;
    });
    expect(done.output).toContain('RUT955');
  });

  it('while the telemetry writer has no room, the broker holds the device’s reports, and nothing is lost', async () => {
    const identity = testIdentity();
    const device = await registerDirect(app, identity);
    const raw = await rawWithSecret(app, identity);
    const writer = app.gateway.telemetry;
    const room = writer.room.bind(writer);
    let makeRoom!: () => void;
    const full = new Promise<void>((resolve) => {
      makeRoom = resolve;
    });
    writer.room = () => full;
    const told = vi.spyOn(app.broker!, 'send');
    const toldBroker = (t: string) => told.mock.calls.some(([message]) => message.t === t);
    try {
      // Each report its own time: points are kept one per device and instant.
      const start = Date.now() - 60_000;
      const report = (n: number) =>
        raw.client.publishAsync(
          topics.state(identity.serial),
          JSON.stringify({ at: start + n * 1000, signal: -60 - n }),
          { qos: 0 },
        );
      for (let n = 0; n < 20; n++) await report(n);
      // No room: the broker's thread is told to hold telemetry (Aedes then stops reading
      // the connection on once what it has read is handled), and stays told until room comes.
      await waitFor(() => toldBroker('hold'), { what: 'the broker told to hold' });
      expect(toldBroker('release')).toBe(false);
      writer.room = room;
      makeRoom();
      await waitFor(() => toldBroker('release'), { what: 'the broker told to go on' });

      await writer.flush();
      const points = await app.db
        .select()
        .from(deviceTelemetry)
        .where(eq(deviceTelemetry.deviceId, device.id));
      expect(points.map((p) => p.signal).sort((x, y) => y! - x!)).toEqual(
        Array.from({ length: 20 }, (_, n) => -60 - n),
      );
    } finally {
      told.mockRestore();
      writer.room = room;
      makeRoom();
      raw.client.end(true);
    }
  });

  it('unregistering a device ends its session', async () => {
    const identity = testIdentity();
    const device = await registerDirect(app, identity);
    const agent = await onlineAgent(app, identity);
    agents.push(agent);
    const offline = new Promise<void>((resolve) => agent.once('offline', () => resolve()));
    expect((await admin.delete(`/api/devices/${device.id}`)).statusCode).toBe(200);
    await offline;
    expect(await devicesRepository.findById(app.db, device.id)).toBeUndefined();
  });
});

describe('telemetry reads and retention', () => {
  it('sums data usage across a counter reset, buckets charts, and deletes points past retention', async () => {
    const identity = testIdentity();
    const device = await registerDirect(app, identity);
    const now = Date.now();
    const point = (minutesAgo: number, rx: number, signal: number) => ({
      deviceId: device.id,
      at: new Date(now - minutesAgo * 60_000),
      rxBytes: rx,
      txBytes: rx * 2,
      signal,
      payload: {},
    });
    // 100 → 300 (+200), reset to 50 (+50), → 150 (+100): 350 bytes received.
    const points = [point(40, 100, -70), point(30, 300, -80), point(20, 50, -90), point(10, 150, -60)];
    await telemetryRepository.writeBatch(app.db, points, [{ ...points[3]! }]);
    await telemetryRepository.writeBatch(app.db, [point(60 * 24 * 40, 1, -100)], []);

    const metrics = (await admin.get(`/api/devices/${device.id}/metrics`)).json().data;
    expect(metrics.data_usage.last_24h).toEqual({ rx: 350, tx: 700 });
    const raw = (await admin.get(`/api/devices/${device.id}/telemetry`)).json();
    expect(raw.data.map((p: { signal: number }) => p.signal)).toEqual([-70, -80, -90, -60]);
    const from = new Date(now - 3_600_000).toISOString();
    const hourly = (await admin.get(`/api/devices/${device.id}/telemetry?bucket=3600&from=${from}`)).json();
    expect(hourly.data.length).toBeGreaterThanOrEqual(1);
    expect(hourly.data.length).toBeLessThanOrEqual(2);
    const averaged =
      hourly.data.reduce((n: number, p: { signal: number }) => n + p.signal, 0) / hourly.data.length;
    expect(averaged).toBeLessThan(-59);

    const deleted = await telemetryRepository.deleteOlderThan(app.db, new Date(now - 30 * 86_400_000), 1);
    expect(deleted).toBe(1);
    const left = await app.db.select().from(deviceTelemetry).where(eq(deviceTelemetry.deviceId, device.id));
    expect(left).toHaveLength(4);
  });
});

import { randomInt } from 'node:crypto';
import { Socket } from 'node:net';
import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import { fleetDevice } from '@fleetgate/device-sim/identity';
import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { topics } from '@fleetgate/shared/devices/topics';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '#test/app';
import { openTestDatabase } from '#test/database';
import { buildGatewayApp, keepOpen, onlineAgent, rawConnect, registerDirect, waitFor } from '#test/devices';
import { digest } from '../auth/tokens';
import { deviceCommands, deviceState, devices } from '../db/schema/devices';
import { devicesRepository } from '../modules/devices/devices.repository';

/** The machine's Mosquitto (test the external-broker path when it answers). */
const MOSQUITTO = 'mqtt://127.0.0.1:1883';

function brokerAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(1883, '127.0.0.1', () => done(true));
  });
}

const available = await brokerAnswers();
if (!available) {
  console.warn('Mosquitto is not answering on 127.0.0.1:1883: the external-broker tests are skipped.');
}

describe.skipIf(!available)('external broker with MQTT 5 shared subscriptions (MQTT_URL)', () => {
  const group = `fgtest${randomInt(1e9)}`;
  const fleet = randomInt(10, 89);
  const identities = Array.from({ length: 12 }, (_, i) => fleetDevice(fleet, 90_000 + i));
  const agents: DeviceAgent[] = [];
  /** Devices of the presence tests, registered by each test (their retained status is cleared too). */
  const presenceDevices = Array.from({ length: 4 }, (_, i) => fleetDevice(fleet, 90_100 + i));
  const rawClients: mqtt.MqttClient[] = [];
  let database: ReturnType<typeof keepOpen>;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    database = keepOpen(await openTestDatabase());
    const env = { MQTT_URL: MOSQUITTO, MQTT_SHARED_GROUP: group };
    one = await buildGatewayApp({ database, env });
    two = await buildGatewayApp({ database, env });
    for (const identity of identities) {
      const device = await registerDirect(one, identity);
      // Provisioned already: on an external broker, authentication is the broker's job.
      await one.db
        .update(devices)
        .set({ secretHash: digest('broker-side') })
        .where(eq(devices.id, device.id));
    }
  });

  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    for (const client of rawClients) client.end(true);
    // Leave no retained status behind on the shared broker.
    const cleaner = await mqtt.connectAsync(MOSQUITTO, { protocolVersion: 5 });
    for (const identity of [...identities, ...presenceDevices])
      await cleaner.publishAsync(topics.status(identity.serial), '', { retain: true, qos: 1 });
    await cleaner.endAsync();
    await one?.close();
    await two?.close();
    await database?.reallyClose();
  });

  it('two server instances split device traffic and both see every status', async () => {
    for (const identity of identities) {
      agents.push(await onlineAgent(one, identity, { url: MOSQUITTO, secret: 'broker-side' }));
    }
    for (const agent of agents) agent.tick();
    const ids = (await one.db.select({ id: devices.id }).from(devices)).map((d) => d.id);
    await waitFor(
      async () => {
        const rows = await one.db.select().from(devices).where(inArray(devices.id, ids));
        return rows.every((r) => r.status === DEVICE_STATUS.online && r.originalModel !== null);
      },
      { what: 'all devices online with hello stored' },
    );
    await waitFor(() => {
      const a = one.gateway.stats().byKind;
      const b = two.gateway.stats().byKind;
      return (a.state ?? 0) + (b.state ?? 0) === identities.length;
    });
    const a = one.gateway.stats().byKind;
    const b = two.gateway.stats().byKind;
    expect((a.hello ?? 0) + (b.hello ?? 0)).toBe(identities.length);
    // The shared subscription gave each instance a part; status went to both.
    expect(a.hello ?? 0).toBeGreaterThan(0);
    expect(b.hello ?? 0).toBeGreaterThan(0);
    expect(a.status).toBeGreaterThanOrEqual(identities.length);
    expect(b.status).toBeGreaterThanOrEqual(identities.length);
    await one.gateway.telemetry.flush();
    await two.gateway.telemetry.flush();
    const states = await one.db.select().from(deviceState).where(inArray(deviceState.deviceId, ids));
    expect(states).toHaveLength(identities.length);
  });

  it('delivers a command through the external broker and records the reply', async () => {
    const admin = await new TestClient(two).login();
    const [device] = await two.db.select().from(devices).where(eq(devices.serial, identities[0]!.serial));
    const response = await admin.post('/api/devices/actions', {
      action: 'cli',
      device_id: [device!.id],
      params: { command: 'echo via mosquitto' },
    });
    const id = response.json().data[0].command_id as string;
    const done = await waitFor(async () => {
      const [row] = await two.db.select().from(deviceCommands).where(eq(deviceCommands.id, id));
      return row?.status === 'done' ? row : undefined;
    });
    expect(done.output).toBe('via mosquitto\n');
  });

  const statusOf = async (serial: string) => (await devicesRepository.findBySerial(one.db, serial))?.status;
  const waitStatus = (serial: string, status: number, what: string) =>
    waitFor(async () => (await statusOf(serial)) === status, { timeout: 3000, what });

  /** A device's own connection to Mosquitto, with the protocol's will unless told otherwise. */
  async function deviceClient(serial: string, password: string, conn: string, will = true) {
    const outcome = await rawConnect(MOSQUITTO, {
      clientId: serial,
      username: serial,
      password,
      clean: true,
      ...(will
        ? {
            will: {
              topic: topics.status(serial),
              payload: Buffer.from(JSON.stringify({ state: 'offline', conn, reason: 'connection lost' })),
              qos: 1 as const,
              retain: true,
            },
          }
        : {}),
    });
    expect(outcome.connected).toBe(true);
    rawClients.push(outcome.client);
    return outcome.client;
  }

  const status = (
    client: mqtt.MqttClient,
    serial: string,
    state: 'online' | 'offline',
    conn: string,
    retain = true,
  ) => client.publishAsync(topics.status(serial), JSON.stringify({ state, conn }), { qos: 1, retain });

  it('a first-contact session that drops without a word goes Offline through the will Mosquitto publishes', async () => {
    const identity = presenceDevices[0]!;
    await registerDirect(one, identity);
    const claim = await deviceClient(identity.serial, identity.mac, 'first');
    await status(claim, identity.serial, 'online', 'first');
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online in first contact');

    claim.stream.destroy();
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline through the will');
  });

  it('a simulated device connected with its secret that drops goes Offline through its will', async () => {
    const identity = presenceDevices[1]!;
    const device = await registerDirect(one, identity);
    await one.db
      .update(devices)
      .set({ secretHash: digest('broker-side') })
      .where(eq(devices.id, device.id));
    const agent = await onlineAgent(one, identity, { url: MOSQUITTO, secret: 'broker-side' });
    agents.push(agent);
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online with the secret');

    await agent.stop(true);
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline through the will');
  });

  it('a late will of a replaced connection leaves the device Online; the new connection’s will ends it', async () => {
    const identity = presenceDevices[2]!;
    await registerDirect(one, identity);
    const first = await deviceClient(identity.serial, identity.mac, 'old');
    await status(first, identity.serial, 'online', 'old');
    const second = await deviceClient(identity.serial, identity.mac, 'new');
    await status(second, identity.serial, 'online', 'new');
    await waitFor(
      async () => (await devicesRepository.findBySerial(one.db, identity.serial))?.sessionId === 'new',
      { what: 'the new connection’s status stored' },
    );

    // The old connection's will, delivered late (a broker cluster may do that).
    const handled = () => (one.gateway.stats().byKind.status ?? 0) + (two.gateway.stats().byKind.status ?? 0);
    const before = handled();
    const other = await mqtt.connectAsync(MOSQUITTO, { protocolVersion: 5 });
    await status(other, identity.serial, 'offline', 'old');
    await other.endAsync();
    await waitFor(() => handled() >= before + 2, { what: 'the late will handled by both servers' });
    expect(await statusOf(identity.serial)).toBe(DEVICE_STATUS.online);

    second.stream.destroy();
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline through the new connection’s will');
  });

  it('a retained online status of a connection seen ending does not bring the device back when a server subscribes', async () => {
    const identity = presenceDevices[3]!;
    await registerDirect(one, identity);
    // The device leaves its 'online' retained, says offline without retaining it, and goes.
    const client = await deviceClient(identity.serial, identity.mac, 'gone', false);
    await status(client, identity.serial, 'online', 'gone');
    await waitStatus(identity.serial, DEVICE_STATUS.online, 'online');
    await status(client, identity.serial, 'offline', 'gone', false);
    client.stream.destroy();
    await waitStatus(identity.serial, DEVICE_STATUS.offline, 'offline');

    // A server that starts (or reconnects to the broker) is handed the retained 'online'.
    const three = await buildGatewayApp({ database, env: { MQTT_URL: MOSQUITTO, MQTT_SHARED_GROUP: group } });
    try {
      // A malformed status sent after the subscription reaches `three` after every retained one.
      const sentinel = await mqtt.connectAsync(MOSQUITTO, { protocolVersion: 5 });
      await waitFor(
        async () => {
          await sentinel.publishAsync(topics.status(identity.serial), '{"state":"sentinel"}', { qos: 1 });
          return three.gateway.stats().droppedMalformed > 0;
        },
        { interval: 50, what: 'the new server past the retained statuses' },
      );
      await sentinel.endAsync();
      expect(await statusOf(identity.serial)).toBe(DEVICE_STATUS.offline);
    } finally {
      await three.close();
    }
  });
});

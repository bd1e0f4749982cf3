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
import { TestClient } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { buildGatewayApp, keepOpen, onlineAgent, registerDirect, waitFor } from '../../test/devices';
import { digest } from '../auth/tokens';
import { deviceCommands, deviceState, devices } from '../db/schema/devices';

/** The machine's Mosquitto (issue 5: test the external-broker path when it answers). */
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
    // Leave no retained status behind on the shared broker.
    const cleaner = await mqtt.connectAsync(MOSQUITTO, { protocolVersion: 5 });
    for (const identity of identities)
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
});

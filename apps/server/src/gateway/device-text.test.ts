import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import { topics } from '@fleetgate/shared/devices/topics';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '#test/app';
import {
  buildGatewayApp,
  onlineAgent,
  rawWithSecret,
  registerDirect,
  testIdentity,
  waitFor,
} from '#test/devices';

/**
 * The finding, device side: text a device reports is shown in the console, so a firmware
 * 'RUT2\u202eelif.exe' would show as 'RUT2exe.file'. The gateway keeps the message and
 * stores the text without text-direction and invisible characters.
 */
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

const detailOf = async (id: number) => (await admin.get(`/api/devices/${id}`)).json().data;

describe('device-reported text (hello and telemetry)', () => {
  it('successful-hello: firmware with a right-to-left override and a hostname with a zero-width space are stored without them', async () => {
    const identity = { ...testIdentity('RUTX11'), firmware: 'RUT2\u202eelif.exe' };
    const device = await registerDirect(app, identity);
    const before = app.gateway.stats();
    const agent = await onlineAgent(app, identity, {
      before: (a) => {
        a.hostname = 'gw\u200b-01\u2066';
      },
    });
    agents.push(agent);

    const detail = await waitFor(async () => {
      const d = await detailOf(device.id);
      return d.firmware && d.hostname ? d : undefined;
    });
    expect(detail.firmware).toBe('RUT2elif.exe');
    expect(detail.hostname).toBe('gw-01');
    expect(detail.model).toBe('RUTX11');
    // Neutralised, not refused: no hello was dropped.
    expect(app.gateway.stats().droppedMalformed).toBe(before.droppedMalformed);
  });

  it('successful-state: the operator, network type and port names of a report are stored without them', async () => {
    const identity = testIdentity('RUT955');
    const device = await registerDirect(app, identity);
    const raw = await rawWithSecret(app, identity);
    const state = {
      signal: -67,
      operator: 'Te\u202elia\u200b',
      network_type: 'LTE\u0007',
      ports: [{ name: 'LAN\u200d1', link: 'up' }],
    };
    await raw.client.publishAsync(topics.state(identity.serial), JSON.stringify(state), { qos: 1 });
    await waitFor(async () => {
      await app.gateway.telemetry.flush();
      return (await detailOf(device.id)).signal === -67;
    });
    raw.client.end(true);

    const detail = await detailOf(device.id);
    expect(detail.operator).toBe('Telia');
    // The last report as the device page reads it.
    expect(detail.state).toMatchObject({
      operator: 'Telia',
      network_type: 'LTE\uFFFD',
      ports: [{ name: 'LAN1', link: 'up' }],
    });
  });
});

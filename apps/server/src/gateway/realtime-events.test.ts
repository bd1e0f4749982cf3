import type { DeviceAgent } from '@fleetgate/device-sim/agent';
import {
  DEVICE_REALTIME_EVENTS,
  type DeviceActionUpdate,
  deviceChannels,
} from '@fleetgate/shared/devices/events';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '#test/app';
import { buildGatewayApp, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { cookieHeader, opened, subscribe, type TestSocket, testSocket } from '../realtime/socket-test-client';

let app: FastifyInstance;
let base: string;
const sockets: TestSocket[] = [];
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  app = await buildGatewayApp({ listen: true });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await Promise.all(agents.map((a) => a.stop()));
  await app.close();
});

async function socketOf(client: TestClient) {
  const socket = testSocket(base, { cookie: cookieHeader(client.cookies), origin: base });
  sockets.push(socket);
  await opened(socket);
  return socket;
}

/** Every payload of a device event on a channel (device events are not in the notifications map). */
function collect<T>(socket: TestSocket, event: string, channel: string): T[] {
  const seen: T[] = [];
  (socket as unknown as { on(e: string, l: (from: string, payload: T) => void): void }).on(
    event,
    (from, payload) => {
      if (from === channel) seen.push(payload);
    },
  );
  return seen;
}

describe('device events for browsers (product §4 Action status)', () => {
  it('streams every step of an action on its channel to the user who started it, and to nobody else', async () => {
    const { acme, beta } = await tenantTree(app);
    await createUser(app, 'admin@acme.rt', 'admin', acme.id);
    await createUser(app, 'admin@beta.rt', 'admin', beta.id);
    const acmeAdmin = await signedIn(app, 'admin@acme.rt');
    const betaAdmin = await signedIn(app, 'admin@beta.rt');
    const identity = testIdentity();
    const device = await registerDirect(app, identity, acme.id);

    const response = await acmeAdmin.post('/api/devices/actions', {
      action: 'cli',
      device_id: [device.id],
      params: { command: 'hostname' },
    });
    const channel = response.json().meta.channel as string;
    expect(channel).toBe(deviceChannels.action(channel.slice('action.'.length)));

    const mine = await socketOf(acmeAdmin);
    expect(await subscribe(mine, channel)).toEqual({ ok: true });
    expect(await subscribe(mine, deviceChannels.company(acme.id))).toEqual({ ok: true });
    expect(await subscribe(mine, deviceChannels.device(device.id))).toEqual({ ok: true });
    const theirs = await socketOf(betaAdmin);
    expect(await subscribe(theirs, channel)).toMatchObject({ ok: false, code: 403 });
    expect(await subscribe(theirs, deviceChannels.company(acme.id))).toMatchObject({ ok: false, code: 403 });
    expect(await subscribe(theirs, deviceChannels.device(device.id))).toMatchObject({ ok: false, code: 403 });

    const steps = collect<DeviceActionUpdate>(mine, DEVICE_REALTIME_EVENTS.actionUpdated, channel);
    const statuses = collect<{ status: number }>(
      mine,
      DEVICE_REALTIME_EVENTS.statusChanged,
      deviceChannels.company(acme.id),
    );
    agents.push(await onlineAgent(app, identity));
    await waitFor(() => steps.some((s) => s.status === 'done'), { what: 'the done step' });
    expect(steps.map((s) => s.status)).toEqual(['sent', 'acked', 'done']);
    expect(steps.at(-1)!.output).toBe(`${identity.model}-${identity.serial.slice(-4)}\n`);
    await waitFor(() => statuses.some((s) => s.status === 1), { what: 'online status' });
  });
});

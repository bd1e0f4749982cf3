import { deviceChannels } from '@fleetgate/shared/devices/events';
import type { SubscriptionError } from '@fleetgate/shared/events';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TestClient } from '#test/app';
import { registerDirect, testIdentity, waitFor } from '#test/devices';
import { createCompany, createUser, signedIn, tenantTree } from '#test/factories';
import { devices } from '../db/schema/devices';
import { sessions } from '../db/schema/sessions';
import {
  cookieHeader,
  listenLocally,
  nextChannelEvent,
  opened,
  subscribe,
  type TestSocket,
  testSocket,
} from './socket-test-client';

/**
 * The socket follows every change of its holder's access, whatever made it and wherever
 * the socket is connected: the attacks of the security review, each replayed with a real
 * socket.io client against the real server.
 */
let app: FastifyInstance;
let url: string;
let tree: Awaited<ReturnType<typeof tenantTree>>;
let superAdmin: TestClient;
let deviceId: number;
const sockets: TestSocket[] = [];
let serial = 0;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  superAdmin = await new TestClient(app).login();
  deviceId = (await registerDirect(app, testIdentity(), tree.acme.id)).id;
  url = await listenLocally(app);
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await app.close();
});

/** A fresh end user of `companyId`, signed in. */
async function person(role: 'end_user' | 'admin' = 'end_user', companyId = tree.acme.id) {
  const email = `socket.${++serial}@example.test`;
  const user = await createUser(app, email, role, companyId);
  return { user, email, client: await signedIn(app, email) };
}

/** A connected socket of `client`, recording the channels the server made it leave. */
async function socketOf(client: TestClient) {
  const socket = testSocket(url, { cookie: cookieHeader(client.cookies) });
  sockets.push(socket);
  const refused: [string, SubscriptionError][] = [];
  socket.on('subscription_error', (channel, error) => refused.push([channel, error]));
  const ended = new Promise<string>((resolve) => socket.once('disconnect', resolve));
  await opened(socket);
  return { socket, refused, ended };
}

const telemetry = () => ({ device_id: deviceId, at: new Date().toISOString(), signal: -70 });

/** Whether telemetry published on the device channel still reaches the socket. */
async function stillReceives(socket: TestSocket): Promise<boolean> {
  const channel = deviceChannels.device(deviceId);
  const next = nextChannelEvent(socket, 'DeviceTelemetry', channel, 400);
  app.realtime.publish(channel, 'DeviceTelemetry', telemetry());
  return next.then(
    () => true,
    () => false,
  );
}

async function subscribedToDevice(client: TestClient) {
  const held = await socketOf(client);
  expect(await subscribe(held.socket, deviceChannels.device(deviceId))).toEqual({ ok: true });
  expect(await subscribe(held.socket, deviceChannels.company(tree.acme.id))).toEqual({ ok: true });
  expect(await stillReceives(held.socket)).toBe(true);
  return held;
}

describe('a change of access reaches open sockets within seconds', () => {
  it('failing-deleted-user: a deleted user’s socket is closed', async () => {
    const { email, client } = await person();
    const { socket, ended } = await subscribedToDevice(client);
    const removed = await superAdmin.request('DELETE', '/api/admin/users', { email });
    expect(removed.statusCode).toBe(200);
    expect(await ended).toBe('io server disconnect');
    expect(socket.connected).toBe(false);
  });

  it('failing-moved-user: a user moved to another company leaves the old company’s channels', async () => {
    const { user, client } = await person();
    const { socket, refused } = await subscribedToDevice(client);
    const moved = await superAdmin.post('/api/users/move', { user_ids: [user.id], company_id: tree.beta.id });
    expect(moved.statusCode).toBe(200);
    await waitFor(() => refused.length === 2, { what: 'both channels refused' });
    expect(refused.map(([channel, error]) => [channel, error.code]).sort()).toEqual(
      [
        [deviceChannels.company(tree.acme.id), 403],
        [deviceChannels.device(deviceId), 403],
      ].sort(),
    );
    expect(await stillReceives(socket)).toBe(false);
    // The user is still signed in: the socket stays for what they may follow now.
    expect(socket.connected).toBe(true);
    expect(await subscribe(socket, deviceChannels.device(deviceId))).toMatchObject({ ok: false, code: 403 });
  });

  it('failing-refresh-replay: a replayed refresh token closes the family’s sockets', async () => {
    const { client } = await person();
    const { socket, ended } = await subscribedToDevice(client);
    const stolen = client.cookies.get('fg_refresh')!;
    const rotated = await client.post('/api/auth/token/refresh', {});
    expect(rotated.statusCode).toBe(200);
    const thief = new TestClient(app);
    thief.cookies.set('fg_refresh', stolen);
    thief.cookies.set('XSRF-TOKEN', client.cookies.get('XSRF-TOKEN')!);
    expect((await thief.post('/api/auth/token/refresh', {})).statusCode).toBe(401);
    expect(await ended).toBe('io server disconnect');
    expect(socket.connected).toBe(false);
  });

  it('failing-mfa-mandatory: a company made MFA-mandatory drops its users’ sockets and refuses new ones', async () => {
    const company = await createCompany(app, 'Socket MFA Co', tree.acme.id);
    const { client } = await person('end_user', company.id);
    const { ended } = await socketOf(client);
    const flags = await superAdmin.put(`/api/companies/${company.id}/flags`, { mfa_mandatory: true });
    expect(flags.statusCode).toBe(200);
    expect(await ended).toBe('io server disconnect');
    expect((await client.get('/api/devices')).statusCode).toBe(403);
    const again = testSocket(url, { cookie: cookieHeader(client.cookies) });
    sockets.push(again);
    const error = await opened(again).catch((e: unknown) => e);
    expect((error as { data?: unknown }).data).toEqual({
      code: 403,
      message: 'Your company requires two-step verification. Set it up to continue',
    });
  });

  it('failing-session-expired: a session ended in the database (here by SQL) closes its sockets', async () => {
    const { client } = await person();
    const { ended } = await socketOf(client);
    const session = await app.authService.resolve(client.cookies.get('fg_session')!);
    await app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, session!.id));
    expect(await ended).toBe('io server disconnect');
  });

  it('failing-device-moved: a device moved out of reach leaves its channel', async () => {
    const own = (await registerDirect(app, testIdentity(), tree.acme.id)).id;
    const { client } = await person();
    const { socket, refused } = await socketOf(client);
    expect(await subscribe(socket, deviceChannels.device(own))).toEqual({ ok: true });
    await app.db.update(devices).set({ companyId: tree.beta.id }).where(eq(devices.id, own));
    await waitFor(() => refused.find(([channel]) => channel === deviceChannels.device(own)), {
      what: 'the moved device’s channel refused',
    });
    expect(socket.connected).toBe(true);
  });
});

describe('impersonation sockets follow the impersonation rule', () => {
  it('failing-impersonator-lost-right: the socket closes and no new one opens as the user', async () => {
    // Someone whose custom role grants impersonation of guests, then loses it.
    const guest = DEFAULT_ROLES.find((r) => r.name === 'read_only')!.permissions;
    const role = await superAdmin.post('/api/roles', {
      company_id: tree.acme.id,
      name: `impersonators_${++serial}`,
      title: 'Impersonators',
      description: '',
      permissions: [...guest, 'view_companies', 'impersonate_users'],
    });
    expect(role.statusCode).toBe(200);
    const roleId = role.json().data.id as number;
    const actorEmail = `actor.${serial}@example.test`;
    const actor = await createUser(app, actorEmail, 'end_user', tree.acme.id);
    expect((await superAdmin.put(`/api/users/${actor.id}/role`, { role_id: roleId })).statusCode).toBe(200);
    const target = await createUser(app, `target.${serial}@example.test`, 'read_only', tree.north.id);
    const targetClient = await signedIn(app, `target.${serial}@example.test`);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    expect((await targetClient.post('/api/user/impersonation-access', { until })).statusCode).toBe(200);

    const actorClient = await signedIn(app, actorEmail);
    const started = await actorClient.post(`/api/users/${target.id}/impersonate`, {});
    expect(started.statusCode).toBe(200);
    expect((await actorClient.get('/api/user')).json().data.id).toBe(target.id);
    const { ended } = await socketOf(actorClient);

    const narrowed = await superAdmin.put(`/api/roles/${roleId}`, {
      permissions: [...guest, 'view_companies'],
    });
    expect(narrowed.statusCode).toBe(200);
    expect(await ended).toBe('io server disconnect');
    expect((await actorClient.get('/api/user')).statusCode).toBe(401);
    const again = testSocket(url, { cookie: cookieHeader(actorClient.cookies) });
    sockets.push(again);
    const error = await opened(again).catch((e: unknown) => e);
    expect((error as { data?: { code: number } }).data?.code).toBe(401);
  });
});

import { ATTEMPT_CODES, DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import { topics } from '@fleetgate/shared/devices/topics';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '#test/app';
import {
  brokerUrl,
  buildGatewayApp,
  grantedQos,
  httpPort,
  onlineAgent,
  rawConnect,
  rawWithSecret,
  registerDirect,
  testIdentity,
  waitFor,
} from '#test/devices';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { deviceConnectionAttempts, devices } from '../db/schema/devices';
import { devicesRepository } from '../modules/devices/devices.repository';

const HOOK_TOKEN = 'broker-hook-token-0123456789';
let app: FastifyInstance;
const agents: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  app = await buildGatewayApp({ listen: true, env: { MQTT_AUTH_TOKEN: HOOK_TOKEN } });
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await app.close();
});

async function attempts(serial: string) {
  return app.db.select().from(deviceConnectionAttempts).where(eq(deviceConnectionAttempts.serial, serial));
}

describe('device identity (ARCHITECTURE §5, product §8)', () => {
  it('first contact proves serial and MAC, receives a secret, and from then on only the secret works', async () => {
    const identity = testIdentity('RUTX11');
    const registered = await registerDirect(app, identity);
    const agent = await onlineAgent(app, identity);
    agents.push(agent);
    expect(agent.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const device = await waitFor(async () => {
      const row = await devicesRepository.findById(app.db, registered.id);
      return row?.status === DEVICE_STATUS.online && row.originalModel ? row : undefined;
    });
    expect(device).toMatchObject({
      originalModel: 'RUTX11',
      firmware: identity.firmware,
      imei: identity.imei,
    });
    expect(device.secretHash).not.toBeNull();
    expect(device.pendingSecretHash).toBeNull();
    expect((await attempts(identity.serial)).map((a) => a.success).sort()).toEqual([
      ATTEMPT_CODES.firstContact,
      ATTEMPT_CODES.secretConfirmed,
    ]);

    // The label's serial and MAC alone no longer get in.
    const again = await rawConnect(brokerUrl(app), {
      clientId: identity.serial,
      username: identity.serial,
      password: identity.mac,
    });
    expect(again.connected).toBe(false);
    expect(again.returnCode).toBe(4);
  });

  it('refuses a device with a victim’s serial and MAC but no secret, and the victim stays connected', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const victim = await onlineAgent(app, identity);
    agents.push(victim);
    let victimDropped = false;
    victim.on('offline', () => {
      victimDropped = true;
    });

    for (const password of [identity.mac, 'guessed-secret-that-is-wrong-0000000000000']) {
      const attacker = await rawConnect(brokerUrl(app), {
        clientId: identity.serial,
        username: identity.serial,
        password,
        clean: true,
      });
      expect(attacker.connected).toBe(false);
    }
    // The victim's session is untouched: it still gets commands through the same connection.
    const admin = await new TestClient(app).login();
    const [device] = await app.db.select().from(devices).where(eq(devices.serial, identity.serial));
    const run = await admin.post('/api/devices/actions', {
      action: 'cli',
      device_id: [device!.id],
      params: { command: 'echo still here' },
    });
    expect(run.statusCode).toBe(200);
    const commandId = run.json().data[0].command_id as string;
    const done = await waitFor(async () => {
      const c = (await admin.get(`/api/devices/commands/${commandId}`)).json().data;
      return c.status === 'done' ? c : undefined;
    });
    expect(done.output).toBe('still here\n');
    expect(victimDropped).toBe(false);
    expect(victim.online).toBe(true);
    const codes = (await attempts(identity.serial)).map((a) => a.success);
    expect(codes).toContain(ATTEMPT_CODES.secretRequired);
    expect(codes).toContain(ATTEMPT_CODES.wrongSecret);
  });

  it('refuses and logs: unknown serial, other MAC (7), monitoring disabled (14), no active credit (15)', async () => {
    const url = brokerUrl(app);
    const unknown = testIdentity();
    const other = testIdentity();
    const disabled = testIdentity();
    const broke = testIdentity();
    await registerDirect(app, other);
    const d = await registerDirect(app, disabled);
    const b = await registerDirect(app, broke);
    await devicesRepository.update(app.db, d.id, { monitoringEnabled: false });
    await devicesRepository.update(app.db, b.id, { creditActive: false });

    const tries = [
      { identity: unknown, mac: unknown.mac, code: ATTEMPT_CODES.unknownSerial },
      { identity: other, mac: '00:1E:42:FF:FF:FF', code: ATTEMPT_CODES.macMismatch },
      { identity: disabled, mac: disabled.mac, code: ATTEMPT_CODES.monitoringDisabled },
      { identity: broke, mac: broke.mac, code: ATTEMPT_CODES.noCredit },
    ];
    for (const t of tries) {
      const outcome = await rawConnect(url, {
        clientId: t.identity.serial,
        username: t.identity.serial,
        password: t.mac,
      });
      expect(outcome.connected, t.identity.serial).toBe(false);
      // Identity refused: bad credentials (4); identity proven but kept out: not authorised (5).
      const proven = t.code === ATTEMPT_CODES.monitoringDisabled || t.code === ATTEMPT_CODES.noCredit;
      expect(outcome.returnCode, t.identity.serial).toBe(proven ? 5 : 4);
      const logged = await attempts(t.identity.serial);
      expect(logged.map((a) => [a.success, a.status])).toEqual([[t.code, 0]]);
    }
    const broken = await devicesRepository.findById(app.db, b.id);
    expect(broken?.status).toBe(DEVICE_STATUS.notActivated);
  });

  it('refuses a client id other than the serial, so nobody can take over another device’s session id', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const outcome = await rawConnect(brokerUrl(app), {
      clientId: 'someone-else',
      username: identity.serial,
      password: identity.mac,
    });
    expect(outcome.connected).toBe(false);
    expect((await attempts(identity.serial)).map((a) => a.success)).toEqual([ATTEMPT_CODES.badClientId]);
  });

  it('shows connection attempts to the owning company only; unknown serials to the super admin only', async () => {
    const { acme, beta } = await tenantTree(app);
    await createUser(app, 'acme-admin@x.test', 'admin', acme.id);
    await createUser(app, 'beta-admin@x.test', 'admin', beta.id);
    const mine = testIdentity();
    await registerDirect(app, mine, acme.id);
    const stranger = testIdentity();
    await rawConnect(brokerUrl(app), {
      clientId: mine.serial,
      username: mine.serial,
      password: '00:00:00:00:00:01',
    });
    await rawConnect(brokerUrl(app), {
      clientId: stranger.serial,
      username: stranger.serial,
      password: stranger.mac,
    });

    const acmeAdmin = await signedIn(app, 'acme-admin@x.test');
    const betaAdmin = await signedIn(app, 'beta-admin@x.test');
    const root = await new TestClient(app).login();
    const serialsOf = async (c: TestClient) =>
      (
        (await c.get('/api/devices/connection-attempts?limit=100')).json().data as {
          serial: string;
          text: string;
        }[]
      ).map((a) => a.serial);
    expect(await serialsOf(acmeAdmin)).toContain(mine.serial);
    expect(await serialsOf(acmeAdmin)).not.toContain(stranger.serial);
    expect(await serialsOf(betaAdmin)).not.toContain(mine.serial);
    expect(await serialsOf(root)).toEqual(expect.arrayContaining([mine.serial, stranger.serial]));
    const [row] = (await acmeAdmin.get(`/api/devices/connection-attempts?serial=${mine.serial}`)).json().data;
    expect(row.text).toBe(
      'Device could not connect to the system - there was a device with an identical serial number but different MAC address already registered.',
    );
  });

  it('speaks MQTT over WebSocket on the HTTP port at /mqtt (attempt code 104)', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const agent = await onlineAgent(app, identity, { url: `ws://127.0.0.1:${httpPort(app)}/mqtt` });
    agents.push(agent);
    expect(agent.online).toBe(true);
    // first contact and confirmation, then a reconnect with the secret shows 104
    await agent.stop();
    const again = await onlineAgent(app, identity, {
      url: `ws://127.0.0.1:${httpPort(app)}/mqtt`,
      secret: agent.secret,
    });
    agents.push(again);
    const codes = (await attempts(identity.serial)).map((a) => a.success);
    expect(codes).toContain(ATTEMPT_CODES.acceptedWebSocket);
  });
});

describe('topic access table (CONVENTIONS example 8)', () => {
  it('refuses subscriptions to another device’s topics and to wildcards', async () => {
    const me = testIdentity();
    const other = testIdentity();
    await registerDirect(app, me);
    await registerDirect(app, other);
    const raw = await rawWithSecret(app, me);
    expect(raw.connected).toBe(true);
    const granted = await grantedQos(raw.client, [
      '#',
      'fg/v1/d/+/down/cmd/+',
      topics.commandFilter(other.serial),
      topics.secret(other.serial),
      `fg/v1/d/${me.serial}/#`,
      topics.commandFilter(me.serial),
    ]);
    expect(granted).toEqual([128, 128, 128, 128, 128, 1]);
    expect(raw.client.connected).toBe(true);

    // Publishing under another serial closes the connection; the other device is untouched.
    const closed = new Promise<void>((resolve) => raw.client.once('close', () => resolve()));
    raw.client.publish(topics.state(other.serial), JSON.stringify({ signal: -70 }), { qos: 1 });
    await closed;
    const stranger = await devicesRepository.findBySerial(app.db, other.serial);
    expect(stranger?.lastSeenAt).toBeNull();
    raw.client.end(true);
  });
});

describe('auth hooks for an external broker (MQTT_AUTH_TOKEN)', () => {
  const hook = (url: string, payload: Record<string, unknown>, token = HOOK_TOKEN) =>
    app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}` } });

  it('authenticates with the same rules and answers the same access table', async () => {
    const identity = testIdentity();
    await registerDirect(app, identity);
    const base = { clientid: identity.serial, username: identity.serial };
    expect(
      (await hook('/mqtt/auth', { ...base, password: identity.mac }, 'wrong-token-0123456789')).statusCode,
    ).toBe(401);
    expect((await hook('/mqtt/auth', { ...base, password: '00:00:00:00:00:09' })).json()).toEqual({
      result: 'deny',
    });
    const first = await hook('/mqtt/auth', { ...base, password: identity.mac, peerhost: '192.0.2.1' });
    expect(first.json()).toEqual({ result: 'allow' });
    const logged = await attempts(identity.serial);
    expect(logged.map((a) => [a.success, a.sourceAlias, a.sourceName])).toContainEqual([
      ATTEMPT_CODES.firstContact,
      'broker',
      '192.0.2.1',
    ]);
    // In first contact the device may fetch its secret and say hello, nothing else.
    const acl = async (topic: string, extra: Record<string, unknown>) =>
      (await hook('/mqtt/acl', { ...base, topic, ...extra })).statusCode;
    expect(await acl(topics.secret(identity.serial), { action: 'subscribe' })).toBe(200);
    expect(await acl(topics.hello(identity.serial), { action: 'publish' })).toBe(200);
    expect(await acl(topics.state(identity.serial), { action: 'publish' })).toBe(403);
    expect(await acl('#', { action: 'subscribe' })).toBe(403);
    await app.db.update(devices).set({ secretHash: 'x' }).where(eq(devices.serial, identity.serial));
    expect(await acl(topics.state(identity.serial), { acc: 2 })).toBe(200);
    expect(await acl(topics.commandFilter(identity.serial), { acc: 4 })).toBe(200);
    expect(
      await acl(topics.command(identity.serial, '3f2c9a4e-8b1d-4c6e-9f0a-1b2c3d4e5f60'), { acc: 1 }),
    ).toBe(200);
    expect(await acl(topics.state('1199999999'), { acc: 2 })).toBe(403);
  });
});

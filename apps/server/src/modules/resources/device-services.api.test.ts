import { ATTEMPT_CODES } from '@fleetgate/shared/devices/status';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceConnectionAttempts, devices } from '#src/db/schema/devices';
import { errorsOf, TestClient } from '#test/app';
import { buildGatewayApp, onlineAgent, registerDirect, testIdentity, waitFor } from '#test/devices';
import { createCompany, createUser, signedIn, tenantTree } from '#test/factories';
import { companyBalance, issuePool } from '#test/resources';
import { sweepServices } from './device-services.service';

let app: FastifyInstance;
let root: TestClient;
let acmeAdmin: TestClient;
let betaAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;

const DAY = 86_400_000;
const sweep = (now: Date) =>
  sweepServices({ db: app.db, gateway: app.gateway, log: app.log, notifications: app.notifications }, now);

const balance = (companyId: number, type: number) => companyBalance(app, companyId, type);

async function service(client: TestClient, id: number) {
  const response = await client.get(`/api/devices/${id}/services`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    active: boolean;
    service_until: string;
    trial: boolean;
    auto_renew: boolean;
    service_type: number | null;
  };
}

async function give(companyId: number, type: number, amount: number) {
  const response = await issuePool(root, companyId, type, amount);
  expect(response.statusCode, response.body).toBe(200);
}

/** Ends a device's service period at `at`, as time passing would. */
const endAt = (id: number, at: Date) =>
  app.db.update(devices).set({ serviceUntil: at }).where(eq(devices.id, id));

beforeAll(async () => {
  app = await buildGatewayApp();
  root = await new TestClient(app).login();
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  [acmeAdmin, betaAdmin] = await Promise.all([
    signedIn(app, 'admin@acme.test'),
    signedIn(app, 'admin@beta.test'),
  ]);
});
afterAll(() => app?.close());

describe('device services', () => {
  it('a new device gets a 30-day trial once per serial, a TAP two years', async () => {
    const identity = testIdentity('RUT241');
    const device = await registerDirect(app, identity, tree.acme.id);
    const trial = await service(acmeAdmin, device.id);
    expect(trial).toMatchObject({ active: true, trial: true, auto_renew: false });
    expect(Date.parse(trial.service_until) - Date.now()).toBeGreaterThan(29.9 * DAY);
    expect(Date.parse(trial.service_until) - Date.now()).toBeLessThan(30.1 * DAY);

    const tap = await registerDirect(app, { ...testIdentity('TAP200'), model: 'TAP200' }, tree.acme.id);
    await app.db.update(devices).set({ model: 'TAP200' }).where(eq(devices.id, tap.id));
    const [tapRow] = await app.db.select().from(devices).where(eq(devices.id, tap.id));
    expect(tapRow!.serviceUntil!.getTime() - Date.now()).toBeGreaterThan(0);

    await app.db.delete(devices).where(eq(devices.id, device.id));
    const again = await registerDirect(app, identity, tree.acme.id);
    expect(await service(acmeAdmin, again.id)).toMatchObject({ active: false });
  });

  it('a credit adds 30 days from the end of the period, a pack its years; the company pays one unit', async () => {
    await give(tree.acme.id, 2, 3);
    await give(tree.acme.id, 4, 1);
    const device = await registerDirect(app, testIdentity(), tree.acme.id);
    const before = await service(acmeAdmin, device.id);
    const response = await acmeAdmin.post(`/api/devices/${device.id}/services`, {
      credit_type_name: 'Credits',
      auto_renew: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    const after = response.json().data;
    expect(after).toMatchObject({
      active: true,
      trial: false,
      auto_renew: true,
      service_type: 2,
      service_type_name: 'Credits',
    });
    expect(Date.parse(after.service_until) - Date.parse(before.service_until)).toBe(30 * DAY);
    expect(await balance(tree.acme.id, 2)).toBe(2);

    const pack = await acmeAdmin.post(`/api/devices/${device.id}/services`, {
      credit_type_name: 'Management pack (3 years)',
    });
    expect(Date.parse(pack.json().data.service_until) - Date.parse(after.service_until)).toBe(3 * 365 * DAY);
    expect(await balance(tree.acme.id, 4)).toBe(0);

    const history = (await acmeAdmin.get(`/api/credits?device_id=${device.id}`)).json().data as {
      action: string;
    }[];
    expect(history.map((m) => m.action)).toEqual(['activate', 'activate']);
  });

  it('refuses data packs, empty pools and other tenants’ devices, changing nothing', async () => {
    const device = await registerDirect(app, testIdentity(), tree.beta.id);
    const data = await betaAdmin.post(`/api/devices/${device.id}/services`, {
      credit_type_name: 'VPN hub licence (30 days)',
    });
    expect(errorsOf(data)[0]?.message).toBe(
      'Only a credit or a management pack switches a device’s service on',
    );
    const empty = await betaAdmin.post(`/api/devices/${device.id}/services`, { credit_type_name: 'Credits' });
    expect(errorsOf(empty)).toContainEqual({
      code: 'VALIDATION_ERROR',
      source: 'credit_type_name',
      message: 'Not enough credits: 0 left',
    });
    expect(
      (await acmeAdmin.post(`/api/devices/${device.id}/services`, { credit_type_name: 'Credits' }))
        .statusCode,
    ).toBe(404);
    expect((await acmeAdmin.get(`/api/devices/${device.id}/services`)).statusCode).toBe(404);
    expect(await service(betaAdmin, device.id)).toMatchObject({ trial: true });
  });

  it('an ended service switches the device off with code 15, and an activation lets it back', async () => {
    const identity = testIdentity();
    const device = await registerDirect(app, identity, tree.beta.id);
    const agent = await onlineAgent(app, identity);
    try {
      const now = new Date();
      await endAt(device.id, new Date(now.getTime() - 1000));
      expect((await sweep(now)).ended).toBeGreaterThanOrEqual(1);
      expect(await service(betaAdmin, device.id)).toMatchObject({ active: false });
      await waitFor(async () => {
        const rows = await app.db
          .select()
          .from(deviceConnectionAttempts)
          .where(
            and(
              eq(deviceConnectionAttempts.serial, identity.serial),
              eq(deviceConnectionAttempts.success, ATTEMPT_CODES.noCredit),
            ),
          );
        return rows.length > 0;
      });
      const refused = await betaAdmin.put(`/api/devices/${device.id}/credit`, { active: true });
      expect(refused.statusCode).toBe(400);

      await give(tree.beta.id, 2, 1);
      const online = new Promise<void>((resolve) => agent.once('online', () => resolve()));
      expect(
        (await betaAdmin.post(`/api/devices/${device.id}/services`, { credit_type_name: 'Credits' }))
          .statusCode,
      ).toBe(200);
      await online;
      expect(await service(betaAdmin, device.id)).toMatchObject({ active: true });
    } finally {
      await agent.stop();
    }
  });

  it('auto-renewal takes a credit, free ones first, and ends the service once none is left', async () => {
    const company = tree.north.id;
    await give(company, 1, 1);
    await give(company, 2, 1);
    const device = await registerDirect(app, testIdentity(), company);
    expect((await acmeAdmin.put(`/api/devices/${device.id}/services`, { auto_renew: true })).statusCode).toBe(
      200,
    );

    let now = new Date();
    for (const [type, left] of [
      [1, 0],
      [2, 0],
    ] as const) {
      await endAt(device.id, new Date(now.getTime() - 1000));
      // Other tests' devices may end at the same simulated time; this one alone renews.
      expect((await sweep(now)).renewed).toBe(1);
      expect(await balance(company, type)).toBe(left);
      const renewed = await service(acmeAdmin, device.id);
      expect(renewed).toMatchObject({ active: true, service_type: type });
      expect(Date.parse(renewed.service_until) - now.getTime()).toBe(30 * DAY);
      now = new Date(now.getTime() + 31 * DAY);
    }
    await endAt(device.id, new Date(now.getTime() - 1000));
    expect((await sweep(now)).renewed).toBe(0);
    expect(await service(acmeAdmin, device.id)).toMatchObject({ active: false });
    const renewals = await acmeAdmin.get(`/api/credits?device_id=${device.id}&action=renew`);
    expect(renewals.json().meta.total).toBe(2);
  });

  it('moves a credit’s whole days left and an unused data pack to another device; never a pack or a trial', async () => {
    const company = tree.north.id;
    await give(company, 2, 1);
    await give(company, 10, 2);
    const from = await registerDirect(app, testIdentity(), company);
    const to = await registerDirect(app, testIdentity(), company);
    const trial = await acmeAdmin.post('/api/devices/credits/move', {
      source: from.id,
      target: to.id,
      resource: 'days',
    });
    expect(errorsOf(trial)[0]?.message).toBe(
      'Only the remaining days of an active credit can move to another device',
    );

    await acmeAdmin.post(`/api/devices/${from.id}/services`, { credit_type_name: 'Credits' });
    const left = await service(acmeAdmin, from.id);
    const days = Math.floor((Date.parse(left.service_until) - Date.now()) / DAY);
    const before = await service(acmeAdmin, to.id);
    const moved = await acmeAdmin.post('/api/devices/credits/move', {
      source: from.id,
      target: to.id,
      resource: 'days',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ resource: 'days', amount: days, source: { active: false } });
    expect(Date.parse(moved.json().data.target.service_until) - Date.parse(before.service_until)).toBe(
      days * DAY,
    );

    expect(
      (
        await acmeAdmin.post(`/api/devices/${from.id}/services`, {
          credit_type_name: 'Connection data pack (1 GB)',
        })
      ).statusCode,
    ).toBe(200);
    expect((await service(acmeAdmin, from.id)) as unknown).toMatchObject({
      data_packs: [{ credit_type: 10, left: 1 }],
    });
    const pack = await acmeAdmin.post('/api/devices/credits/move', {
      source: from.id,
      target: to.id,
      resource: 'Connection data pack (1 GB)',
    });
    expect(pack.statusCode, pack.body).toBe(200);
    expect(pack.json().data.target.data_packs).toEqual([
      { credit_type: 10, credit_type_name: 'Connection data pack (1 GB)', left: 1 },
    ]);
    const again = await acmeAdmin.post('/api/devices/credits/move', {
      source: from.id,
      target: to.id,
      resource: 'Connection data pack (1 GB)',
    });
    expect(errorsOf(again)[0]).toMatchObject({ source: 'resource' });
    const packMove = await acmeAdmin.post('/api/devices/credits/move', {
      source: from.id,
      target: to.id,
      resource: 'Management pack (3 years)',
    });
    expect(packMove.statusCode).toBe(400);
    const other = await registerDirect(app, testIdentity(), tree.beta.id);
    expect(
      (
        await acmeAdmin.post('/api/devices/credits/move', {
          source: to.id,
          target: other.id,
          resource: 'days',
        })
      ).statusCode,
    ).toBe(404);
    const history = (await acmeAdmin.get(`/api/credits?device_id=${to.id}`)).json().data as {
      action: string;
    }[];
    expect(history.map((m) => m.action).sort()).toEqual(['move_days', 'move_pack']);
  });

  it('activates a type on several devices at once, each from its company, all or none', async () => {
    const company = await createCompany(app, 'Bulk Co', tree.acme.id);
    const devicesOf = [];
    for (let i = 0; i < 3; i++) devicesOf.push(await registerDirect(app, testIdentity(), company.id));
    const ids = devicesOf.map((d) => d.id);
    await give(company.id, 2, 2);
    const short = await acmeAdmin.post('/api/devices/services', {
      device_id: ids,
      credit_type_name: 'Credits',
    });
    expect(errorsOf(short)).toContainEqual(
      expect.objectContaining({
        source: 'credit_type_name',
        message: 'Not enough credits: 2 left for 3 devices',
      }),
    );
    expect(await balance(company.id, 2)).toBe(2);
    expect((await service(acmeAdmin, ids[0]!)).trial).toBe(true);

    await give(company.id, 2, 1);
    const done = await acmeAdmin.post('/api/devices/services', {
      device_id: ids,
      credit_type_name: 'Credits',
      auto_renew: true,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toEqual({ activated: 3, credit_type: 2, credit_type_name: 'Credits' });
    expect(await balance(company.id, 2)).toBe(0);
    for (const id of ids)
      expect(await service(acmeAdmin, id)).toMatchObject({ trial: false, auto_renew: true });
    const outside = await registerDirect(app, testIdentity(), tree.beta.id);
    expect(
      (
        await acmeAdmin.post('/api/devices/services', {
          device_id: [ids[0], outside.id],
          credit_type_name: 'Credits',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await acmeAdmin.post('/api/devices/services', { device_id: [], credit_type_name: 'Credits' }))
        .statusCode,
    ).toBe(400);
  });
});

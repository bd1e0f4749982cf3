import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorsOf, TestClient, upload } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { devicesRepository } from './devices.repository';
import { SERIAL_IN_FLEET, SERIAL_PROBING, SERIAL_UNAVAILABLE } from './serial-availability';

/**
 * Registration never moves a device between tenants, and its answers never tell one
 * tenant what another has: the takeover and the enumeration of the security review.
 */
let app: FastifyInstance;
let root: TestClient;
let acmeAdmin: TestClient;
let betaAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  root = await new TestClient(app).login();
  await createUser(app, 'acme.owner@x.test', 'admin', tree.acme.id);
  await createUser(app, 'beta.owner@x.test', 'admin', tree.beta.id);
  acmeAdmin = await signedIn(app, 'acme.owner@x.test');
  betaAdmin = await signedIn(app, 'beta.owner@x.test');
});
afterAll(() => app.close());

const APPROVED = { serial: 'APPR0001', mac: '00:1E:42:AA:00:01' };

describe('an approved serial belongs to its approved company', () => {
  it('failing-approved-takeover: another tenant cannot register it, by form or by file', async () => {
    const approved = await root.post('/api/devices/authorized', { ...APPROVED, company_id: tree.acme.id });
    expect(approved.statusCode).toBe(200);

    const taken = await betaAdmin.post('/api/devices', { ...APPROVED, company_id: tree.beta.id });
    expect(taken.statusCode).toBe(409);
    expect(errorsOf(taken)).toEqual([{ code: 'CONFLICT', message: SERIAL_UNAVAILABLE, source: 'serial' }]);
    const file = await upload(
      betaAdmin,
      '/api/devices/import',
      'fleet.csv',
      `serial,mac\n${APPROVED.serial},${APPROVED.mac}`,
    );
    expect(file.json().data[0]).toMatchObject({
      success: false,
      errors: [{ code: 'CONFLICT', message: SERIAL_UNAVAILABLE, source: 'serial' }],
    });
    expect(await devicesRepository.findBySerial(app.db, APPROVED.serial)).toBeUndefined();
  });

  it('the approved company registers it with the approved MAC, which uses the approval up', async () => {
    const wrongMac = await acmeAdmin.post('/api/devices', {
      serial: APPROVED.serial,
      mac: '00:1E:42:AA:00:99',
    });
    expect(errorsOf(wrongMac)[0]?.message).toBe(SERIAL_UNAVAILABLE);
    const registered = await acmeAdmin.post('/api/devices', APPROVED);
    expect(registered.statusCode).toBe(200);
    const list = (await root.get('/api/devices/authorized')).json().data as {
      serial: string;
      device_id: number | null;
      registered_at: string | null;
    }[];
    const entry = list.find((a) => a.serial === APPROVED.serial)!;
    expect(entry.device_id).toBe(registered.json().data.id);
    expect(entry.registered_at).not.toBeNull();
  });

  it('a registered serial cannot be approved for another company', async () => {
    const again = await root.post('/api/devices/authorized', {
      ...APPROVED,
      serial: APPROVED.serial,
      company_id: tree.beta.id,
    });
    expect(again.statusCode).toBe(409);
    expect((await devicesRepository.findBySerial(app.db, APPROVED.serial))?.companyId).toBe(tree.acme.id);
  });
});

describe('failing-serial-enumeration: answers do not tell one tenant what another has', () => {
  it('another tenant’s device and a serial approved elsewhere answer the same words; only one’s own fleet is named', async () => {
    expect(
      (await acmeAdmin.post('/api/devices', { serial: 'ACME0001', mac: '00:1E:42:AA:01:01' })).statusCode,
    ).toBe(200);
    await root.post('/api/devices/authorized', {
      serial: 'ACME0002',
      mac: '00:1E:42:AA:01:02',
      company_id: tree.acme.id,
    });

    const owned = await betaAdmin.post('/api/devices', { serial: 'ACME0001', mac: '00:1E:42:AA:01:01' });
    const approvedElsewhere = await betaAdmin.post('/api/devices', {
      serial: 'ACME0002',
      mac: '00:1E:42:AA:01:02',
    });
    expect(owned.statusCode).toBe(approvedElsewhere.statusCode);
    expect(owned.body).toBe(approvedElsewhere.body);
    expect(errorsOf(owned)[0]?.message).toBe(SERIAL_UNAVAILABLE);

    const own = await acmeAdmin.post('/api/devices', { serial: 'ACME0001', mac: '00:1E:42:AA:01:01' });
    expect(errorsOf(own)[0]?.message).toBe(SERIAL_IN_FLEET);
  });

  it('collecting answers serial by serial is stopped after a hundred unavailable ones an hour', async () => {
    const serials = Array.from({ length: 110 }, (_, i) => `PROBE${String(i).padStart(4, '0')}`);
    // Another tenant owns them all.
    await upload(
      acmeAdmin,
      '/api/devices/import',
      'theirs.csv',
      serials
        .map((s, i) => `${s},00:1E:42:BB:00:${(i % 256).toString(16).padStart(2, '0').toUpperCase()}`)
        .join('\n'),
    );
    const probe = await upload(
      betaAdmin,
      '/api/devices/import',
      'probe.csv',
      serials.map((s) => `${s},00:1E:42:CC:00:01`).join('\n'),
    );
    expect(probe.statusCode).toBe(429);
    expect(errorsOf(probe)).toEqual([{ code: 'RATE_LIMITED', message: SERIAL_PROBING }]);
    const single = await betaAdmin.post('/api/devices', { serial: 'FREE0001', mac: '00:1E:42:CC:00:02' });
    expect(single.statusCode).toBe(429);
    expect(await devicesRepository.findBySerial(app.db, 'FREE0001')).toBeUndefined();
  });
});

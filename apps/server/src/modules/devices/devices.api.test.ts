import { FIRMWARE_FILTER_MESSAGE } from '@fleetgate/shared/devices/firmware';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands } from '#src/db/schema/devices';
import { buildTestApp, errorsOf, TestClient, upload } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { devicesRepository } from './devices.repository';

let app: FastifyInstance;
let root: TestClient;
let acmeAdmin: TestClient;
let betaAdmin: TestClient;
let northUser: TestClient;
let guest: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;

const mac = (n: number) =>
  `00:1E:42:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 255).toString(16).padStart(2, '0')}`.toUpperCase();

beforeAll(async () => {
  app = await buildTestApp();
  root = await new TestClient(app).login();
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  await createUser(app, 'user@north.test', 'end_user', tree.north.id);
  await createUser(app, 'guest@acme.test', 'read_only', tree.acme.id);
  acmeAdmin = await signedIn(app, 'admin@acme.test');
  betaAdmin = await signedIn(app, 'admin@beta.test');
  northUser = await signedIn(app, 'user@north.test');
  guest = await signedIn(app, 'guest@acme.test');
});
afterAll(() => app.close());

describe('registration', () => {
  it('successful-device-registration: adds a device by serial and MAC to a company in scope', async () => {
    const response = await acmeAdmin.post('/api/devices', {
      serial: '2200000001',
      mac: '00-1e-42-aa-bb-01',
      company_id: tree.north.id,
      name: 'Depot gateway',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ serial: '2200000001', mac: '00:1E:42:AA:BB:01' });
    const got = await acmeAdmin.get(`/api/devices/${response.json().data.id}`);
    expect(got.json().data).toMatchObject({
      name: 'Depot gateway',
      company_id: tree.north.id,
      status: 2,
      status_text: 'Pending',
      secret_issued: false,
    });
    expect(got.json().data).not.toHaveProperty('secret_hash');
  });

  it('failing-device-registration: duplicate serial, bad MAC, forbidden name, foreign company', async () => {
    const dup = await acmeAdmin.post('/api/devices', { serial: '2200000001', mac: mac(2) });
    expect(dup.statusCode).toBe(409);
    expect(errorsOf(dup)[0]?.source).toBe('serial');
    const badMac = await acmeAdmin.post('/api/devices', { serial: '2200000002', mac: '00:1E:42' });
    expect(badMac.statusCode).toBe(400);
    expect(errorsOf(badMac)[0]?.source).toBe('mac');
    const badName = await acmeAdmin.post('/api/devices', {
      serial: '2200000003',
      mac: mac(3),
      name: '<script>',
    });
    expect(errorsOf(badName)[0]?.source).toBe('name');
    const foreign = await acmeAdmin.post('/api/devices', {
      serial: '2200000004',
      mac: mac(4),
      company_id: tree.beta.id,
    });
    expect(foreign.statusCode).toBe(404);
    const unknownField = await acmeAdmin.post('/api/devices', {
      serial: '2200000005',
      mac: mac(5),
      secret: 'x',
    });
    expect(unknownField.statusCode).toBe(400);
    expect((await guest.post('/api/devices', { serial: '2200000006', mac: mac(6) })).statusCode).toBe(403);
  });

  it('imports a CSV file with a result per row', async () => {
    const csv = [
      'serial,mac,name',
      '2300000001,00:1E:42:00:10:01,Bus 1',
      '2300000002,bad-mac,Bus 2',
      '2300000001,00:1E:42:00:10:03,Bus 1 again',
      '2200000001,00:1E:42:00:10:04,Taken',
      '',
      '"2300000005","00:1E:42:00:10:05","Bus, five"',
    ].join('\r\n');
    const response = await upload(
      acmeAdmin,
      `/api/devices/import?company_id=${tree.acme.id}`,
      'fleet.csv',
      csv,
    );
    expect(response.statusCode).toBe(200);
    const rows = response.json().data as {
      line: number;
      success: boolean;
      errors?: { source: string; message: string }[];
    }[];
    expect(rows.map((r) => [r.line, r.success])).toEqual([
      [2, true],
      [3, false],
      [4, false],
      [5, false],
      [7, true],
    ]);
    expect(rows[1]!.errors![0]!.source).toBe('mac');
    expect(rows[2]!.errors![0]!.message).toBe('Serial number repeats an earlier row');
    expect(rows[3]!.errors![0]!.message).toBe('A device with this serial number is already registered');
    expect(response.json().meta).toMatchObject({ total: 5, created: 2 });
    const five = await devicesRepository.findBySerial(app.db, '2300000005');
    expect(five?.name).toBe('Bus, five');

    const notCsv = await upload(acmeAdmin, '/api/devices/import', 'fleet.json', '{}', 'application/json');
    expect(notCsv.statusCode).toBe(400);
    expect(errorsOf(notCsv)[0]).toMatchObject({ message: 'Not a CSV file selected', source: 'file' });
  });

  it('the approved-devices list belongs to the super admin', async () => {
    expect((await acmeAdmin.get('/api/devices/authorized')).statusCode).toBe(403);
    const created = await root.post('/api/devices/authorized', {
      serial: '2400000001',
      mac: mac(401),
      company_id: tree.beta.id,
    });
    expect(created.statusCode).toBe(200);
    const list = await root.get('/api/devices/authorized');
    expect(list.json().data[0]).toMatchObject({
      serial: '2400000001',
      company_name: 'Beta',
      registered_at: null,
    });
    expect(
      (await root.post('/api/devices/authorized', { serial: '2400000001', mac: mac(402) })).statusCode,
    ).toBe(409);
  });

  it('searches the approved devices by serial, MAC or company, and sorts them by any listed column', async () => {
    for (const [serial, n, company] of [
      ['2500000002', 502, tree.acme.id],
      ['2500000001', 501, tree.beta.id],
    ] as const) {
      expect(
        (await root.post('/api/devices/authorized', { serial, mac: mac(n), company_id: company })).statusCode,
      ).toBe(200);
    }
    const serials = async (query: string) =>
      ((await root.get(`/api/devices/authorized?${query}`)).json().data as { serial: string }[]).map(
        (r) => r.serial,
      );
    expect(await serials('q=25000000&sort=serial')).toEqual(['2500000001', '2500000002']);
    expect(await serials('q=25000000&sort=-serial')).toEqual(['2500000002', '2500000001']);
    // Newest first when no sort is asked.
    expect(await serials('q=25000000')).toEqual(['2500000001', '2500000002']);
    const byCompany = await root.get('/api/devices/authorized?q=Acme&sort=company_name');
    expect(byCompany.json().data.map((r: { serial: string }) => r.serial)).toContain('2500000002');
    expect(byCompany.json().data.map((r: { serial: string }) => r.serial)).not.toContain('2500000001');
    expect(byCompany.json().meta.total).toBe(byCompany.json().data.length);
    const badSort = await root.get('/api/devices/authorized?sort=password');
    expect(badSort.statusCode).toBe(400);
    expect(errorsOf(badSort)[0]).toMatchObject({ source: 'sort' });
  });
});

describe('policy scoping (ARCHITECTURE §4)', () => {
  it('answers 404 for another company’s device, to reads and changes alike', async () => {
    const acmeDevice = (await devicesRepository.findBySerial(app.db, '2300000001'))!;
    for (const response of [
      await betaAdmin.get(`/api/devices/${acmeDevice.id}`),
      await betaAdmin.put(`/api/devices/${acmeDevice.id}`, { name: 'Mine now' }),
      await betaAdmin.delete(`/api/devices/${acmeDevice.id}`),
      await betaAdmin.get(`/api/devices/${acmeDevice.id}/telemetry`),
      await betaAdmin.get(`/api/devices/${acmeDevice.id}/commands`),
      await northUser.get(`/api/devices/${acmeDevice.id}`),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    const bulk = await betaAdmin.post('/api/devices/actions', {
      action: 'reboot',
      device_id: [acmeDevice.id],
    });
    expect(bulk.json().data).toEqual([
      {
        device_id: acmeDevice.id,
        success: false,
        errors: [{ code: 'NOT_FOUND', message: 'Device not found', source: 'device_id' }],
      },
    ]);
    const serials = (await betaAdmin.get('/api/devices'))
      .json()
      .data.map((d: { serial: string }) => d.serial);
    expect(serials).not.toContain('2300000001');
    // The parent company's admin reaches the subsidiary's device; the end user only their own company's.
    const north = (await northUser.get('/api/devices')).json();
    expect(north.data.map((d: { serial: string }) => d.serial)).toEqual(['2200000001']);
  });
});

describe('devices list', () => {
  beforeAll(async () => {
    for (let i = 0; i < 30; i++) {
      const d = await devicesRepository.insert(app.db, {
        companyId: tree.beta.id,
        serial: `25000000${String(i).padStart(2, '0')}`,
        mac: mac(500 + i),
        name: `Beta ${String.fromCharCode(65 + (i % 26))}${i}`,
        model: i % 3 === 0 ? 'RUT955' : 'RUTX11',
      });
      if (i % 5 === 0)
        await devicesRepository.update(app.db, d!.id, {
          status: 1,
          imei: `35000000000${String(i).padStart(4, '0')}`,
        });
      const firmware = ['RUT9_R_00.07.06.19', 'RUTX_R_00.07.06.3', 'RUTX_R_00.07.14.2', '7.6.1', null][i % 5];
      if (firmware) await devicesRepository.update(app.db, d!.id, { firmware });
    }
  });

  it('filters firmware by version prefix, by number, or by whole name; anything else is refused', async () => {
    const total = async (firmware: string) =>
      (await betaAdmin.get(`/api/devices?limit=1&firmware=${encodeURIComponent(firmware)}`)).json().meta
        ?.total as number;
    expect(await total('07.06')).toBe(18);
    expect(await total('7.6')).toBe(18);
    expect(await total('07.06.19')).toBe(6);
    expect(await total('07')).toBe(24);
    expect(await total('RUTX_R_00.07.14.2')).toBe(6);
    expect(await total('07.14,07.06.3')).toBe(12);
    expect(await total('07.15')).toBe(0);
    const refused = await betaAdmin.get('/api/devices?firmware=notaversion');
    expect(refused.statusCode).toBe(400);
    expect(errorsOf(refused)[0]).toMatchObject({ source: 'firmware', message: FIRMWARE_FILTER_MESSAGE });
  });

  it('pages with a keyset cursor through every row exactly once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const response = await betaAdmin.get(
        `/api/devices?sort=-name&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.meta.total).toBe(30);
      seen.push(...body.data.map((d: { name: string }) => d.name));
      cursor = body.meta.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect(seen).toEqual([...seen].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const wrong = await betaAdmin.get(
      `/api/devices?sort=serial&cursor=${encodeURIComponent(cursor ?? 'eyJzIjoibmFtZSJ9')}`,
    );
    expect(wrong.statusCode).toBe(400);
  });

  it('filters by status and model, searches name, serial, MAC (with or without colons) and IMEI', async () => {
    const get = async (query: string) => (await betaAdmin.get(`/api/devices?limit=100&${query}`)).json();
    expect((await get('status=1')).meta.total).toBe(6);
    expect((await get('model=RUT955')).meta.total).toBe(10);
    expect((await get('model=RUT955&status=1')).meta.total).toBe(2);
    expect((await get('q=2500000017')).data.map((d: { name: string }) => d.name)).toEqual(['Beta R17']);
    expect((await get(`q=${encodeURIComponent('00:1E:42:00:02:05')}`)).meta.total).toBe(1);
    expect((await get('q=00020b')).meta.total).toBe(1);
    expect((await get('q=000000000010')).meta.total).toBe(1);
    expect((await get('q=beta%20a&search-fields=name')).meta.total).toBe(2);
    expect((await get('q=100%25')).meta.total).toBe(0);
    const picked = (
      await betaAdmin.get('/api/devices?fields=id,serial,status_text&limit=1&sort=serial')
    ).json();
    expect(picked.data[0]).toEqual({ id: expect.any(Number), serial: '2500000000', status_text: 'Online' });
    expect((await betaAdmin.get('/api/devices?sort=secret_hash')).statusCode).toBe(400);
  });

  it('exports the filtered list as CSV', async () => {
    const response = await betaAdmin.get('/api/devices/export?model=RUT955&sort=serial');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,name,serial,mac,model,firmware,imei,status_text,company_name,last_seen_at,signal,temperature,operator,wan_ip,description',
    );
    expect(lines).toHaveLength(11);
    expect(lines[1]).toContain('2500000000');
  });
});

describe('bulk actions (product §7) and commands', () => {
  it('queues a command per reachable device with a per-device result and an action channel', async () => {
    const ids = (await betaAdmin.get('/api/devices?limit=3&sort=serial'))
      .json()
      .data.map((d: { id: number }) => d.id);
    const response = await betaAdmin.post('/api/devices/actions', {
      action: 'reboot',
      device_id: [...ids, 999_999],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.meta.channel).toMatch(/^action\.[0-9a-f-]{36}$/);
    expect(body.data.filter((r: { success: boolean }) => r.success)).toHaveLength(3);
    expect(body.data[3]).toMatchObject({ device_id: 999_999, success: false });
    const commandId = body.data[0].command_id as string;
    const command = await betaAdmin.get(`/api/devices/commands/${commandId}`);
    expect(command.json().data).toMatchObject({ action: 'reboot', status: 'pending' });
    expect((await acmeAdmin.get(`/api/devices/commands/${commandId}`)).statusCode).toBe(404);
  });

  it('validates action parameters: monitoring period within product §5 limits, CLI command required', async () => {
    const [id] = (await betaAdmin.get('/api/devices?limit=1')).json().data.map((d: { id: number }) => d.id);
    const tooShort = await betaAdmin.post('/api/devices/actions', {
      action: 'monitoring_period',
      device_id: [id],
      params: { period: 59 },
    });
    expect(tooShort.statusCode).toBe(400);
    const tooLong = await betaAdmin.post('/api/devices/actions', {
      action: 'monitoring_period',
      device_id: [id],
      params: { period: 31_536_001 },
    });
    expect(tooLong.statusCode).toBe(400);
    const ok = await betaAdmin.post('/api/devices/actions', {
      action: 'monitoring_period',
      device_id: [id],
      params: { period: 31_536_000 },
    });
    expect(ok.statusCode).toBe(200);
    expect(
      (await betaAdmin.post('/api/devices/actions', { action: 'cli', device_id: [id] })).statusCode,
    ).toBe(400);
    expect(
      (await betaAdmin.post('/api/devices/actions', { action: 'format_disk', device_id: [id] })).statusCode,
    ).toBe(400);
    expect((await guest.post('/api/devices/actions', { action: 'reboot', device_id: [id] })).statusCode).toBe(
      403,
    );
  });

  it('generates 16-character device passwords and keeps the password out of stored commands', async () => {
    const generated = (await betaAdmin.post('/api/devices/passwords/generate')).json().data
      .password as string;
    expect(generated).toHaveLength(16);
    const [id] = (await betaAdmin.get('/api/devices?limit=1')).json().data.map((d: { id: number }) => d.id);
    const set = await betaAdmin.post('/api/devices/passwords/set', { device_id: [id], password: generated });
    const commandId = set.json().data[0].command_id as string;
    const shown = (await betaAdmin.get(`/api/devices/commands/${commandId}`)).json().data;
    expect(shown.params).toEqual({ password: '********' });
    await betaAdmin.post(`/api/devices/commands/${commandId}/cancel`);
    const [stored] = await app.db.select().from(deviceCommands).where(eq(deviceCommands.id, commandId));
    expect(stored!.params).toEqual({});
  });

  it('renaming sends set_info to the device and answers its channel', async () => {
    const [id] = (await betaAdmin.get('/api/devices?limit=1')).json().data.map((d: { id: number }) => d.id);
    const response = await betaAdmin.put(`/api/devices/${id}`, { name: 'Renamed', description: 'Roof' });
    expect(response.statusCode).toBe(200);
    expect(response.json().meta.channel).toMatch(/^action\./);
    const history = (await betaAdmin.get(`/api/devices/${id}/commands?status=pending`)).json().data;
    expect(
      history.some(
        (c: { action: string; params: { name: string } }) =>
          c.action === 'set_info' && c.params.name === 'Renamed',
      ),
    ).toBe(true);
  });

  it('bulk-unregisters the devices the caller reaches', async () => {
    const [id] = (await betaAdmin.get('/api/devices?limit=1&sort=-serial'))
      .json()
      .data.map((d: { id: number }) => d.id);
    const acmeDevice = (await devicesRepository.findBySerial(app.db, '2300000001'))!;
    const response = await betaAdmin.post('/api/devices/actions', {
      action: 'unregister',
      device_id: [id, acmeDevice.id],
    });
    expect(response.json().data.map((r: { success: boolean }) => r.success)).toEqual([true, false]);
    expect(await devicesRepository.findById(app.db, acmeDevice.id)).toBeDefined();
    expect((await betaAdmin.get(`/api/devices/${id}`)).statusCode).toBe(404);
  });
});

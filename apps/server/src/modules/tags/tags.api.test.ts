import { TAG_DEVICES_MAX, TAG_NAME_MAX } from '@fleetgate/shared/schemas/tags';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { devices } from '#src/db/schema/devices';
import { deviceTags, tags } from '#src/db/schema/tags';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { listDevices } from '../devices/devices-list.repository';
import type { Scope } from '../policy/scope';

let app: FastifyInstance;
let root: TestClient;
let acmeAdmin: TestClient;
let acmeClient: TestClient;
let acmeGuest: TestClient;
let northClient: TestClient;
let betaAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;
const device: Record<string, number> = {};

const mac = (n: number) => `00:1E:42:00:00:${n.toString(16).padStart(2, '0').toUpperCase()}`;

async function addDevice(key: string, companyId: number, model: string, status: number) {
  const response = await root.post('/api/devices', {
    serial: `TAG${key.toUpperCase()}`,
    mac: mac(Object.keys(device).length + 1),
    company_id: companyId,
    model,
  });
  expect(response.statusCode, response.body).toBe(200);
  const id = response.json().data.id as number;
  await app.db.update(devices).set({ status }).where(eq(devices.id, id));
  device[key] = id;
}

async function createTag(client: TestClient, body: Record<string, unknown>) {
  const response = await client.post('/api/tags', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { id: number; company_id: number; name: string };
}

const linksOf = async (tagId: number) =>
  (await app.db.select().from(deviceTags).where(eq(deviceTags.tagId, tagId))).map((l) => l.deviceId).sort();

beforeAll(async () => {
  app = await buildTestApp();
  root = await new TestClient(app).login();
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'client@acme.test', 'end_user', tree.acme.id);
  await createUser(app, 'guest@acme.test', 'read_only', tree.acme.id);
  await createUser(app, 'client@north.test', 'end_user', tree.north.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  [acmeAdmin, acmeClient, acmeGuest, northClient, betaAdmin] = await Promise.all([
    signedIn(app, 'admin@acme.test'),
    signedIn(app, 'client@acme.test'),
    signedIn(app, 'guest@acme.test'),
    signedIn(app, 'client@north.test'),
    signedIn(app, 'admin@beta.test'),
  ]);
  await addDevice('acme1', tree.acme.id, 'RUTX11', 1);
  await addDevice('acme2', tree.acme.id, 'RUTX11', 0);
  await addDevice('acme3', tree.acme.id, 'RUT955', 2);
  await addDevice('north1', tree.north.id, 'RUT955', 7);
  await addDevice('beta1', tree.beta.id, 'RUTX11', 1);
});
afterAll(() => app.close());

describe('creating tags (product §3 newTag)', () => {
  it('successful-tag-creation: in the caller’s company by default, audited, with the spec’s fields', async () => {
    const response = await acmeClient.post('/api/tags', {
      name: 'Warehouse',
      description: 'Routers in the warehouse',
      color: '#FF8800',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: {
        company_id: tree.acme.id,
        company_name: 'Acme',
        name: 'Warehouse',
        description: 'Routers in the warehouse',
        color: '#ff8800',
        devices_count: 0,
      },
      message: 'Tag created successfully',
    });
    const [audit] = await app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'tag.create'), eq(auditLog.targetId, String(response.json().data.id))));
    expect(audit).toMatchObject({ companyId: tree.acme.id, targetType: 'tag' });
  });

  it('an admin creates a tag in a subsidiary; description and colour have defaults', async () => {
    const tag = await createTag(acmeAdmin, { company_id: tree.north.id, name: 'North sites' });
    const stored = (await app.db.select().from(tags).where(eq(tags.id, tag.id)))[0];
    expect(stored).toMatchObject({ companyId: tree.north.id, description: '', color: '#228be6' });
  });

  it('names are unique per company ignoring case, but the same name may live in another company', async () => {
    await createTag(acmeAdmin, { name: 'Backhaul' });
    const duplicate = await acmeAdmin.post('/api/tags', { name: 'BACKHAUL' });
    expect(duplicate.statusCode).toBe(409);
    expect(errorsOf(duplicate)).toEqual([
      { code: 'CONFLICT', message: 'A tag with this name already exists in this company', source: 'name' },
    ]);
    await createTag(betaAdmin, { name: 'Backhaul' });
  });

  it('parallel creations of one name: one wins, the others are refused as duplicates', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => acmeAdmin.post('/api/tags', { name: 'Race' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('refuses a missing or long name, forbidden characters, bad colours and unknown fields', async () => {
    const missing = await acmeAdmin.post('/api/tags', { description: 'x' });
    expect(errorsOf(missing)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Name is required', source: 'name' },
    ]);
    const long = await acmeAdmin.post('/api/tags', { name: 'x'.repeat(TAG_NAME_MAX + 1) });
    expect(errorsOf(long)[0]).toMatchObject({
      source: 'name',
      message: `Name must be at most ${TAG_NAME_MAX} characters`,
    });
    // product §5: < > / and the rest are forbidden in names, so markup never becomes a name.
    const hostile = await acmeAdmin.post('/api/tags', { name: '<script>alert(1)</script>' });
    expect(errorsOf(hostile)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Name contains forbidden characters', source: 'name' },
    ]);
    const colour = await acmeAdmin.post('/api/tags', { name: 'Blue', color: 'blue' });
    expect(errorsOf(colour)[0]).toMatchObject({ source: 'color' });
    const extra = await acmeAdmin.post('/api/tags', { name: 'Extra', id: 5, devices_count: 9 });
    expect(extra.statusCode).toBe(400);
    expect(
      errorsOf(extra)
        .map((e) => e.source)
        .sort(),
    ).toEqual(['devices_count', 'id']);
    expect(await app.db.select().from(tags).where(eq(tags.name, 'Extra'))).toEqual([]);
  });

  it('keeps markup in a description as plain text, exactly as sent', async () => {
    const description = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const tag = await createTag(acmeAdmin, { name: 'Hostile text', description });
    expect((await acmeAdmin.get(`/api/tags/${tag.id}`)).json().data.description).toBe(description);
  });

  it('refuses another company as not found, and guests and readers may not create', async () => {
    const foreign = await acmeAdmin.post('/api/tags', { company_id: tree.beta.id, name: 'Sneaky' });
    expect(foreign.statusCode).toBe(404);
    expect(errorsOf(foreign)).toEqual([{ code: 'NOT_FOUND', message: 'Company not found' }]);
    // An end client sees its own company only: a subsidiary is as foreign as a sibling.
    expect((await northClient.post('/api/tags', { company_id: tree.acme.id, name: 'Up' })).statusCode).toBe(
      404,
    );
    expect((await acmeGuest.post('/api/tags', { name: 'Guest tag' })).statusCode).toBe(403);
    expect(await app.db.select().from(tags).where(eq(tags.name, 'Sneaky'))).toEqual([]);
  });
});

describe('reading tags (product §2 tags.main, company.tags; §7 search)', () => {
  it('lists the tags of the caller’s companies only, with paging, search and the company filter', async () => {
    const acme = (await acmeAdmin.get('/api/tags?limit=100')).json();
    const companies = new Set(acme.data.map((t: { company_id: number }) => t.company_id));
    expect([...companies].sort()).toEqual([tree.acme.id, tree.north.id].sort());
    expect(acme.meta.total).toBe(acme.data.length);

    const page = (await acmeAdmin.get('/api/tags?limit=1&offset=1&sort=name')).json();
    expect(page.data).toHaveLength(1);
    expect(page.data[0].name).toBe(acme.data[1].name);

    const north = (await acmeAdmin.get(`/api/tags?company_id=${tree.north.id}`)).json();
    expect(north.data.map((t: { name: string }) => t.name)).toEqual(['North sites']);

    const beta = (await betaAdmin.get('/api/tags')).json();
    expect(beta.data.map((t: { name: string }) => t.name)).toEqual(['Backhaul']);
  });

  it('answers the global search shape: q over name, the asked fields only, colour included', async () => {
    const response = await acmeAdmin.get(
      '/api/tags?q=ware&limit=10&search-fields=name,email&fields=id,name,status,email,protocol,enabled,color',
    );
    const body = response.json();
    expect(body.data).toEqual([{ id: expect.any(Number), name: 'Warehouse', color: '#ff8800' }]);
    expect(body.meta.total).toBe(1);
  });

  it('a guest reads the tags of its own company; another company’s tag is not found', async () => {
    const list = (await acmeGuest.get('/api/tags?limit=100')).json();
    expect(list.data.every((t: { company_id: number }) => t.company_id === tree.acme.id)).toBe(true);
    const [betaTag] = (await betaAdmin.get('/api/tags')).json().data;
    const foreign = await acmeAdmin.get(`/api/tags/${betaTag.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(errorsOf(foreign)).toEqual([{ code: 'NOT_FOUND', message: 'Tag not found' }]);
  });

  it('refuses unknown sorts with the parameter named, and sorts by device count', async () => {
    const bad = await acmeAdmin.get('/api/tags?sort=secret');
    expect(bad.statusCode).toBe(400);
    expect(errorsOf(bad)[0]?.source).toBe('sort');
    expect((await acmeAdmin.get('/api/tags?sort=-devices_count')).statusCode).toBe(200);
  });
});

describe('tags on devices (product §2 manage tags, §7 POST /devices/tags)', () => {
  let warehouse: number;
  beforeAll(async () => {
    const list = (await acmeAdmin.get('/api/tags?q=Warehouse')).json();
    warehouse = list.data[0].id;
  });

  it('adds a tag to devices of its company and subsidiaries, idempotently, and counts them', async () => {
    const body = { action: 'add', tag_id: warehouse, device_id: [device.acme1, device.acme2, device.north1] };
    const response = await acmeAdmin.post('/api/devices/tags', body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { changed: 3 },
      message: 'Tag added to devices successfully',
    });
    expect((await acmeAdmin.post('/api/devices/tags', body)).json().data.changed).toBe(0);
    expect(await linksOf(warehouse)).toEqual([device.acme1, device.acme2, device.north1].sort());
    expect((await acmeAdmin.get(`/api/tags/${warehouse}`)).json().data.devices_count).toBe(3);
    // An end client of Acme does not reach Acme North's device, so it is not counted for them.
    expect((await acmeClient.get(`/api/tags/${warehouse}`)).json().data.devices_count).toBe(2);
  });

  it('a device of another company answers 404 and changes nothing, even beside valid ones', async () => {
    const before = await linksOf(warehouse);
    const response = await acmeAdmin.post('/api/devices/tags', {
      action: 'add',
      tag_id: warehouse,
      device_id: [device.acme3, device.beta1],
    });
    expect(response.statusCode).toBe(404);
    expect(errorsOf(response)).toEqual([{ code: 'NOT_FOUND', message: 'Device not found' }]);
    expect(await linksOf(warehouse)).toEqual(before);
    const removal = await acmeAdmin.post('/api/devices/tags', {
      action: 'remove',
      tag_id: warehouse,
      device_id: [device.acme1, device.beta1],
    });
    expect(removal.statusCode).toBe(404);
    expect(await linksOf(warehouse)).toEqual(before);
  });

  it('another company’s tag answers 404; a tag never lands outside its company subtree', async () => {
    const [betaTag] = (await betaAdmin.get('/api/tags')).json().data;
    const foreignTag = await acmeAdmin.post('/api/devices/tags', {
      action: 'add',
      tag_id: betaTag.id,
      device_id: [device.acme1],
    });
    expect(foreignTag.statusCode).toBe(404);
    expect(errorsOf(foreignTag)).toEqual([{ code: 'NOT_FOUND', message: 'Tag not found' }]);
    // The super admin reaches both, but Acme's tag does not go on Beta's device.
    const across = await root.post('/api/devices/tags', {
      action: 'add',
      tag_id: warehouse,
      device_id: [device.beta1],
    });
    expect(across.statusCode).toBe(400);
    expect(errorsOf(across)[0]).toMatchObject({ source: 'device_id' });
    expect(await linksOf(warehouse)).not.toContain(device.beta1);
  });

  it('refuses bad bodies: unknown action, no devices, too many, extra fields; readers may not tag', async () => {
    const cases = [
      { action: 'toggle', tag_id: warehouse, device_id: [device.acme1] },
      { action: 'add', tag_id: warehouse, device_id: [] },
      {
        action: 'add',
        tag_id: warehouse,
        device_id: Array.from({ length: TAG_DEVICES_MAX + 1 }, (_, i) => i + 1),
      },
      { action: 'add', tag_id: warehouse, device_id: [device.acme1], company_id: tree.beta.id },
    ];
    for (const body of cases) expect((await acmeAdmin.post('/api/devices/tags', body)).statusCode).toBe(400);
    const guest = await acmeGuest.post('/api/devices/tags', {
      action: 'add',
      tag_id: warehouse,
      device_id: [device.acme3],
    });
    expect(guest.statusCode).toBe(403);
  });

  it('removes a tag from devices and records both changes in the audit log', async () => {
    const response = await acmeAdmin.post('/api/devices/tags', {
      action: 'remove',
      tag_id: warehouse,
      device_id: [device.north1],
    });
    expect(response.json()).toMatchObject({
      data: { changed: 1 },
      message: 'Tag removed from devices successfully',
    });
    const actions = (
      await app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.targetId, String(warehouse)))
    ).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['tag.assign', 'tag.unassign']));
  });
});

describe('the tag chart (product §2 management.tag_chart, §4 statuses)', () => {
  it('counts the tag’s devices by status bucket and by model', async () => {
    const tag = await createTag(acmeAdmin, { name: 'Chart' });
    await acmeAdmin.post('/api/devices/tags', {
      action: 'add',
      tag_id: tag.id,
      device_id: [device.acme1, device.acme2, device.acme3, device.north1],
    });
    const response = await acmeAdmin.get(`/api/tags/${tag.id}/chart`);
    expect(response.statusCode).toBe(200);
    const chart = response.json().data;
    expect(chart.tag).toMatchObject({ id: tag.id, name: 'Chart', devices_count: 4 });
    expect(chart.total).toBe(4);
    expect(chart.by_status).toEqual([
      { status: 'offline', count: 1 },
      { status: 'online', count: 1 },
      { status: 'pending', count: 1 },
      { status: 'not_activated', count: 1 },
    ]);
    expect(chart.by_model).toEqual([
      { model: 'RUT955', count: 2 },
      { model: 'RUTX11', count: 2 },
    ]);
    // The end client of Acme sees only Acme's three devices on the same tag.
    const client = (await acmeClient.get(`/api/tags/${tag.id}/chart`)).json().data;
    expect(client.total).toBe(3);
    expect(client.by_status.find((b: { status: string }) => b.status === 'not_activated').count).toBe(0);
  });

  it('another company’s tag chart is not found', async () => {
    const [betaTag] = (await betaAdmin.get('/api/tags')).json().data;
    expect((await acmeAdmin.get(`/api/tags/${betaTag.id}/chart`)).statusCode).toBe(404);
  });
});

describe('changing and deleting tags', () => {
  it('updates name, description and colour; refuses an empty change and a taken name', async () => {
    const tag = await createTag(acmeAdmin, { name: 'Renamable' });
    const response = await acmeAdmin.put(`/api/tags/${tag.id}`, { name: 'Renamed', color: '#00AA00' });
    expect(response.json()).toMatchObject({
      data: { name: 'Renamed', color: '#00aa00' },
      message: 'Tag updated successfully',
    });
    expect((await acmeAdmin.put(`/api/tags/${tag.id}`, {})).statusCode).toBe(400);
    const taken = await acmeAdmin.put(`/api/tags/${tag.id}`, { name: 'warehouse' });
    expect(taken.statusCode).toBe(409);
    // Renaming to itself with another case is allowed: the only match is the tag itself.
    expect((await acmeAdmin.put(`/api/tags/${tag.id}`, { name: 'RENAMED' })).statusCode).toBe(200);
    const moved = await acmeAdmin.put(`/api/tags/${tag.id}`, { company_id: tree.north.id });
    expect(moved.statusCode).toBe(400);
  });

  it('another company’s tag cannot be changed or deleted: 404 and nothing changes', async () => {
    const [betaTag] = (await betaAdmin.get('/api/tags')).json().data;
    expect((await acmeAdmin.put(`/api/tags/${betaTag.id}`, { name: 'Taken over' })).statusCode).toBe(404);
    expect((await acmeAdmin.delete(`/api/tags/${betaTag.id}`)).statusCode).toBe(404);
    expect((await betaAdmin.get(`/api/tags/${betaTag.id}`)).json().data.name).toBe('Backhaul');
  });

  it('deleting a tag removes it from its devices, leaving the devices', async () => {
    const tag = await createTag(acmeAdmin, { name: 'Doomed' });
    await acmeAdmin.post('/api/devices/tags', { action: 'add', tag_id: tag.id, device_id: [device.acme1] });
    const response = await acmeAdmin.delete(`/api/tags/${tag.id}`);
    expect(response.json()).toMatchObject({ data: { id: tag.id }, message: 'Tag removed successfully' });
    expect(await linksOf(tag.id)).toEqual([]);
    expect((await acmeAdmin.get(`/api/devices/${device.acme1}`)).statusCode).toBe(200);
    expect((await acmeAdmin.get(`/api/tags/${tag.id}`)).statusCode).toBe(404);
    expect((await acmeGuest.delete(`/api/tags/${tag.id}`)).statusCode).toBe(403);
  });
});

describe('the devices list filtered by tag (devices-list.repository.ts `tagId`)', () => {
  it('lists only the devices carrying the tag, and nothing for a tag outside the caller’s companies', async () => {
    const tag = await createTag(acmeAdmin, { name: 'Filter' });
    await acmeAdmin.post('/api/devices/tags', {
      action: 'add',
      tag_id: tag.id,
      device_id: [device.acme2, device.north1],
    });
    const page = { limit: 100, offset: 0 };
    const acmeSubtree: Scope = { companyId: tree.acme.id, path: tree.acme.path, subtree: true };
    const tagged = await listDevices(app.db, acmeSubtree, { ...page, tagId: [tag.id] });
    expect(tagged.rows.map((r) => r.id).sort()).toEqual([device.acme2, device.north1].sort());
    expect(tagged.total).toBe(2);
    expect((await listDevices(app.db, acmeSubtree, page)).total).toBe(4);
    // Acme North does not reach Acme's tag: filtering by it matches nothing, not even its own device.
    const northOnly: Scope = { companyId: tree.north.id, path: tree.north.path, subtree: false };
    expect((await listDevices(app.db, northOnly, { ...page, tagId: [tag.id] })).total).toBe(0);
  });
});

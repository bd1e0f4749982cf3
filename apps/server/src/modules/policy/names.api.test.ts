import { INVISIBLE_NAME_MESSAGE, INVISIBLE_TEXT_MESSAGE } from '@fleetgate/shared/limits';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';

/**
 * The finding: a right-to-left override or a zero-width character in a name shows spoofed
 * text ('Attk\u202eelif.exe' shows as 'Attkexe.file'). Every name the console accepts is
 * refused with them, the field named as the error's source, and nothing is stored.
 */
const SPOOFS = [
  ['right-to-left override', 'Attk\u202eelif.exe'],
  ['zero-width space', 'Acme\u200bNorth'],
] as const;

const refused = (source: string, message = INVISIBLE_NAME_MESSAGE) => ({
  code: 'VALIDATION_ERROR',
  message,
  source,
});

let app: FastifyInstance;
let root: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;
let deviceId: number;
let tagId: number;
let roleId: number;
let users = 0;

beforeAll(async () => {
  app = await buildTestApp();
  root = await new TestClient(app).login();
  tree = await tenantTree(app);
  const device = await root.post('/api/devices', {
    serial: 'NAMES0001',
    mac: '00:1E:42:00:0A:01',
    company_id: tree.acme.id,
    name: 'Gate 1',
  });
  expect(device.statusCode, device.body).toBe(200);
  deviceId = device.json().data.id;
  const tag = await root.post('/api/tags', { company_id: tree.acme.id, name: 'Warehouse' });
  expect(tag.statusCode, tag.body).toBe(200);
  tagId = tag.json().data.id;
  const role = await root.post('/api/roles', {
    company_id: tree.acme.id,
    name: 'field_ops',
    title: 'Field operations',
    permissions: [],
  });
  expect(role.statusCode, role.body).toBe(200);
  roleId = role.json().data.id;
});
afterAll(async () => {
  await app.close();
});

describe.each(SPOOFS)('failing names with a %s', (_what, spoof) => {
  it('device name: refused on add and on edit, the stored name unchanged', async () => {
    const added = await root.post('/api/devices', {
      serial: 'NAMES0002',
      mac: '00:1E:42:00:0A:02',
      name: spoof,
    });
    expect(added.statusCode).toBe(400);
    expect(errorsOf(added)).toEqual([refused('name')]);

    const edited = await root.put(`/api/devices/${deviceId}`, { name: spoof });
    expect(edited.statusCode).toBe(400);
    expect(errorsOf(edited)).toEqual([refused('name')]);
    expect((await root.get(`/api/devices/${deviceId}`)).json().data.name).toBe('Gate 1');
  });

  it('device description: refused, the text named as its source', async () => {
    const edited = await root.put(`/api/devices/${deviceId}`, { description: `Rack 3\n${spoof}` });
    expect(edited.statusCode).toBe(400);
    expect(errorsOf(edited)).toEqual([refused('description', INVISIBLE_TEXT_MESSAGE)]);
  });

  it('company name: refused on add and on rename, the stored name unchanged', async () => {
    const added = await root.post('/api/companies', { name: spoof, parent_id: tree.acme.id });
    expect(added.statusCode).toBe(400);
    expect(errorsOf(added)).toEqual([refused('name')]);

    const renamed = await root.put(`/api/companies/${tree.north.id}`, { name: spoof });
    expect(renamed.statusCode).toBe(400);
    expect(errorsOf(renamed)).toEqual([refused('name')]);
    expect((await root.get(`/api/companies/${tree.north.id}`)).json().data.name).toBe('Acme North');
  });

  it('tag name: refused on add and on edit, the stored name unchanged', async () => {
    const added = await root.post('/api/tags', { company_id: tree.acme.id, name: spoof });
    expect(added.statusCode).toBe(400);
    expect(errorsOf(added)).toEqual([refused('name')]);

    const edited = await root.put(`/api/tags/${tagId}`, { name: spoof });
    expect(edited.statusCode).toBe(400);
    expect(errorsOf(edited)).toEqual([refused('name')]);
    expect((await root.get(`/api/tags/${tagId}`)).json().data.name).toBe('Warehouse');
  });

  it('role name and title: refused on add and on edit, the stored role unchanged', async () => {
    const added = await root.post('/api/roles', {
      company_id: tree.acme.id,
      name: spoof,
      title: spoof,
      permissions: [],
    });
    expect(added.statusCode).toBe(400);
    // The name's pattern (lower-case letters, digits, _) refuses it as well.
    expect(errorsOf(added)).toContainEqual(refused('name'));
    expect(errorsOf(added)).toContainEqual(refused('title'));

    const edited = await root.put(`/api/roles/${roleId}`, { title: spoof });
    expect(edited.statusCode).toBe(400);
    expect(errorsOf(edited)).toEqual([refused('title')]);
    const renamed = await root.put(`/api/roles/${roleId}`, { name: `ops${spoof}` });
    expect(renamed.statusCode).toBe(400);
    expect(errorsOf(renamed)).toContainEqual(refused('name'));
    expect((await root.get(`/api/roles/${roleId}`)).json().data).toMatchObject({
      name: 'field_ops',
      title: 'Field operations',
    });
  });

  it('username: refused on the profile', async () => {
    const email = `names-${++users}@acme.test`;
    await createUser(app, email, 'end_user', tree.acme.id);
    const user = await signedIn(app, email);
    const response = await user.put('/api/user/profile', { username: spoof });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([refused('username')]);
  });
});

describe('successful names', () => {
  it('names in other scripts, right-to-left letters and multi-line descriptions are still accepted', async () => {
    const edited = await root.put(`/api/devices/${deviceId}`, {
      name: 'Vilnius Šilas 東京',
      description: 'Rack 3\nShelf 2',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const tag = await root.put(`/api/tags/${tagId}`, { name: 'מחסן' });
    expect(tag.statusCode, tag.body).toBe(200);
    expect((await root.get(`/api/devices/${deviceId}`)).json().data).toMatchObject({
      name: 'Vilnius Šilas 東京',
      description: 'Rack 3\nShelf 2',
    });
  });
});

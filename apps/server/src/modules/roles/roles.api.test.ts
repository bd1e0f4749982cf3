import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#src/db/schema/users';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';

let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;
const adminPermissions = DEFAULT_ROLES.find((r) => r.name === 'admin')!.permissions;
/** Default role names in id order, as the list answers them. */
const defaultNames = [...DEFAULT_ROLES].sort((a, b) => a.id - b.id).map((r) => r.name);

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'acme.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'beta.admin@x.test', 'admin', tree.beta.id);
  await createUser(app, 'acme.client@x.test', 'end_user', tree.acme.id);
});
afterAll(() => app.close());

describe('roles (product §3 Role, §6)', () => {
  it('lists the five default roles with their permission counts and invitable roles', async () => {
    const client = await new TestClient(app).login();
    const body = (await client.get('/api/roles?type=default')).json();
    expect(body.data.map((r: { name: string }) => r.name)).toEqual(defaultNames);
    const superAdmin = body.data.find((r: { name: string }) => r.name === 'super_admin');
    expect(superAdmin).toMatchObject({
      isDefault: true,
      company_id: null,
      permissions_count: PERMISSIONS.length,
    });
    expect(superAdmin.canInviteRoles).toEqual([
      'admin',
      'end_user',
      'readonly_admin',
      'read_only',
      'support',
    ]);
  });

  it('successful role creation within the admin’s own permissions', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const response = await client.post('/api/roles', {
      company_id: tree.acme.id,
      name: 'field_tech',
      title: 'Field technician',
      permissions: ['view_devices', 'manage_devices'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      name: 'field_tech',
      company_id: tree.acme.id,
      company_name: 'Acme',
      isDefault: false,
      permissions_count: 2,
      permissions: ['manage_devices', 'view_devices'],
      // A role unknown to the default list invites like an admin (product §6).
      canInviteRoles: ['admin', 'end_user', 'readonly_admin', 'read_only'],
    });
    const options = (await client.get(`/api/roles?company_id=${tree.acme.id}`))
      .json()
      .data.map((r: { name: string }) => r.name);
    expect(options).toEqual([...defaultNames, 'field_tech']);
  });

  it('failing role creation above the author’s own permissions', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const response = await client.post('/api/roles', {
      company_id: tree.acme.id,
      name: 'sneaky',
      title: 'Sneaky',
      permissions: [...adminPermissions, 'super_admin', 'view_mail_logs'],
    });
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)[0]?.message).toBe(
      'You cannot grant permissions you do not hold: super_admin, view_mail_logs',
    );
  });

  it('refuses unknown permissions, another company’s id, and changes to default roles', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const unknown = await client.post('/api/roles', {
      company_id: tree.acme.id,
      name: 'x_role',
      title: 'X',
      permissions: ['root'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown)[0]?.source).toBe('permissions.0');
    const foreign = await client.post('/api/roles', {
      company_id: tree.beta.id,
      name: 'x_role',
      title: 'X',
      permissions: [],
    });
    expect(foreign.statusCode).toBe(404);
    expect((await client.put('/api/roles/2', { title: 'Boss' })).statusCode).toBe(400);
    expect((await client.delete('/api/roles/1')).statusCode).toBe(400);
  });

  it('custom roles of another company stay invisible', async () => {
    const beta = await signedIn(app, 'beta.admin@x.test');
    const created = await beta.post('/api/roles', {
      company_id: tree.beta.id,
      name: 'beta_only',
      title: 'Beta only',
      permissions: [],
    });
    const acme = await signedIn(app, 'acme.admin@x.test');
    const names = (await acme.get('/api/roles')).json().data.map((r: { name: string }) => r.name);
    expect(names).not.toContain('beta_only');
    expect((await acme.get(`/api/roles/${created.json().data.id}`)).statusCode).toBe(404);
    expect((await acme.delete(`/api/roles/${created.json().data.id}`)).statusCode).toBe(404);
  });

  it('refuses to remove a role someone holds, and removes it once nobody does', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const role = (
      await client.post('/api/roles', {
        company_id: tree.acme.id,
        name: 'held',
        title: 'Held',
        permissions: [],
      })
    ).json().data;
    const holder = await createUser(app, 'holder@x.test', 'read_only', tree.acme.id);
    await app.db.update(users).set({ roleId: role.id }).where(eq(users.id, holder.id));
    const refused = await client.delete(`/api/roles/${role.id}`);
    expect(refused.statusCode).toBe(409);
    expect(errorsOf(refused)[0]?.message).toBe('1 user holds this role. Give them another role first.');
    await app.db.update(users).set({ roleId: 4 }).where(eq(users.id, holder.id));
    expect((await client.delete(`/api/roles/${role.id}`)).statusCode).toBe(200);
  });

  it('an end client may read roles but not create them', async () => {
    const client = await signedIn(app, 'acme.client@x.test');
    expect((await client.get('/api/roles')).statusCode).toBe(200);
    const response = await client.post('/api/roles', {
      company_id: tree.acme.id,
      name: 'mine',
      title: 'Mine',
      permissions: [],
    });
    expect(response.statusCode).toBe(403);
  });
});

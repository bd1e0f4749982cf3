import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { and, desc, eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { recoveryCodes, userTotp } from '#src/db/schema/mfa';
import { rolePermissions, roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import { ADMIN_EMAIL, buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';

let app: FastifyInstance;
let admin: TestClient;
let acmeAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;
const roleId = (name: string) => DEFAULT_ROLES.find((r) => r.name === name)!.id;
const ids: Record<string, number> = {};

async function roleOf(email: string) {
  const [row] = await app.db
    .select({ roleId: users.roleId, companyId: users.companyId })
    .from(users)
    .where(eq(users.email, email));
  return row!;
}

beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
  tree = await tenantTree(app);
  for (const [email, role, company] of [
    ['admin@acme.test', 'admin', tree.acme.id],
    ['second.admin@acme.test', 'admin', tree.acme.id],
    ['client@acme.test', 'end_user', tree.acme.id],
    ['guest@north.test', 'read_only', tree.north.id],
    ['client@beta.test', 'end_user', tree.beta.id],
  ] as const) {
    ids[email] = (await createUser(app, email, role, company)).id;
  }
  admin = await new TestClient(app).login();
  acmeAdmin = await signedIn(app, 'admin@acme.test');
});
afterAll(() => app.close());

describe("'edit user role' (product §2): PUT /users/:id/role", () => {
  it('an admin gives a user of their subtree another invitable role', async () => {
    const response = await acmeAdmin.put(`/api/users/${ids['guest@north.test']}/role`, {
      role_id: roleId('end_user'),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'User role updated successfully',
      data: { role_name: 'end_user' },
    });
    expect((await roleOf('guest@north.test')).roleId).toBe(roleId('end_user'));
  });

  it('never one’s own role, never a role above one’s own, never a foreign user', async () => {
    const own = await acmeAdmin.put(`/api/users/${ids['admin@acme.test']}/role`, {
      role_id: roleId('read_only'),
    });
    expect(own.statusCode).toBe(400);
    expect(errorsOf(own)[0]).toMatchObject({ source: 'role_id', message: 'You cannot change your own role' });
    const up = await acmeAdmin.put(`/api/users/${ids['client@acme.test']}/role`, {
      role_id: roleId('super_admin'),
    });
    expect(up.statusCode).toBe(403);
    const foreign = await acmeAdmin.put(`/api/users/${ids['client@beta.test']}/role`, {
      role_id: roleId('read_only'),
    });
    expect(foreign.statusCode).toBe(404);
    expect((await roleOf('client@acme.test')).roleId).toBe(roleId('end_user'));
  });

  it('refuses extra fields and a custom role of another company', async () => {
    const extra = await acmeAdmin.put(`/api/users/${ids['client@acme.test']}/role`, {
      role_id: roleId('read_only'),
      permissions: ['super_admin'],
    });
    expect(extra.statusCode).toBe(400);
    const [northRole] = await app.db
      .insert(roles)
      .values({ companyId: tree.north.id, name: 'north_ops', title: 'North ops' })
      .returning();
    const elsewhere = await acmeAdmin.put(`/api/users/${ids['client@acme.test']}/role`, {
      role_id: northRole!.id,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(errorsOf(elsewhere)[0]!.message).toBe('This role belongs to another company');
  });

  it('a user whose role is above the caller’s keeps it', async () => {
    const [narrow] = await app.db
      .insert(roles)
      .values({ companyId: tree.acme.id, name: 'helpdesk', title: 'Helpdesk' })
      .returning();
    await app.db.insert(rolePermissions).values(
      ['manage_users', 'view_users', 'view_roles'].map((permission) => ({
        roleId: narrow!.id,
        permission,
      })),
    );
    await app.db.update(users).set({ roleId: narrow!.id }).where(eq(users.id, ids['client@acme.test']!));
    const helpdesk = await signedIn(app, 'client@acme.test');
    const response = await helpdesk.put(`/api/users/${ids['second.admin@acme.test']}/role`, {
      role_id: narrow!.id,
    });
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)[0]!.message).toBe('second.admin@acme.test has a role above your own');
    expect((await roleOf('second.admin@acme.test')).roleId).toBe(roleId('admin'));
    await app.db
      .update(users)
      .set({ roleId: roleId('end_user') })
      .where(eq(users.id, ids['client@acme.test']!));
  });
});

describe("'move users' (product §2, §7 /users/move) and users.move-logs", () => {
  it('moves users within the subtree and writes one move log row each', async () => {
    const response = await acmeAdmin.post('/api/users/move', {
      user_ids: [ids['client@acme.test'], ids['second.admin@acme.test']],
      company_id: tree.north.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { moved: 2, company_id: tree.north.id },
      message: '2 users moved successfully',
    });
    expect((await roleOf('client@acme.test')).companyId).toBe(tree.north.id);
    const logs = await acmeAdmin.get('/api/users/move-logs?q=acme.test');
    const rows = logs.json().data;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      from_company_name: 'Acme',
      to_company_name: 'Acme North',
      moved_by: 'admin@acme.test',
    });
    // The moved user's session sees the new company at once.
    const client = await signedIn(app, 'client@acme.test');
    expect((await client.get('/api/user')).json().data.company_id).toBe(tree.north.id);
  });

  it('never oneself, never into or out of a foreign company, and refuses extra fields', async () => {
    const self = await acmeAdmin.post('/api/users/move', {
      user_ids: [ids['admin@acme.test']],
      company_id: tree.north.id,
    });
    expect(self.statusCode).toBe(400);
    expect(errorsOf(self)[0]!.message).toBe('You cannot move yourself');
    const intoBeta = await acmeAdmin.post('/api/users/move', {
      user_ids: [ids['guest@north.test']],
      company_id: tree.beta.id,
    });
    expect(intoBeta.statusCode).toBe(404);
    const outOfBeta = await acmeAdmin.post('/api/users/move', {
      user_ids: [ids['client@beta.test']],
      company_id: tree.acme.id,
    });
    expect(outOfBeta.statusCode).toBe(404);
    const extra = await acmeAdmin.post('/api/users/move', {
      user_ids: [ids['guest@north.test']],
      company_id: tree.acme.id,
      role_id: 1,
    });
    expect(extra.statusCode).toBe(400);
    expect((await roleOf('client@beta.test')).companyId).toBe(tree.beta.id);
    expect((await roleOf('guest@north.test')).companyId).toBe(tree.north.id);
  });

  it('Beta’s admin sees none of Acme’s move logs; a super admin sees them all', async () => {
    await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
    const betaAdmin = await signedIn(app, 'admin@beta.test');
    expect((await betaAdmin.get('/api/users/move-logs')).json().meta.total).toBe(0);
    expect((await admin.get('/api/users/move-logs')).json().meta.total).toBeGreaterThanOrEqual(2);
  });

  it('a system administrator stays in the top company', async () => {
    const [sa] = await app.db.select().from(users).where(eq(users.email, ADMIN_EMAIL));
    await createUser(app, 'second.sa@fleetgate.test', 'super_admin', 1);
    const other = await signedIn(app, 'second.sa@fleetgate.test');
    const response = await other.post('/api/users/move', { user_ids: [sa!.id], company_id: tree.acme.id });
    expect(response.statusCode).toBe(400);
  });
});

describe('admin-only forms of product §3 (removeUserMfa, deleteUser, makeSSOAdmin)', () => {
  const body = (email: string) => ({ email });

  it('removes every second step of a user', async () => {
    const id = ids['guest@north.test']!;
    await app.db.update(users).set({ mfaType: 'totp' }).where(eq(users.id, id));
    await app.db.insert(userTotp).values({ userId: id, secretEncrypted: 'x', confirmedAt: new Date() });
    await app.db.insert(recoveryCodes).values({ userId: id, codeHash: 'h' });
    const response = await admin.request('DELETE', '/api/admin/users/mfa', body('GUEST@north.test'));
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Two-step verification removed successfully');
    const [user] = await app.db.select().from(users).where(eq(users.id, id));
    expect(user!.mfaType).toBeNull();
    expect(await app.db.select().from(userTotp).where(eq(userTotp.userId, id))).toHaveLength(0);
    expect(await app.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, id))).toHaveLength(0);
    const again = await admin.request('DELETE', '/api/admin/users/mfa', body('guest@north.test'));
    expect(again.statusCode).toBe(400);
  });

  it('makes a user SSO administrator once', async () => {
    const response = await admin.post('/api/admin/users/sso', body('guest@north.test'));
    expect(response.statusCode).toBe(200);
    expect((await admin.get(`/api/users/${ids['guest@north.test']}`)).json().data.sso_admin).toBe(true);
    expect((await admin.post('/api/admin/users/sso', body('guest@north.test'))).statusCode).toBe(400);
  });

  it('deletes a user, never oneself, never an unknown address', async () => {
    const response = await admin.request('DELETE', '/api/admin/users', body('guest@north.test'));
    expect(response.statusCode).toBe(200);
    expect(await app.db.select().from(users).where(eq(users.email, 'guest@north.test'))).toHaveLength(0);
    const self = await admin.request('DELETE', '/api/admin/users', body(ADMIN_EMAIL));
    expect(self.statusCode).toBe(400);
    const unknown = await admin.request('DELETE', '/api/admin/users', body('nobody@example.test'));
    expect(unknown.statusCode).toBe(404);
    expect(errorsOf(unknown)[0]!.source).toBe('email');
    const audit = await app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(like(auditLog.action, 'user.%'));
    expect(audit.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'user.mfa.remove',
        'user.sso_admin',
        'user.delete',
        'user.move',
        'user.role.change',
      ]),
    );
  });

  it('only a super admin may use them', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/admin/users/mfa'],
      ['DELETE', '/api/admin/users'],
      ['POST', '/api/admin/users/sso'],
    ] as const) {
      const response = await acmeAdmin.request(method, url, body('client@acme.test'));
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('while impersonating, the real actor must confirm their password first (423)', async () => {
    const [sa] = await app.db.select().from(users).where(eq(users.email, ADMIN_EMAIL));
    const [subject] = await app.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
    const tokens = await app.authService.startSession(subject!.id, sa!.id, {
      ip: '127.0.0.1',
      userAgent: 'test',
    });
    const client = new TestClient(app);
    client.cookies.set('fg_session', tokens.accessToken);
    client.cookies.set('XSRF-TOKEN', tokens.xsrfToken);
    const target = ids['client@acme.test']!;
    const locked = await client.put(`/api/users/${target}/role`, { role_id: roleId('read_only') });
    expect(locked.statusCode).toBe(423);
    const confirmed = await client.post('/api/password-confirmation', { password: 'admin-password-1' });
    expect(confirmed.statusCode).toBe(200);
    const changed = await client.put(`/api/users/${target}/role`, { role_id: roleId('read_only') });
    expect(changed.statusCode).toBe(200);
    const [audit] = await app.db
      .select({ actor: auditLog.actorUserId, subject: auditLog.subjectUserId })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.role.change'), eq(auditLog.targetId, String(target))))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toEqual({ actor: sa!.id, subject: subject!.id });
  });
});

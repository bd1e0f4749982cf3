import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, errorsOf, TestClient } from '#test/app';
import { registerDirect, testIdentity } from '#test/devices';
import { createCompany, createUser, signedIn, tenantTree } from '#test/factories';
import { SENSITIVE_ACTIONS } from './sensitive-actions';

/**
 * The step-up of sensitive actions (docs/security.md): the catalogue names real routes,
 * and while impersonating each action the review found unguarded asks for the real
 * actor's password first.
 */
let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
});
afterAll(() => app.close());

describe('the catalogue of sensitive actions', () => {
  it('every entry names a registered route (a renamed route cannot silently lose its step-up)', () => {
    const routes = new Set(app.routeCatalog.map((r) => `${r.method} ${r.url}`));
    const missing = SENSITIVE_ACTIONS.filter((a) => !routes.has(`${a.method} ${a.url}`));
    expect(missing).toEqual([]);
  });
});

describe('failing-unconfirmed-while-impersonating: sensitive actions ask the real actor first', () => {
  it('delete a company, invite an admin, create a role with manage_users, set a device password, reset its identity, change MFA duty, share remote access', async () => {
    await createUser(app, 'stepup.admin@x.test', 'admin', tree.acme.id);
    const subject = await signedIn(app, 'stepup.admin@x.test');
    const until = new Date(Date.now() + 86_400_000).toISOString();
    expect((await subject.post('/api/user/impersonation-access', { until })).statusCode).toBe(200);
    const subjectId = (await subject.get('/api/user')).json().data.id as number;
    const doomed = await createCompany(app, 'Doomed Co', tree.acme.id);
    const device = await registerDirect(app, testIdentity(), tree.acme.id);

    const shell = await subject.post('/api/devices/remote-access', {
      device_id: device.id,
      name: 'Router shell',
      protocol: 'ssh',
    });
    const entryId = shell.json().data.id as number;
    const root = await new TestClient(app).login();
    expect((await root.post(`/api/users/${subjectId}/impersonate`)).statusCode).toBe(200);

    const actions = [
      () => root.delete(`/api/companies/${doomed.id}`),
      () => root.post('/api/users/invite', { company_id: tree.acme.id, email: 'new.admin@x.test', role: 2 }),
      () =>
        root.post('/api/roles', {
          company_id: tree.acme.id,
          name: 'user_managers',
          title: 'User managers',
          description: '',
          permissions: ['view_users', 'manage_users'],
        }),
      () => root.post('/api/devices/passwords/set', { device_id: [device.id], password: 'Str0ng-enough' }),
      () => root.post('/api/devices/actions', { action: 'reset_identity', device_id: [device.id] }),
      () => root.put(`/api/companies/${tree.north.id}/flags`, { mfa_mandatory: true }),
      () => root.post('/api/remote/share-links', { entry_id: entryId, minutes: 5 }),
    ];
    for (const action of actions) {
      const refused = await action();
      expect(refused.statusCode, refused.body).toBe(423);
      expect(errorsOf(refused)[0]?.code).toBe('PASSWORD_CONFIRMATION_REQUIRED');
    }
    // Nothing happened meanwhile.
    expect((await root.get(`/api/companies/${doomed.id}`)).statusCode).toBe(200);
    // An action outside the list goes through at once, and a harmless bulk action too.
    expect(
      (await root.post('/api/devices/actions', { action: 'reboot', device_id: [device.id] })).statusCode,
    ).toBe(200);

    expect((await root.post('/api/password-confirmation', { password: ADMIN_PASSWORD })).statusCode).toBe(
      200,
    );
    for (const action of actions) {
      const done = await action();
      expect(done.statusCode, done.body).toBeLessThan(300);
    }
    await root.post('/api/impersonation/cancel');
  });

  it('acting as oneself, the same actions are not asked for a password; access tokens always are', async () => {
    await createUser(app, 'stepup.self@x.test', 'admin', tree.acme.id);
    const self = await signedIn(app, 'stepup.self@x.test');
    const doomed = await createCompany(app, 'Own Doomed Co', tree.acme.id);
    expect((await self.delete(`/api/companies/${doomed.id}`)).statusCode).toBe(200);
    expect(
      (await self.post('/api/user/tokens', { name: 'script', scopes: ['devices:read'] })).statusCode,
    ).toBe(423);
  });
});

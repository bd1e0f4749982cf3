import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '#src/auth/tokens';
import { auditLog } from '#src/db/schema/audit';
import { impersonationGrants, impersonationLogs } from '#src/db/schema/impersonation';
import { mailLog } from '#src/db/schema/mail';
import { sessions } from '#src/db/schema/sessions';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree, USER_PASSWORD } from '#test/factories';

let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;
const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'acme.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'acme.peer@x.test', 'admin', tree.acme.id);
  await createUser(app, 'north.client@x.test', 'end_user', tree.north.id);
  await createUser(app, 'north.admin@x.test', 'admin', tree.north.id);
  await createUser(app, 'north.system@x.test', 'super_admin', tree.north.id);
  await createUser(app, 'beta.client@x.test', 'end_user', tree.beta.id);
  await createUser(app, 'beta.admin@x.test', 'admin', tree.beta.id);
});
afterAll(() => app.close());

async function idOf(email: string): Promise<number> {
  const client = await signedIn(app, email);
  return (await client.get('/api/user')).json().data.id as number;
}

/** The minute of grace a replaced session keeps, passed. */
async function expireSession(id: string) {
  await app.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(sessions.id, id));
}

/** A user who granted access for `days`. */
async function granting(email: string, days = 2) {
  const client = await signedIn(app, email);
  const response = await client.post('/api/user/impersonation-access', { until: inDays(days) });
  expect(response.statusCode).toBe(200);
  return client;
}

describe('granting impersonation access (product §3, §4, §7)', () => {
  it('successful grant shows as impersonation_access_limit of the current user', async () => {
    const client = await granting('north.client@x.test', 3);
    const user = (await client.get('/api/user')).json().data;
    const limit = Date.parse(user.impersonation_access_limit);
    expect(limit).toBeGreaterThan(Date.now() + 2.9 * DAY);
    expect(limit).toBeLessThan(Date.now() + 3.1 * DAY);
    expect((await client.get('/api/user/impersonation-access')).json().data.until).toBe(
      user.impersonation_access_limit,
    );
  });

  it('failing grant: in the past, beyond 30 days, or with extra fields', async () => {
    const client = await signedIn(app, 'beta.client@x.test');
    const past = await client.post('/api/user/impersonation-access', { until: inDays(-1) });
    expect(past.statusCode).toBe(400);
    expect(errorsOf(past)[0]?.source).toBe('until');
    const far = await client.post('/api/user/impersonation-access', { until: inDays(31) });
    expect(errorsOf(far)[0]).toMatchObject({
      source: 'until',
      message: 'Access can be granted for at most 30 days',
    });
    const extra = await client.post('/api/user/impersonation-access', { until: inDays(1), user_id: 1 });
    expect(errorsOf(extra)).toContainEqual({
      code: 'VALIDATION_ERROR',
      message: 'Unknown field: user_id',
      source: 'user_id',
    });
    expect((await client.get('/api/user')).json().data.impersonation_access_limit).toBeNull();
  });

  it('revoking ends the grant (product §7 POST /user/revoke-impersonation-access)', async () => {
    const client = await granting('beta.client@x.test');
    expect((await client.post('/api/user/revoke-impersonation-access')).statusCode).toBe(200);
    expect((await client.get('/api/user')).json().data.impersonation_access_limit).toBeNull();
  });
});

describe('impersonating (product §4, §6)', () => {
  it('successful impersonation inside the subtree: a new session carrying the actor, banner data, log', async () => {
    await granting('north.client@x.test', 2);
    const subjectId = await idOf('north.client@x.test');
    const admin = await signedIn(app, 'acme.admin@x.test');
    const before = admin.cookies.get('fg_session');
    const started = await admin.post(`/api/users/${subjectId}/impersonate`);
    expect(started.statusCode).toBe(200);
    expect(admin.cookies.get('fg_session')).not.toBe(before);

    const user = (await admin.get('/api/user')).json().data;
    expect(user).toMatchObject({
      email: 'north.client@x.test',
      company_name: 'Acme North',
      company_id: tree.north.id,
      isImpersonating: true,
      token: { actor: true, actor_user: { email: 'acme.admin@x.test' } },
    });
    expect(Date.parse(user.impersonation_access_limit)).toBeGreaterThan(Date.now() + DAY);

    // The impersonation never outlives the grant.
    const [grant] = await app.db
      .select()
      .from(impersonationGrants)
      .where(eq(impersonationGrants.userId, subjectId))
      .orderBy(desc(impersonationGrants.id))
      .limit(1);
    const [session] = await app.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, subjectId), eq(sessions.actorUserId, user.token.actor_user.id)));
    expect(session!.expiresAt.getTime()).toBeLessThanOrEqual(grant!.grantedUntil!.getTime());

    // The actor's own session before the impersonation is over within a minute (requests in
    // flight with the replaced cookies still land), then for good.
    const [own] = await app.db
      .select()
      .from(sessions)
      .where(eq(sessions.accessTokenHash, digest(before!)));
    expect(own!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    await expireSession(own!.id);
    const old = new TestClient(app);
    old.cookies.set('fg_session', before!);
    expect((await old.get('/api/user')).statusCode).toBe(401);

    const logs = (await admin.post('/api/impersonation/cancel')).statusCode;
    expect(logs).toBe(200);
    const [log] = await app.db
      .select()
      .from(impersonationLogs)
      .where(eq(impersonationLogs.sessionId, session!.id));
    expect(log).toMatchObject({ actorEmail: 'acme.admin@x.test', subjectEmail: 'north.client@x.test' });
    expect(log!.endedAt).not.toBeNull();
  });

  it('cancelling gives the actor a fresh session of their own (product §4)', async () => {
    await granting('north.client@x.test');
    const admin = await signedIn(app, 'acme.admin@x.test');
    await admin.post(`/api/users/${await idOf('north.client@x.test')}/impersonate`);
    const impersonation = admin.cookies.get('fg_session');
    const cancelled = await admin.post('/api/impersonation/cancel');
    expect(cancelled.json().data.location).toBe('/');
    const me = (await admin.get('/api/user')).json().data;
    expect(me).toMatchObject({ email: 'acme.admin@x.test', isImpersonating: false, token: { actor: false } });
    const [ended] = await app.db
      .select()
      .from(sessions)
      .where(eq(sessions.accessTokenHash, digest(impersonation!)));
    expect(ended!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    await expireSession(ended!.id);
    const stale = new TestClient(app);
    stale.cookies.set('fg_session', impersonation!);
    expect((await stale.get('/api/user')).statusCode).toBe(401);
    // Not impersonating: nothing to cancel.
    expect((await admin.post('/api/impersonation/cancel')).statusCode).toBe(409);
  });

  it('failing impersonation outside the subtree, of a peer, of a system administrator, without a grant', async () => {
    await granting('beta.client@x.test');
    await granting('acme.peer@x.test');
    await granting('north.system@x.test');
    const admin = await signedIn(app, 'acme.admin@x.test');
    const outside = await admin.post(`/api/users/${await idOf('beta.client@x.test')}/impersonate`);
    expect(outside.statusCode).toBe(404);
    const peer = await admin.post(`/api/users/${await idOf('acme.peer@x.test')}/impersonate`);
    expect(peer.statusCode).toBe(404);
    const system = await admin.post(`/api/users/${await idOf('north.system@x.test')}/impersonate`);
    expect(system.statusCode).toBe(403);
    expect(errorsOf(system)[0]?.message).toBe('System administrators cannot be impersonated');
    const notGranted = await admin.post(`/api/users/${await idOf('north.admin@x.test')}/impersonate`);
    expect(notGranted.statusCode).toBe(403);
    expect(errorsOf(notGranted)[0]?.message).toBe('This user has not granted impersonation access');
    // An end client holds no impersonate_users at all.
    const client = await signedIn(app, 'north.client@x.test');
    expect((await client.post(`/api/users/${await idOf('acme.admin@x.test')}/impersonate`)).statusCode).toBe(
      403,
    );
    // Nothing started.
    expect((await admin.get('/api/user')).json().data.isImpersonating).toBe(false);
  });

  it('failing impersonation with an expired grant', async () => {
    const subjectId = await idOf('north.admin@x.test');
    await granting('north.admin@x.test');
    await app.db
      .update(impersonationGrants)
      .set({ grantedUntil: new Date(Date.now() - 1000) })
      .where(eq(impersonationGrants.userId, subjectId));
    const admin = await signedIn(app, 'acme.admin@x.test');
    expect((await admin.post(`/api/users/${subjectId}/impersonate`)).statusCode).toBe(403);
    const subject = await signedIn(app, 'north.admin@x.test');
    expect((await subject.get('/api/user')).json().data.impersonation_access_limit).toBeNull();
  });

  it('failing impersonation while impersonating, and no grant changes by the actor', async () => {
    await granting('north.admin@x.test');
    await granting('north.client@x.test');
    const root = await new TestClient(app).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await root.post(`/api/users/${await idOf('north.admin@x.test')}/impersonate`)).statusCode).toBe(
      200,
    );
    // Acting as an admin who holds impersonate_users: still refused.
    const again = await root.post(`/api/users/${await idOf('north.client@x.test')}/impersonate`);
    expect(again.statusCode).toBe(403);
    expect(errorsOf(again)[0]?.message).toBe('You are impersonating already. Cancel it first.');
    const extend = await root.post('/api/user/impersonation-access', { until: inDays(20) });
    expect(extend.statusCode).toBe(403);
    await root.post('/api/impersonation/cancel');
  });

  it('revoking access ends a running impersonation at once', async () => {
    const subject = await granting('north.client@x.test');
    const admin = await signedIn(app, 'acme.admin@x.test');
    await admin.post(`/api/users/${await idOf('north.client@x.test')}/impersonate`);
    expect((await admin.get('/api/user')).statusCode).toBe(200);
    await subject.post('/api/user/revoke-impersonation-access');
    expect((await admin.get('/api/user')).statusCode).toBe(401);
  });
});

describe('nobody borrows rights above their own', () => {
  it('failing-impersonate-above: a role holding only impersonate_users cannot act as the admin who granted access', async () => {
    const root = await new TestClient(app).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const acmeAdmin = await signedIn(app, 'acme.admin@x.test');
    const role = await acmeAdmin.post('/api/roles', {
      company_id: tree.acme.id,
      name: 'impersonation_desk',
      title: 'Impersonation desk',
      description: '',
      permissions: ['impersonate_users', 'view_users'],
    });
    expect(role.statusCode).toBe(200);
    const desk = await createUser(app, 'desk@x.test', 'end_user', tree.acme.id);
    const assigned = await root.put(`/api/users/${desk.id}/role`, { role_id: role.json().data.id });
    expect(assigned.statusCode).toBe(200);
    await granting('north.admin@x.test');
    const adminId = await idOf('north.admin@x.test');

    const holder = await signedIn(app, 'desk@x.test');
    const attempt = await holder.post(`/api/users/${adminId}/impersonate`);
    expect(attempt.statusCode).toBe(403);
    expect(errorsOf(attempt)[0]?.message).toBe(
      'You cannot impersonate a user who holds permissions you do not hold',
    );
    expect((await holder.get('/api/user')).json().data).toMatchObject({
      id: desk.id,
      isImpersonating: false,
    });
    const candidates = (await holder.get('/api/impersonation/candidates')).json().data as { id: number }[];
    expect(candidates.map((c) => c.id)).not.toContain(adminId);
  });

  it('failing-impersonation-outgrown: an impersonation ends when the user gains a right the actor lacks', async () => {
    await granting('north.client@x.test');
    const clientId = await idOf('north.client@x.test');
    const root = await new TestClient(app).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const role = await root.post('/api/roles', {
      company_id: tree.acme.id,
      name: 'client_desk',
      title: 'Client desk',
      description: '',
      permissions: [...DEFAULT_ROLES.find((r) => r.name === 'end_user')!.permissions, 'impersonate_users'],
    });
    const desk = await createUser(app, 'client.desk@x.test', 'end_user', tree.acme.id);
    expect((await root.put(`/api/users/${desk.id}/role`, { role_id: role.json().data.id })).statusCode).toBe(
      200,
    );
    const holder = await signedIn(app, 'client.desk@x.test');
    expect((await holder.post(`/api/users/${clientId}/impersonate`)).statusCode).toBe(200);
    expect((await holder.get('/api/user')).json().data.id).toBe(clientId);
    // The user becomes an administrator: the desk may no longer act as them.
    const promoted = await root.put(`/api/users/${clientId}/role`, { role_id: 2 });
    expect(promoted.statusCode).toBe(200);
    expect((await holder.get('/api/user')).statusCode).toBe(401);
    await root.put(`/api/users/${clientId}/role`, { role_id: 3 });
  });
});

describe('audit and password confirmation while impersonating', () => {
  it('every audited action records both identities', async () => {
    await granting('north.admin@x.test');
    const subjectId = await idOf('north.admin@x.test');
    const admin = await signedIn(app, 'acme.admin@x.test');
    const actorId = (await admin.get('/api/user')).json().data.id;
    await admin.post(`/api/users/${subjectId}/impersonate`);
    expect((await admin.put('/api/user/profile', { country_iso_code: 'no' })).statusCode).toBe(200);
    const [row] = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'account.profile_updated'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(row).toMatchObject({ actorUserId: actorId, subjectUserId: subjectId });
    await admin.post('/api/impersonation/cancel');
  });

  it('a sensitive action answers 423, the real actor confirms their password, then it succeeds', async () => {
    await granting('north.client@x.test');
    const root = await new TestClient(app).login(ADMIN_EMAIL, ADMIN_PASSWORD);
    await root.post(`/api/users/${await idOf('north.client@x.test')}/impersonate`);
    const first = await root.post('/api/user/mfa/totp');
    expect(first.statusCode).toBe(423);
    expect(errorsOf(first)[0]?.code).toBe('PASSWORD_CONFIRMATION_REQUIRED');
    // The impersonated user's password is not the one asked for: the real actor's is.
    const subjects = await root.post('/api/password-confirmation', { password: USER_PASSWORD });
    expect(subjects.statusCode).toBe(422);
    expect((await root.post('/api/user/mfa/totp')).statusCode).toBe(423);
    expect((await root.post('/api/password-confirmation', { password: ADMIN_PASSWORD })).statusCode).toBe(
      200,
    );
    const second = await root.post('/api/user/mfa/totp');
    expect(second.statusCode).toBe(200);
    expect(second.json().data.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    await root.post('/api/impersonation/cancel');
  });
});

describe('asking for access by e-mail (route impersonation.access)', () => {
  it('successful request: the user confirms on the link and chooses the end', async () => {
    const subjectId = await idOf('north.admin@x.test');
    const subject = await signedIn(app, 'north.admin@x.test');
    await subject.post('/api/user/revoke-impersonation-access');
    const admin = await signedIn(app, 'acme.admin@x.test');
    expect((await admin.post(`/api/users/${subjectId}/impersonation-access-request`)).statusCode).toBe(200);
    const [mail] = await app.db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.to, 'north.admin@x.test'), eq(mailLog.template, 'impersonation_request')))
      .orderBy(desc(mailLog.id))
      .limit(1);
    const token = /confirm-impersonation-access\/([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(token).toBeTruthy();

    // Only the user it was sent to sees it.
    const other = await signedIn(app, 'north.client@x.test');
    expect((await other.post('/api/impersonation/requests/lookup', { token })).statusCode).toBe(404);

    const info = (await subject.post('/api/impersonation/requests/lookup', { token })).json().data;
    expect(info).toMatchObject({
      requested_by: 'acme.admin@x.test',
      requested_by_company: 'Acme',
      status: 'pending',
    });
    const confirmed = await subject.post('/api/impersonation/requests/confirm', { token, until: inDays(5) });
    expect(confirmed.statusCode).toBe(200);
    expect((await subject.get('/api/user')).json().data.impersonation_access_limit).toBe(
      confirmed.json().data.until,
    );
    // A link works once.
    expect(
      (await subject.post('/api/impersonation/requests/confirm', { token, until: inDays(6) })).statusCode,
    ).toBe(409);
    expect((await admin.post(`/api/users/${subjectId}/impersonate`)).statusCode).toBe(200);
    await admin.post('/api/impersonation/cancel');
  });

  it('failing request for a user outside the subtree', async () => {
    const admin = await signedIn(app, 'acme.admin@x.test');
    const response = await admin.post(
      `/api/users/${await idOf('beta.admin@x.test')}/impersonation-access-request`,
    );
    expect(response.statusCode).toBe(404);
  });
});

describe('impersonation logs and candidates (product §2 users.impersonation-logs)', () => {
  it('logs show actor, subject, start and end, scoped to the caller’s subtree', async () => {
    const acme = await signedIn(app, 'acme.admin@x.test');
    const list = await acme.get('/api/impersonation/logs?limit=100');
    expect(list.statusCode).toBe(200);
    const rows = list.json().data as {
      actor_email: string;
      subject_email: string;
      started_at: string;
      ended_at: string | null;
    }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toEqual(
      expect.objectContaining({ actor_email: expect.any(String), started_at: expect.any(String) }),
    );
    expect(rows.every((r) => r.ended_at !== null)).toBe(true);

    const beta = await signedIn(app, 'beta.admin@x.test');
    expect((await beta.get('/api/impersonation/logs')).json().data).toEqual([]);
    const client = await signedIn(app, 'north.client@x.test');
    expect((await client.get('/api/impersonation/logs')).statusCode).toBe(403);
  });

  it('candidates are the users strictly below the caller, granted ones first', async () => {
    await granting('north.client@x.test');
    const acme = await signedIn(app, 'acme.admin@x.test');
    const rows = (await acme.get('/api/impersonation/candidates')).json().data as {
      email: string;
      granted_until: string | null;
    }[];
    const emails = rows.map((r) => r.email);
    expect(emails).toContain('north.client@x.test');
    expect(emails).not.toContain('acme.peer@x.test');
    expect(emails).not.toContain('beta.client@x.test');
    expect(rows[0]?.granted_until).not.toBeNull();
  });
});

import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { INVITATION_TTL_DAYS } from '@fleetgate/shared/schemas/invitations';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { companies } from '#src/db/schema/companies';
import { invitations } from '#src/db/schema/invitations';
import { mailLog } from '#src/db/schema/mail';
import { rolePermissions, roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';
import { INVITATION_GONE } from './invitations.service';

let app: FastifyInstance;
let admin: TestClient;
let acmeAdmin: TestClient;
let tree: Awaited<ReturnType<typeof tenantTree>>;
const roleId = (name: string) => DEFAULT_ROLES.find((r) => r.name === name)!.id;
const PASSWORD = 'invited-password-1';

/** The token in the newest logged message to an address (the super admin reads it in the mail log). */
async function tokenFor(email: string): Promise<string> {
  const [row] = await app.db
    .select({ text: mailLog.text })
    .from(mailLog)
    .where(eq(mailLog.to, email))
    .orderBy(sql`${mailLog.id} desc`)
    .limit(1);
  const match = row?.text.match(/\/account\/invitation\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no invitation link for ${email}`);
  return match[1]!;
}

const anonymous = () => new TestClient(app);
const userCount = async (email: string) =>
  (await app.db.select({ id: users.id }).from(users).where(eq(users.email, email))).length;

async function customRole(companyId: number, name: string, permissions: string[]) {
  const [role] = await app.db
    .insert(roles)
    .values({ companyId, name, title: `Custom ${name}` })
    .returning();
  if (permissions.length)
    await app.db
      .insert(rolePermissions)
      .values(permissions.map((permission) => ({ roleId: role!.id, permission })));
  return role!;
}

beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
  tree = await tenantTree(app);
  await createUser(app, 'admin@acme.test', 'admin', tree.acme.id);
  await createUser(app, 'client@acme.test', 'end_user', tree.acme.id);
  await createUser(app, 'admin@beta.test', 'admin', tree.beta.id);
  admin = await new TestClient(app).login();
  acmeAdmin = await signedIn(app, 'admin@acme.test');
});
afterAll(() => app.close());

describe('invite → e-mail in the mail log → accept → sign in (product §3 newUser)', () => {
  it('a super admin invites; the link in the logged e-mail shows the offer, sets a password once, and the user signs in', async () => {
    const invited = await admin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'New.Person@Example.test',
      role: roleId('admin'),
    });
    expect(invited.statusCode).toBe(200);
    expect(invited.json().data).toMatchObject({
      email: 'new.person@example.test',
      company_name: 'Acme',
      role_title: 'Administrator',
      status: 'pending',
      mail_status: 'unsent',
      kind: 'user',
    });
    expect(invited.json().message).toMatch(/mail log/);
    const expires = new Date(invited.json().data.expires_at).getTime();
    expect(Math.abs(expires - Date.now() - INVITATION_TTL_DAYS * 86_400_000)).toBeLessThan(60_000);

    const log = await admin.get('/api/mail-logs?q=new.person');
    const entry = log.json().data[0];
    expect(entry).toMatchObject({ template: 'user_invitation', status: 'unsent', company_id: tree.acme.id });
    const message = (await admin.get(`/api/mail-logs/${entry.id}`)).json().data;
    const token = message.text.match(/http:\/\/[^/]+\/account\/invitation\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeDefined();
    // The database keeps only the digest.
    const [stored] = await app.db
      .select()
      .from(invitations)
      .where(eq(invitations.email, 'new.person@example.test'));
    expect(stored!.tokenHash).not.toBe(token);

    const preview = await anonymous().get(`/api/invitations/by-token/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({
      kind: 'user',
      email: 'new.person@example.test',
      company_name: 'Acme',
      role_title: 'Administrator',
      invited_by: 'admin@fleetgate.test',
    });

    const accepted = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
      password: PASSWORD,
      username: 'New Person',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toEqual({ email: 'new.person@example.test', company_id: tree.acme.id });

    const client = await new TestClient(app).login('new.person@example.test', PASSWORD);
    const me = (await client.get('/api/user')).json().data;
    expect(me).toMatchObject({ company_id: tree.acme.id, role: { name: 'admin' }, username: 'New Person' });

    // Single use: the same link now answers the one uniform 404.
    for (const response of [
      await anonymous().get(`/api/invitations/by-token/${token}`),
      await anonymous().post(`/api/invitations/by-token/${token}/accept`, { password: PASSWORD }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(errorsOf(response)[0]!.message).toBe(INVITATION_GONE);
    }
    const list = await admin.get('/api/invitations?q=new.person');
    expect(list.json().data[0]).toMatchObject({ status: 'accepted' });
  });

  it('unknown and malformed tokens answer the same 404 as used ones', async () => {
    for (const token of ['x'.repeat(43), 'nope', '%3Cscript%3E']) {
      const response = await anonymous().get(`/api/invitations/by-token/${token}`);
      expect(response.statusCode).toBe(404);
      expect(errorsOf(response)[0]!.message).toBe(INVITATION_GONE);
    }
  });

  it('50 parallel acceptances of one invitation create exactly one user', async () => {
    await admin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'race@example.test',
      role: roleId('end_user'),
    });
    const token = await tokenFor('race@example.test');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        anonymous().post(`/api/invitations/by-token/${token}/accept`, { password: `${PASSWORD}-${i}` }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 404 || s === 409)).toBe(true);
    expect(await userCount('race@example.test')).toBe(1);
    const winner = responses.findIndex((r) => r.statusCode === 200);
    await new TestClient(app).login('race@example.test', `${PASSWORD}-${winner}`);
  });

  it('stores HTML and script in the name as text', async () => {
    await admin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'html@example.test',
      role: roleId('read_only'),
    });
    const name = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const accepted = await anonymous().post(
      `/api/invitations/by-token/${await tokenFor('html@example.test')}/accept`,
      {
        password: PASSWORD,
        username: name,
      },
    );
    expect(accepted.statusCode).toBe(200);
    const list = await admin.get('/api/users?q=html%40example.test');
    expect(list.json().data[0].username).toBe(name);
  });

  it('refuses a short password and unknown fields on the accept body, and nothing is created', async () => {
    await admin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'strict@example.test',
      role: roleId('read_only'),
    });
    const token = await tokenFor('strict@example.test');
    const short = await anonymous().post(`/api/invitations/by-token/${token}/accept`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(errorsOf(short)[0]!.source).toBe('password');
    for (const extra of [
      { role_id: 1 },
      { company_id: tree.beta.id },
      { permissions: ['super_admin'] },
      { email: 'x@y.test' },
    ]) {
      const response = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
        password: PASSWORD,
        ...extra,
      });
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)[0]!.message).toBe(`Unknown field: ${Object.keys(extra)[0]}`);
    }
    const named = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
      password: PASSWORD,
      company_name: 'Sneaky Co',
    });
    expect(named.statusCode).toBe(400);
    expect(await userCount('strict@example.test')).toBe(0);
    expect((await anonymous().get(`/api/invitations/by-token/${token}`)).statusCode).toBe(200);
  });
});

describe('who may invite whom (product §6 canInviteRoles, hostile input)', () => {
  it('refuses extra fields such as role_id, company_id on top, permissions', async () => {
    for (const extra of [{ role_id: 1 }, { permissions: ['super_admin'] }, { company: 1 }]) {
      const response = await acmeAdmin.post('/api/users/invite', {
        company_id: tree.acme.id,
        email: 'extra@example.test',
        role: roleId('end_user'),
        ...extra,
      });
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)[0]!.message).toBe(`Unknown field: ${Object.keys(extra)[0]}`);
    }
    const list = await admin.get('/api/invitations?q=extra%40example.test');
    expect(list.json().meta.total).toBe(0);
  });

  it('an admin cannot invite a system administrator (a role above their own)', async () => {
    const response = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'sa@example.test',
      role: roleId('super_admin'),
    });
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)[0]).toMatchObject({ source: 'role' });
  });

  it('an admin cannot invite with a custom role holding permissions they lack', async () => {
    const above = await customRole(tree.acme.id, 'mailer', ['view_users', 'view_mail_logs']);
    const response = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'above@example.test',
      role: above.id,
    });
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)[0]!.message).toMatch(/above your own/);
  });

  it('a custom role applies only to its own company', async () => {
    const operator = await customRole(tree.acme.id, 'operator', ['view_devices', 'view_users']);
    const ok = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'operator@example.test',
      role: operator.id,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.role_title).toBe('Custom operator');
    const elsewhere = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.north.id,
      email: 'operator2@example.test',
      role: operator.id,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(errorsOf(elsewhere)[0]!.source).toBe('role');
  });

  it("another company's ids answer 404: company, custom role, invitation", async () => {
    const toBeta = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.beta.id,
      email: 'b@example.test',
      role: roleId('end_user'),
    });
    expect(toBeta.statusCode).toBe(404);
    expect(errorsOf(toBeta)[0]!.source).toBe('company_id');
    const betaRole = await customRole(tree.beta.id, 'beta_ops', ['view_devices']);
    const foreignRole = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'c@example.test',
      role: betaRole.id,
    });
    expect(foreignRole.statusCode).toBe(404);
    const betaAdmin = await signedIn(app, 'admin@beta.test');
    const betaInvite = await betaAdmin.post('/api/users/invite', {
      company_id: tree.beta.id,
      email: 'beta.new@example.test',
      role: roleId('end_user'),
    });
    const id = betaInvite.json().data.id;
    expect((await acmeAdmin.post(`/api/invitations/${id}/resend`)).statusCode).toBe(404);
    expect((await acmeAdmin.delete(`/api/invitations/${id}`)).statusCode).toBe(404);
    const acmeList = await acmeAdmin.get('/api/invitations?limit=100');
    expect(acmeList.json().data.map((i: { email: string }) => i.email)).not.toContain(
      'beta.new@example.test',
    );
  });

  it('an end client may not invite at all; an existing address or a pending invitation is refused', async () => {
    const client = await signedIn(app, 'client@acme.test');
    const denied = await client.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'd@example.test',
      role: roleId('end_user'),
    });
    expect(denied.statusCode).toBe(403);
    const existing = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'client@acme.test',
      role: roleId('end_user'),
    });
    expect(existing.statusCode).toBe(409);
    expect(errorsOf(existing)[0]!.source).toBe('email');
    await acmeAdmin.post('/api/users/invite', {
      company_id: tree.north.id,
      email: 'twice@example.test',
      role: roleId('end_user'),
    });
    const twice = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'twice@example.test',
      role: roleId('end_user'),
    });
    expect(twice.statusCode).toBe(409);
  });

  it('a user with a narrow custom role invites only within what they hold', async () => {
    const narrow = await customRole(tree.acme.id, 'recruiter', [
      'manage_users',
      'view_users',
      'view_user_invitations',
    ]);
    await app.db.insert(users).values({
      email: 'recruiter@acme.test',
      username: 'recruiter',
      passwordHash: (await app.db.select().from(users).where(eq(users.email, 'admin@acme.test')))[0]!
        .passwordHash,
      companyId: tree.acme.id,
      roleId: narrow.id,
      emailVerifiedAt: new Date(),
    });
    const recruiter = await signedIn(app, 'recruiter@acme.test');
    const endUser = await recruiter.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'e@example.test',
      role: roleId('end_user'),
    });
    expect(endUser.statusCode).toBe(403);
    expect(errorsOf(endUser)[0]!.message).toMatch(/above your own/);
    const viewer = await customRole(tree.acme.id, 'viewer', ['view_users']);
    const ok = await recruiter.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'viewer@example.test',
      role: viewer.id,
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('failing-invitation-enumeration: answers do not tell one tenant who another has', () => {
  const invite = (client: TestClient, companyId: number, email: string) =>
    client.post('/api/users/invite', { company_id: companyId, email, role: roleId('end_user') });

  it('an address with an account in another tenant is answered like a new one; its owner is told instead', async () => {
    const betaAdmin = await signedIn(app, 'admin@beta.test');
    const fresh = await invite(betaAdmin, tree.beta.id, 'nobody.yet@x.test');
    const elsewhere = await invite(betaAdmin, tree.beta.id, 'client@acme.test');
    expect(elsewhere.statusCode).toBe(fresh.statusCode);
    expect(elsewhere.json().message).toBe(fresh.json().message);
    expect(elsewhere.json().data).toMatchObject({ status: 'pending', email: 'client@acme.test' });
    const [mail] = await app.db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.to, 'client@acme.test'), eq(mailLog.template, 'invitation_existing_account')));
    expect(mail?.text).toMatch(/already has an account/);
    expect(mail?.text).not.toMatch(/account\/invitation\//);
    expect(await userCount('client@acme.test')).toBe(1);
  });

  it('an address pending with another tenant can be invited too; within one’s reach both refusals stay', async () => {
    const betaAdmin = await signedIn(app, 'admin@beta.test');
    expect((await invite(acmeAdmin, tree.acme.id, 'wanted@x.test')).statusCode).toBe(200);
    expect((await invite(betaAdmin, tree.beta.id, 'wanted@x.test')).statusCode).toBe(200);
    const pending = await invite(acmeAdmin, tree.acme.id, 'wanted@x.test');
    expect(errorsOf(pending)[0]?.message).toBe(
      'An invitation to this email is already pending. Resend it instead.',
    );
    const member = await invite(acmeAdmin, tree.acme.id, 'client@acme.test');
    expect(member.statusCode).toBe(409);
    expect(errorsOf(member)[0]?.message).toBe('A user with this email already exists');
  });
});

describe('resend, revoke, expire (users.invitations)', () => {
  it('resend gives a new link and kills the old one; an expired invitation can be resent', async () => {
    const invited = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'resend@example.test',
      role: roleId('end_user'),
    });
    const id = invited.json().data.id;
    const first = await tokenFor('resend@example.test');
    await app.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, id));
    expect((await anonymous().get(`/api/invitations/by-token/${first}`)).statusCode).toBe(404);
    const expired = await acmeAdmin.get('/api/invitations?status=expired&q=resend');
    expect(expired.json().data[0]).toMatchObject({ id, status: 'expired' });

    const resent = await acmeAdmin.post(`/api/invitations/${id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data).toMatchObject({ status: 'pending', send_count: 2 });
    const second = await tokenFor('resend@example.test');
    expect(second).not.toBe(first);
    expect((await anonymous().get(`/api/invitations/by-token/${first}`)).statusCode).toBe(404);
    expect((await anonymous().get(`/api/invitations/by-token/${second}`)).statusCode).toBe(200);
  });

  it('a revoked invitation stops working and cannot be resent', async () => {
    const invited = await acmeAdmin.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'revoke@example.test',
      role: roleId('end_user'),
    });
    const id = invited.json().data.id;
    const token = await tokenFor('revoke@example.test');
    expect((await acmeAdmin.delete(`/api/invitations/${id}`)).statusCode).toBe(200);
    expect((await anonymous().get(`/api/invitations/by-token/${token}`)).statusCode).toBe(404);
    const accept = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
      password: PASSWORD,
    });
    expect(accept.statusCode).toBe(404);
    expect((await acmeAdmin.post(`/api/invitations/${id}/resend`)).statusCode).toBe(400);
    expect((await acmeAdmin.delete(`/api/invitations/${id}`)).statusCode).toBe(400);
    expect(await userCount('revoke@example.test')).toBe(0);
    const audit = await app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'invitation'), eq(auditLog.targetId, String(id))))
      .orderBy(asc(auditLog.id));
    expect(audit.map((r) => r.action)).toEqual(['invitation.create', 'invitation.revoke']);
  });
});

describe('distributor invitation (product §3 inviteNewCompany)', () => {
  it('the invitee founds a company under the inviter’s and becomes its admin', async () => {
    const invited = await acmeAdmin.post('/api/distributors/invitations', { email: 'dist@example.test' });
    expect(invited.statusCode).toBe(200);
    expect(invited.json().data).toMatchObject({ kind: 'distributor', company_id: tree.acme.id });
    const token = await tokenFor('dist@example.test');
    expect((await anonymous().get(`/api/invitations/by-token/${token}`)).json().data).toMatchObject({
      kind: 'distributor',
      company_name: 'Acme',
    });
    const nameless = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
      password: PASSWORD,
    });
    expect(nameless.statusCode).toBe(400);
    expect(errorsOf(nameless)[0]!.source).toBe('company_name');
    const scripted = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
      password: PASSWORD,
      company_name: '<script>x</script>',
    });
    expect(scripted.statusCode).toBe(400);
    const taken = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
      password: PASSWORD,
      company_name: 'acme north',
    });
    expect(taken.statusCode).toBe(409);

    const accepted = await anonymous().post(`/api/invitations/by-token/${token}/accept`, {
      password: PASSWORD,
      company_name: 'Dist Networks',
    });
    expect(accepted.statusCode).toBe(200);
    const [company] = await app.db.select().from(companies).where(eq(companies.name, 'Dist Networks'));
    expect(company).toMatchObject({ parentId: tree.acme.id, level: tree.acme.level + 1 });
    const dist = await new TestClient(app).login('dist@example.test', PASSWORD);
    expect((await dist.get('/api/user')).json().data).toMatchObject({
      company_id: company!.id,
      role: { name: 'admin' },
    });
    // The Acme admin reaches the new company: it is in their subtree.
    expect((await acmeAdmin.get(`/api/companies/${company!.id}`)).statusCode).toBe(200);
  });

  it('needs manage_companies and refuses extra fields', async () => {
    const client = await signedIn(app, 'client@acme.test');
    expect((await client.post('/api/distributors/invitations', { email: 'x@example.test' })).statusCode).toBe(
      403,
    );
    const extra = await acmeAdmin.post('/api/distributors/invitations', {
      email: 'x@example.test',
      company_id: 1,
    });
    expect(extra.statusCode).toBe(400);
  });
});

describe('impersonation is audited with both identities', () => {
  it('an invitation made while impersonating records the actor and the subject', async () => {
    const [subject] = await app.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
    const [actor] = await app.db.select().from(users).where(eq(users.email, ADMIN_EMAIL));
    const tokens = await app.authService.startSession(subject!.id, actor!.id, {
      ip: '127.0.0.1',
      userAgent: 'test',
    });
    const client = new TestClient(app);
    client.cookies.set('fg_session', tokens.accessToken);
    client.cookies.set('XSRF-TOKEN', tokens.xsrfToken);
    // Inviting while impersonating is a sensitive action: the real actor confirms first.
    const unconfirmed = await client.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'imp@example.test',
      role: roleId('end_user'),
    });
    expect(unconfirmed.statusCode).toBe(423);
    expect((await client.post('/api/password-confirmation', { password: ADMIN_PASSWORD })).statusCode).toBe(
      200,
    );
    const invited = await client.post('/api/users/invite', {
      company_id: tree.acme.id,
      email: 'imp@example.test',
      role: roleId('end_user'),
    });
    expect(invited.statusCode).toBe(200);
    const audit = await app.db
      .select({ actor: auditLog.actorUserId, subject: auditLog.subjectUserId })
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'invitation.create'), eq(auditLog.targetId, String(invited.json().data.id))),
      );
    expect(audit).toEqual([{ actor: actor!.id, subject: subject!.id }]);
  });
});

describe('the public invitation calls are limited like sign-in', () => {
  it('answers RATE_LIMITED after LOGIN_RATE_LIMIT attempts from one address', async () => {
    const limited = await buildTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const client = new TestClient(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await client.get(`/api/invitations/by-token/guess-${i}`)).statusCode);
      expect(statuses).toEqual([404, 404, 404, 429]);
      const accepts: number[] = [];
      for (let i = 0; i < 4; i++)
        accepts.push(
          (await client.post(`/api/invitations/by-token/guess-${i}/accept`, { password: PASSWORD }))
            .statusCode,
        );
      expect(accepts.at(-1)).toBe(429);
      expect(errorsOf(await client.get('/api/invitations/by-token/again'))[0]!.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});

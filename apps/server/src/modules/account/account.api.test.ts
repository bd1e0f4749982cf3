import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailLog } from '#src/db/schema/mail';
import { users } from '#src/db/schema/users';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree, USER_PASSWORD } from '#test/factories';

let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'profile@x.test', 'end_user', tree.acme.id);
  await createUser(app, 'password@x.test', 'end_user', tree.acme.id);
  await createUser(app, 'sessions@x.test', 'end_user', tree.acme.id);
  await createUser(app, 'contact@x.test', 'end_user', tree.acme.id);
  await createUser(app, 'taken@x.test', 'end_user', tree.acme.id);
});
afterAll(() => app.close());

describe('profile (account settings)', () => {
  it('successful update of username, avatar URL and country', async () => {
    const client = await signedIn(app, 'profile@x.test');
    const updated = await client.put('/api/user/profile', {
      username: 'Ola Nordmann',
      avatar_url: 'https://cdn.example.com/ola.png',
      country_iso_code: 'no',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      username: 'Ola Nordmann',
      avatar_url: 'https://cdn.example.com/ola.png',
      country_iso_code: 'NO',
    });
    const me = (await client.get('/api/user')).json().data;
    expect(me).toMatchObject({ username: 'Ola Nordmann', country_iso_code: 'NO' });
    const cleared = await client.put('/api/user/profile', { avatar_url: '', country_iso_code: null });
    expect(cleared.json().data).toMatchObject({ avatar_url: null, country_iso_code: null });
  });

  it('failing update: role, company, permissions and e-mail are unknown fields; nothing changes', async () => {
    const client = await signedIn(app, 'profile@x.test');
    for (const field of ['role_id', 'company_id', 'permissions', 'email', 'mfa_type']) {
      const response = await client.put('/api/user/profile', { username: 'Changed', [field]: 1 });
      expect(response.statusCode).toBe(400);
      expect(errorsOf(response)).toContainEqual({
        code: 'VALIDATION_ERROR',
        message: `Unknown field: ${field}`,
        source: field,
      });
    }
    const me = (await client.get('/api/user')).json().data;
    expect(me).toMatchObject({ username: 'Ola Nordmann', role_id: 3, company_id: tree.acme.id });
  });

  it('failing update: HTML in the name, script URLs and bad country codes', async () => {
    const client = await signedIn(app, 'profile@x.test');
    const html = await client.put('/api/user/profile', { username: '<img src=x onerror=alert(1)>' });
    expect(errorsOf(html)[0]).toMatchObject({
      source: 'username',
      message: 'Username contains forbidden characters',
    });
    const script = await client.put('/api/user/profile', { avatar_url: 'javascript:alert(1)' });
    expect(errorsOf(script)[0]?.source).toBe('avatar_url');
    const country = await client.put('/api/user/profile', { country_iso_code: 'Norway' });
    expect(errorsOf(country)[0]?.source).toBe('country_iso_code');
  });
});

describe('password change', () => {
  it('failing change with a wrong current password', async () => {
    const client = await signedIn(app, 'password@x.test');
    const wrong = await client.put('/api/user/password', {
      current_password: 'not-it-at-all',
      password: 'a-new-password-1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(errorsOf(wrong)[0]).toMatchObject({ code: 'CONFIRMATION_FAILED', source: 'current_password' });
    const short = await client.put('/api/user/password', {
      current_password: USER_PASSWORD,
      password: 'short',
    });
    expect(errorsOf(short)[0]?.source).toBe('password');
  });

  it('successful change: the new password works, other sessions end, this one stays', async () => {
    const client = await signedIn(app, 'password@x.test');
    const other = await signedIn(app, 'password@x.test');
    const changed = await client.put('/api/user/password', {
      current_password: USER_PASSWORD,
      password: 'a-new-password-1',
    });
    expect(changed.statusCode).toBe(200);
    expect((await client.get('/api/user')).statusCode).toBe(200);
    expect((await other.get('/api/user')).statusCode).toBe(401);
    await new TestClient(app).login('password@x.test', 'a-new-password-1');
    const old = await new TestClient(app).post('/api/auth/login', {
      email: 'password@x.test',
      password: USER_PASSWORD,
    });
    expect(old.statusCode).toBe(401);
  });
});

describe('active sessions', () => {
  it('lists the browsers with the current one marked; revokes one and all others', async () => {
    const laptop = await signedIn(app, 'sessions@x.test');
    const phone = new TestClient(app);
    phone.headers['user-agent'] = 'Phone browser';
    await phone.login('sessions@x.test', USER_PASSWORD);
    const tablet = await signedIn(app, 'sessions@x.test');
    const list = (await laptop.get('/api/user/sessions')).json().data as {
      id: string;
      current: boolean;
      user_agent: string | null;
    }[];
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const phoneSession = list.find((s) => s.user_agent === 'Phone browser')!;
    expect((await laptop.delete(`/api/user/sessions/${phoneSession.id}`)).statusCode).toBe(200);
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    expect((await laptop.delete(`/api/user/sessions/${phoneSession.id}`)).statusCode).toBe(404);

    const others = await laptop.post('/api/user/sessions/revoke-others');
    expect(others.json().data.revoked).toBe(1);
    expect((await tablet.get('/api/user')).statusCode).toBe(401);
    expect((await laptop.get('/api/user')).statusCode).toBe(200);
  });

  it('another user’s session cannot be revoked (404)', async () => {
    const owner = await signedIn(app, 'contact@x.test');
    const [session] = (await owner.get('/api/user/sessions')).json().data;
    const stranger = await signedIn(app, 'taken@x.test');
    expect((await stranger.delete(`/api/user/sessions/${session.id}`)).statusCode).toBe(404);
    expect((await owner.get('/api/user')).statusCode).toBe(200);
  });
});

describe('terms of service and the e-mail modal (product §4, §7 PUT /account/user)', () => {
  it('accepting the data agreement sets tos_accepted', async () => {
    const client = await signedIn(app, 'profile@x.test');
    expect((await client.get('/api/user')).json().data.tos_accepted).toBe(false);
    const accepted = await client.put('/api/account/user', { tos_accepted: true });
    expect(accepted.statusCode).toBe(200);
    expect((await client.get('/api/user')).json().data.tos_accepted).toBe(true);
    expect((await client.put('/api/account/user', { tos_accepted: true, role_id: 1 })).statusCode).toBe(400);
  });

  it('a username equal to the e-mail is replaced; a new address needs the password and a confirmation', async () => {
    const user = await createUser(app, 'same@x.test', 'end_user', tree.acme.id);
    await app.db.update(users).set({ username: 'same@x.test' }).where(eq(users.id, user.id));
    const client = await signedIn(app, 'same@x.test');
    const equal = await client.put('/api/user/contact', { email: 'same@x.test', username: 'SAME@x.test' });
    expect(errorsOf(equal)[0]).toMatchObject({ source: 'username' });
    const kept = await client.put('/api/user/contact', { email: 'same@x.test', username: 'Same Person' });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data).toMatchObject({ username: 'Same Person', email_verified: true });

    const taken = await client.put('/api/user/contact', { email: 'taken@x.test', username: 'Same Person' });
    expect(taken.statusCode).toBe(423);
    await client.post('/api/password-confirmation', { password: USER_PASSWORD });
    expect(
      (await client.put('/api/user/contact', { email: 'taken@x.test', username: 'Same Person' })).statusCode,
    ).toBe(409);
    const moved = await client.put('/api/user/contact', {
      email: 'new.address@x.test',
      username: 'Same Person',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ email: 'new.address@x.test', email_verified: false });
    const [mail] = await app.db
      .select()
      .from(mailLog)
      .where(eq(mailLog.to, 'new.address@x.test'))
      .orderBy(desc(mailLog.id));
    expect(mail?.template).toBe('email_confirmation');
    expect(errorsOf(await client.get('/api/user'))[0]?.code).toBe('EMAIL_NOT_VERIFIED');
  });
});

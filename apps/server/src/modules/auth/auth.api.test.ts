import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { sessions } from '#src/db/schema/sessions';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildTestApp, errorsOf, TestClient } from '#test/app';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

describe('sign-in (product §7 Session)', () => {
  it('successful sign-in sets httpOnly session cookies and a readable XSRF cookie', async () => {
    const client = new TestClient(app);
    const response = await client.post('/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(response.statusCode).toBe(200);
    const byName = Object.fromEntries(response.cookies.map((c) => [c.name, c]));
    expect(byName.fg_session?.httpOnly).toBe(true);
    expect(byName.fg_refresh?.httpOnly).toBe(true);
    expect(byName.fg_refresh?.path).toBe('/api/auth');
    expect(byName['XSRF-TOKEN']?.httpOnly).toBeFalsy();
    const exp = response.json().data.exp as number;
    expect(exp).toBeGreaterThan(Date.now() / 1000 + 14 * 60);
    expect(exp).toBeLessThan(Date.now() / 1000 + 16 * 60);
  });

  it('accepts the e-mail in any case and with spaces around it', async () => {
    const response = await new TestClient(app).post('/api/auth/login', {
      email: `  ${ADMIN_EMAIL.toUpperCase()} `,
      password: ADMIN_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
  });

  it('failing sign-in answers the same words for a wrong password and an unknown e-mail', async () => {
    const wrong = await new TestClient(app).post('/api/auth/login', {
      email: ADMIN_EMAIL,
      password: 'nope-nope',
    });
    const unknown = await new TestClient(app).post('/api/auth/login', {
      email: 'who@x.test',
      password: 'nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(errorsOf(wrong)).toEqual([{ code: 'UNAUTHORIZED', message: 'Invalid email or password' }]);
    expect(errorsOf(unknown)).toEqual(errorsOf(wrong));
    expect(wrong.cookies).toHaveLength(0);
    const failures = await app.db.select().from(auditLog).where(eq(auditLog.action, 'auth.login_failed'));
    expect(failures.map((f) => f.details)).toContainEqual({ email: 'who@x.test' });
  });

  it('refuses unknown fields, wrong types and missing fields with the field named', async () => {
    const client = new TestClient(app);
    const extra = await client.post('/api/auth/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      role_id: 1,
    });
    expect(extra.statusCode).toBe(400);
    expect(errorsOf(extra)).toContainEqual({
      code: 'VALIDATION_ERROR',
      message: 'Unknown field: role_id',
      source: 'role_id',
    });

    const types = await client.post('/api/auth/login', { email: 42, password: ['x'] });
    expect(types.statusCode).toBe(400);
    expect(
      errorsOf(types)
        .map((e) => e.source)
        .sort(),
    ).toEqual(['email', 'password']);

    const missing = await client.post('/api/auth/login', { email: 'not-an-email' });
    expect(errorsOf(missing)).toContainEqual({
      code: 'VALIDATION_ERROR',
      message: 'Enter a valid email address',
      source: 'email',
    });
    expect(errorsOf(missing).map((e) => e.source)).toContain('password');
  });

  it('refuses a body that is too large or not JSON', async () => {
    const client = new TestClient(app);
    const big = await client.post('/api/auth/login', {
      email: ADMIN_EMAIL,
      password: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(big.statusCode).toBe(413);
    expect(errorsOf(big)[0]?.code).toBe('PAYLOAD_TOO_LARGE');

    const broken = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    expect(errorsOf(broken)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
    ]);
  });
});

describe('cookies over https (ASVS V3.4.4)', () => {
  it('carry the __Host- and __Secure- prefixes, and a planted cookie of the plain name is ignored', async () => {
    const secure = await buildTestApp({ PUBLIC_URL: 'https://console.example' });
    try {
      const response = await secure.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const byName = Object.fromEntries(response.cookies.map((c) => [c.name, c]));
      expect(Object.keys(byName).sort()).toEqual(
        ['__Host-FLEETGATE-XSRF-TOKEN', '__Host-fg_session', '__Secure-fg_refresh'].sort(),
      );
      for (const name of ['__Host-fg_session', '__Host-FLEETGATE-XSRF-TOKEN']) {
        expect(byName[name]).toMatchObject({ secure: true, path: '/' });
        expect(byName[name]?.domain).toBeUndefined();
      }
      expect(byName['__Secure-fg_refresh']).toMatchObject({
        secure: true,
        httpOnly: true,
        path: '/api/auth',
      });
      const token = byName['__Host-fg_session']!.value;
      const me = (cookies: Record<string, string>) =>
        secure.inject({
          method: 'GET',
          url: '/api/user',
          headers: { 'x-requested-with': 'XMLHttpRequest' },
          cookies,
        });
      expect((await me({ '__Host-fg_session': token })).statusCode).toBe(200);
      expect((await me({ fg_session: token })).statusCode).toBe(401);
    } finally {
      await secure.close();
    }
  });
});

describe('browser protections (product §7 General)', () => {
  it('requires X-Requested-With on /api of a browser, which carries its session cookie', async () => {
    const client = await new TestClient(app).login();
    const response = await app.inject({
      method: 'GET',
      url: '/api/user',
      cookies: Object.fromEntries(client.cookies),
    });
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)[0]?.message).toBe('Requests must carry X-Requested-With: XMLHttpRequest');
    // So does a public route (sign-in), which a page of another site could otherwise post to.
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.c', password: 'x' },
    });
    expect(login.statusCode).toBe(403);
  });

  it('answers a request with nothing to sign in with 401, naming the token, as a script needs', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/devices' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(errorsOf(response)[0]?.message).toBe(
      'Authentication required: sign in, or send Authorization: Bearer <personal access token>',
    );
    const badToken = await app.inject({
      method: 'GET',
      url: '/api/devices',
      headers: { authorization: 'Bearer fgp_nope' },
    });
    expect(badToken.statusCode).toBe(401);
    expect(badToken.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses an unsafe request without the XSRF header, or with another session’s token', async () => {
    const client = await new TestClient(app).login();
    const other = await new TestClient(app).login();
    const without = await client.post(
      '/api/password-confirmation',
      { password: ADMIN_PASSWORD },
      { 'x-xsrf-token': '' },
    );
    expect(without.statusCode).toBe(403);
    expect(errorsOf(without)[0]?.message).toBe('Missing or invalid X-XSRF-TOKEN header');
    const foreign = await client.post(
      '/api/password-confirmation',
      { password: ADMIN_PASSWORD },
      { 'x-xsrf-token': other.cookies.get('XSRF-TOKEN')! },
    );
    expect(foreign.statusCode).toBe(403);
    const right = await client.post('/api/password-confirmation', { password: ADMIN_PASSWORD });
    expect(right.statusCode).toBe(200);
  });

  it('refuses an unsafe request from a foreign Origin, even to sign in', async () => {
    const client = new TestClient(app);
    const response = await client.post(
      '/api/auth/login',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { origin: 'https://evil.example' },
    );
    expect(response.statusCode).toBe(403);
    expect(errorsOf(response)[0]?.message).toBe('Request origin is not allowed');
    const same = await client.post(
      '/api/auth/login',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { origin: 'http://localhost:80' },
    );
    expect(same.statusCode).toBe(200);
  });

  it('never shows a stack trace or SQL in a response', async () => {
    const local = await buildTestApp();
    local.get('/api/test-boom', { config: { access: { public: true } } }, async () => {
      throw new Error('select password_hash from users where 1=1');
    });
    const response = await new TestClient(local).get('/api/test-boom');
    await local.close();
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      errors: [{ code: 'INTERNAL_ERROR', message: 'Internal server error' }],
    });
  });

  it('answers an unknown API route with a 404 body', async () => {
    const response = await new TestClient(app).get('/api/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(errorsOf(response)).toEqual([{ code: 'NOT_FOUND', message: 'Route not found' }]);
  });
});

describe('current user (product §3, §7 Session)', () => {
  it('GET /api/user returns every current-user field with the permissions of the role', async () => {
    const client = await new TestClient(app).login();
    const response = await client.get('/api/user');
    expect(response.statusCode).toBe(200);
    const user = response.json().data;
    expect(Object.keys(user).sort()).toEqual(
      [
        'id',
        'username',
        'email',
        'avatar_url',
        'company',
        'company_id',
        'company_name',
        'role',
        'role_id',
        'role_title',
        'tos_accepted',
        'mfa_type',
        'exp',
        'permissions',
        'token',
        'impersonation_access_limit',
        'isImpersonating',
        'show_payment',
        'show_payment_control',
        'country_iso_code',
        'session',
      ].sort(),
    );
    expect(user.session.idle_minutes).toBe(30);
    expect(Date.parse(user.session.expires_at)).toBeGreaterThan(Date.now() + 11 * 3_600_000);
    expect(user).toMatchObject({
      email: ADMIN_EMAIL,
      role: { id: 1, name: 'super_admin', title: 'System Administrator' },
      role_title: 'System Administrator',
      company: { parent_id: null, level: 1 },
      isImpersonating: false,
      token: { actor: false, actor_user: null },
      show_payment_control: true,
    });
    expect([...user.permissions].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('without a session answers 401', async () => {
    const response = await new TestClient(app).get('/api/user');
    expect(response.statusCode).toBe(401);
    expect(errorsOf(response)[0]?.code).toBe('UNAUTHORIZED');
  });

  it('an expired access cookie answers 401 until refreshed', async () => {
    const client = await new TestClient(app).login();
    const sessionId = (
      await app.db.select({ id: sessions.id }).from(sessions).orderBy(sessions.createdAt)
    ).at(-1)!.id;
    await app.db
      .update(sessions)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sessionId));
    expect((await client.get('/api/user')).statusCode).toBe(401);
    expect((await client.post('/api/auth/token/refresh')).statusCode).toBe(200);
    expect((await client.get('/api/user')).statusCode).toBe(200);
  });
});

describe('refresh and revoke (product §7 Session)', () => {
  it('refresh rotates every token; the old session cookie stops working', async () => {
    const client = await new TestClient(app).login();
    const before = new Map(client.cookies);
    const response = await client.post('/api/auth/token/refresh');
    expect(response.statusCode).toBe(200);
    for (const name of ['fg_session', 'fg_refresh', 'XSRF-TOKEN'])
      expect(client.cookies.get(name)).not.toBe(before.get(name));
    expect((await client.get('/api/user')).statusCode).toBe(200);
    const stale = new TestClient(app);
    stale.cookies.set('fg_session', before.get('fg_session')!);
    expect((await stale.get('/api/user')).statusCode).toBe(401);
  });

  it('reusing an old refresh token revokes the whole family', async () => {
    const victim = await new TestClient(app).login();
    const stolen = new Map(victim.cookies);
    expect((await victim.post('/api/auth/token/refresh')).statusCode).toBe(200);

    const thief = new TestClient(app);
    for (const [k, v] of stolen) thief.cookies.set(k, v);
    const replay = await thief.post('/api/auth/token/refresh');
    expect(replay.statusCode).toBe(401);
    expect(errorsOf(replay)[0]?.message).toBe('Session expired. Please sign in again.');

    // The legitimate holder is signed out too: both must sign in again.
    expect((await victim.get('/api/user')).statusCode).toBe(401);
    expect((await victim.post('/api/auth/token/refresh')).statusCode).toBe(401);
    const [row] = await app.db.select().from(auditLog).where(eq(auditLog.action, 'auth.refresh_reuse'));
    expect(row).toBeDefined();
  });

  it('refresh without the XSRF header is refused and changes nothing', async () => {
    const client = await new TestClient(app).login();
    const before = new Map(client.cookies);
    const response = await client.post('/api/auth/token/refresh', {}, { 'x-xsrf-token': 'wrong' });
    expect(response.statusCode).toBe(403);
    expect(client.cookies.get('fg_refresh')).toBe(before.get('fg_refresh'));
    expect((await client.post('/api/auth/token/refresh')).statusCode).toBe(200);
  });

  it('an expired refresh family answers 401 and clears the cookies', async () => {
    const client = await new TestClient(app).login();
    const sessionId = (
      await app.db.select({ id: sessions.id }).from(sessions).orderBy(sessions.createdAt)
    ).at(-1)!.id;
    await app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sessionId));
    const response = await client.post('/api/auth/token/refresh');
    expect(response.statusCode).toBe(401);
    expect(client.cookies.has('fg_refresh')).toBe(false);
  });

  it('revoke ends the session and answers where to go: the login page, or a same-host redirect_uri', async () => {
    const client = await new TestClient(app).login();
    const response = await client.post('/api/auth/token/revoke', {});
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ location: '/account/login' });
    expect((await client.get('/api/user')).statusCode).toBe(401);

    const again = await new TestClient(app).login();
    const local = await again.post('/api/auth/token/revoke', {
      redirect_uri: 'http://localhost:80/account/login?x=1',
    });
    expect(local.json().data).toEqual({ location: '/account/login?x=1' });
    const third = await new TestClient(app).login();
    const foreign = await third.post('/api/auth/token/revoke', {
      redirect_uri: 'https://evil.example/phish',
    });
    expect(foreign.json().data).toEqual({ location: '/account/login' });
  });
});

describe('session lifetime (ASVS V3.3.2: 30 minutes idle, 12 hours in all)', () => {
  async function sessionOf(client: TestClient) {
    const session = await app.authService.resolve(client.cookies.get('fg_session')!);
    return session!;
  }

  it('failing-idle: a session unused for SESSION_IDLE_MINUTES neither answers nor refreshes', async () => {
    const client = await new TestClient(app).login();
    const session = await sessionOf(client);
    await app.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(sessions.id, session.id));
    expect((await client.get('/api/user')).statusCode).toBe(401);
    const refreshed = await client.post('/api/auth/token/refresh', {});
    expect(refreshed.statusCode).toBe(401);
    expect(errorsOf(refreshed)[0]?.message).toBe(
      'You were signed out after a period of inactivity. Please sign in again.',
    );
    const [row] = await app.db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(row?.revokedReason).toBe('idle');
  });

  it('a session in use stays, and a sign-in lasts SESSION_MAX_HOURS at most', async () => {
    const client = await new TestClient(app).login();
    const session = await sessionOf(client);
    await app.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 29 * 60_000) })
      .where(eq(sessions.id, session.id));
    expect((await client.get('/api/user')).statusCode).toBe(200);
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBeLessThanOrEqual(12 * 3_600_000);
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBeGreaterThan(11.9 * 3_600_000);
  });
});

describe('password confirmation (product §7 Session, §8)', () => {
  it('a wrong password answers CONFIRMATION_FAILED on the password field', async () => {
    const client = await new TestClient(app).login();
    const response = await client.post('/api/password-confirmation', { password: 'wrong-password' });
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([
      { code: 'CONFIRMATION_FAILED', message: 'Incorrect password', source: 'password' },
    ]);
  });

  it('the right password is recorded on the session', async () => {
    const client = await new TestClient(app).login();
    expect((await client.post('/api/password-confirmation', { password: ADMIN_PASSWORD })).statusCode).toBe(
      200,
    );
    const rows = await app.db.select({ at: sessions.passwordConfirmedAt }).from(sessions);
    expect(rows.some((r) => r.at !== null)).toBe(true);
  });
});

describe('rate limit', () => {
  it('limits sign-in attempts per address and e-mail with a uniform error', async () => {
    const limited = await buildTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const client = new TestClient(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await client.post('/api/auth/login', { email: ADMIN_EMAIL, password: `wrong-${i}` })).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      const blocked = await client.post('/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      expect(errorsOf(blocked)).toEqual([
        { code: 'RATE_LIMITED', message: 'Too many attempts. Try again later.' },
      ]);
      // Another e-mail from the same address is counted apart.
      expect(
        (await client.post('/api/auth/login', { email: 'other@x.test', password: 'x' })).statusCode,
      ).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

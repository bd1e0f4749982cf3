import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdentities } from '#src/db/schema/mfa';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree, USER_PASSWORD } from '#test/factories';
import { startTestIdentityProvider, type TestIdentityProvider } from './test-oidc-provider';
import { totpCodeAt } from './totp';

const PUBLIC_URL = 'http://console.test';
const REDIRECT = `${PUBLIC_URL}/account/oidc/callback`;

let idp: TestIdentityProvider;
let app: FastifyInstance;

beforeAll(async () => {
  idp = await startTestIdentityProvider(REDIRECT);
  app = await buildTestApp({
    PUBLIC_URL,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_NAME: 'Teltonika ID',
  });
  const tree = await tenantTree(app);
  await createUser(app, 'linker@x.test', 'end_user', tree.acme.id);
  await createUser(app, 'invitee@x.test', 'end_user', tree.acme.id);
  await createUser(app, 'sso.totp@x.test', 'end_user', tree.acme.id);
  idp.account('sub-linker', { email: 'someone.else@vendor.test', email_verified: true });
  idp.account('sub-intruder', { email: 'intruder@vendor.test', email_verified: true });
  idp.account('sub-invitee', { email: 'invitee@x.test', email_verified: true });
  idp.account('sub-unverified', { email: 'sso.totp@x.test', email_verified: false });
  idp.account('sub-sso-totp', { email: 'sso.totp@x.test', email_verified: true });
});
afterAll(async () => {
  await app?.close();
  await idp?.close();
});

const callback = (client: TestClient, search: string, extra: Record<string, unknown> = {}) =>
  client.post('/api/auth/oidc/callback', { search, ...extra });

async function startSignIn(client: TestClient): Promise<string> {
  const started = await client.post('/api/auth/oidc/start');
  expect(started.statusCode).toBe(200);
  return started.json().data.authorization_url;
}

describe('vendor identity service over OpenID Connect (product §1; a real provider)', () => {
  it('tells the sign-in page that it is offered, and its name', async () => {
    const info = await new TestClient(app).get('/api/auth/oidc');
    expect(info.json().data).toEqual({ enabled: true, name: 'Teltonika ID' });
  });

  it('successful link in account settings makes vendor ID the second step', async () => {
    const client = await signedIn(app, 'linker@x.test');
    const url = (await client.post('/api/user/mfa/vendor')).json().data.authorization_url as string;
    expect(url.startsWith(`${idp.issuer}/`)).toBe(true);
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    const search = await idp.signIn(url, 'sub-linker');
    const done = await callback(client, search);
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toEqual({ location: '/account/settings/security', purpose: 'link' });
    expect((await client.get('/api/user/mfa')).json().data).toMatchObject({
      method: 'vendor',
      vendor: { enabled: true, name: 'Teltonika ID', linked: true },
    });
  });

  it('successful sign-in: password, then MFA_REQUIRED with the vendor sign-in, then the session', async () => {
    const client = new TestClient(app);
    const first = await client.post('/api/auth/login', { email: 'linker@x.test', password: USER_PASSWORD });
    expect(first.statusCode).toBe(401);
    const meta = first.json().meta;
    expect(meta).toMatchObject({ mfa_method: 'vendor', session_id: expect.any(String) });
    expect(client.cookies.has('fg_session')).toBe(false);
    const search = await idp.signIn(meta.authorization_url, 'sub-linker');
    const done = await callback(client, search);
    expect(done.statusCode).toBe(200);
    expect((await client.get('/api/user')).json().data.email).toBe('linker@x.test');
  });

  it('failing second step with another vendor identity, and with a replayed callback', async () => {
    const client = new TestClient(app);
    const first = await client.post('/api/auth/login', { email: 'linker@x.test', password: USER_PASSWORD });
    const search = await idp.signIn(first.json().meta.authorization_url, 'sub-intruder');
    const wrong = await callback(client, search);
    expect(wrong.statusCode).toBe(403);
    expect(errorsOf(wrong)[0]?.message).toBe('This vendor ID is not the one linked to your account');
    expect(client.cookies.has('fg_session')).toBe(false);
    // The authorisation code was redeemed: presenting it again fails.
    expect((await callback(client, search)).statusCode).toBe(400);
  });

  it('successful vendor sign-in of a linked user from the sign-in page', async () => {
    const client = new TestClient(app);
    const search = await idp.signIn(await startSignIn(client), 'sub-linker');
    const done = await callback(client, search);
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toEqual({ location: '/', purpose: 'signin' });
    expect((await client.get('/api/user')).json().data.email).toBe('linker@x.test');
  });

  it('NOT_INVITED_EXTERNAL_USER for an identity nobody invited, or an unverified address', async () => {
    const client = new TestClient(app);
    const refused = await callback(client, await idp.signIn(await startSignIn(client), 'sub-intruder'));
    expect(refused.statusCode).toBe(403);
    expect(errorsOf(refused)[0]?.code).toBe('NOT_INVITED_EXTERNAL_USER');
    expect(refused.json().meta).toEqual({ email: 'intruder@vendor.test' });
    expect(client.cookies.has('fg_session')).toBe(false);

    const unverified = new TestClient(app);
    const r2 = await callback(unverified, await idp.signIn(await startSignIn(unverified), 'sub-unverified'));
    expect(errorsOf(r2)[0]?.code).toBe('NOT_INVITED_EXTERNAL_USER');
  });

  it('an invited user with that verified address is linked and signed in', async () => {
    const client = new TestClient(app);
    const done = await callback(client, await idp.signIn(await startSignIn(client), 'sub-invitee'));
    expect(done.statusCode).toBe(200);
    expect((await client.get('/api/user')).json().data.email).toBe('invitee@x.test');
    const links = await app.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.issuer, idp.issuer), eq(userIdentities.subject, 'sub-invitee')));
    expect(links).toHaveLength(1);
  });

  it('a code-app user signing in with vendor ID still gives their TOTP code', async () => {
    const owner = await signedIn(app, 'sso.totp@x.test');
    const { secret } = (await owner.post('/api/user/mfa/totp')).json().data;
    await owner.post('/api/user/mfa/totp/confirm', { code: totpCodeAt(secret, Date.now()) });
    const client = new TestClient(app);
    const search = await idp.signIn(await startSignIn(client), 'sub-sso-totp');
    const asked = await callback(client, search);
    expect(asked.statusCode).toBe(401);
    const meta = asked.json().meta;
    expect(meta.mfa_method).toBe('totp');
    const done = await callback(client, search, {
      session_code: totpCodeAt(secret, Date.now() + 30_000),
      session_id: meta.session_id,
    });
    expect(done.statusCode).toBe(200);
    expect((await client.get('/api/user')).json().data.email).toBe('sso.totp@x.test');
  });

  it('failing callbacks: refused at the provider, altered state, no flow cookie', async () => {
    const denied = new TestClient(app);
    const r1 = await callback(denied, await idp.signIn(await startSignIn(denied), 'deny'));
    expect(r1.statusCode).toBe(400);
    expect(errorsOf(r1)[0]?.message).toBe('The vendor identity service refused the sign-in (access_denied)');

    const altered = new TestClient(app);
    const search = await idp.signIn(await startSignIn(altered), 'sub-linker');
    const params = new URLSearchParams(search);
    params.set('state', 'not-the-state');
    expect((await callback(altered, `?${params}`)).statusCode).toBe(400);

    const stranger = new TestClient(app);
    const r3 = await callback(stranger, search);
    expect(r3.statusCode).toBe(400);
    expect(errorsOf(r3)[0]?.message).toMatch(/^The sign-in took too long/);
  });
});

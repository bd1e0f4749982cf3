import { TOKEN_SCOPES } from '@fleetgate/shared/scopes';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '#src/db/schema/tokens';
import { buildTestApp, errorsOf, type TestClient } from '#test/app';
import { createUser, signedIn, tenantTree, USER_PASSWORD } from '#test/factories';
import { totpCodeAt } from '../mfa/totp';

let app: FastifyInstance;
let admin: TestClient;
let deviceId: number;

beforeAll(async () => {
  app = await buildTestApp();
  const tree = await tenantTree(app);
  await createUser(app, 'tokens.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'tokens.nomfa@x.test', 'admin', tree.acme.id);
  admin = await signedIn(app, 'tokens.admin@x.test');
  const { secret } = (await admin.post('/api/user/mfa/totp')).json().data;
  await admin.post('/api/user/mfa/totp/confirm', { code: totpCodeAt(secret, Date.now()) });
  const device = await admin.post('/api/devices', {
    serial: '2200007001',
    mac: '00:1E:42:70:00:01',
    name: 'Yard router',
  });
  deviceId = device.json().data.id;
});
afterAll(() => app.close());

/** A script's request: the Bearer header only (no X-Requested-With, no cookie, no XSRF). */
function bearer(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string, payload?: object) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

async function create(body: Record<string, unknown>) {
  await admin.post('/api/password-confirmation', { password: USER_PASSWORD });
  return admin.post('/api/user/tokens', body);
}

describe('creating personal access tokens', () => {
  it('successful creation: the secret is shown once and stored as a digest', async () => {
    const created = await create({ name: 'Inventory script', scopes: ['devices:read'], expires_in_days: 30 });
    expect(created.statusCode).toBe(200);
    const data = created.json().data;
    expect(data.token).toMatch(/^fgp_[A-Za-z0-9_-]{43}$/);
    expect(data.token.startsWith(data.prefix)).toBe(true);
    expect(Date.parse(data.expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const [row] = await app.db.select().from(apiTokens).where(eq(apiTokens.id, data.id));
    expect(row!.tokenHash).not.toContain(data.token);
    const listed = (await admin.get('/api/user/tokens')).json().data;
    expect(listed.find((t: { id: number }) => t.id === data.id)).toEqual({
      id: data.id,
      name: 'Inventory script',
      prefix: data.prefix,
      scopes: ['devices:read'],
      created_at: data.created_at,
      last_used_at: null,
      expires_at: data.expires_at,
    });
  });

  it('failing creation: without a fresh password, without two-step verification, with unknown scopes', async () => {
    const fresh = await signedIn(app, 'tokens.nomfa@x.test');
    const stale = await fresh.post('/api/user/tokens', { name: 'x', scopes: ['devices:read'] });
    expect(stale.statusCode).toBe(423);
    await fresh.post('/api/password-confirmation', { password: USER_PASSWORD });
    const noMfa = await fresh.post('/api/user/tokens', { name: 'x', scopes: ['devices:read'] });
    expect(noMfa.statusCode).toBe(403);
    expect(errorsOf(noMfa)[0]?.message).toBe('Turn on two-step verification before creating access tokens');
    const unknown = await create({ name: 'x', scopes: ['admin:everything'] });
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown)[0]?.source).toBe('scopes.0');
    const markup = await create({ name: '<script>alert(1)</script>', scopes: ['devices:read'] });
    expect(errorsOf(markup)[0]).toMatchObject({
      source: 'name',
      message: 'Name contains forbidden characters',
    });
    const extra = await create({ name: 'x', scopes: ['devices:read'], user_id: 1 });
    expect(errorsOf(extra)[0]).toMatchObject({ message: 'Unknown field: user_id' });
    expect((await fresh.get('/api/user/tokens')).json().data).toEqual([]);
  });
});

describe('Bearer authentication', () => {
  it('a devices:read token lists devices but cannot change one', async () => {
    const { token } = (await create({ name: 'reader', scopes: ['devices:read'] })).json().data;
    const list = await bearer('GET', '/api/devices', token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((d: { id: number }) => d.id)).toContain(deviceId);
    const change = await bearer('PUT', `/api/devices/${deviceId}`, token, { name: 'Renamed' });
    expect(change.statusCode).toBe(403);
    // The refusal names the scope that would reach the route.
    expect(change.json().errors[0].message).toBe(
      "This token's scopes do not allow this: it needs devices:write, and its user the right to do it",
    );
    const tags = await bearer('GET', '/api/tags', token);
    expect(tags.json().errors[0].message).toContain('it needs tags:read or tags:write');
    const read = await bearer('GET', `/api/devices/${deviceId}`, token);
    expect(read.json().data.name).toBe('Yard router');
    // The token's permissions are the user's ∩ the scope's.
    const me = (await bearer('GET', '/api/user', token)).json().data;
    expect(me.permissions).not.toContain('manage_devices');
    expect(me.permissions).toContain('view_devices');
    expect(
      me.permissions.every((p: string) =>
        (TOKEN_SCOPES['devices:read'].permissions as readonly string[]).includes(p),
      ),
    ).toBe(true);
    const [row] = await app.db.select().from(apiTokens).where(eq(apiTokens.name, 'reader'));
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it('a devices:write token may change a device', async () => {
    const { token } = (await create({ name: 'writer', scopes: ['devices:write'] })).json().data;
    const change = await bearer('PUT', `/api/devices/${deviceId}`, token, {
      description: 'Changed by a script',
    });
    expect(change.statusCode).toBe(200);
  });

  it('a token never reaches the account’s own routes: no minting a wider token', async () => {
    const { token } = (await create({ name: 'narrow', scopes: ['devices:read'] })).json().data;
    const mint = await bearer('POST', '/api/user/tokens', token, { name: 'wide', scopes: ['devices:write'] });
    expect(mint.statusCode).toBe(403);
    expect(errorsOf(mint)[0]?.message).toBe('Personal access tokens cannot call this endpoint');
    expect(
      (await bearer('POST', '/api/password-confirmation', token, { password: USER_PASSWORD })).statusCode,
    ).toBe(403);
    expect((await bearer('GET', '/api/user/sessions', token)).statusCode).toBe(403);
  });

  it('a revoked, an expired or an unknown token answers 401', async () => {
    const revoked = (await create({ name: 'soon revoked', scopes: ['devices:read'] })).json().data;
    expect((await admin.delete(`/api/user/tokens/${revoked.id}`)).statusCode).toBe(200);
    const r1 = await bearer('GET', '/api/devices', revoked.token);
    expect(r1.statusCode).toBe(401);
    expect(errorsOf(r1)[0]).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid or expired access token' });

    const expired = (await create({ name: 'short', scopes: ['devices:read'], expires_in_days: 1 })).json()
      .data;
    await app.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    expect((await bearer('GET', '/api/devices', expired.token)).statusCode).toBe(401);
    expect((await bearer('GET', '/api/devices', 'fgp_not-a-real-token')).statusCode).toBe(401);
    // Revoking someone else's token, or twice: 404.
    expect((await admin.delete(`/api/user/tokens/${revoked.id}`)).statusCode).toBe(404);
  });

  it('Bearer ignores the browser cookie: the token decides who is asking', async () => {
    const { token } = (await create({ name: 'cookie test', scopes: ['devices:read'] })).json().data;
    const other = await signedIn(app, 'tokens.nomfa@x.test');
    const response = await app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${token}` },
      cookies: Object.fromEntries(other.cookies),
    });
    expect(response.json().data.email).toBe('tokens.admin@x.test');
  });
});

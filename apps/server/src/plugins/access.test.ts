import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TestClient } from '#test/app';
import { createUser, signedIn } from '#test/factories';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
});
afterAll(() => app.close());

describe('route access rules (CONVENTIONS §4)', () => {
  it('every /api route declares a permission requirement or an explicit public marker', () => {
    const api = app.routeCatalog.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    expect(api.length).toBeGreaterThan(4);
    const missing = api.filter((r) => !r.access).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('only the routes meant to be public are public', () => {
    const publicApi = app.routeCatalog
      .filter((r) => r.url.startsWith('/api/') && r.access && 'public' in r.access)
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicApi).toEqual([
      // Vendor identity service: whether it is offered, start, and the callback.
      'GET /api/auth/oidc',
      'GET /api/brand',
      // The brand's favicon and logo: the sign-in page shows them.
      'GET /api/brands/:id/images/:kind',
      'GET /api/invitations/by-token/:token',
      // Further languages (docs/decisions.md): the sign-in page is translated too.
      'GET /api/locales',
      'GET /api/locales/:code/:namespace',
      // What a share link opens, for its launcher: the key in the address is the right.
      'GET /api/remote/share/:key',
      'HEAD /api/auth/oidc',
      'HEAD /api/brand',
      'HEAD /api/brands/:id/images/:kind',
      'HEAD /api/invitations/by-token/:token',
      'HEAD /api/locales',
      'HEAD /api/locales/:code/:namespace',
      'HEAD /api/remote/share/:key',
      'POST /api/auth/login',
      'POST /api/auth/oidc/callback',
      'POST /api/auth/oidc/start',
      'POST /api/auth/token/refresh',
      'POST /api/auth/token/revoke',
      // The e-mail confirmation link: opened in any browser, the sealed token is the proof.
      'POST /api/auth/user/activation/verify',
      'POST /api/invitations/by-token/:token/accept',
    ]);
  });

  it('answers 401 and 403 before validating the body, so the schema stays private', async () => {
    const anonymous = await new TestClient(app).post('/api/companies', { nonsense: true });
    expect(anonymous.statusCode).toBe(401);
    const local = await buildTestApp();
    try {
      await createUser(local, 'guest@x.test', 'read_only', 1);
      const guest = await signedIn(local, 'guest@x.test');
      const response = await guest.post('/api/companies', { nonsense: true });
      expect(response.statusCode).toBe(403);
    } finally {
      await local.close();
    }
  });

  it('registering an /api route without an access rule fails at start', async () => {
    const local = await buildTestApp();
    try {
      expect(() => local.get('/api/unguarded', async () => ({}))).toThrow(/declares no access rule/);
    } finally {
      await local.close();
    }
  });
});

describe('OpenAPI', () => {
  it('serves a description generated from the route schemas at /api/docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(
      ['email', 'password'],
    );
    expect(Object.keys(doc.paths)).toContain('/api/user');
  });

  it('is whole: every schema it refers to is in it, and it says who may call and how a refusal answers', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const text = JSON.stringify(doc);
    const refs = new Set([...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
    for (const name of refs) expect(doc.components.schemas, name).toHaveProperty(name);
    const operations = Object.values(doc.paths).flatMap((path) => Object.values(path as object));
    for (const operation of operations) {
      expect(operation.responses['4XX'].content['application/json'].schema.required).toEqual([
        'success',
        'errors',
      ]);
      expect(Array.isArray(operation.security)).toBe(true);
    }
    // Public, token-reachable with its scopes, and browser-only.
    expect(doc.paths['/api/auth/login'].post.security).toEqual([]);
    const devices = doc.paths['/api/devices'].get;
    expect(devices.security).toEqual([{ session: [] }, { token: [] }]);
    expect(devices.description).toContain('Token scopes: devices:read, devices:write');
    const tokens = doc.paths['/api/user/tokens'].post;
    expect(tokens.security).toEqual([{ session: [] }]);
    expect(tokens.description).toContain('personal access tokens are refused');
  });

  it('is not served with API_DOCS=false', async () => {
    const local = await buildTestApp({ API_DOCS: 'false' });
    try {
      expect((await local.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
      expect((await local.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
    } finally {
      await local.close();
    }
  });
});

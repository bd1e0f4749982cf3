import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
  await app.ready();
});
afterAll(() => app.close());

describe('route access rules (issue 2, CONVENTIONS §4)', () => {
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
      'GET /api/brand',
      'HEAD /api/brand',
      'POST /api/auth/login',
      'POST /api/auth/token/refresh',
      'POST /api/auth/token/revoke',
    ]);
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

describe('OpenAPI (issue 2)', () => {
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
});

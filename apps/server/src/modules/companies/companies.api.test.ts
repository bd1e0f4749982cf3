import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createUser, signedIn, tenantTree } from '#test/factories';

let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'acme.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'acme.guest@x.test', 'read_only', tree.acme.id);
  await createUser(app, 'north.client@x.test', 'end_user', tree.north.id);
  await createUser(app, 'beta.admin@x.test', 'admin', tree.beta.id);
});
afterAll(() => app.close());

const names = (body: { data: { name?: string }[] }) => body.data.map((c) => c.name).sort();

describe('companies in scope (product §6, ARCHITECTURE §4)', () => {
  it('a super admin sees every company', async () => {
    const client = await new TestClient(app).login();
    const response = await client.get('/api/companies?limit=100');
    expect(response.statusCode).toBe(200);
    expect(names(response.json())).toEqual(['Acme', 'Acme North', 'Beta', 'Fleetgate']);
    expect(response.json().meta.total).toBe(4);
  });

  it('an admin sees its own company and its subsidiaries, never a sibling', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    expect(names((await client.get('/api/companies')).json())).toEqual(['Acme', 'Acme North']);
    const sibling = await client.get(`/api/companies/${tree.beta.id}`);
    expect(sibling.statusCode).toBe(404);
    expect(errorsOf(sibling)).toEqual([{ code: 'NOT_FOUND', message: 'Company not found' }]);
    const parent = await client.get('/api/companies/1');
    expect(parent.statusCode).toBe(404);
    expect((await client.get(`/api/companies/${tree.north.id}`)).json().data).toMatchObject({
      name: 'Acme North',
      parent_name: 'Acme',
      level: 3,
    });
  });

  it('a guest may not list companies at all', async () => {
    const client = await signedIn(app, 'acme.guest@x.test');
    const response = await client.get('/api/companies');
    expect(response.statusCode).toBe(403);
  });

  it('searches by substring with search-fields, returns only the asked fields, and counts all matches', async () => {
    const client = await new TestClient(app).login();
    const response = await client.get(
      '/api/companies?q=acme&search-fields=name,email&fields=id,name&limit=1&sort=-name',
    );
    const body = response.json();
    expect(body.data).toEqual([{ id: tree.north.id, name: 'Acme North' }]);
    expect(body.meta.total).toBe(2);
    // '%' is a literal, not a wildcard.
    expect((await client.get('/api/companies?q=%25')).json().data).toEqual([]);
  });

  it('filters by level, as the company form asks for parents of level 1 or 2 (product §3)', async () => {
    const client = await new TestClient(app).login();
    expect(names((await client.get('/api/companies?level=1,2')).json())).toEqual([
      'Acme',
      'Beta',
      'Fleetgate',
    ]);
  });

  it('skips fields a company does not have, as global search asks every endpoint for the same ones', async () => {
    const client = await new TestClient(app).login();
    const response = await client.get(
      '/api/companies?q=beta&fields=id,name,status,email,protocol,enabled,color',
    );
    expect(response.json().data).toEqual([{ id: tree.beta.id, name: 'Beta' }]);
  });

  it('refuses unknown sorts and bad limits with the parameter named', async () => {
    const client = await new TestClient(app).login();
    const sort = await client.get('/api/companies?sort=password');
    expect(errorsOf(sort)[0]).toMatchObject({ code: 'VALIDATION_ERROR', source: 'sort' });
    const limit = await client.get('/api/companies?limit=1000');
    expect(errorsOf(limit)[0]).toMatchObject({ source: 'limit', message: 'limit must be between 1 and 100' });
  });
});

describe('users in scope (product §6)', () => {
  it('an admin sees users of its subtree only', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const emails = (await client.get('/api/users'))
      .json()
      .data.map((u: { email: string }) => u.email)
      .sort();
    expect(emails).toEqual(['acme.admin@x.test', 'acme.guest@x.test', 'north.client@x.test']);
  });

  it('a guest sees only its own company, and another company’s user is not found', async () => {
    const client = await signedIn(app, 'acme.guest@x.test');
    const emails = (await client.get('/api/users'))
      .json()
      .data.map((u: { email: string }) => u.email)
      .sort();
    expect(emails).toEqual(['acme.admin@x.test', 'acme.guest@x.test']);
    const list = (await client.get('/api/users?q=north')).json();
    expect(list.data).toEqual([]);
    const beta = (await new TestClient(app).login()).get('/api/users?q=beta.admin');
    const betaId = (await beta).json().data[0].id;
    expect((await client.get(`/api/users/${betaId}`)).statusCode).toBe(404);
  });
});

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { companies } from '#src/db/schema/companies';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createCompany, createUser, signedIn, tenantTree } from '#test/factories';

let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'acme.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'acme.advanced@x.test', 'readonly_admin', tree.acme.id);
});
afterAll(() => app.close());

const row = async (id: number) => (await app.db.select().from(companies).where(eq(companies.id, id)))[0];

describe('creating companies (product §3 newCompany, §5)', () => {
  it('successful creation under a parent in scope sets level and path', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const response = await client.post('/api/companies', { name: 'Acme South', parent_id: tree.acme.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { name: 'Acme South', parent_id: tree.acme.id, level: 3 },
      message: 'Company created successfully',
    });
    const created = await row(response.json().data.id);
    expect(created?.path).toBe(`${tree.acme.path}${created?.id}/`);
    const [audit] = await app.db.select().from(auditLog).where(eq(auditLog.action, 'company.create'));
    expect(audit).toMatchObject({ companyId: created?.id });
  });

  it('refuses a parent of level 3: no company sits below level 3 (product §3 newCompany)', async () => {
    const client = await new TestClient(app).login();
    expect((await row(tree.north.id))?.level).toBe(3);
    const deep = await client.post('/api/companies', { name: 'Acme North Depot', parent_id: tree.north.id });
    expect(deep.statusCode).toBe(400);
    expect(errorsOf(deep)[0]).toMatchObject({
      source: 'parent_id',
      message: 'The parent company must be of level 1 or 2, so no company sits below level 3',
    });
    expect(await app.db.select().from(companies).where(eq(companies.name, 'Acme North Depot'))).toEqual([]);
  });

  it('refuses short names, forbidden characters and unknown fields with the field named', async () => {
    const client = await new TestClient(app).login();
    const short = await client.post('/api/companies', { name: 'ab', parent_id: 1 });
    expect(errorsOf(short)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Company name must be at least 3 characters', source: 'name' },
    ]);
    const bad = await client.post('/api/companies', { name: 'Acme <script>', parent_id: 1 });
    expect(errorsOf(bad)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Company name contains forbidden characters', source: 'name' },
    ]);
    const extra = await client.post('/api/companies', { name: 'Gamma', parent_id: 1, level: 1, path: '/' });
    expect(
      errorsOf(extra)
        .map((e) => e.source)
        .sort(),
    ).toEqual(['level', 'path']);
  });

  it('refuses a parent outside the caller’s subtree as not found, and a duplicate sibling name', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const foreign = await client.post('/api/companies', { name: 'Sneaky', parent_id: tree.beta.id });
    expect(foreign.statusCode).toBe(404);
    expect(errorsOf(foreign)[0]?.message).toBe('Parent company not found');
    const duplicate = await client.post('/api/companies', { name: 'acme north', parent_id: tree.acme.id });
    expect(duplicate.statusCode).toBe(409);
    expect(errorsOf(duplicate)[0]?.source).toBe('name');
  });

  it('a guest of any kind may not create companies', async () => {
    const client = await signedIn(app, 'acme.advanced@x.test');
    expect((await client.post('/api/companies', { name: 'Nope', parent_id: tree.acme.id })).statusCode).toBe(
      403,
    );
  });
});

describe('editing companies (product §5)', () => {
  it('refuses an unchanged name with the spec’s words', async () => {
    const client = await new TestClient(app).login();
    const response = await client.put(`/api/companies/${tree.beta.id}`, { name: 'Beta' });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([
      { code: 'VALIDATION_ERROR', message: 'Please input different value to save changes', source: 'name' },
    ]);
  });

  it('renames a company in scope', async () => {
    const client = await new TestClient(app).login();
    const response = await client.put(`/api/companies/${tree.beta.id}`, { name: 'Beta Networks' });
    expect(response.json().data.name).toBe('Beta Networks');
    expect((await row(tree.beta.id))?.name).toBe('Beta Networks');
  });
});

describe('moving companies (product §3 moveCompany)', () => {
  it('moves a company with its subsidiaries, rewriting paths and levels', async () => {
    const client = await new TestClient(app).login();
    const gamma = await createCompany(app, 'Gamma');
    const customer = await createCompany(app, 'Gamma Customer', gamma.id);
    // A customer of one reseller moves to another: level 3 under Beta.
    const across = await client.post('/api/companies/move', { source: customer.id, target: tree.beta.id });
    expect(across.statusCode).toBe(200);
    expect(await row(customer.id)).toMatchObject({
      parentId: tree.beta.id,
      level: 3,
      path: `${tree.beta.path}${customer.id}/`,
    });
    // Gamma (level 2) with its customer under Beta: the customer would sit at level 4.
    await client.post('/api/companies/move', { source: customer.id, target: gamma.id });
    const deep = await client.post('/api/companies/move', { source: gamma.id, target: tree.beta.id });
    expect(errorsOf(deep)[0]).toMatchObject({
      source: 'target',
      message: 'Moved there, the company or one of its subsidiaries would sit below level 3',
    });
    expect(await row(gamma.id)).toMatchObject({ parentId: 1, level: 2 });
    // Up to the top company: the customer becomes a reseller, its path rewritten.
    const up = await client.post('/api/companies/move', { source: customer.id, target: 1 });
    expect(up.json()).toMatchObject({ data: { id: customer.id, parent_id: 1, level: 2 } });
    const top = await row(1);
    expect(await row(customer.id)).toMatchObject({
      parentId: 1,
      level: 2,
      path: `${top?.path}${customer.id}/`,
    });
  });

  it('refuses a cycle, the top company and the caller’s own company', async () => {
    const client = await new TestClient(app).login();
    const cycle = await client.post('/api/companies/move', { source: tree.acme.id, target: tree.north.id });
    expect(errorsOf(cycle)[0]).toMatchObject({
      source: 'target',
      message: 'A company cannot be moved under itself or one of its subsidiaries',
    });
    expect((await client.post('/api/companies/move', { source: 1, target: tree.acme.id })).statusCode).toBe(
      400,
    );
    const admin = await signedIn(app, 'acme.admin@x.test');
    const own = await admin.post('/api/companies/move', { source: tree.acme.id, target: tree.north.id });
    expect(own.statusCode).toBe(400);
  });

  it('an admin cannot move its subsidiary out of its subtree', async () => {
    const admin = await signedIn(app, 'acme.admin@x.test');
    const out = await admin.post('/api/companies/move', { source: tree.north.id, target: tree.beta.id });
    expect(out.statusCode).toBe(404);
    expect((await row(tree.north.id))?.parentId).toBe(tree.acme.id);
  });
});

describe('deleting companies (docs/decisions.md rule)', () => {
  it('refuses a company that still has subsidiaries, users or devices, naming what remains', async () => {
    const client = await new TestClient(app).login();
    const response = await client.delete(`/api/companies/${tree.acme.id}`);
    expect(response.statusCode).toBe(409);
    expect(errorsOf(response)[0]?.message).toMatch(
      /^The company still has \d+ subsidiar(y|ies), 2 users\. Move or remove them first\.$/,
    );
    expect(await row(tree.acme.id)).toBeDefined();
  });

  it('deletes an empty company', async () => {
    const client = await new TestClient(app).login();
    const empty = await createCompany(app, 'Empty Co');
    expect((await client.delete(`/api/companies/${empty.id}`)).statusCode).toBe(200);
    expect(await row(empty.id)).toBeUndefined();
  });
});

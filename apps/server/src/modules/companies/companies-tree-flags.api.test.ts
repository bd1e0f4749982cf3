import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#src/db/schema/audit';
import { companies } from '#src/db/schema/companies';
import { buildTestApp, errorsOf, TestClient } from '#test/app';
import { createCompany, createUser, signedIn, tenantTree } from '#test/factories';

let app: FastifyInstance;
let tree: Awaited<ReturnType<typeof tenantTree>>;
/** A subsidiary without users: making MFA mandatory there locks nobody out of these tests. */
let east: { id: number };

beforeAll(async () => {
  app = await buildTestApp();
  tree = await tenantTree(app);
  await createUser(app, 'acme.admin@x.test', 'admin', tree.acme.id);
  await createUser(app, 'acme.advanced@x.test', 'readonly_admin', tree.acme.id);
  await createUser(app, 'north.admin@x.test', 'admin', tree.north.id);
  await createUser(app, 'north.client@x.test', 'end_user', tree.north.id);
});

afterAll(() => app.close());

const flagsOf = async (id: number) => {
  const [row] = await app.db.select().from(companies).where(eq(companies.id, id));
  return { show_payment: row?.showPayment, mfa_mandatory: row?.mfaMandatory };
};

type Node = { id: number; name: string; level: number; users_count: number; children: Node[] };
const shape = (nodes: Node[]): unknown[] =>
  nodes.map((n) => (n.children.length ? { [n.name]: shape(n.children) } : n.name));

describe('the company presenter (product §2 company.info header)', () => {
  it('carries users, devices and subsidiary counts and the flags', async () => {
    const client = await new TestClient(app).login();
    const response = await client.get(`/api/companies/${tree.acme.id}`);
    expect(response.json().data).toMatchObject({
      name: 'Acme',
      parent_id: 1,
      parent_name: 'Fleetgate',
      level: 2,
      users_count: 2,
      devices_count: 0,
      children_count: 1,
      show_payment: false,
      mfa_mandatory: false,
    });
  });
});

describe('the company tree (product §2 company.tree)', () => {
  it('a super admin receives the whole tree as nested nodes, names sorted at each level', async () => {
    const client = await new TestClient(app).login();
    const response = await client.get('/api/companies/tree');
    expect(response.statusCode).toBe(200);
    expect(shape(response.json().data)).toEqual([{ Fleetgate: [{ Acme: ['Acme North'] }, 'Beta'] }]);
    expect(response.json().meta).toEqual({ truncated: false });
  });

  it('an admin receives its own subtree only, rooted at its company, with user counts', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const [root, ...others] = (await client.get('/api/companies/tree')).json().data as Node[];
    expect(others).toEqual([]);
    expect(root).toMatchObject({ id: tree.acme.id, level: 2, users_count: 2 });
    // Each node counts its own users: North has two, the subtree's total would be four.
    expect(root?.children[0]).toMatchObject({ name: 'Acme North', users_count: 2 });
    expect(shape([root!])).toEqual([{ Acme: ['Acme North'] }]);
  });

  it('counts users per company, not over the whole tree', async () => {
    const client = await new TestClient(app).login();
    const [fleetgate] = (await client.get('/api/companies/tree')).json().data as Node[];
    const counts = Object.fromEntries(
      [fleetgate!, ...fleetgate!.children, ...fleetgate!.children.flatMap((c) => c.children)].map((n) => [
        n.name,
        n.users_count,
      ]),
    );
    expect(counts).toEqual({ Fleetgate: 1, Acme: 2, 'Acme North': 2, Beta: 0 });
  });

  it('deep trees nest all the way down', async () => {
    let parent = tree.north.id;
    for (const name of ['Deep 1', 'Deep 2', 'Deep 3']) parent = (await createCompany(app, name, parent)).id;
    const client = await signedIn(app, 'north.admin@x.test');
    expect(shape((await client.get('/api/companies/tree')).json().data)).toEqual([
      { 'Acme North': [{ 'Deep 1': [{ 'Deep 2': ['Deep 3'] }] }] },
    ]);
  });

  it('is closed to callers without view_companies', async () => {
    const client = await signedIn(app, 'north.client@x.test');
    expect((await client.get('/api/companies/tree')).statusCode).toBe(403);
  });
});

describe('company flags (product §2 manage company flags)', () => {
  beforeAll(async () => {
    east = await createCompany(app, 'Acme East', tree.acme.id);
  });

  it('an admin sets the flags of a subsidiary; the change is audited and shown', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const response = await client.put(`/api/companies/${east.id}/flags`, {
      show_payment: true,
      mfa_mandatory: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { id: east.id, show_payment: true, mfa_mandatory: true },
      message: 'Company flags updated successfully',
    });
    expect(await flagsOf(east.id)).toEqual({ show_payment: true, mfa_mandatory: true });
    expect((await client.get(`/api/companies/${east.id}`)).json().data).toMatchObject({
      show_payment: true,
      mfa_mandatory: true,
    });
    const [audit] = await app.db.select().from(auditLog).where(eq(auditLog.action, 'company.flags'));
    expect(audit).toMatchObject({ companyId: east.id, targetType: 'company' });
    expect(audit?.details).toMatchObject({ to: { show_payment: true, mfa_mandatory: true } });
  });

  it('one flag alone changes only that flag', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    await client.put(`/api/companies/${east.id}/flags`, { show_payment: false });
    expect(await flagsOf(east.id)).toEqual({ show_payment: false, mfa_mandatory: true });
  });

  it('a customer cannot lift its own MFA duty: an admin may not change its own company’s flags', async () => {
    const client = await signedIn(app, 'north.admin@x.test');
    for (const body of [{ mfa_mandatory: false }, { show_payment: true }]) {
      const response = await client.put(`/api/companies/${tree.north.id}/flags`, body);
      expect(response.statusCode).toBe(403);
      expect(errorsOf(response)).toEqual([
        { code: 'FORBIDDEN', message: 'You cannot change the flags of your own company' },
      ]);
    }
    expect(await flagsOf(tree.north.id)).toEqual({ show_payment: false, mfa_mandatory: false });
  });

  it('a parent or a sibling is not found; a guest may not; the super admin may set any company', async () => {
    const north = await signedIn(app, 'north.admin@x.test');
    expect((await north.put(`/api/companies/${tree.acme.id}/flags`, { show_payment: true })).statusCode).toBe(
      404,
    );
    const acme = await signedIn(app, 'acme.admin@x.test');
    expect((await acme.put(`/api/companies/${tree.beta.id}/flags`, { show_payment: true })).statusCode).toBe(
      404,
    );
    const advanced = await signedIn(app, 'acme.advanced@x.test');
    expect((await advanced.put(`/api/companies/${east.id}/flags`, { mfa_mandatory: false })).statusCode).toBe(
      403,
    );
    expect(await flagsOf(tree.beta.id)).toEqual({ show_payment: false, mfa_mandatory: false });
    const root = await new TestClient(app).login();
    expect((await root.put('/api/companies/1/flags', { show_payment: true })).statusCode).toBe(200);
    await root.put('/api/companies/1/flags', { show_payment: false });
  });

  it('refuses an empty change, non-boolean values and unknown fields', async () => {
    const client = await signedIn(app, 'acme.admin@x.test');
    const empty = await client.put(`/api/companies/${east.id}/flags`, {});
    expect(errorsOf(empty)).toEqual([{ code: 'VALIDATION_ERROR', message: 'Choose a flag to change' }]);
    expect((await client.put(`/api/companies/${east.id}/flags`, { mfa_mandatory: 'no' })).statusCode).toBe(
      400,
    );
    const extra = await client.put(`/api/companies/${east.id}/flags`, {
      show_payment: true,
      name: 'Renamed',
    });
    expect(errorsOf(extra).map((e) => e.source)).toEqual(['name']);
    expect(await flagsOf(east.id)).toEqual({ show_payment: false, mfa_mandatory: true });
  });
});

describe('payment type (product §3 Company payment_type)', () => {
  const paymentTypeOf = async (id: number) =>
    (await app.db.select().from(companies).where(eq(companies.id, id)))[0]?.paymentType;

  it('only the super admin sets it; an admin’s attempt changes nothing', async () => {
    const acme = await signedIn(app, 'acme.admin@x.test');
    const refused = await acme.put(`/api/companies/${tree.north.id}/flags`, { payment_type: 'free' });
    expect(refused.statusCode).toBe(403);
    expect(errorsOf(refused)).toEqual([
      {
        code: 'FORBIDDEN',
        message: 'Only the system administrator sets how a company pays for its resources',
      },
    ]);
    expect(await paymentTypeOf(tree.north.id)).toBe('paid');
    const odd = await new TestClient(app).login();
    const bad = await odd.put(`/api/companies/${tree.north.id}/flags`, { payment_type: 'barter' });
    expect(errorsOf(bad)).toEqual([
      expect.objectContaining({ message: 'Payment type must be one of: paid, free', source: 'payment_type' }),
    ]);
  });

  it('a free company never sees the buy link, and its new subsidiaries start free', async () => {
    const root = await new TestClient(app).login();
    const set = await root.put(`/api/companies/${tree.north.id}/flags`, { payment_type: 'free' });
    expect(set.json().data).toMatchObject({ id: tree.north.id, payment_type: 'free' });
    const acme = await signedIn(app, 'acme.admin@x.test');
    await acme.put(`/api/companies/${tree.north.id}/flags`, { show_payment: true });
    expect((await acme.get(`/api/companies/${tree.north.id}`)).json().data).toMatchObject({
      payment_type: 'free',
      show_payment: true,
    });
    const north = await signedIn(app, 'north.admin@x.test');
    expect((await north.get('/api/user')).json().data).toMatchObject({ show_payment: false });

    const child = await createCompany(app, 'North Depot', tree.north.id);
    expect(await paymentTypeOf(child.id)).toBe('free');

    await root.put(`/api/companies/${tree.north.id}/flags`, { payment_type: 'paid' });
    expect((await north.get('/api/user')).json().data).toMatchObject({ show_payment: true });
    const [audit] = await app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'company.flags'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit?.details).toMatchObject({ from: { payment_type: 'free' }, to: { payment_type: 'paid' } });
    await acme.put(`/api/companies/${tree.north.id}/flags`, { show_payment: false });
  });
});

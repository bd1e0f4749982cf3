import type { RoleName } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TestClient } from '../../../test/app';
import { createCompany, createUser, signedIn } from '../../../test/factories';
import { roles } from '../../db/schema/roles';

/**
 * The policy matrix of issue 4: every accounts route × every default role × the relation
 * between the caller's company and the target (self, parent, child, sibling, unrelated),
 * with the explicit 'no' rows. Outcomes:
 * - 'ok'     the caller reaches and may act (2xx, or a business refusal such as 400/409);
 * - 'hidden' the target is outside the caller's reach (404, never 403: ARCHITECTURE §4);
 * - 'denied' the caller's role lacks the permission (403).
 *
 * Tenant tree: Root(1) ─┬─ Home ── Child
 *                       ├─ Sibling
 *                       └─ Other ── Unrelated
 * Callers sit in Home; the super admin sits in Root.
 */
type Relation = 'self' | 'parent' | 'child' | 'sibling' | 'unrelated';
type Outcome = 'ok' | 'hidden' | 'denied';
const RELATIONS: Relation[] = ['self', 'parent', 'child', 'sibling', 'unrelated'];
const CALLERS: RoleName[] = ['admin', 'end_user', 'readonly_admin', 'read_only'];

type Target = { companyId: number; userId: number; roleId: number };
type Row = {
  name: string;
  /** Makes the request against a fresh or shared target of the relation. */
  call(client: TestClient, target: Target, fresh: () => Promise<Target>): Promise<{ statusCode: number }>;
  expect: Record<RoleName, Outcome | Record<Relation, Outcome>>;
};

const SUBTREE: Record<Relation, Outcome> = {
  self: 'ok',
  parent: 'hidden',
  child: 'ok',
  sibling: 'hidden',
  unrelated: 'hidden',
};
const OWN_ONLY: Record<Relation, Outcome> = {
  self: 'ok',
  parent: 'hidden',
  child: 'hidden',
  sibling: 'hidden',
  unrelated: 'hidden',
};

let unique = 0;
const next = (prefix: string) => `${prefix} ${++unique}`;

const ROWS: Row[] = [
  {
    name: 'GET /api/companies/:id',
    call: (c, t) => c.get(`/api/companies/${t.companyId}`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: SUBTREE,
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/companies (parent = target)',
    call: (c, t) => c.post('/api/companies', { name: next('Matrix Co'), parent_id: t.companyId }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'PUT /api/companies/:id (rename)',
    call: async (c, _t, fresh) =>
      c.put(`/api/companies/${(await fresh()).companyId}`, { name: next('Renamed') }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'DELETE /api/companies/:id',
    call: async (c, _t, fresh) => c.delete(`/api/companies/${(await fresh()).companyId}`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/companies/move (source = target, under the caller’s home)',
    call: async (c, _t, fresh) =>
      c.post('/api/companies/move', { source: (await fresh()).companyId, target: home.id }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'GET /api/users/:id',
    call: (c, t) => c.get(`/api/users/${t.userId}`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: SUBTREE,
      end_user: OWN_ONLY,
      read_only: OWN_ONLY,
    },
  },
  {
    name: 'GET /api/roles/:id (custom role of the target company)',
    call: (c, t) => c.get(`/api/roles/${t.roleId}`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: SUBTREE,
      end_user: OWN_ONLY,
      read_only: OWN_ONLY,
    },
  },
  {
    name: 'POST /api/roles (company = target)',
    call: (c, t) =>
      c.post('/api/roles', {
        company_id: t.companyId,
        name: `matrix_${++unique}`,
        title: 'Matrix',
        permissions: [],
      }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'DELETE /api/roles/:id (custom role of the target company)',
    // A new role in the target company for each call: a deleted role is gone for the next caller.
    call: async (c, t) => c.delete(`/api/roles/${(await targetIn(t.companyId)).roleId}`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
];

let app: FastifyInstance;
let home: { id: number };
const targets = {} as Record<Relation, Target>;
const companyOf = {} as Record<Relation, number>;
const clients = {} as Record<RoleName, TestClient>;

async function targetIn(companyId: number): Promise<Target> {
  const user = await createUser(app, `${next('t').replace(' ', '')}@matrix.test`, 'read_only', companyId);
  const [role] = await app.db
    .insert(roles)
    .values({ companyId, name: `custom_${++unique}`, title: 'Custom' })
    .returning({ id: roles.id });
  return { companyId, userId: user.id, roleId: role!.id };
}

/**
 * The target of a changing request. Home and Root are used as they are: deleting them is
 * always refused by business rules (Home has users and a subsidiary; Root is the top),
 * which still shows whether the caller reaches them. Below, beside and far from Home a
 * fresh empty company is made for each call, so one call never hides another.
 */
async function freshTarget(relation: Relation): Promise<Target> {
  if (relation === 'self' || relation === 'parent') return targets[relation];
  const company = await createCompany(app, next('Fresh'), companyOf[relation]);
  return targetIn(company.id);
}

beforeAll(async () => {
  app = await buildTestApp();
  home = await createCompany(app, 'Home');
  const child = await createCompany(app, 'Child', home.id);
  const sibling = await createCompany(app, 'Sibling');
  const other = await createCompany(app, 'Other');
  const unrelated = await createCompany(app, 'Unrelated', other.id);
  Object.assign(companyOf, {
    self: home.id,
    parent: 1,
    child: child.id,
    sibling: sibling.id,
    unrelated: unrelated.id,
  });
  for (const relation of RELATIONS) targets[relation] = await targetIn(companyOf[relation]);
  for (const role of CALLERS) {
    await createUser(app, `${role}@matrix.test`, role, home.id);
    clients[role] = await signedIn(app, `${role}@matrix.test`);
  }
  clients.super_admin = await new TestClient(app).login();
});
afterAll(() => app.close());

function classify(status: number): Outcome {
  if (status === 404) return 'hidden';
  if (status === 403) return 'denied';
  if (status < 300 || status === 400 || status === 409) return 'ok';
  throw new Error(`unexpected status ${status}`);
}

describe('policy matrix: role × relation × accounts route (issue 4)', () => {
  for (const row of ROWS) {
    for (const role of [...CALLERS, 'super_admin'] as RoleName[]) {
      for (const relation of RELATIONS) {
        const expected = row.expect[role];
        const outcome = typeof expected === 'string' ? expected : expected[relation];
        // The relation is that of the target to Home; the super admin sits at the root, so
        // every target is inside its reach.
        it(`${row.name} — ${role} on ${relation}: ${outcome}`, async () => {
          const response = await row.call(clients[role], targets[relation], () => freshTarget(relation));
          expect(classify(response.statusCode)).toBe(outcome);
        });
      }
    }
  }
});

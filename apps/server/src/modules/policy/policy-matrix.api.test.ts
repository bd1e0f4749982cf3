import type { RoleName } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { roles } from '#src/db/schema/roles';
import { buildTestApp, type TestClient } from '#test/app';
import { createCompany, createUser } from '#test/factories';
import {
  describeMatrix,
  type MatrixRow,
  matrixCallers,
  matrixTree,
  OWN_ONLY,
  RELATIONS,
  type Relation,
  SUBTREE,
} from '#test/policy-matrix';

/**
 * The policy matrix for the companies and roles routes, with the explicit 'no'
 * rows; tree, callers and outcomes in test/policy-matrix.ts.
 */
type Target = { companyId: number; userId: number; roleId: number };
type Row = MatrixRow<Target>;

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
  Object.assign(companyOf, await matrixTree(app));
  home = { id: companyOf.self };
  for (const relation of RELATIONS) targets[relation] = await targetIn(companyOf[relation]);
  Object.assign(clients, await matrixCallers(app, home.id, 'matrix.test'));
});
afterAll(() => app.close());

describeMatrix('policy matrix: role × relation × accounts route', ROWS, {
  clients,
  targets,
  fresh: freshTarget,
});

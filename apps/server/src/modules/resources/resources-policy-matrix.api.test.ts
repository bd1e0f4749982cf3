import type { RoleName } from '@fleetgate/shared/roles';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestClient } from '#test/app';
import { registerDirect, testIdentity } from '#test/devices';
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
 * The policy matrix for the resources routes (test/policy-matrix.ts has the tree, the
 * callers and the outcomes). A target is a company of the relation, an open transfer code
 * of that company and a device of it; changing rows get fresh ones.
 */
type Target = { companyId: number; codeId: number; code: string; deviceId: number };
type Row = MatrixRow<Target>;

const ALL_OK = 'ok' as const;
const SUPER_ONLY: Row['expect'] = {
  super_admin: 'ok',
  admin: 'denied',
  readonly_admin: 'denied',
  end_user: 'denied',
  read_only: 'denied',
};

const ROWS: Row[] = [
  {
    name: 'GET /api/credits/types',
    call: (c) => c.get('/api/credits/types'),
    expect: {
      super_admin: ALL_OK,
      admin: ALL_OK,
      readonly_admin: ALL_OK,
      end_user: ALL_OK,
      read_only: ALL_OK,
    },
  },
  {
    name: 'GET /api/credits/summary',
    call: (c) => c.get('/api/credits/summary'),
    expect: {
      super_admin: ALL_OK,
      admin: ALL_OK,
      readonly_admin: ALL_OK,
      end_user: ALL_OK,
      read_only: ALL_OK,
    },
  },
  {
    // A filter, not an address: another company's id narrows the list to nothing.
    name: 'GET /api/credits?company_id=target',
    call: (c, t) => c.get(`/api/credits?company_id=${t.companyId}`),
    expect: { super_admin: 'ok', admin: 'ok', readonly_admin: 'ok', end_user: 'ok', read_only: 'denied' },
  },
  {
    name: 'GET /api/credits/report?company_id=target',
    call: (c, t) => c.get(`/api/credits/report?company_id=${t.companyId}`),
    expect: { super_admin: 'ok', admin: 'ok', readonly_admin: 'ok', end_user: 'ok', read_only: 'denied' },
  },
  {
    name: 'GET /api/companies/:id/resources',
    call: (c, t) => c.get(`/api/companies/${t.companyId}/resources`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: SUBTREE,
      end_user: OWN_ONLY,
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/credits (a pool for the target)',
    call: (c, t) =>
      c.post('/api/credits', {
        credit_type_id: 2,
        credit_count: 1,
        company_id: t.companyId,
        credit_price: 1,
        pro_form_nr: 'PF',
      }),
    expect: SUPER_ONLY,
  },
  {
    name: 'POST /api/credits/move (from home to the target)',
    call: (c, t) =>
      c.post('/api/credits/move', { credit_type_name: '2', source: home, target: t.companyId, amount: 1 }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/credits/codes (from the target, chosen)',
    call: (c, t) =>
      c.post('/api/credits/codes', { credit_type_name: '2', company_id: t.companyId, amount: 1 }),
    expect: SUPER_ONLY,
  },
  {
    name: 'POST /api/credits/codes (from the caller’s company)',
    call: (c) => c.post('/api/credits/codes', { credit_type_name: '2', amount: 1 }),
    expect: {
      super_admin: 'ok',
      admin: 'ok',
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'GET /api/credits/codes?company_id=target',
    call: (c, t) => c.get(`/api/credits/codes?company_id=${t.companyId}`),
    expect: { super_admin: 'ok', admin: 'ok', readonly_admin: 'ok', end_user: 'denied', read_only: 'denied' },
  },
  {
    name: 'DELETE /api/credits/codes/:id',
    call: async (c, _t, fresh) => c.delete(`/api/credits/codes/${(await fresh()).codeId}`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    // Codes are made to cross companies: any company may redeem one, but its own (a 400).
    name: 'POST /api/credits/codes/activate (a code of the target)',
    call: async (c, _t, fresh) => c.post('/api/credits/codes/activate', { code: (await fresh()).code }),
    expect: { super_admin: 'ok', admin: 'ok', readonly_admin: 'denied', end_user: 'ok', read_only: 'denied' },
  },
  {
    name: 'GET /api/credits/data-history?company_id=target',
    call: (c, t) => c.get(`/api/credits/data-history?company_id=${t.companyId}`),
    expect: { super_admin: 'ok', admin: 'ok', readonly_admin: 'ok', end_user: 'denied', read_only: 'denied' },
  },
  {
    name: 'GET /api/credits/data-overview',
    call: (c) => c.get('/api/credits/data-overview'),
    expect: { super_admin: 'ok', admin: 'ok', readonly_admin: 'ok', end_user: 'denied', read_only: 'denied' },
  },
  {
    name: 'GET /api/devices/:id/services',
    call: (c, t) => c.get(`/api/devices/${t.deviceId}/services`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: OWN_ONLY,
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/devices/:id/services (activate a credit)',
    call: async (c, _t, fresh) =>
      c.post(`/api/devices/${(await fresh()).deviceId}/services`, { credit_type_name: '2' }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: OWN_ONLY,
      read_only: 'denied',
    },
  },
  {
    name: 'PUT /api/devices/:id/services (auto-renew)',
    call: (c, t) => c.put(`/api/devices/${t.deviceId}/services`, { auto_renew: true }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: OWN_ONLY,
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/devices/services (the target’s device)',
    call: async (c, _t, fresh) =>
      c.post('/api/devices/services', { device_id: [(await fresh()).deviceId], credit_type_name: '2' }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: OWN_ONLY,
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/devices/credits/move (from a device of home to the target’s)',
    call: (c, t) =>
      c.post('/api/devices/credits/move', { source: homeDevice, target: t.deviceId, resource: 'days' }),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'GET /api/companies/:id/quotas',
    call: (c, t) => c.get(`/api/companies/${t.companyId}/quotas`),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: SUBTREE,
      end_user: OWN_ONLY,
      read_only: 'denied',
    },
  },
  {
    // Set from above only: the caller's own company is refused (403) like a missing right.
    name: 'PUT /api/companies/:id/quotas',
    call: (c, t) => c.put(`/api/companies/${t.companyId}/quotas`, { credit_type_name: '2', cap: 5 }),
    expect: {
      super_admin: { self: 'ok', parent: 'denied', child: 'ok', sibling: 'ok', unrelated: 'ok' },
      admin: { self: 'denied', parent: 'hidden', child: 'ok', sibling: 'hidden', unrelated: 'hidden' },
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/companies/data (for the target)',
    call: (c, t) => c.post('/api/companies/data', { company_id: t.companyId, credits: 1 }),
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
let home: number;
let homeDevice: number;
const targets = {} as Record<Relation, Target>;
const companyOf = {} as Record<Relation, number>;
const clients = {} as Record<RoleName, TestClient>;

/** An open code of the company, made by the super admin from a pool given for it. */
async function codeOf(companyId: number): Promise<Target> {
  const root = clients.super_admin;
  await root.post('/api/credits', {
    credit_type_id: 2,
    credit_count: 1,
    company_id: companyId,
    credit_price: 1,
    pro_form_nr: 'PF',
  });
  const response = await root.post('/api/credits/codes', {
    credit_type_name: '2',
    company_id: companyId,
    amount: 1,
  });
  if (response.statusCode !== 200) throw new Error(response.body);
  const { id, code } = response.json().data as { id: number; code: string };
  const device = await registerDirect(app, testIdentity(), companyId);
  return { companyId, codeId: id, code, deviceId: device.id };
}

beforeAll(async () => {
  app = await buildTestApp({ CODE_RATE_LIMIT: '10000' });
  Object.assign(companyOf, await matrixTree(app));
  home = companyOf.self;
  Object.assign(clients, await matrixCallers(app, home, 'resources-matrix.test'));
  for (const relation of RELATIONS) targets[relation] = await codeOf(companyOf[relation]);
  homeDevice = targets.self.deviceId;
});
afterAll(() => app.close());

describeMatrix('policy matrix: role × relation × resources route', ROWS, {
  clients,
  targets,
  fresh: (relation) => codeOf(companyOf[relation]),
});

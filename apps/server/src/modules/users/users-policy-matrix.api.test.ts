import { DEFAULT_ROLES, type RoleName } from '@fleetgate/shared/roles';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { digest, newToken } from '#src/auth/tokens';
import { invitations, userMoveLogs } from '#src/db/schema/invitations';
import { users } from '#src/db/schema/users';
import { ADMIN_EMAIL, buildTestApp, type TestClient } from '#test/app';
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
 * The policy matrix for the users, invitations and mail routes, with the
 * explicit 'no' rows; tree, callers and outcomes in test/policy-matrix.ts.
 */
type Target = { companyId: number; userId: number; invitationId: number };
type Reply = { statusCode: number };
type Row = MatrixRow<Target>;

const SUPER_ONLY = {
  super_admin: 'ok',
  admin: 'denied',
  readonly_admin: 'denied',
  end_user: 'denied',
  read_only: 'denied',
} as const;
const MANAGERS = {
  super_admin: 'ok',
  admin: SUBTREE,
  readonly_admin: 'denied',
  end_user: 'denied',
  read_only: 'denied',
} as const;

let unique = 0;
const next = (prefix: string) => `${prefix}${++unique}`;
const roleId = (name: RoleName) => DEFAULT_ROLES.find((r) => r.name === name)!.id;

/** A list answer as the matrix reads it: the target's row listed is 'ok', absent is 'hidden'. */
async function listed(response: Reply & { json(): { data?: { id: number }[] } }, id: number): Promise<Reply> {
  if (response.statusCode !== 200) return response;
  return { statusCode: response.json().data?.some((row) => row.id === id) ? 200 : 404 };
}

const ROWS: Row[] = [
  {
    name: 'POST /api/users/invite (company = target)',
    call: (c, t) =>
      c.post('/api/users/invite', {
        company_id: t.companyId,
        email: `${next('inv')}@m.test`,
        role: roleId('read_only'),
      }),
    expect: MANAGERS,
  },
  {
    name: 'GET /api/invitations (the target’s invitation listed)',
    call: async (c, t) =>
      listed(
        await c.get(`/api/invitations?limit=100&q=${encodeURIComponent('@matrix.invite')}`),
        t.invitationId,
      ),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: SUBTREE,
      end_user: OWN_ONLY,
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/invitations/:id/resend',
    call: async (c, _t, fresh) => c.post(`/api/invitations/${(await fresh()).invitationId}/resend`),
    expect: MANAGERS,
  },
  {
    name: 'DELETE /api/invitations/:id',
    call: async (c, _t, fresh) => c.delete(`/api/invitations/${(await fresh()).invitationId}`),
    expect: MANAGERS,
  },
  {
    name: 'PUT /api/users/:id/role',
    call: async (c, _t, fresh) =>
      c.put(`/api/users/${(await fresh()).userId}/role`, { role_id: roleId('end_user') }),
    expect: MANAGERS,
  },
  {
    name: 'POST /api/users/move (a user of the target into Home)',
    call: async (c, _t, fresh) =>
      c.post('/api/users/move', { user_ids: [(await fresh()).userId], company_id: home.id }),
    expect: MANAGERS,
  },
  {
    name: 'POST /api/users/move (a user of Home into the target)',
    call: async (c, t) => {
      const user = await createUser(app, `${next('mover')}@m.test`, 'read_only', home.id);
      return c.post('/api/users/move', { user_ids: [user.id], company_id: t.companyId });
    },
    expect: MANAGERS,
  },
  {
    name: 'GET /api/users/move-logs (a move inside the target listed)',
    call: async (c, t) =>
      listed(await c.get('/api/users/move-logs?limit=100&q=logged'), moveLogOf[t.companyId]!),
    expect: {
      super_admin: 'ok',
      admin: SUBTREE,
      readonly_admin: SUBTREE,
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'PUT /api/users/:id/role with the system administrator role',
    call: async (c, _t, fresh) =>
      c.put(`/api/users/${(await fresh()).userId}/role`, { role_id: roleId('super_admin') }),
    // Nobody may give it, not even a super admin (product §6 canInviteRoles); others do not reach or may not.
    expect: {
      super_admin: 'denied',
      admin: { self: 'denied', parent: 'hidden', child: 'denied', sibling: 'hidden', unrelated: 'hidden' },
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  {
    name: 'POST /api/distributors/invitations',
    call: (c) => c.post('/api/distributors/invitations', { email: `${next('dist')}@m.test` }),
    expect: {
      super_admin: 'ok',
      admin: 'ok',
      readonly_admin: 'denied',
      end_user: 'denied',
      read_only: 'denied',
    },
  },
  { name: 'GET /api/mail-logs', call: (c) => c.get('/api/mail-logs'), expect: SUPER_ONLY },
  { name: 'GET /api/email-smtp', call: (c) => c.get('/api/email-smtp'), expect: SUPER_ONLY },
  { name: 'GET /api/suppressed-emails', call: (c) => c.get('/api/suppressed-emails'), expect: SUPER_ONLY },
  {
    name: 'POST /api/admin/users/sso (a user of the target)',
    call: async (c, _t, fresh) => {
      const [user] = await app.db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, (await fresh()).userId));
      return c.post('/api/admin/users/sso', { email: user!.email });
    },
    expect: SUPER_ONLY,
  },
];

let app: FastifyInstance;
let home: { id: number };
let superAdminId: number;
const targets = {} as Record<Relation, Target>;
const companyOf = {} as Record<Relation, number>;
const moveLogOf: Record<number, number> = {};
const clients = {} as Record<RoleName, TestClient>;

async function targetIn(companyId: number): Promise<Target> {
  const user = await createUser(app, `${next('t')}@matrix.test`, 'read_only', companyId);
  const [invitation] = await app.db
    .insert(invitations)
    .values({
      kind: 'user',
      email: `${next('i')}@matrix.invite`,
      companyId,
      roleId: roleId('read_only'),
      tokenHash: digest(newToken()),
      invitedBy: superAdminId,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: invitations.id });
  return { companyId, userId: user.id, invitationId: invitation!.id };
}

/** Home and Root are used as they are; below, beside and far from Home a fresh company per call. */
async function freshTarget(relation: Relation): Promise<Target> {
  if (relation === 'self' || relation === 'parent') return targetIn(companyOf[relation]);
  const company = await createCompany(app, next('Fresh '), companyOf[relation]);
  return targetIn(company.id);
}

beforeAll(async () => {
  app = await buildTestApp();
  const [sa] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN_EMAIL));
  superAdminId = sa!.id;
  Object.assign(companyOf, await matrixTree(app));
  home = { id: companyOf.self };
  for (const relation of RELATIONS) {
    targets[relation] = await targetIn(companyOf[relation]);
    const [log] = await app.db
      .insert(userMoveLogs)
      .values({
        userEmail: `logged${unique}@m.test`,
        fromCompanyId: companyOf[relation],
        toCompanyId: companyOf[relation],
      })
      .returning({ id: userMoveLogs.id });
    moveLogOf[companyOf[relation]] = log!.id;
  }
  Object.assign(clients, await matrixCallers(app, home.id, 'caller.test'));
});
afterAll(() => app.close());

describeMatrix('policy matrix: role × relation × users, invitations and mail routes', ROWS, {
  clients,
  targets,
  fresh: freshTarget,
});

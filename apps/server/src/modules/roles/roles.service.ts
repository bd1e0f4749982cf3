import type { Permission } from '@fleetgate/shared/permissions';
import { invitableRoles } from '@fleetgate/shared/roles';
import type { Db } from '../../db/database';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import type { AuthContext } from '../../plugins/auth';
import { type AuditEntry, audited, auditIdentity } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { rolesRepository } from './roles.repository';

type Ctx = { db: Db; auth: AuthContext; ip: string };

/**
 * A role may grant only what its author holds: nobody builds a role above their own, and
 * `super_admin` stays with the super admins (issue 4: "inviting a role above your own").
 */
export function assertGrantable(auth: AuthContext, permissions: readonly string[]): void {
  const held = new Set(auth.principal.permissions);
  const beyond = permissions.filter((p) => !held.has(p) || (p === 'super_admin' && !held.has('super_admin')));
  if (beyond.length) throw forbidden(`You cannot grant permissions you do not hold: ${beyond.join(', ')}`);
}

export function presentRole(role: NonNullable<Awaited<ReturnType<typeof rolesRepository.find>>>) {
  return { ...role, canInviteRoles: [...invitableRoles(role.name)] };
}

const auditEntry = (
  ctx: Ctx,
  action: string,
  roleId: number,
  companyId: number | null,
  details?: Record<string, unknown>,
): AuditEntry => ({
  action,
  ...auditIdentity(ctx.auth),
  companyId,
  targetType: 'role',
  targetId: roleId,
  details,
  ip: ctx.ip,
});

/** Custom roles of a company (spec §2 users.roles); the five default roles are read-only. */
export const rolesService = {
  async get(ctx: Ctx, id: number) {
    const role = await rolesRepository.find(ctx.db, scopeOf(ctx.auth), id);
    if (!role) throw notFound('Role');
    return { ...presentRole(role), permissions: await rolesRepository.permissionsOf(ctx.db, id) };
  },

  async create(
    ctx: Ctx,
    input: {
      company_id: number;
      name: string;
      title: string;
      description: string;
      permissions: Permission[];
    },
  ) {
    const company = await companyInScope(ctx.db, scopeOf(ctx.auth), input.company_id);
    if (!company) throw notFound('Company');
    assertGrantable(ctx.auth, input.permissions);
    if (await rolesRepository.nameTaken(ctx.db, company.id, input.name))
      throw conflict('A role with this name already exists', 'name');
    const id = await audited(
      ctx.db,
      (tx) => rolesRepository.create(tx, { companyId: company.id, ...input }),
      (created) =>
        auditEntry(ctx, 'role.create', created, company.id, {
          name: input.name,
          permissions: input.permissions,
        }),
    );
    return this.get(ctx, id);
  },

  async update(
    ctx: Ctx,
    id: number,
    input: { name?: string; title?: string; description?: string; permissions?: Permission[] },
  ) {
    const role = await rolesRepository.find(ctx.db, scopeOf(ctx.auth), id);
    if (!role) throw notFound('Role');
    if (role.company_id === null) throw badRequest('Default roles cannot be changed');
    if (input.permissions) assertGrantable(ctx.auth, input.permissions);
    if (input.name && (await rolesRepository.nameTaken(ctx.db, role.company_id, input.name, id))) {
      throw conflict('A role with this name already exists', 'name');
    }
    await audited(
      ctx.db,
      (tx) => rolesRepository.update(tx, id, input),
      () => auditEntry(ctx, 'role.update', id, role.company_id, input),
    );
    return this.get(ctx, id);
  },

  async remove(ctx: Ctx, id: number) {
    const role = await rolesRepository.find(ctx.db, scopeOf(ctx.auth), id);
    if (!role) throw notFound('Role');
    if (role.company_id === null) throw badRequest('Default roles cannot be removed');
    const holders = await rolesRepository.holders(ctx.db, id);
    if (holders)
      throw conflict(
        `${holders} ${holders === 1 ? 'user holds' : 'users hold'} this role. Give them another role first.`,
      );
    await audited(
      ctx.db,
      (tx) => rolesRepository.remove(tx, id),
      () => auditEntry(ctx, 'role.delete', id, role.company_id, { name: role.name }),
    );
  },
};

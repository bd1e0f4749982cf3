import type { Permission } from '@fleetgate/shared/permissions';
import { badRequest, conflict, notFound } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { assertGrantable } from './roles.policy';
import { rolesRepository } from './roles.repository';

const auditEntry = (
  ctx: ServiceContext,
  action: string,
  roleId: number,
  companyId: number | null,
  details?: Record<string, unknown>,
) => callerAudit(ctx, { action, companyId, targetType: 'role', targetId: roleId, details });

async function reachable(ctx: ServiceContext, id: number) {
  const role = await rolesRepository.find(ctx.db, scopeOf(ctx.caller), id);
  if (!role) throw notFound('Role');
  return role;
}

/**
 * Roles (product §2 users.roles, §3 Role): the default roles, read-only, and the custom roles
 * of the companies in reach.
 */
export const rolesService = {
  /** product §7 GET /roles: a company's options are the default roles plus its own. */
  list(
    ctx: ServiceContext,
    filter: { companyId?: number; type?: 'custom' | 'default'; limit: number; offset: number },
  ) {
    return rolesRepository.list(ctx.db, scopeOf(ctx.caller), filter);
  },

  /** A role with its permissions. */
  async get(ctx: ServiceContext, id: number) {
    const role = await reachable(ctx, id);
    return { ...role, permissions: await rolesRepository.permissionsOf(ctx.db, id) };
  },

  async create(
    ctx: ServiceContext,
    input: {
      company_id: number;
      name: string;
      title: string;
      description: string;
      permissions: Permission[];
    },
  ) {
    const company = await companyInScope(ctx.db, scopeOf(ctx.caller), input.company_id);
    if (!company) throw notFound('Company');
    assertGrantable(ctx.caller, input.permissions);
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
    ctx: ServiceContext,
    id: number,
    input: { name?: string; title?: string; description?: string; permissions?: Permission[] },
  ) {
    const role = await reachable(ctx, id);
    if (role.company_id === null) throw badRequest('Default roles cannot be changed');
    if (input.permissions) assertGrantable(ctx.caller, input.permissions);
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

  /** Only a custom role nobody holds. */
  async remove(ctx: ServiceContext, id: number) {
    const role = await reachable(ctx, id);
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

import { invitableRoles } from '@fleetgate/shared/roles';
import { AppError } from '#src/http/errors';
import { scopeOf } from '../policy/scope';
import { assertGrantable } from '../roles/roles.policy';
import { rolesRepository } from '../roles/roles.repository';
import type { ServiceContext } from '../service-context';

/**
 * Who may give which role to a user of a company (product §3 newUser, §6 canInviteRoles; the
 * rule that nobody invites a role above their own). The role must be
 * - a default role the caller's role may invite (a role unknown to product §6's list counts
 *   as admin), or a custom role of that very company; and
 * - made only of permissions the caller holds (the no-escalation rule of roles).
 * A custom role of another tenant is not found (404), like any other foreign id.
 */
export async function assignableRole(
  ctx: ServiceContext,
  roleId: number,
  companyId: number,
  source = 'role',
) {
  const role = await rolesRepository.find(ctx.db, scopeOf(ctx.caller), roleId);
  if (!role) throw AppError.of(404, 'NOT_FOUND', 'Role not found', source);
  if (role.company_id !== null && role.company_id !== companyId) {
    throw AppError.of(400, 'VALIDATION_ERROR', 'This role belongs to another company', source);
  }
  if (role.company_id === null && !invitableRoles(ctx.caller.principal.role.name).includes(role.name)) {
    throw AppError.of(403, 'FORBIDDEN', `You cannot give users the role ${role.title}`, source);
  }
  const permissions = await rolesRepository.permissionsOf(ctx.db, role.id);
  try {
    assertGrantable(ctx.caller, permissions);
  } catch {
    throw AppError.of(403, 'FORBIDDEN', `The role ${role.title} is above your own`, source);
  }
  return role;
}

/**
 * A user whose role holds permissions the caller lacks is above the caller: their role
 * is not changed, nor are they moved, by someone below them.
 */
export async function assertNotAbove(ctx: ServiceContext, roleId: number, email: string): Promise<void> {
  const permissions = await rolesRepository.permissionsOf(ctx.db, roleId);
  try {
    assertGrantable(ctx.caller, permissions);
  } catch {
    throw AppError.of(403, 'FORBIDDEN', `${email} has a role above your own`);
  }
}

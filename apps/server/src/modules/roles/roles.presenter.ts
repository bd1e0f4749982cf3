import { invitableRoles } from '@fleetgate/shared/roles';
import type { Role, RoleWithPermissions } from '@fleetgate/shared/schemas/roles';
import type { RoleRow } from './roles.repository';

/** A role as the API answers it, with the default roles its holders may invite (product §6 canInviteRoles). */
export function presentRole(role: NonNullable<RoleRow>): Role {
  return { ...role, canInviteRoles: [...invitableRoles(role.name)] };
}

/** A role with the permissions it grants (the role page and what a change answers). */
export function presentRoleWithPermissions(
  role: NonNullable<RoleRow> & { permissions: string[] },
): RoleWithPermissions {
  return { ...presentRole(role), permissions: role.permissions };
}

import { invitableRoles } from '@fleetgate/shared/roles';
import type { RoleRow } from './roles.repository';

/** A role as the API answers it, with the default roles its holders may invite (product §6 canInviteRoles). */
export function presentRole<T extends NonNullable<RoleRow>>(role: T) {
  return { ...role, canInviteRoles: [...invitableRoles(role.name)] };
}

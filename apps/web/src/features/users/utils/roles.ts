import { ROLE_TITLE_DISPLAY_LIMIT } from '@fleetgate/shared/constants';
import { invitableRoles } from '@fleetgate/shared/roles';
import type { Role } from '@fleetgate/shared/schemas/roles';

/** A role title as selectors show it: at most 45 characters (spec §3 newUser, §9). */
export function cutRoleTitle(title: string, limit = ROLE_TITLE_DISPLAY_LIMIT): string {
  const chars = [...title];
  return chars.length > limit ? `${chars.slice(0, limit - 1).join('')}…` : title;
}

/**
 * The role options of a company for a caller (spec §3 newUser): the default roles the
 * caller's role may invite (spec §6 canInviteRoles, unknown roles counting as admin) and
 * the company's own custom roles. The server decides again; this keeps the list honest.
 */
export function roleOptions(roles: readonly Role[], callerRoleName: string, companyId: number) {
  const invitable = invitableRoles(callerRoleName);
  return roles
    .filter((role) =>
      role.company_id === null ? invitable.includes(role.name) : role.company_id === companyId,
    )
    .map((role) => ({ value: String(role.id), label: cutRoleTitle(role.title) }));
}

import { invitableRoles } from '@fleetgate/shared/roles';
import type { Role } from '@fleetgate/shared/schemas/roles';
import { shownRoleTitle } from '#src/i18n/role-titles';

/**
 * The role options of a company for a caller (product §3 newUser): the default roles the
 * caller's role may invite (product §6 canInviteRoles, unknown roles counting as admin) and
 * the company's own custom roles. The server decides again; this keeps the list honest.
 */
export function roleOptions(roles: readonly Role[], callerRoleName: string, companyId: number) {
  const invitable = invitableRoles(callerRoleName);
  return roles
    .filter((role) =>
      role.company_id === null ? invitable.includes(role.name) : role.company_id === companyId,
    )
    .map((role) => ({ value: String(role.id), label: shownRoleTitle(role.title) }));
}

import type { Permission } from '@fleetgate/shared/permissions';
import { DEFAULT_ROLES, type RoleName } from '@fleetgate/shared/roles';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';

/** The company of the tests' users unless they name another: Acme, level 2. */
const ACME: CurrentUser['company'] = { id: 2, parent_id: 1, name: 'Acme', level: 2, show_payment: false };

/**
 * A signed-in user for component tests: a default role with its title and rights (or the
 * `permissions` given), in Acme or the `company` given.
 */
export function testUser(
  role: RoleName,
  options: { permissions?: readonly Permission[]; company?: CurrentUser['company'] } = {},
): CurrentUser {
  const r = DEFAULT_ROLES.find((d) => d.name === role)!;
  const company = options.company ?? ACME;
  return {
    id: 5,
    username: 'someone',
    email: 'someone@fleetgate.test',
    avatar_url: null,
    company,
    company_id: company.id,
    company_name: company.name,
    role: { id: r.id, name: r.name, title: r.title },
    role_id: r.id,
    role_title: r.title,
    tos_accepted: true,
    mfa_type: null,
    exp: 0,
    permissions: [...(options.permissions ?? r.permissions)],
    token: { actor: false, actor_user: null },
    impersonation_access_limit: null,
    isImpersonating: false,
    show_payment: false,
    show_payment_control: false,
    country_iso_code: null,
    session: null,
  };
}

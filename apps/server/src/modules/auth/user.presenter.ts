import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import type { AuthContext } from '#src/plugins/auth';

/**
 * The current user of product §3, from the request's session. `impersonationLimit` is the end
 * of the impersonation access the user granted (product §3 impersonation_access_limit).
 */
export function presentCurrentUser(
  { session, principal, actor, token }: AuthContext,
  impersonationLimit: Date | null = null,
  idleMinutes = 0,
): CurrentUser {
  const { company, role } = principal;
  // The buy link is for companies that buy their resources; a company supplied free never sees it.
  const showPayment = company.showPayment && company.paymentType === 'paid';
  return {
    id: principal.id,
    username: principal.username,
    email: principal.email,
    avatar_url: principal.avatarUrl,
    company: {
      id: company.id,
      parent_id: company.parentId,
      name: company.name,
      level: company.level,
      show_payment: showPayment,
    },
    company_id: company.id,
    company_name: company.name,
    role: { id: role.id, name: role.name, title: role.title },
    role_id: role.id,
    role_title: role.title,
    tos_accepted: principal.tosAccepted,
    mfa_type: principal.mfaType,
    exp: Math.floor(session.accessExpiresAt.getTime() / 1000),
    permissions: principal.permissions,
    token: { actor: actor !== null, actor_user: actor ? { id: actor.id, email: actor.email } : null },
    impersonation_access_limit: impersonationLimit?.toISOString() ?? null,
    isImpersonating: actor !== null,
    show_payment: showPayment,
    // Payment control is shown to level 1 companies (product §6).
    show_payment_control: company.level === 1,
    country_iso_code: principal.countryIsoCode,
    session: token ? null : { expires_at: session.expiresAt.toISOString(), idle_minutes: idleMinutes },
  };
}

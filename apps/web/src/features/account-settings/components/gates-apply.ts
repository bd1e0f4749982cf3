import type { CurrentUser } from '@fleetgate/shared/schemas/auth';

/**
 * Whether the account gates (AccountGates.tsx) have anything to do for this user: the data
 * agreement is not yet accepted (asked, or accepted silently for a brand other than the
 * default), or the username is the e-mail address ('Please enter your email address').
 * Neither applies to the support person acting as a user. When nothing applies the gates
 * draw nothing, so their code is not loaded at all.
 */
export function gatesApply(user: CurrentUser): boolean {
  if (user.isImpersonating) return false;
  return !user.tos_accepted || user.username.toLowerCase() === user.email.toLowerCase();
}

import { AppError } from '#src/http/errors';

/** The blocking conditions of product §6 a signed-in user can be in (NOT_INVITED_EXTERNAL_USER never has a session). */
export type AccountBlock = 'EMAIL_NOT_VERIFIED' | 'MFA_MANDATORY';

export const BLOCK_MESSAGES: Record<AccountBlock, string> = {
  EMAIL_NOT_VERIFIED: 'Please confirm your email address to continue',
  MFA_MANDATORY: 'Your company requires two-step verification. Set it up to continue',
};

/**
 * Which block applies to a user, if any: an unconfirmed address first, then a missing
 * second step. Read from the principal's own row (users/principal.repository.ts), so no
 * request pays a query of its own for it.
 */
export function accountBlockOf(user: {
  emailVerifiedAt: Date | null;
  mfaType: string | null;
  mfaMandatory: boolean;
}): AccountBlock | null {
  if (!user.emailVerifiedAt) return 'EMAIL_NOT_VERIFIED';
  if (user.mfaMandatory && !user.mfaType) return 'MFA_MANDATORY';
  return null;
}

/** Routes a blocked user may still call: enough to see the notice and get out of it. */
export function allowedWhileBlocked(block: AccountBlock, method: string, routeUrl: string): boolean {
  if (routeUrl.startsWith('/api/auth/')) return true;
  if (routeUrl === '/api/user' && method === 'GET') return true;
  if (routeUrl === '/api/account/user') return true;
  if (block === 'MFA_MANDATORY') {
    return routeUrl === '/api/password-confirmation' || routeUrl.startsWith('/api/user/mfa');
  }
  return false;
}

/** The 403 of a blocking condition; `meta` carries what the notice screen shows (product §8 Session). */
export function blockedError(block: AccountBlock, meta?: Record<string, unknown>): AppError {
  return new AppError(403, [{ code: block, message: BLOCK_MESSAGES[block] }], meta);
}

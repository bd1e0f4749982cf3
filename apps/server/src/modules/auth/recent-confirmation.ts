import type { FastifyRequest } from 'fastify';
import { passwordConfirmationRequired } from '#src/http/errors';
import { requireAuth } from '#src/plugins/access';
import type { AuthContext } from '#src/plugins/auth';

/** How long a typed password counts as fresh for sensitive actions. */
export const RECENT_CONFIRMATION_MS = 10 * 60_000;

function confirmedRecently(auth: AuthContext, now: number): boolean {
  const at = auth.session.passwordConfirmedAt;
  return at !== null && now - at.getTime() <= RECENT_CONFIRMATION_MS;
}

/**
 * A sensitive action needs the password typed within the last 10 minutes: otherwise a 423
 * asks for it (product §4, §8), and POST /password-confirmation checks it against the real
 * person (the actor when impersonating). Personal access tokens never pass: they have no
 * password to confirm.
 */
export function requireRecentConfirmation(request: FastifyRequest, now = Date.now()): AuthContext {
  const auth = requireAuth(request);
  if (auth.token || !confirmedRecently(auth, now)) throw passwordConfirmationRequired();
  return auth;
}

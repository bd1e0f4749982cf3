import { tokenPermissions } from '@fleetgate/shared/scopes';
import { digest } from '#src/auth/tokens';
import type { Db } from '#src/db/database';
import type { SessionRow } from '../auth/sessions.repository';
import type { Principal } from '../users/principal.repository';
import { type ApiTokenRow, tokensRepository } from './tokens.repository';

/** Every personal access token starts with this, so a leaked one is easy to recognise. */
export const TOKEN_PREFIX = 'fgp_';

/** Reads `Authorization: Bearer <token>`; undefined when the header is absent or another scheme. */
export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The live token for a presented secret (last use recorded), or undefined. */
export async function resolveBearer(
  db: Db,
  secret: string,
  now = new Date(),
): Promise<ApiTokenRow | undefined> {
  if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return undefined;
  const token = await tokensRepository.findLiveByHash(db, digest(secret), now);
  if (token) await tokensRepository.touch(db, token, now);
  return token;
}

/** The principal a token acts as: the user, with permissions = user's ∩ scopes' (docs/security.md). */
export function tokenPrincipal(user: Principal, token: ApiTokenRow): Principal {
  return { ...user, permissions: tokenPermissions(user.permissions, token.scopes) };
}

/**
 * A token has no browser session; the request still carries one shaped like it so that
 * code reading `auth.session` works. Its id names the token, it is never stored.
 */
export function tokenSession(token: ApiTokenRow, now: Date): SessionRow {
  const far = token.expiresAt ?? new Date(now.getTime() + 365 * 86_400_000);
  return {
    id: `token:${token.id}`,
    userId: token.userId,
    actorUserId: null,
    accessTokenHash: token.tokenHash,
    accessExpiresAt: far,
    xsrfToken: '',
    expiresAt: far,
    passwordConfirmedAt: null,
    revokedAt: null,
    revokedReason: null,
    userAgent: null,
    ip: null,
    createdAt: token.createdAt,
    lastSeenAt: now,
  };
}

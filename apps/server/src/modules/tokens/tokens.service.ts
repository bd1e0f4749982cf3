import type { createTokenBodySchema } from '@fleetgate/shared/schemas/tokens';
import type { z } from 'zod';
import { digest, newToken } from '#src/auth/tokens';
import { AppError, notFound } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { callerAudit, type ServiceContext } from '../service-context';
import { TOKEN_PREFIX } from './bearer';
import { tokensRepository } from './tokens.repository';

const DAY_MS = 86_400_000;

const auditEntry = (
  ctx: ServiceContext,
  action: string,
  tokenId: number,
  details?: Record<string, unknown>,
) =>
  callerAudit(ctx, {
    action,
    companyId: ctx.caller.principal.company.id,
    targetType: 'api_token',
    targetId: tokenId,
    ...(details ? { details } : {}),
  });

/**
 * Personal access tokens: created with a name, scopes and an optional expiry, shown once,
 * stored as a SHA-256 digest, usable as `Authorization: Bearer` (tokens/bearer.ts). Each
 * user sees and revokes only their own.
 */
export const tokensService = {
  /** The caller's tokens that still work. */
  list(ctx: ServiceContext) {
    return tokensRepository.listLive(ctx.db, ctx.caller.principal.id, new Date());
  },

  /**
   * A new token and its secret, which is never shown again. A token outlives the browser
   * session, so it needs a second step (and the step-up asks for a password, always).
   */
  async create(ctx: ServiceContext, input: z.output<typeof createTokenBodySchema>) {
    const { principal } = ctx.caller;
    if (!principal.mfaType) {
      throw AppError.of(403, 'FORBIDDEN', 'Turn on two-step verification before creating access tokens');
    }
    const now = new Date();
    const secret = `${TOKEN_PREFIX}${newToken()}`;
    const { name, scopes, expires_in_days } = input;
    const row = await audited(
      ctx.db,
      (tx) =>
        tokensRepository.insert(tx, {
          userId: principal.id,
          name,
          tokenHash: digest(secret),
          prefix: secret.slice(0, TOKEN_PREFIX.length + 6),
          scopes,
          createdAt: now,
          expiresAt: expires_in_days === null ? null : new Date(now.getTime() + expires_in_days * DAY_MS),
        }),
      (created) => auditEntry(ctx, 'token.created', created.id, { name, scopes }),
    );
    return { token: row, secret };
  },

  /** Revokes one of the caller's tokens; anyone else's answers 404. */
  async revoke(ctx: ServiceContext, id: number) {
    await audited(
      ctx.db,
      async (tx) => {
        if (!(await tokensRepository.revoke(tx, ctx.caller.principal.id, id, new Date()))) {
          throw notFound('Access token');
        }
      },
      () => auditEntry(ctx, 'token.revoked', id),
    );
  },
};

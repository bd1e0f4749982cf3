import { okBody } from '@fleetgate/shared/schemas/api';
import { apiTokenSchema, createdTokenSchema, createTokenBodySchema } from '@fleetgate/shared/schemas/tokens';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { digest, newToken } from '../../auth/tokens';
import { AppError, notFound } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import { iso } from '../account/links';
import { audited, auditIdentity } from '../audit/audit.service';
import { TOKEN_PREFIX } from './bearer';
import { type ApiTokenRow, tokensRepository } from './tokens.repository';

const DAY_MS = 86_400_000;

function present(row: ApiTokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: iso(row.createdAt)!,
    last_used_at: iso(row.lastUsedAt),
    expires_at: iso(row.expiresAt),
  };
}

/**
 * Personal access tokens (issue 4): created with a name, scopes and an optional expiry,
 * shown once, stored as a SHA-256 digest, usable as `Authorization: Bearer`.
 */
export async function tokensRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];

  r.get(
    '/api/user/tokens',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The user’s personal access tokens',
        response: { 200: okBody(z.array(apiTokenSchema)) },
      },
    },
    async (request) => {
      const rows = await tokensRepository.listLive(app.db, requireAuth(request).principal.id, new Date());
      return { success: true as const, data: rows.map(present), meta: { total: rows.length } };
    },
  );

  r.post(
    '/api/user/tokens',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Create a personal access token (needs two-step verification and a fresh password)',
        body: createTokenBodySchema,
        response: { 200: okBody(createdTokenSchema) },
      },
    },
    async (request) => {
      // A token outlives the browser session: the step-up asks for a password, always.
      const auth = requireAuth(request);
      if (!auth.principal.mfaType) {
        throw AppError.of(403, 'FORBIDDEN', 'Turn on two-step verification before creating access tokens');
      }
      const now = new Date();
      const secret = `${TOKEN_PREFIX}${newToken()}`;
      const { name, scopes, expires_in_days } = request.body;
      const row = await audited(
        app.db,
        (tx) =>
          tokensRepository.insert(tx, {
            userId: auth.principal.id,
            name,
            tokenHash: digest(secret),
            prefix: secret.slice(0, TOKEN_PREFIX.length + 6),
            scopes,
            createdAt: now,
            expiresAt: expires_in_days === null ? null : new Date(now.getTime() + expires_in_days * DAY_MS),
          }),
        (created) => ({
          action: 'token.created',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          targetType: 'api_token',
          targetId: created.id,
          details: { name, scopes },
          ip: request.ip,
        }),
      );
      return {
        success: true as const,
        data: { ...present(row), token: secret },
        message: 'Access token created successfully',
      };
    },
  );

  r.delete(
    '/api/user/tokens/:id',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Revoke one of the user’s tokens',
        params: z.object({ id: z.coerce.number().int().min(1) }),
        response: { 200: okBody(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      await audited(
        app.db,
        async (tx) => {
          if (!(await tokensRepository.revoke(tx, auth.principal.id, request.params.id, new Date()))) {
            throw notFound('Access token');
          }
        },
        () => ({
          action: 'token.revoked',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          targetType: 'api_token',
          targetId: request.params.id,
          ip: request.ip,
        }),
      );
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Access token revoked successfully',
      };
    },
  );
}

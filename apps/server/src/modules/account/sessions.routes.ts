import { accountSessionSchema } from '@fleetgate/shared/schemas/account';
import { okBody } from '@fleetgate/shared/schemas/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import { clearAuthCookies } from '../../plugins/auth';
import { audited, auditIdentity } from '../audit/audit.service';
import { sessionsRepository } from '../auth/sessions.repository';
import { accountRepository } from './account.repository';
import { iso } from './links';

/** Active sessions in account settings: where the user is signed in, and revoking them. */
export async function accountSessionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];

  r.get(
    '/api/user/sessions',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The user’s signed-in browsers (and support sessions acting as the user)',
        response: { 200: okBody(z.array(accountSessionSchema)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await sessionsRepository.listLiveForUser(app.db, auth.principal.id, new Date());
      const actorIds = [...new Set(rows.map((s) => s.actorUserId).filter((id): id is number => id !== null))];
      const emailOf = await accountRepository.emailsOf(app.db, actorIds);
      return {
        success: true as const,
        data: rows.map((s) => ({
          id: s.id,
          user_agent: s.userAgent,
          ip: s.ip,
          created_at: iso(s.createdAt)!,
          last_seen_at: iso(s.lastSeenAt)!,
          expires_at: iso(s.expiresAt)!,
          current: s.id === auth.session.id,
          impersonated_by: s.actorUserId === null ? null : (emailOf.get(s.actorUserId) ?? ''),
        })),
        meta: { total: rows.length },
      };
    },
  );

  r.delete(
    '/api/user/sessions/:id',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Sign one browser out',
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: okBody(z.object({ id: z.string() })) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const ended = await audited(
        app.db,
        async (tx) => {
          const [id] = await sessionsRepository.revokeWhere(
            tx,
            auth.principal.id,
            { only: request.params.id },
            'revoked_by_user',
            new Date(),
          );
          if (!id) throw notFound('Session');
          return id;
        },
        (id) => ({
          action: 'account.session_revoked',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          details: { session: id },
          ip: request.ip,
        }),
      );
      app.realtime.disconnectSession(ended);
      if (ended === auth.session.id) clearAuthCookies(request, reply, app.config.publicUrl);
      return { success: true as const, data: { id: ended }, message: 'Session revoked successfully' };
    },
  );

  r.post(
    '/api/user/sessions/revoke-others',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Sign out every other browser',
        response: { 200: okBody(z.object({ revoked: z.number().int() })) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const ended = await audited(
        app.db,
        (tx) =>
          sessionsRepository.revokeWhere(
            tx,
            auth.principal.id,
            { except: auth.session.id },
            'revoked_by_user',
            new Date(),
          ),
        (ids) => ({
          action: 'account.sessions_revoked',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          details: { count: ids.length },
          ip: request.ip,
        }),
      );
      for (const id of ended) app.realtime.disconnectSession(id);
      return {
        success: true as const,
        data: { revoked: ended.length },
        message: 'Sessions revoked successfully',
      };
    },
  );
}

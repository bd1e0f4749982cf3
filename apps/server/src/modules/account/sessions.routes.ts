import {
  accountSessionSchema,
  sessionRevokedSchema,
  sessionsRevokedSchema,
} from '@fleetgate/shared/schemas/account';
import { okBody } from '@fleetgate/shared/schemas/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearAuthCookies } from '#src/plugins/auth';
import { serviceContext } from '../service-context';
import { presentSession } from './sessions.presenter';
import { sessionsService } from './sessions.service';

/** Active sessions in account settings: where the user is signed in, and revoking them. */
export async function accountSessionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
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
      const context = ctx(request);
      const { sessions, actorEmails } = await sessionsService.list(context);
      const seen = { currentSessionId: context.caller.session.id, actorEmails };
      return {
        success: true as const,
        data: sessions.map((s) => presentSession(s, seen)),
        meta: { total: sessions.length },
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
        response: { 200: okBody(sessionRevokedSchema) },
      },
    },
    async (request, reply) => {
      const context = ctx(request);
      const ended = await sessionsService.revoke(context, request.params.id);
      // Signing this very browser out leaves nothing worth keeping in it.
      if (ended === context.caller.session.id) clearAuthCookies(request, reply, app.config.publicUrl);
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
        response: { 200: okBody(sessionsRevokedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { revoked: await sessionsService.revokeOthers(ctx(request)) },
      message: 'Sessions revoked successfully',
    }),
  );
}

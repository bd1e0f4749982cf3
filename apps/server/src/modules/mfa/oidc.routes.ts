import { okBody } from '@fleetgate/shared/schemas/api';
import {
  authorizationUrlSchema,
  oidcCallbackBodySchema,
  oidcCallbackResultSchema,
  oidcInfoSchema,
} from '@fleetgate/shared/schemas/mfa';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest } from '#src/http/errors';
import { setAuthCookies } from '#src/plugins/auth';
import { clientOf } from '../account/links';
import { publicContext } from '../service-context';
import { oidcUnavailable } from './oidc';
import { oidcService } from './oidc.service';

const SETTINGS_PAGE = '/account/settings/security';

/**
 * Sign-in with the vendor identity service, and vendor ID as a second step (product §1):
 * start (authorisation URL), callback (the console's /account/oidc/callback page posts the
 * query it was sent back with).
 */
export async function oidcRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { oidc } = app.mfa;
  const tags = ['session'];

  r.get(
    '/api/auth/oidc',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Whether sign-in with the vendor identity service is offered',
        response: { 200: okBody(oidcInfoSchema) },
      },
    },
    async () => ({ success: true as const, data: { enabled: oidc.enabled, name: oidc.name } }),
  );

  r.post(
    '/api/auth/oidc/start',
    {
      config: { access: { public: true }, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Start signing in with the vendor identity service',
        response: { 200: okBody(authorizationUrlSchema) },
      },
    },
    async (request, reply) => {
      if (!oidc.enabled) throw oidcUnavailable();
      const { url } = await oidc.start(request, reply, 'signin');
      return { success: true as const, data: { authorization_url: url } };
    },
  );

  r.post(
    '/api/auth/oidc/callback',
    {
      config: { access: { public: true }, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Finish a vendor identity service sign-in with the query it sent back',
        body: oidcCallbackBodySchema,
        response: { 200: okBody(oidcCallbackResultSchema) },
      },
    },
    async (request, reply) => {
      if (!oidc.enabled) throw oidcUnavailable();
      const flow = oidc.flowOf(request);
      if (!flow) {
        throw badRequest('The sign-in took too long or was started in another browser. Please try again.');
      }
      const { search, ...second } = request.body;
      const signIn = await oidcService.finish(publicContext(app, request), {
        flow,
        second,
        caller: request.auth,
        identify: () => oidc.finish(request, flow, search),
        forgetFlow: () => oidc.clear(request, reply),
      });
      if (signIn) {
        const tokens = await app.authService.completeLogin(signIn.userId, clientOf(request), signIn.method);
        setAuthCookies(request, reply, tokens, app.config.publicUrl);
      }
      oidc.clear(request, reply);
      return {
        success: true as const,
        data: { location: signIn ? '/' : SETTINGS_PAGE, purpose: flow.purpose },
      };
    },
  );
}

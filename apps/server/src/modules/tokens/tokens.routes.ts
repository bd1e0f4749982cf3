import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import { apiTokenSchema, createdTokenSchema, createTokenBodySchema } from '@fleetgate/shared/schemas/tokens';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { presentToken } from './tokens.presenter';
import { tokensService } from './tokens.service';

/** Personal access tokens in account settings: the user's own, listed, created and revoked. */
export async function tokensRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
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
      const rows = await tokensService.list(ctx(request));
      return { success: true as const, data: rows.map(presentToken), meta: { total: rows.length } };
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
      const { token, secret } = await tokensService.create(ctx(request), request.body);
      return {
        success: true as const,
        data: { ...presentToken(token), token: secret },
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
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      await tokensService.revoke(ctx(request), request.params.id);
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Access token revoked successfully',
      };
    },
  );
}

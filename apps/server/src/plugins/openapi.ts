import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { APP_VERSION } from '@fleetgate/shared/constants';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * OpenAPI generated from the route schemas, served at /api/docs (JSON at /api/docs/json)
 * without sign-in unless API_DOCS=false: it names no data and nothing the console's own
 * scripts do not (docs/security.md, 'The API description').
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Fleetgate API',
        version: APP_VERSION,
        description:
          'REST API of the Fleetgate console. Browser calls carry X-Requested-With: XMLHttpRequest and, on unsafe methods, X-XSRF-TOKEN. Bodies are `{ success, data, meta?, errors? }`.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'fg_session' },
          token: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal access token (account settings)',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  if (app.config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
}

import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { APP_VERSION } from '@fleetgate/shared/constants';
import { scopesReaching } from '@fleetgate/shared/scopes';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RouteAccess } from './access';
import { tokensMayCall } from './auth';

/** The answer of every refusal: the envelope with `success: false` and its errors. */
const ERROR_ENVELOPE = {
  description:
    'Refused: 400 bad input, 401 not signed in (or an invalid token), 403 not allowed, 404 not found, 409 conflict, 413 body too large, 415 not JSON, 422 a rule of the data, 423 the password must be confirmed first, 429 too many requests.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success', 'errors'],
        properties: {
          success: { type: 'boolean', enum: [false] },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: {
                  type: 'string',
                  examples: ['VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
                },
                message: { type: 'string' },
                source: { type: 'string', description: 'The field the error is about' },
              },
            },
          },
        },
      },
    },
  },
} as const;

/**
 * What the description says of a route's caller: no one for a public route; a signed-in
 * browser or a personal access token, with the scopes that reach the route; the browser
 * alone where tokens are refused (docs/security.md, 'Personal access tokens').
 */
type Requirement = Record<string, string[]>;

function callerOf(
  access: RouteAccess | undefined,
  method: string,
  url: string,
): { security: Requirement[]; note?: string } {
  if (!access || 'public' in access) return { security: [] };
  const tokens = tokensMayCall(access, method, url);
  const permissions = 'permission' in access ? [access.permission].flat() : [];
  const scopes = scopesReaching(permissions);
  const note = !tokens
    ? 'Signed-in browsers only: personal access tokens are refused (403).'
    : permissions.length
      ? `Needs ${'mode' in access && access.mode === 'all' ? 'all' : 'one'} of: ${permissions.join(', ')}.${scopes.length ? ` Token scopes: ${scopes.join(', ')}.` : ' No token scope grants it.'}`
      : 'Any signed-in caller.';
  return { security: tokens ? [{ session: [] }, { token: [] }] : [{ session: [] }], note };
}

/**
 * OpenAPI generated from the route schemas, served at /api/docs (JSON at /api/docs/json)
 * without sign-in unless API_DOCS=false: it names no data and nothing the console's own
 * scripts do not (docs/security.md, 'The API description'). Each operation says who may
 * call it and how a refusal answers.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Fleetgate API',
        version: APP_VERSION,
        description:
          'REST API of the Fleetgate console. Bodies are `{ success, data, meta?, errors? }`. Scripts send `Authorization: Bearer <personal access token>` (account settings, Access tokens) and need nothing else; browsers use the session cookie with X-Requested-With: XMLHttpRequest and, on unsafe methods, X-XSRF-TOKEN.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'fg_session' },
          token: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal access token (account settings, Access tokens)',
          },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const { route, url } = input;
      const method = [route.method].flat()[0] ?? 'GET';
      const { security, note } = callerOf(route.config?.access, method, url);
      const schema = out.schema as Record<string, unknown> & { description?: string; response?: object };
      return {
        ...out,
        schema: {
          ...schema,
          security,
          ...(note ? { description: [schema.description, note].filter(Boolean).join('\n\n') } : {}),
          response: { ...schema.response, '4XX': ERROR_ENVELOPE },
        },
      };
    },
    // Schemas a route refers to by name (a recursive company tree) go in components.
    transformObject: jsonSchemaTransformObject,
  });
  if (app.config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
}

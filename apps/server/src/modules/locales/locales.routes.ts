import { okBody } from '@fleetgate/shared/schemas/api';
import {
  extraLanguageSchema,
  localeCodeSchema,
  localeNamespaceSchema,
  translationFileSchema,
} from '@fleetgate/shared/schemas/locales';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '#src/http/errors';
import { translationFiles } from './locales.files';

/**
 * Further languages from the data directory. Public, like the console's own bundled
 * texts: the sign-in page is translated too, and a translation is no secret.
 */
export async function localesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const files = translationFiles(app.config.dataDir);

  r.get(
    '/api/locales',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['locales'],
        summary: 'Languages added as translation files in DATA_DIR/locales, besides the four bundled ones',
        response: { 200: okBody(z.array(extraLanguageSchema)) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      const languages = await files.languages();
      return { success: true as const, data: languages, meta: { total: languages.length } };
    },
  );

  r.get(
    '/api/locales/:code/:namespace',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['locales'],
        summary: 'One translation file of an added language (keys missing from it show in English)',
        params: z.object({ code: localeCodeSchema, namespace: localeNamespaceSchema }),
        response: { 200: okBody(translationFileSchema) },
      },
    },
    async (request, reply) => {
      const texts = await files.read(request.params.code, request.params.namespace);
      if (!texts) throw notFound('Translation file');
      reply.header('cache-control', 'no-cache');
      return { success: true as const, data: texts };
    },
  );
}

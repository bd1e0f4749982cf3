import { livenessSchema, notReadySchema, readinessSchema } from '@fleetgate/shared/schemas/system';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { databaseAnswers } from '#src/db/maintenance';

/** Liveness and readiness probes, outside /api so that load balancers need no headers. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/healthz',
    { config: { access: { public: true } }, schema: { hide: true, response: { 200: livenessSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  r.get(
    '/readyz',
    {
      config: { access: { public: true } },
      schema: { hide: true, response: { 200: readinessSchema, 503: notReadySchema } },
    },
    async (_request, reply) => {
      if (await databaseAnswers(app.db)) return { status: 'ready' as const, database: app.database.kind };
      return reply.status(503).send({ status: 'unavailable' as const });
    },
  );
}

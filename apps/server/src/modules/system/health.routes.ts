import type { FastifyInstance } from 'fastify';
import { databaseAnswers } from '../../db/maintenance';

/** Liveness and readiness probes, outside /api so that load balancers need no headers. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { config: { access: { public: true } }, schema: { hide: true } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { config: { access: { public: true } }, schema: { hide: true } },
    async (_request, reply) => {
      if (await databaseAnswers(app.db)) return { status: 'ready', database: app.database.kind };
      return reply.status(503).send({ status: 'unavailable' });
    },
  );
}

import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** Liveness and readiness probes, outside /api so that load balancers need no headers. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { config: { access: { public: true } }, schema: { hide: true } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { config: { access: { public: true } }, schema: { hide: true } },
    async (_request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ready', database: app.database.kind };
      } catch {
        return reply.status(503).send({ status: 'unavailable' });
      }
    },
  );
}

import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies as Fastify reads them (prototype and constructor poisoning refused), except
 * that a DELETE's empty body is no body: many HTTP clients send `Content-Type:
 * application/json` on every request, and a delete takes its target from the path.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.method === 'DELETE' && body === '') return done(null, undefined);
    parse(request, String(body), done);
  });
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { SIGN_IN_PATH } from '@fleetgate/shared/routes';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '../http/errors';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

const HASHED = '/assets-static/';
const SIGN_IN_FILE = 'sign-in.html';

/**
 * Serves the built console: hashed assets under /assets-static/ cached for a year,
 * everything else revalidated, the sign-in page with sign-in.html, and any unknown non-API
 * path answered with index.html (history fallback) so the SPA's router decides.
 */
export async function registerSpa(app: FastifyInstance, root = WEB_DIST): Promise<void> {
  const built = existsSync(path.join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: false,
      // The build writes .br and .gz beside each file (apps/web/vite.config.ts); the client's
      // Accept-Encoding picks one, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders(res, filePath) {
        const rel = `/${path.relative(root, filePath).split(path.sep).join('/')}`;
        res.header(
          'cache-control',
          rel.startsWith(HASHED) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn(`the console is not built (${root}); run npm run build`);
  }

  const sendPage = (reply: FastifyReply, file = 'index.html') =>
    reply.header('cache-control', 'no-cache').sendFile(file, root);
  if (built) {
    // The static plugin refuses directories (403); the root of the site is the console itself.
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
    // The sign-in page is a document of its own, without the console's framework and
    // component library (docs/decisions.md, 'A sign-in page of its own').
    app.get(SIGN_IN_PATH, { schema: { hide: true } }, (_request, reply) => sendPage(reply, SIGN_IN_FILE));
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (url.startsWith('/api/') || url === '/api' || url.startsWith(HASHED) || !wantsPage || !built) {
      throw notFound(url.startsWith('/api') ? 'Route' : 'Page');
    }
    return sendPage(reply);
  });
}

import { okBody } from '@fleetgate/shared/schemas/api';
import { webPageBodySchema, webPageLinkSchema } from '@fleetgate/shared/schemas/web-proxy';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serviceContext } from '../service-context';
import { REMOTE_SESSION_PERMISSIONS } from './remote.service';

/**
 * The device web page (product §2 'web UI' dialog; http and https remote entries): a link to
 * the page on the proxy's own origin (web-proxy.ts). Opening it is an action on the device, as
 * a terminal is: view_device_remote_access and manage_devices.
 */
export async function webProxyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/remote/web',
    {
      config: { access: { permission: REMOTE_SESSION_PERMISSIONS, mode: 'all' } },
      schema: {
        tags: ['remote access'],
        summary:
          "Open a device's web page: a single-use link, valid 60 seconds, to the page on the proxy's own origin",
        body: webPageBodySchema,
        response: { 200: okBody(webPageLinkSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.webProxy.link(serviceContext(app, request), request.body),
    }),
  );
}

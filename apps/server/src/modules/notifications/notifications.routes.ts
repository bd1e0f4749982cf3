import { okBody } from '@fleetgate/shared/schemas/api';
import {
  markSeenBodySchema,
  markSeenResultSchema,
  notificationsPageBodySchema,
  notificationsQuerySchema,
  sendNotificationBodySchema,
  sendNotificationResultSchema,
} from '@fleetgate/shared/schemas/notifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serviceContext } from '../service-context';
import { notificationsService } from './notifications.service';

/**
 * Web notifications of product §7: every signed-in user reads and marks their own; the super
 * admin sends them (how operators message customers).
 */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/notifications',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags: ['notifications'],
        summary: "The caller's notifications, newest first, with total and unseen counts",
        querystring: notificationsQuerySchema,
        response: { 200: notificationsPageBodySchema },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const { rows, total, unseen } = await notificationsService.page(
        serviceContext(app, request),
        limit,
        offset,
      );
      return { success: true as const, data: rows, meta: { total, unseen } };
    },
  );

  r.put(
    '/api/notifications',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags: ['notifications'],
        summary: 'Mark notifications seen',
        description:
          "Marks those of the given ids that are the caller's and still unseen. Other ids (another " +
          "user's, already seen, unknown) are left alone without an error: the call is idempotent " +
          'and says nothing about notifications that are not the caller’s. `updated` counts the changed ones.',
        body: markSeenBodySchema,
        response: { 200: okBody(markSeenResultSchema) },
      },
    },
    async (request) => {
      const updated = await notificationsService.markSeen(serviceContext(app, request), request.body.id);
      return { success: true as const, data: { updated } };
    },
  );

  r.post(
    '/api/notifications',
    {
      config: { access: { permission: 'super_admin' } },
      schema: {
        tags: ['notifications'],
        summary: 'Send a notification to a user or to every user of a company subtree',
        body: sendNotificationBodySchema,
        response: { 200: okBody(sendNotificationResultSchema) },
      },
    },
    async (request) => {
      const recipients = await notificationsService.send(serviceContext(app, request), request.body);
      return {
        success: true as const,
        data: { recipients },
        message: 'Notification sent successfully',
      };
    },
  );
}

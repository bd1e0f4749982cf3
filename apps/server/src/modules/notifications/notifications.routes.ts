import { okBody } from '@fleetgate/shared/schemas/api';
import {
  markSeenBodySchema,
  markSeenResultSchema,
  notificationsMetaSchema,
  notificationsQuerySchema,
  sendNotificationBodySchema,
  sendNotificationResultSchema,
  webNotificationSchema,
} from '@fleetgate/shared/schemas/notifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import { auditIdentity, recordAudit } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { usersRepository } from '../users/users.repository';
import { presentNotification } from './notifications.presenter';
import { notificationsRepository } from './notifications.repository';

const listBody = okBody(z.array(webNotificationSchema)).extend({ meta: notificationsMetaSchema });

/**
 * Web notifications of spec §7: every signed-in user reads and marks their own; the super
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
        response: { 200: listBody },
      },
    },
    async (request) => {
      const { rows, total, unseen } = await notificationsRepository.page(
        app.db,
        requireAuth(request).principal.id,
        request.query.limit,
        request.query.offset,
      );
      return { success: true as const, data: rows.map(presentNotification), meta: { total, unseen } };
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
      const updated = await notificationsRepository.markSeen(
        app.db,
        requireAuth(request).principal.id,
        request.body.id,
        new Date(),
      );
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
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      const { type, summary, user_id, company_id } = request.body;
      let target: readonly number[] | { companySubtree: number };
      let companyId: number;
      if (user_id !== undefined) {
        const user = await usersRepository.find(app.db, scope, user_id);
        if (!user) throw notFound('User');
        target = [user.id];
        companyId = user.company_id;
      } else {
        const company = await companyInScope(app.db, scope, company_id!);
        if (!company) throw notFound('Company');
        target = { companySubtree: company.id };
        companyId = company.id;
      }
      const sent = await app.notifications.notify(target, { type, summary });
      await recordAudit(app.db, {
        action: 'notification.send',
        ...auditIdentity(auth),
        companyId,
        targetType: user_id !== undefined ? 'user' : 'company',
        targetId: user_id ?? company_id,
        details: { type, summary, recipients: sent.length },
        ip: request.ip,
      });
      return {
        success: true as const,
        data: { recipients: sent.length },
        message: 'Notification sent successfully',
      };
    },
  );
}

import type { NotificationType } from '@fleetgate/shared/schemas/notifications';
import { notFound } from '#src/http/errors';
import { recordAudit } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { usersRepository } from '../users/users.repository';
import { presentNotification } from './notifications.presenter';
import { notificationsRepository } from './notifications.repository';

/** The caller's notifications (product §7), and the super admin's sending of them. */
export const notificationsService = {
  async page(ctx: ServiceContext, limit: number, offset: number) {
    const { rows, total, unseen } = await notificationsRepository.page(
      ctx.db,
      ctx.caller.principal.id,
      limit,
      offset,
    );
    return { rows: rows.map(presentNotification), total, unseen };
  },

  /** Marks the caller's own unseen ones among `ids`; others are left alone (idempotent). */
  markSeen(ctx: ServiceContext, ids: number[]) {
    return notificationsRepository.markSeen(ctx.db, ctx.caller.principal.id, ids, new Date());
  },

  /** To a user, or to every user of a company subtree, in the caller's reach; answers how many got it. */
  async send(
    ctx: ServiceContext,
    body: {
      type: NotificationType;
      summary: string;
      user_id?: number | undefined;
      company_id?: number | undefined;
    },
  ) {
    const scope = scopeOf(ctx.caller);
    const { type, summary, user_id, company_id } = body;
    let target: readonly number[] | { companySubtree: number };
    let companyId: number;
    if (user_id !== undefined) {
      const user = await usersRepository.find(ctx.db, scope, user_id);
      if (!user) throw notFound('User');
      target = [user.id];
      companyId = user.company_id;
    } else {
      const company = await companyInScope(ctx.db, scope, company_id!);
      if (!company) throw notFound('Company');
      target = { companySubtree: company.id };
      companyId = company.id;
    }
    const sent = await ctx.notifications.notify(target, { type, summary });
    await recordAudit(
      ctx.db,
      callerAudit(ctx, {
        action: 'notification.send',
        companyId,
        targetType: user_id !== undefined ? 'user' : 'company',
        targetId: user_id ?? company_id,
        details: { type, summary, recipients: sent.length },
      }),
    );
    return sent.length;
  },
};

import { notFound } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { sessionsRepository } from '../auth/sessions.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { accountRepository } from './account.repository';

const auditEntry = (ctx: ServiceContext, action: string, details: Record<string, unknown>) =>
  callerAudit(ctx, { action, companyId: ctx.caller.principal.company.id, details });

/**
 * The user's own signed-in browsers (account settings), and support sessions acting as
 * the user. An ended session's sockets are closed once the change is committed.
 */
export const sessionsService = {
  /** The live sessions, with the addresses of the support people behind impersonations. */
  async list(ctx: ServiceContext) {
    const sessions = await sessionsRepository.listLiveForUser(ctx.db, ctx.caller.principal.id, new Date());
    const actorIds = [
      ...new Set(sessions.map((s) => s.actorUserId).filter((id): id is number => id !== null)),
    ];
    return { sessions, actorEmails: await accountRepository.emailsOf(ctx.db, actorIds) };
  },

  /** Signs one browser out; another user's session, or an ended one, answers 404. */
  async revoke(ctx: ServiceContext, sessionId: string): Promise<string> {
    const ended = await audited(
      ctx.db,
      async (tx) => {
        const [id] = await sessionsRepository.revokeWhere(
          tx,
          ctx.caller.principal.id,
          { only: sessionId },
          'revoked_by_user',
          new Date(),
        );
        if (!id) throw notFound('Session');
        return id;
      },
      (id) => auditEntry(ctx, 'account.session_revoked', { session: id }),
    );
    ctx.realtime.disconnectSession(ended);
    return ended;
  },

  /** Signs out every browser but this one; answers how many. */
  async revokeOthers(ctx: ServiceContext): Promise<number> {
    const ended = await audited(
      ctx.db,
      (tx) =>
        sessionsRepository.revokeWhere(
          tx,
          ctx.caller.principal.id,
          { except: ctx.caller.session.id },
          'revoked_by_user',
          new Date(),
        ),
      (ids) => auditEntry(ctx, 'account.sessions_revoked', { count: ids.length }),
    );
    for (const id of ended) ctx.realtime.disconnectSession(id);
    return ended.length;
  },
};

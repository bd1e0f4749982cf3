import { IMPERSONATION_MAX_DAYS, IMPERSONATION_REQUEST_DAYS } from '@fleetgate/shared/schemas/impersonation';
import { digest, newToken } from '#src/auth/tokens';
import type { Db } from '#src/db/database';
import { AppError, badRequest, forbidden, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { audited } from '../audit/audit.service';
import type { AuthService, ClientInfo, IssuedTokens } from '../auth/auth.service';
import { impersonationRefusal } from '../auth/caller';
import { sessionsRepository } from '../auth/sessions.repository';
import { scopeOf } from '../policy/scope';
import { callerAudit, type ServiceContext } from '../service-context';
import { findPrincipal } from '../users/principal.repository';
import { IMPERSONATION_MAIL_TEMPLATES, impersonationRequestMail } from './impersonation.mails';
import { impersonationRepository } from './impersonation.repository';

const DAY_MS = 86_400_000;
/** A session whose cookies the browser just replaced lives this much longer (sessionsRepository.retire). */
const REPLACED_SESSION_GRACE_MS = 60_000;

/** What opens sessions: the auth service's, so an impersonation's session is like any other. */
export type SessionIssuer = Pick<AuthService, 'startSession'>;

/** The request behind a confirmation link, and where it stands. */
export type RequestInfo = Awaited<ReturnType<typeof impersonationService.requestInfo>>;

/** While impersonating, nobody changes the person's consent: it is theirs alone. */
function assertNotImpersonating(ctx: ServiceContext, what: string): void {
  if (ctx.caller.actor) throw forbidden(`${what} is not possible while impersonating`);
}

/** A grant's end: in the future, at most IMPERSONATION_MAX_DAYS ahead (product §4). */
export function checkUntil(value: string, now: Date): Date {
  const until = new Date(value);
  if (Number.isNaN(until.getTime()) || until.getTime() <= now.getTime() + 60_000) {
    throw badRequest('Choose a time in the future', 'until');
  }
  if (until.getTime() > now.getTime() + IMPERSONATION_MAX_DAYS * DAY_MS + 60_000) {
    throw badRequest(`Access can be granted for at most ${IMPERSONATION_MAX_DAYS} days`, 'until');
  }
  return until;
}

/**
 * Who the caller may impersonate (product §6): the impersonation rule of auth/caller.ts,
 * never while impersonating already. Anyone outside the subtree is answered 404, as
 * every cross-tenant id.
 */
async function impersonable(ctx: ServiceContext, userId: number) {
  if (ctx.caller.actor) throw forbidden('You are impersonating already. Cancel it first.');
  const target = await findPrincipal(ctx.db, userId);
  const refusal = target ? impersonationRefusal(ctx.caller.principal, target) : 'outside';
  if (!target || refusal === 'outside') throw notFound('User');
  if (refusal === 'system_admin') throw forbidden('System administrators cannot be impersonated');
  if (refusal === 'above')
    throw forbidden('You cannot impersonate a user who holds permissions you do not hold');
  if (refusal === 'no_right') throw forbidden();
  return { id: target.id, email: target.email, companyId: target.company.id };
}

/**
 * Ends the user's impersonation sessions at once (grant revoked), on `tx`; answers their
 * ids, whose sockets the caller disconnects once this is committed.
 */
async function endImpersonationsOf(tx: Db, userId: number, now: Date): Promise<string[]> {
  const ended = await sessionsRepository.revokeWhere(
    tx,
    userId,
    { impersonations: true },
    'impersonation_access_revoked',
    now,
  );
  for (const id of ended) await impersonationRepository.endLog(tx, id, now);
  return ended;
}

/** An audit entry about the caller's own consent. */
const consentAudit = (ctx: ServiceContext, action: string, details?: Record<string, unknown>) =>
  callerAudit(ctx, { action, companyId: ctx.caller.principal.company.id, ...(details ? { details } : {}) });

/** Impersonation: consent (grants and requests), sessions acting as another user, and logs. */
export const impersonationService = {
  /** The end of the impersonation access the caller granted; null when none is in force. */
  accessOf(ctx: Pick<ServiceContext, 'caller'>): Date | null {
    const until = ctx.caller.principal.grantedUntil;
    return until && until > new Date() ? until : null;
  },

  /** Grants impersonation access until a time; answers that time. */
  async grant(ctx: ServiceContext, untilText: string) {
    assertNotImpersonating(ctx, 'Granting impersonation access');
    const now = new Date();
    const until = checkUntil(untilText, now);
    await audited(
      ctx.db,
      (tx) => impersonationRepository.grant(tx, ctx.caller.principal.id, until, now),
      () => consentAudit(ctx, 'impersonation.access_granted', { until: until.toISOString() }),
    );
    return until;
  },

  /** product §7 POST /user/revoke-impersonation-access: grants end, running impersonations too. */
  async revoke(ctx: ServiceContext) {
    const now = new Date();
    const userId = ctx.caller.principal.id;
    const ended = await audited(
      ctx.db,
      async (tx) => {
        await impersonationRepository.revokeAll(tx, userId, now);
        return endImpersonationsOf(tx, userId, now);
      },
      () => consentAudit(ctx, 'impersonation.access_revoked'),
    );
    for (const id of ended) ctx.realtime.disconnectSession(id);
  },

  /** An admin asks the user for access; the link is e-mailed (route impersonation.access). */
  async request(ctx: ServiceContext, userId: number) {
    const target = await impersonable(ctx, userId);
    const { principal } = ctx.caller;
    const now = new Date();
    const token = newToken();
    const expiresAt = new Date(now.getTime() + IMPERSONATION_REQUEST_DAYS * DAY_MS);
    await audited(
      ctx.db,
      (tx) =>
        impersonationRepository.insertRequest(tx, {
          userId: target.id,
          requestedBy: principal.id,
          tokenHash: digest(token),
          expiresAt,
          now,
        }),
      () =>
        callerAudit(ctx, {
          action: 'impersonation.access_requested',
          companyId: target.companyId,
          targetType: 'user',
          targetId: target.id,
        }),
    );
    const mail = impersonationRequestMail({
      appName: await ctx.mail.appName(),
      requester: principal.email,
      requesterCompany: principal.company.name,
      url: `${ctx.baseUrl}/users/confirm-impersonation-access/${token}`,
      expiresAt,
    });
    await ctx.mail.send({
      to: target.email,
      template: IMPERSONATION_MAIL_TEMPLATES.request,
      ...mail,
      companyId: target.companyId,
    });
  },

  /** The request behind a link, for the user it was sent to only (anyone else: 404). */
  async requestInfo(ctx: ServiceContext, token: string) {
    const found = await impersonationRepository.requestByToken(ctx.db, digest(token));
    if (!found || found.grant.userId !== ctx.caller.principal.id) throw notFound('Request');
    const { grant } = found;
    const now = new Date();
    const status = grant.confirmedAt
      ? 'confirmed'
      : grant.revokedAt
        ? 'declined'
        : (grant.requestExpiresAt?.getTime() ?? 0) <= now.getTime()
          ? 'expired'
          : 'pending';
    return { found, status } as const;
  },

  /** Confirms a pending request until a time, or declines it (`untilText` null). */
  async answer(ctx: ServiceContext, token: string, untilText: string | null) {
    assertNotImpersonating(ctx, 'Answering an impersonation request');
    const { found, status } = await this.requestInfo(ctx, token);
    if (status !== 'pending') throw AppError.of(409, 'CONFLICT', `This request is ${status} already`);
    const now = new Date();
    const until = untilText === null ? null : checkUntil(untilText, now);
    await audited(
      ctx.db,
      async (tx) => {
        const done = await impersonationRepository.answerRequest(
          tx,
          found.grant.id,
          ctx.caller.principal.id,
          until,
          now,
        );
        if (!done) throw AppError.of(409, 'CONFLICT', 'This request was answered already');
      },
      () =>
        consentAudit(
          ctx,
          until ? 'impersonation.access_granted' : 'impersonation.request_declined',
          until
            ? { until: until.toISOString(), requested_by: found.requestedBy }
            : { requested_by: found.requestedBy },
        ),
    );
    return until;
  },

  /**
   * Starts acting as the user: a new session whose actor is the real person, capped at
   * the grant's end; the actor's own session ends (cancel gives them a fresh one).
   */
  async start(
    ctx: ServiceContext,
    userId: number,
    client: ClientInfo,
    sessions: SessionIssuer,
  ): Promise<IssuedTokens> {
    const target = await impersonable(ctx, userId);
    const { principal, session } = ctx.caller;
    const now = new Date();
    const grant = await impersonationRepository.activeGrant(ctx.db, target.id, now);
    if (!grant?.grantedUntil) throw forbidden('This user has not granted impersonation access');
    const tokens = await sessions.startSession(target.id, principal.id, client, grant.grantedUntil);
    await audited(
      ctx.db,
      async (tx) => {
        // The actor's own session ends: the browser now holds the impersonation's cookies.
        await sessionsRepository.retire(tx, session.id, new Date(now.getTime() + REPLACED_SESSION_GRACE_MS));
        await impersonationRepository.insertLog(tx, {
          actorUserId: principal.id,
          actorEmail: principal.email,
          subjectUserId: target.id,
          subjectEmail: target.email,
          subjectCompanyId: target.companyId,
          sessionId: tokens.sessionId,
          startedAt: now,
        });
      },
      // The actor is not impersonating yet: the entry names them and the user they now act as.
      () => ({
        action: 'impersonation.started',
        actorUserId: principal.id,
        subjectUserId: target.id,
        companyId: target.companyId,
        targetType: 'user',
        targetId: target.id,
        ip: ctx.address,
      }),
    );
    ctx.realtime.disconnectSession(session.id);
    return tokens;
  },

  /** product §4: cancelling ends the impersonation and gives the actor a fresh session of their own. */
  async cancel(ctx: ServiceContext, client: ClientInfo, sessions: SessionIssuer): Promise<IssuedTokens> {
    const { actor, session } = ctx.caller;
    if (!actor) throw AppError.of(409, 'CONFLICT', 'You are not impersonating anyone');
    const now = new Date();
    await audited(
      ctx.db,
      async (tx) => {
        // Ends now in the log; the cookies the browser is swapping out stop working a minute later.
        await sessionsRepository.retire(tx, session.id, new Date(now.getTime() + REPLACED_SESSION_GRACE_MS));
        await impersonationRepository.endLog(tx, session.id, now);
      },
      () => consentAudit(ctx, 'impersonation.cancelled'),
    );
    ctx.realtime.disconnectSession(session.id);
    return sessions.startSession(actor.id, null, client);
  },

  /** Logs of the users the caller reaches: actor, subject, start, end. */
  logs(ctx: ServiceContext, query: ListQuery) {
    return impersonationRepository.listLogs(ctx.db, scopeOf(ctx.caller), query, new Date());
  },

  /** Users the caller may impersonate or ask for access: strictly below their company. */
  candidates(ctx: ServiceContext, q: string | undefined, limit: number) {
    const { principal } = ctx.caller;
    return impersonationRepository.candidates(
      ctx.db,
      principal.company.path,
      principal.permissions,
      q,
      limit,
      new Date(),
    );
  },
};

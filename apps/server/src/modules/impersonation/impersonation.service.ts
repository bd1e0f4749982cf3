import { IMPERSONATION_MAX_DAYS, IMPERSONATION_REQUEST_DAYS } from '@fleetgate/shared/schemas/impersonation';
import type { FastifyInstance } from 'fastify';
import { digest, newToken } from '../../auth/tokens';
import type { Db } from '../../db/database';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors';
import type { AuthContext } from '../../plugins/auth';
import { audited, auditIdentity } from '../audit/audit.service';
import type { ClientInfo, IssuedTokens } from '../auth/auth.service';
import { impersonationRefusal } from '../auth/caller';
import { sessionsRepository } from '../auth/sessions.repository';
import { findPrincipal } from '../users/principal.repository';
import { IMPERSONATION_MAIL_TEMPLATES, impersonationRequestMail } from './impersonation.mails';
import { impersonationRepository } from './impersonation.repository';

const DAY_MS = 86_400_000;
/** A session whose cookies the browser just replaced lives this much longer (sessionsRepository.retire). */
const REPLACED_SESSION_GRACE_MS = 60_000;

/** While impersonating, nobody changes the person's consent: it is theirs alone. */
function assertNotImpersonating(auth: AuthContext, what: string): void {
  if (auth.actor) throw forbidden(`${what} is not possible while impersonating`);
}

/** A grant's end: in the future, at most IMPERSONATION_MAX_DAYS ahead (issue 4). */
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
 * Who the caller may impersonate (spec §6): the impersonation rule of auth/caller.ts,
 * never while impersonating already. Anyone outside the subtree is answered 404, as
 * every cross-tenant id.
 */
async function impersonable(app: FastifyInstance, auth: AuthContext, userId: number) {
  if (auth.actor) throw forbidden('You are impersonating already. Cancel it first.');
  const target = await findPrincipal(app.db, userId);
  const refusal = target ? impersonationRefusal(auth.principal, target) : 'outside';
  if (!target || refusal === 'outside') throw notFound('User');
  if (refusal === 'system_admin') throw forbidden('System administrators cannot be impersonated');
  if (refusal === 'above')
    throw forbidden('You cannot impersonate a user who holds permissions you do not hold');
  if (refusal === 'no_right') throw forbidden();
  return { id: target.id, email: target.email, companyId: target.company.id };
}

/** Impersonation: consent (grants and requests), sessions acting as another user, and logs. */
export function createImpersonationService(app: FastifyInstance) {
  const { db } = app;

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

  /** The request behind a link, for the user it was sent to only (anyone else: 404). */
  async function requestInfo(auth: AuthContext, token: string) {
    const found = await impersonationRepository.requestByToken(db, digest(token));
    if (!found || found.grant.userId !== auth.principal.id) throw notFound('Request');
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
  }

  return {
    requestInfo,

    async accessOf(auth: AuthContext) {
      const grant = await impersonationRepository.activeGrant(db, auth.principal.id, new Date());
      return grant?.grantedUntil ?? null;
    },

    async grant(auth: AuthContext, untilText: string, ip: string) {
      assertNotImpersonating(auth, 'Granting impersonation access');
      const now = new Date();
      const until = checkUntil(untilText, now);
      await audited(
        db,
        (tx) => impersonationRepository.grant(tx, auth.principal.id, until, now),
        () => ({
          action: 'impersonation.access_granted',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          details: { until: until.toISOString() },
          ip,
        }),
      );
      return until;
    },

    /** spec §7 POST /user/revoke-impersonation-access: grants end, running impersonations too. */
    async revoke(auth: AuthContext, ip: string) {
      const now = new Date();
      const ended = await audited(
        db,
        async (tx) => {
          await impersonationRepository.revokeAll(tx, auth.principal.id, now);
          return endImpersonationsOf(tx, auth.principal.id, now);
        },
        () => ({
          action: 'impersonation.access_revoked',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          ip,
        }),
      );
      for (const id of ended) app.realtime.disconnectSession(id);
    },

    /** An admin asks the user for access; the link is e-mailed (route impersonation.access). */
    async request(auth: AuthContext, userId: number, baseUrl: string, ip: string) {
      const target = await impersonable(app, auth, userId);
      const now = new Date();
      const token = newToken();
      const expiresAt = new Date(now.getTime() + IMPERSONATION_REQUEST_DAYS * DAY_MS);
      await audited(
        db,
        (tx) =>
          impersonationRepository.insertRequest(tx, {
            userId: target.id,
            requestedBy: auth.principal.id,
            tokenHash: digest(token),
            expiresAt,
            now,
          }),
        () => ({
          action: 'impersonation.access_requested',
          ...auditIdentity(auth),
          companyId: target.companyId,
          targetType: 'user',
          targetId: target.id,
          ip,
        }),
      );
      const mail = impersonationRequestMail({
        appName: await app.mail.appName(),
        requester: auth.principal.email,
        requesterCompany: auth.principal.company.name,
        url: `${baseUrl}/users/confirm-impersonation-access/${token}`,
        expiresAt,
      });
      await app.mail.send({
        to: target.email,
        template: IMPERSONATION_MAIL_TEMPLATES.request,
        ...mail,
        companyId: target.companyId,
      });
    },

    async answer(auth: AuthContext, token: string, untilText: string | null, ip: string) {
      assertNotImpersonating(auth, 'Answering an impersonation request');
      const { found, status } = await requestInfo(auth, token);
      if (status !== 'pending') throw AppError.of(409, 'CONFLICT', `This request is ${status} already`);
      const now = new Date();
      const until = untilText === null ? null : checkUntil(untilText, now);
      await audited(
        db,
        async (tx) => {
          const done = await impersonationRepository.answerRequest(
            tx,
            found.grant.id,
            auth.principal.id,
            until,
            now,
          );
          if (!done) throw AppError.of(409, 'CONFLICT', 'This request was answered already');
        },
        () => ({
          action: until ? 'impersonation.access_granted' : 'impersonation.request_declined',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          details: until
            ? { until: until.toISOString(), requested_by: found.requestedBy }
            : { requested_by: found.requestedBy },
          ip,
        }),
      );
      return until;
    },

    /**
     * Starts acting as the user: a new session whose actor is the real person, capped at
     * the grant's end; the actor's own session ends (cancel gives them a fresh one).
     */
    async start(auth: AuthContext, userId: number, client: ClientInfo): Promise<IssuedTokens> {
      const target = await impersonable(app, auth, userId);
      const now = new Date();
      const grant = await impersonationRepository.activeGrant(db, target.id, now);
      if (!grant?.grantedUntil) throw forbidden('This user has not granted impersonation access');
      const tokens = await app.authService.startSession(
        target.id,
        auth.principal.id,
        client,
        grant.grantedUntil,
      );
      await audited(
        db,
        async (tx) => {
          // The actor's own session ends: the browser now holds the impersonation's cookies.
          await sessionsRepository.retire(
            tx,
            auth.session.id,
            new Date(now.getTime() + REPLACED_SESSION_GRACE_MS),
          );
          await impersonationRepository.insertLog(tx, {
            actorUserId: auth.principal.id,
            actorEmail: auth.principal.email,
            subjectUserId: target.id,
            subjectEmail: target.email,
            subjectCompanyId: target.companyId,
            sessionId: tokens.sessionId,
            startedAt: now,
          });
        },
        () => ({
          action: 'impersonation.started',
          actorUserId: auth.principal.id,
          subjectUserId: target.id,
          companyId: target.companyId,
          targetType: 'user',
          targetId: target.id,
          ip: client.ip,
        }),
      );
      app.realtime.disconnectSession(auth.session.id);
      return tokens;
    },

    /** spec §4: cancelling ends the impersonation and gives the actor a fresh session of their own. */
    async cancel(auth: AuthContext, client: ClientInfo): Promise<IssuedTokens> {
      if (!auth.actor) throw AppError.of(409, 'CONFLICT', 'You are not impersonating anyone');
      const now = new Date();
      await audited(
        db,
        async (tx) => {
          // Ends now in the log; the cookies the browser is swapping out stop working a minute later.
          await sessionsRepository.retire(
            tx,
            auth.session.id,
            new Date(now.getTime() + REPLACED_SESSION_GRACE_MS),
          );
          await impersonationRepository.endLog(tx, auth.session.id, now);
        },
        () => ({
          action: 'impersonation.cancelled',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          ip: client.ip,
        }),
      );
      app.realtime.disconnectSession(auth.session.id);
      return app.authService.startSession(auth.actor.id, null, client);
    },

    async candidates(auth: AuthContext, q: string | undefined, limit: number) {
      return impersonationRepository.candidates(
        db,
        auth.principal.company.path,
        auth.principal.permissions,
        q,
        limit,
        new Date(),
      );
    },
  };
}

export type ImpersonationService = ReturnType<typeof createImpersonationService>;

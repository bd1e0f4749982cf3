import { randomUUID } from 'node:crypto';
import { verifyPassword } from '../../auth/passwords';
import { digest, newToken } from '../../auth/tokens';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { AppError, unauthorized } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { findPasswordHash, findUserByEmail, recordLogin } from '../users/principal.repository';
import { type SessionRow, sessionsRepository } from './sessions.repository';

export type IssuedTokens = {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  xsrfToken: string;
  accessExpiresAt: Date;
  expiresAt: Date;
};

export type ClientInfo = { ip: string; userAgent: string | undefined };

/** Uniform sign-in failure: the same words whether the e-mail or the password is wrong. */
export const INVALID_CREDENTIALS = 'Invalid email or password';

const minutes = (n: number) => n * 60_000;
const hours = (n: number) => n * 3_600_000;

export function createAuthService(db: Db, config: Config) {
  const accessTtl = minutes(config.accessTtlMinutes);
  const idleTtl = minutes(config.sessionIdleMinutes);
  /** Sessions used before this are idle and over (ASVS V3.3.2). */
  const idleSince = (now: Date) => new Date(now.getTime() - idleTtl);

  /**
   * Opens a session for `userId`; `actorUserId` is the real person when impersonating.
   * `notAfter` caps its life (an impersonation never outlives its grant).
   */
  async function startSession(
    userId: number,
    actorUserId: number | null,
    client: ClientInfo,
    notAfter?: Date,
  ): Promise<IssuedTokens> {
    const now = new Date();
    const cap = notAfter?.getTime() ?? Number.POSITIVE_INFINITY;
    const tokens: IssuedTokens = {
      sessionId: randomUUID(),
      accessToken: newToken(),
      refreshToken: newToken(),
      xsrfToken: newToken(),
      accessExpiresAt: new Date(Math.min(now.getTime() + accessTtl, cap)),
      expiresAt: new Date(Math.min(now.getTime() + hours(config.sessionMaxHours), cap)),
    };
    await sessionsRepository.insert(
      db,
      {
        id: tokens.sessionId,
        userId,
        actorUserId,
        accessTokenHash: digest(tokens.accessToken),
        accessExpiresAt: tokens.accessExpiresAt,
        xsrfToken: tokens.xsrfToken,
        expiresAt: tokens.expiresAt,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 500),
        createdAt: now,
        lastSeenAt: now,
      },
      digest(tokens.refreshToken),
    );
    return tokens;
  }

  /**
   * Checks e-mail and password (spec §7 Session) and answers the user; the same words and
   * the same argon2 work for an unknown e-mail as for a wrong password.
   */
  async function checkCredentials(
    email: string,
    password: string,
    client: ClientInfo,
  ): Promise<{ id: number }> {
    const user = await findUserByEmail(db, email);
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!user || !ok) {
      await recordAudit(db, {
        action: 'auth.login_failed',
        actorUserId: user?.id ?? null,
        details: { email },
        ip: client.ip,
      });
      throw AppError.of(401, 'UNAUTHORIZED', INVALID_CREDENTIALS);
    }
    return { id: user.id };
  }

  /** Opens the session of a user who passed every step of the sign-in. */
  async function completeLogin(
    userId: number,
    client: ClientInfo,
    method = 'password',
  ): Promise<IssuedTokens> {
    const tokens = await startSession(userId, null, client);
    await recordLogin(db, userId, new Date());
    await recordAudit(db, {
      action: 'auth.login',
      actorUserId: userId,
      ...(method === 'password' ? {} : { details: { method } }),
      ip: client.ip,
    });
    return tokens;
  }

  return {
    checkCredentials,
    completeLogin,

    /** Checks e-mail and password; on success opens a session (no second step). */
    async login(email: string, password: string, client: ClientInfo): Promise<IssuedTokens> {
      const user = await checkCredentials(email, password, client);
      return completeLogin(user.id, client);
    },

    startSession,

    /** The live session behind an access token, or undefined; a request counts as use. */
    async resolve(accessToken: string): Promise<SessionRow | undefined> {
      const now = new Date();
      const session = await sessionsRepository.findLiveByAccessHash(
        db,
        digest(accessToken),
        now,
        idleSince(now),
      );
      if (session) await sessionsRepository.touch(db, session, now);
      return session;
    },

    /** A live session by id, without counting as use (a socket's re-check). */
    live(sessionId: string, now = new Date()): Promise<SessionRow | undefined> {
      return sessionsRepository.findLiveById(db, sessionId, now, idleSince(now));
    },

    /** When a live session ends unless it is used again: its expiry, or idleness. */
    endOf(session: Pick<SessionRow, 'expiresAt' | 'lastSeenAt'>): Date {
      return new Date(Math.min(session.expiresAt.getTime(), session.lastSeenAt.getTime() + idleTtl));
    },

    /** SESSION_IDLE_MINUTES, for the console's inactivity warning. */
    idleMinutes: config.sessionIdleMinutes,

    /**
     * Rotates a refresh token. A token presented a second time means it was stolen or
     * replayed: the whole family is revoked and both holders must sign in again.
     */
    async refresh(
      refreshToken: string,
      checkXsrf: (session: SessionRow) => void,
      client: ClientInfo,
    ): Promise<IssuedTokens> {
      const now = new Date();
      const hash = digest(refreshToken);
      const found = await sessionsRepository.findByRefreshHash(db, hash);
      if (!found || found.session.revokedAt || found.session.expiresAt <= now) {
        throw unauthorized('Session expired. Please sign in again.');
      }
      if (found.session.lastSeenAt <= idleSince(now)) {
        await sessionsRepository.revoke(db, found.session.id, 'idle', now);
        throw unauthorized('You were signed out after a period of inactivity. Please sign in again.');
      }
      const { session } = found;
      const revokeFamily = async () => {
        await sessionsRepository.revoke(db, session.id, 'refresh_token_reuse', now);
        await recordAudit(db, {
          action: 'auth.refresh_reuse',
          actorUserId: session.actorUserId ?? session.userId,
          subjectUserId: session.actorUserId ? session.userId : null,
          details: { session: session.id },
          ip: client.ip,
        });
        return unauthorized('Session expired. Please sign in again.');
      };
      // Reuse is judged before anything else: a replayed token revokes the family even
      // when the replay carries a stale XSRF token.
      if (found.usedAt !== null) throw await revokeFamily();
      checkXsrf(session);
      const next = {
        accessToken: newToken(),
        refreshToken: newToken(),
        xsrfToken: newToken(),
        accessExpiresAt: new Date(Math.min(now.getTime() + accessTtl, session.expiresAt.getTime())),
      };
      const rotated = await sessionsRepository.rotate(
        db,
        session.id,
        hash,
        {
          refreshHash: digest(next.refreshToken),
          accessHash: digest(next.accessToken),
          accessExpiresAt: next.accessExpiresAt,
          xsrfToken: next.xsrfToken,
        },
        now,
      );
      // Lost a race with another refresh of the same token: that is reuse too.
      if (!rotated) throw await revokeFamily();
      return { sessionId: session.id, ...next, expiresAt: session.expiresAt };
    },

    async revoke(session: SessionRow, client: ClientInfo): Promise<void> {
      await sessionsRepository.revoke(db, session.id, 'logout', new Date());
      await recordAudit(db, {
        action: 'auth.logout',
        actorUserId: session.actorUserId ?? session.userId,
        subjectUserId: session.actorUserId ? session.userId : null,
        ip: client.ip,
      });
    },

    /** POST /password-confirmation: the real person (the actor when impersonating) types their password. */
    async confirmPassword(session: SessionRow, password: string): Promise<void> {
      const hash = await findPasswordHash(db, session.actorUserId ?? session.userId);
      if (!(await verifyPassword(hash, password))) {
        throw AppError.of(422, 'CONFIRMATION_FAILED', 'Incorrect password', 'password');
      }
      await sessionsRepository.markPasswordConfirmed(db, session.id, new Date());
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

import { randomUUID } from 'node:crypto';
import { verifyPassword } from '#src/auth/passwords';
import { digest, newToken, safeEqual } from '#src/auth/tokens';
import type { Config } from '#src/config';
import type { Db } from '#src/db/database';
import { AppError, unauthorized } from '#src/http/errors';
import { recordAudit } from '../audit/audit.service';
import { findPasswordHash, findUserByEmail, recordLogin } from '../users/principal.repository';
import { attemptCountersRepository } from './attempt-counters.repository';
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

/** The answer to a locked account: the same whether the address belongs to anyone or not. */
export const ACCOUNT_LOCKED =
  'Too many failed sign-ins for this account. If it is yours, use the link we have e-mailed to it, or try again in an hour.';
export const CONFIRMATION_LOCKED = 'Too many wrong passwords. Try again in 15 minutes.';

/**
 * Guessing limits (docs/security.md): sign-ins of one account per hour from every address
 * together (ACCOUNT_LOGIN_LIMIT; per address, LOGIN_RATE_LIMIT in the route), and password
 * confirmations of one person per 15 minutes.
 */
const SIGN_IN_WINDOW_MS = 3_600_000;
const CONFIRM_WINDOW_MS = 15 * 60_000;
const CONFIRM_ATTEMPTS = 5;
const PRUNE_EVERY_MS = 3_600_000;

/** What a sign-in may bring past an account's lock, and who hears of the lock. */
export type SignInGuard = {
  /** The single-use link's token the owner got by e-mail when the lock began. */
  unlockToken?: string | undefined;
  /** Tells the account's owner, once per lock, with the token of their way back in. */
  onLock?(userId: number, unlockToken: string): void;
};

const minutes = (n: number) => n * 60_000;
const hours = (n: number) => n * 3_600_000;

export function createAuthService(db: Db, config: Config) {
  const accessTtl = minutes(config.accessTtlMinutes);
  let prunedAt = 0;

  /** Takes an attempt of `key`; counters of windows long over are dropped now and then. */
  async function takeAttempt(key: string, windowMs: number, now: Date) {
    if (now.getTime() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = now.getTime();
      await attemptCountersRepository.prune(db, new Date(now.getTime() - 2 * SIGN_IN_WINDOW_MS));
    }
    return attemptCountersRepository.take(db, key, now, windowMs);
  }

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
   * Checks e-mail and password (product §7 Session) and answers the user; the same words and
   * the same argon2 work for an unknown e-mail as for a wrong password. The attempt counts
   * against the account before the password is checked; past the limit the password is
   * not checked at all (a right guess must not show), unless the owner's unlock link comes
   * with it.
   */
  async function checkCredentials(
    email: string,
    password: string,
    client: ClientInfo,
    guard: SignInGuard = {},
  ): Promise<{ id: number }> {
    const now = new Date();
    const key = `sign-in:${email}`;
    const counter = await takeAttempt(key, SIGN_IN_WINDOW_MS, now);
    const unlocked =
      guard.unlockToken !== undefined &&
      counter.unlockTokenHash !== null &&
      safeEqual(digest(guard.unlockToken), counter.unlockTokenHash);
    if (counter.attempts > config.accountLoginLimit && !unlocked) {
      if (counter.notifiedAt === null) {
        const token = newToken();
        const user = await findUserByEmail(db, email);
        if ((await attemptCountersRepository.markNotified(db, key, now, digest(token))) && user) {
          await recordAudit(db, { action: 'auth.account_locked', actorUserId: user.id, ip: client.ip });
          guard.onLock?.(user.id, token);
        }
      }
      throw AppError.of(429, 'RATE_LIMITED', ACCOUNT_LOCKED);
    }
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
    await attemptCountersRepository.clear(db, key);
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

    /**
     * POST /password-confirmation: the real person (the actor when impersonating) types
     * their password; at most CONFIRM_ATTEMPTS tries in 15 minutes, counted before the check.
     */
    async confirmPassword(session: SessionRow, password: string): Promise<void> {
      const userId = session.actorUserId ?? session.userId;
      const key = `confirm:${userId}`;
      const now = new Date();
      const counter = await takeAttempt(key, CONFIRM_WINDOW_MS, now);
      if (counter.attempts > CONFIRM_ATTEMPTS) throw AppError.of(429, 'RATE_LIMITED', CONFIRMATION_LOCKED);
      const hash = await findPasswordHash(db, userId);
      if (!(await verifyPassword(hash, password))) {
        throw AppError.of(422, 'CONFIRMATION_FAILED', 'Incorrect password', 'password');
      }
      await attemptCountersRepository.clear(db, key);
      await sessionsRepository.markPasswordConfirmed(db, session.id, now);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

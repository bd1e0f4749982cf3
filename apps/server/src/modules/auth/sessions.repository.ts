import { and, desc, eq, gt, isNotNull, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { refreshTokens, sessions } from '#src/db/schema/sessions';

export type SessionRow = typeof sessions.$inferSelect;

/** How often a session's `last_seen_at` is written while it is in use. */
export const TOUCH_EVERY_MS = 60_000;

/** Only this file reads and writes the sessions and refresh-token tables. */
export const sessionsRepository = {
  async insert(db: Db, session: typeof sessions.$inferInsert, refreshTokenHash: string): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.insert(sessions).values(session);
      await tx.insert(refreshTokens).values({ tokenHash: refreshTokenHash, sessionId: session.id });
    });
  },

  /** The live session of an access token: not revoked, not expired, used since `idleSince`. */
  async findLiveByAccessHash(
    db: Db,
    accessHash: string,
    now: Date,
    idleSince: Date,
  ): Promise<SessionRow | undefined> {
    const [row] = await db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.accessTokenHash, accessHash),
          isNull(sessions.revokedAt),
          gt(sessions.accessExpiresAt, now),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, idleSince),
        ),
      )
      .limit(1);
    return row;
  },

  /** A live session by id (a socket outlives its access token, not its session). */
  async findLiveById(db: Db, id: string, now: Date, idleSince: Date): Promise<SessionRow | undefined> {
    const [row] = await db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.id, id),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, idleSince),
        ),
      )
      .limit(1);
    return row;
  },

  async findByRefreshHash(db: Db, refreshHash: string) {
    const [row] = await db
      .select({ session: sessions, usedAt: refreshTokens.usedAt })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, refreshHash))
      .limit(1);
    return row;
  },

  /**
   * Marks the presented refresh token used and stores the next one, in one step: of two
   * concurrent refreshes with the same token only one wins; the other sees it used.
   */
  async rotate(
    db: Db,
    sessionId: string,
    oldRefreshHash: string,
    next: { refreshHash: string; accessHash: string; accessExpiresAt: Date; xsrfToken: string },
    now: Date,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const used = await tx
        .update(refreshTokens)
        .set({ usedAt: now })
        .where(and(eq(refreshTokens.tokenHash, oldRefreshHash), isNull(refreshTokens.usedAt)))
        .returning({ tokenHash: refreshTokens.tokenHash });
      if (used.length === 0) return false;
      await tx.insert(refreshTokens).values({ tokenHash: next.refreshHash, sessionId });
      await tx
        .update(sessions)
        .set({
          accessTokenHash: next.accessHash,
          accessExpiresAt: next.accessExpiresAt,
          xsrfToken: next.xsrfToken,
          lastSeenAt: now,
        })
        .where(eq(sessions.id, sessionId));
      return true;
    });
  },

  async revoke(db: Db, sessionId: string, reason: string, now: Date): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  },

  /** The user's live sessions (their own and those of support acting as them), newest first. */
  async listLiveForUser(db: Db, userId: number, now: Date): Promise<SessionRow[]> {
    return db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  },

  /**
   * Revokes the user's live sessions that match `which`; answers their ids (their sockets
   * are dropped by the caller).
   */
  async revokeWhere(
    db: Db,
    userId: number,
    which: { only?: string; except?: string; impersonations?: boolean },
    reason: string,
    now: Date,
  ): Promise<string[]> {
    const conditions: SQL[] = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
    if (which.only) conditions.push(eq(sessions.id, which.only));
    if (which.except) conditions.push(ne(sessions.id, which.except));
    if (which.impersonations) conditions.push(isNotNull(sessions.actorUserId));
    const rows = await db
      .update(sessions)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(...conditions))
      .returning({ id: sessions.id });
    return rows.map((r) => r.id);
  },

  /**
   * Ends a session at `at` instead of at once: a browser whose cookies were just replaced
   * (impersonation start or cancel) may still have requests in flight with the old ones;
   * answering those 401 would set off a refresh that races the page load.
   */
  async retire(db: Db, sessionId: string, at: Date): Promise<void> {
    await db
      .update(sessions)
      .set({
        expiresAt: sql`least(${sessions.expiresAt}, ${at.toISOString()}::timestamptz)`,
        accessExpiresAt: sql`least(${sessions.accessExpiresAt}, ${at.toISOString()}::timestamptz)`,
      })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  },

  async markPasswordConfirmed(db: Db, sessionId: string, now: Date): Promise<void> {
    await db.update(sessions).set({ passwordConfirmedAt: now }).where(eq(sessions.id, sessionId));
  },

  /**
   * Records activity at most once a minute per session, to keep reads cheap: a session
   * read less than a minute after its last record costs no statement at all.
   */
  async touch(db: Db, session: Pick<SessionRow, 'id' | 'lastSeenAt'>, now: Date): Promise<void> {
    if (now.getTime() - session.lastSeenAt.getTime() < TOUCH_EVERY_MS) return;
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(
        and(
          eq(sessions.id, session.id),
          sql`${sessions.lastSeenAt} < ${now.toISOString()}::timestamptz - interval '1 minute'`,
        ),
      );
  },
};

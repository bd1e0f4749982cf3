import { and, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { mfaChallenges, recoveryCodes, userIdentities, userTotp } from '#src/db/schema/mfa';
import { users } from '#src/db/schema/users';

export type ChallengeRow = typeof mfaChallenges.$inferSelect;
export type TotpRow = typeof userTotp.$inferSelect;

/** Only this file reads and writes the second-step tables (and users.mfa_type). */
export const mfaRepository = {
  async userForMfa(db: Db, userId: number) {
    const [row] = await db
      .select({ id: users.id, email: users.email, mfaType: users.mfaType, companyId: users.companyId })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row;
  },

  async setMethod(db: Db, userId: number, method: string | null): Promise<void> {
    await db.update(users).set({ mfaType: method, updatedAt: new Date() }).where(eq(users.id, userId));
  },

  /** Sets the method only if the user has none yet: of two enrolments racing, one wins. */
  async setMethodIfNone(db: Db, userId: number, method: string): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ mfaType: method, updatedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.mfaType)))
      .returning({ id: users.id });
    return rows.length > 0;
  },

  // --- TOTP -------------------------------------------------------------------------

  async totpOf(db: Db, userId: number): Promise<TotpRow | undefined> {
    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
    return row;
  },

  /** A new, unconfirmed secret replaces any earlier unconfirmed one. */
  async putPendingTotp(db: Db, userId: number, secretEncrypted: string): Promise<void> {
    await db
      .insert(userTotp)
      .values({ userId, secretEncrypted, confirmedAt: null, lastUsedStep: null })
      .onConflictDoUpdate({
        target: userTotp.userId,
        set: { secretEncrypted, confirmedAt: null, lastUsedStep: null, createdAt: new Date() },
      });
  },

  async confirmTotp(db: Db, userId: number, step: number, now: Date): Promise<boolean> {
    const rows = await db
      .update(userTotp)
      .set({ confirmedAt: now, lastUsedStep: step })
      .where(and(eq(userTotp.userId, userId), isNull(userTotp.confirmedAt)))
      .returning({ userId: userTotp.userId });
    return rows.length > 0;
  },

  /**
   * Accepts a time step once: only if it is later than the last accepted one. Two requests
   * with the same code race on this one statement; one wins.
   */
  async useTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
    const rows = await db
      .update(userTotp)
      .set({ lastUsedStep: step })
      .where(
        and(
          eq(userTotp.userId, userId),
          isNotNull(userTotp.confirmedAt),
          or(isNull(userTotp.lastUsedStep), lt(userTotp.lastUsedStep, step)),
        ),
      )
      .returning({ userId: userTotp.userId });
    return rows.length > 0;
  },

  async deleteTotp(db: Db, userId: number): Promise<void> {
    await db.delete(userTotp).where(eq(userTotp.userId, userId));
    await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  },

  // --- Recovery codes -----------------------------------------------------------------

  async replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    });
  },

  /** Marks a recovery code used; false when it is unknown or used already (single use). */
  async useRecoveryCode(db: Db, userId: number, codeHash: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, codeHash),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return rows.length > 0;
  },

  async recoveryCodesLeft(db: Db, userId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return row?.n ?? 0;
  },

  // --- Challenges ---------------------------------------------------------------------

  async insertChallenge(db: Db, values: typeof mfaChallenges.$inferInsert): Promise<void> {
    await db.insert(mfaChallenges).values(values);
  },

  async challenge(db: Db, id: string): Promise<ChallengeRow | undefined> {
    const [row] = await db.select().from(mfaChallenges).where(eq(mfaChallenges.id, id)).limit(1);
    return row;
  },

  /**
   * Takes one of a live challenge's attempts before its code is checked, in one statement:
   * of many requests at once, only `max` ever get an attempt. Answers the attempt's number,
   * or undefined when the challenge is used, expired or out of attempts.
   */
  async takeAttempt(db: Db, id: string, now: Date, max: number): Promise<number | undefined> {
    const [row] = await db
      .update(mfaChallenges)
      .set({ attempts: sql`${mfaChallenges.attempts} + 1` })
      .where(
        and(
          eq(mfaChallenges.id, id),
          isNull(mfaChallenges.usedAt),
          gt(mfaChallenges.expiresAt, now),
          lt(mfaChallenges.attempts, max),
        ),
      )
      .returning({ attempts: mfaChallenges.attempts });
    return row?.attempts;
  },

  /** Uses a challenge once; false when someone used it first. */
  async useChallenge(db: Db, id: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(mfaChallenges)
      .set({ usedAt: now })
      .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.usedAt)))
      .returning({ id: mfaChallenges.id });
    return rows.length > 0;
  },

  /** Challenges end with their use or expiry; old ones are dropped when new ones are made. */
  async deleteStaleChallenges(db: Db, userId: number, now: Date): Promise<void> {
    await db
      .delete(mfaChallenges)
      .where(
        and(
          eq(mfaChallenges.userId, userId),
          lt(mfaChallenges.expiresAt, new Date(now.getTime() - 86_400_000)),
        ),
      );
  },

  /** Open challenges die with the method that made them. */
  async deleteChallenges(db: Db, userId: number): Promise<void> {
    await db.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  },

  // --- Vendor identities --------------------------------------------------------------

  async identityUser(db: Db, issuer: string, subject: string): Promise<number | undefined> {
    const [row] = await db
      .select({ userId: userIdentities.userId })
      .from(userIdentities)
      .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
      .limit(1);
    return row?.userId;
  },

  async hasIdentity(db: Db, userId: number, issuer: string): Promise<boolean> {
    const [row] = await db
      .select({ n: count() })
      .from(userIdentities)
      .where(and(eq(userIdentities.userId, userId), eq(userIdentities.issuer, issuer)));
    return (row?.n ?? 0) > 0;
  },

  /** Links an identity; false when it belongs to someone already. */
  async link(db: Db, userId: number, issuer: string, subject: string): Promise<boolean> {
    const rows = await db
      .insert(userIdentities)
      .values({ userId, issuer, subject })
      .onConflictDoNothing()
      .returning({ userId: userIdentities.userId });
    return rows.length > 0;
  },

  async unlinkAll(db: Db, userId: number): Promise<void> {
    await db.delete(userIdentities).where(eq(userIdentities.userId, userId));
  },

  /** A user to link by a verified e-mail: only one invited but not yet signed in. */
  async invitedUserByEmail(db: Db, email: string) {
    const [row] = await db
      .select({ id: users.id, lastLoginAt: users.lastLoginAt, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    return row;
  },
};

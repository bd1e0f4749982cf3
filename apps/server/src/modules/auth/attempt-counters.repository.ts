import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { attemptCounters } from '#src/db/schema/sessions';

const t = attemptCounters;

export type AttemptCount = { attempts: number; notifiedAt: Date | null; unlockTokenHash: string | null };

/** Only this file reads and writes the attempt counters (docs/security.md, guessing limits). */
export const attemptCountersRepository = {
  /**
   * Takes `count` attempts of `key` (one by default) in one statement and answers the counter
   * after it; a window older than `windowMs` restarts, forgetting its notice and unlock link.
   */
  async take(db: Db, key: string, now: Date, windowMs: number, count = 1): Promise<AttemptCount> {
    const at = now.toISOString();
    const over = sql`${t.windowStartedAt} <= ${at}::timestamptz - ${`${windowMs} milliseconds`}::interval`;
    const [row] = await db
      .insert(t)
      .values({ key, windowStartedAt: now, attempts: count })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          attempts: sql`case when ${over} then ${count} else ${t.attempts} + ${count} end`,
          notifiedAt: sql`case when ${over} then null else ${t.notifiedAt} end`,
          unlockTokenHash: sql`case when ${over} then null else ${t.unlockTokenHash} end`,
          windowStartedAt: sql`case when ${over} then ${at}::timestamptz else ${t.windowStartedAt} end`,
        },
      })
      .returning({ attempts: t.attempts, notifiedAt: t.notifiedAt, unlockTokenHash: t.unlockTokenHash });
    return row!;
  },

  /** Forgets a key's attempts (the right secret was given). */
  async clear(db: Db, key: string): Promise<void> {
    await db.delete(t).where(eq(t.key, key));
  },

  /**
   * Records that the owner is being told, with the digest of the link they get; true only
   * for the one caller that did it in this window (one message per window).
   */
  async markNotified(db: Db, key: string, now: Date, unlockTokenHash: string): Promise<boolean> {
    const rows = await db
      .update(t)
      .set({ notifiedAt: now, unlockTokenHash })
      .where(and(eq(t.key, key), isNull(t.notifiedAt)))
      .returning({ key: t.key });
    return rows.length > 0;
  },

  /** Drops counters whose window started before `before`. */
  async prune(db: Db, before: Date): Promise<void> {
    await db.delete(t).where(lt(t.windowStartedAt, before));
  },
};

import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { apiTokens } from '#src/db/schema/tokens';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Only this file reads and writes personal access tokens. */
export const tokensRepository = {
  async insert(db: Db, values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
    const [row] = await db.insert(apiTokens).values(values).returning();
    return row!;
  },

  /** The user's tokens that still work, newest first. */
  async listLive(db: Db, userId: number, now: Date): Promise<ApiTokenRow[]> {
    return db
      .select()
      .from(apiTokens)
      .where(
        and(
          eq(apiTokens.userId, userId),
          isNull(apiTokens.revokedAt),
          or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
        ),
      )
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  },

  /** The live token behind a presented secret's digest, or undefined. */
  async findLiveByHash(db: Db, tokenHash: string, now: Date): Promise<ApiTokenRow | undefined> {
    const [row] = await db
      .select()
      .from(apiTokens)
      .where(
        and(
          eq(apiTokens.tokenHash, tokenHash),
          isNull(apiTokens.revokedAt),
          or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
        ),
      )
      .limit(1);
    return row;
  },

  /** Revokes one of the user's tokens; false when there is no such live token of theirs. */
  async revoke(db: Db, userId: number, id: number, now: Date): Promise<boolean> {
    const rows = await db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return rows.length > 0;
  },

  /** Revokes every token of the user (second step removed, password changed by an admin...). */
  async revokeAll(db: Db, userId: number, now: Date): Promise<number> {
    const rows = await db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return rows.length;
  },

  /** Records use at most once a minute per token, to keep reads cheap. */
  async touch(db: Db, token: Pick<ApiTokenRow, 'id' | 'lastUsedAt'>, now: Date): Promise<void> {
    if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < 60_000) return;
    await db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, token.id),
          or(
            isNull(apiTokens.lastUsedAt),
            sql`${apiTokens.lastUsedAt} < ${now.toISOString()}::timestamptz - interval '1 minute'`,
          ),
        ),
      );
  },
};

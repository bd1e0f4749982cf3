import { and, count, desc, eq, gt, ilike, isNotNull, isNull, like, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, likePattern, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { impersonationGrants, impersonationLogs } from '#src/db/schema/impersonation';
import { rolePermissions, roles } from '#src/db/schema/roles';
import { sessions } from '#src/db/schema/sessions';
import { users } from '#src/db/schema/users';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

export type GrantRow = typeof impersonationGrants.$inferSelect;

/** A grant in force: confirmed, not revoked, ending in the future (product §4 Session). */
const inForce = (now: Date) =>
  and(
    isNotNull(impersonationGrants.confirmedAt),
    isNull(impersonationGrants.revokedAt),
    gt(impersonationGrants.grantedUntil, now),
  );

type LogField = 'id' | 'actor_email' | 'subject_email' | 'started_at' | 'ended_at';

const logListSpec: ListSpec<LogField> = {
  columns: {
    id: impersonationLogs.id,
    actor_email: impersonationLogs.actorEmail,
    subject_email: impersonationLogs.subjectEmail,
    started_at: impersonationLogs.startedAt,
    ended_at: impersonationLogs.endedAt,
  },
  sortable: ['id', 'actor_email', 'subject_email', 'started_at', 'ended_at'],
  searchable: ['actor_email', 'subject_email'],
  defaultSearch: ['actor_email', 'subject_email'],
  defaultSort: '-started_at',
  idColumn: impersonationLogs.id,
};

const requester = alias(users, 'requester');
const requesterCompany = alias(companies, 'requester_company');

/** Only this file reads and writes impersonation grants and logs. */
export const impersonationRepository = {
  async activeGrant(db: Db, userId: number, now: Date): Promise<GrantRow | undefined> {
    const [row] = await db
      .select()
      .from(impersonationGrants)
      .where(and(eq(impersonationGrants.userId, userId), inForce(now)))
      .orderBy(desc(impersonationGrants.grantedUntil))
      .limit(1);
    return row;
  },

  /** A new grant replaces the one in force. */
  async grant(db: Db, userId: number, until: Date, now: Date): Promise<void> {
    await db.transaction(async (tx) => {
      await tx
        .update(impersonationGrants)
        .set({ revokedAt: now })
        .where(and(eq(impersonationGrants.userId, userId), inForce(now)));
      await tx
        .insert(impersonationGrants)
        .values({ userId, grantedUntil: until, confirmedAt: now, createdAt: now });
    });
  },

  /** Ends every grant in force and every open request; answers how many grants ended. */
  async revokeAll(db: Db, userId: number, now: Date): Promise<number> {
    const ended = await db
      .update(impersonationGrants)
      .set({ revokedAt: now })
      .where(and(eq(impersonationGrants.userId, userId), inForce(now)))
      .returning({ id: impersonationGrants.id });
    await db
      .update(impersonationGrants)
      .set({ revokedAt: now })
      .where(
        and(
          eq(impersonationGrants.userId, userId),
          isNull(impersonationGrants.confirmedAt),
          isNull(impersonationGrants.revokedAt),
        ),
      );
    return ended.length;
  },

  async insertRequest(
    db: Db,
    values: { userId: number; requestedBy: number; tokenHash: string; expiresAt: Date; now: Date },
  ): Promise<void> {
    await db.insert(impersonationGrants).values({
      userId: values.userId,
      requestedBy: values.requestedBy,
      requestTokenHash: values.tokenHash,
      requestExpiresAt: values.expiresAt,
      createdAt: values.now,
    });
  },

  async requestByToken(db: Db, tokenHash: string) {
    const [row] = await db
      .select({
        grant: impersonationGrants,
        userEmail: users.email,
        requestedBy: requester.email,
        requestedByCompany: requesterCompany.name,
      })
      .from(impersonationGrants)
      .innerJoin(users, eq(users.id, impersonationGrants.userId))
      .leftJoin(requester, eq(requester.id, impersonationGrants.requestedBy))
      .leftJoin(requesterCompany, eq(requesterCompany.id, requester.companyId))
      .where(eq(impersonationGrants.requestTokenHash, tokenHash))
      .limit(1);
    return row;
  },

  /** Answers a pending request once: a confirmation becomes the grant in force. */
  async answerRequest(db: Db, id: number, userId: number, until: Date | null, now: Date): Promise<boolean> {
    return db.transaction(async (tx) => {
      const pending = and(
        eq(impersonationGrants.id, id),
        eq(impersonationGrants.userId, userId),
        isNull(impersonationGrants.confirmedAt),
        isNull(impersonationGrants.revokedAt),
        gt(impersonationGrants.requestExpiresAt, now),
      );
      if (until === null) {
        const rows = await tx
          .update(impersonationGrants)
          .set({ revokedAt: now })
          .where(pending)
          .returning({ id: impersonationGrants.id });
        return rows.length > 0;
      }
      await tx
        .update(impersonationGrants)
        .set({ revokedAt: now })
        .where(and(eq(impersonationGrants.userId, userId), ne(impersonationGrants.id, id), inForce(now)));
      const rows = await tx
        .update(impersonationGrants)
        .set({ grantedUntil: until, confirmedAt: now })
        .where(pending)
        .returning({ id: impersonationGrants.id });
      return rows.length > 0;
    });
  },

  /**
   * Users in companies strictly below `path` who hold nothing beyond `permissions` (the
   * impersonation rule, auth/caller.ts), with their grant's end (null when none).
   */
  async candidates(
    db: Db,
    path: string,
    permissions: readonly string[],
    q: string | undefined,
    limit: number,
    now: Date,
  ) {
    const grantEnd = sql<Date | null>`(select max(${impersonationGrants.grantedUntil}) from ${impersonationGrants} where ${impersonationGrants.userId} = ${users.id} and ${impersonationGrants.confirmedAt} is not null and ${impersonationGrants.revokedAt} is null and ${impersonationGrants.grantedUntil} > ${now.toISOString()}::timestamptz)`;
    return db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        companyId: users.companyId,
        companyName: companies.name,
        roleTitle: roles.title,
        grantedUntil: grantEnd,
      })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(
        allOf(
          like(companies.path, `${path}%`),
          ne(companies.path, path),
          sql`not exists (select 1 from ${rolePermissions} where ${rolePermissions.roleId} = ${users.roleId} and ${rolePermissions.permission} <> all(${sql.param(permissions)}::text[]))`,
          q ? or(ilike(users.email, likePattern(q)), ilike(users.username, likePattern(q))) : undefined,
        ),
      )
      .orderBy(sql`${grantEnd} is null`, users.email)
      .limit(limit);
  },

  async insertLog(db: Db, values: typeof impersonationLogs.$inferInsert): Promise<void> {
    await db.insert(impersonationLogs).values(values);
  },

  async endLog(db: Db, sessionId: string, now: Date): Promise<void> {
    await db
      .update(impersonationLogs)
      .set({ endedAt: now })
      .where(and(eq(impersonationLogs.sessionId, sessionId), isNull(impersonationLogs.endedAt)));
  },

  /**
   * Logs whose impersonated user's company the caller reaches. The end is the recorded one,
   * else the end of the session (signed out, revoked or expired).
   */
  async listLogs(db: Db, scope: Scope, query: ListQuery, now: Date) {
    const plan = listPlan(logListSpec, query);
    const where = allOf(companyColumnInScope(impersonationLogs.subjectCompanyId, scope), plan.search);
    const ended = sql<Date | null>`coalesce(${impersonationLogs.endedAt}, ${sessions.revokedAt}, case when ${sessions.expiresAt} <= ${now.toISOString()}::timestamptz then ${sessions.expiresAt} end)`;
    const [rows, [total]] = await Promise.all([
      db
        .select({
          id: impersonationLogs.id,
          actorUserId: impersonationLogs.actorUserId,
          actorEmail: impersonationLogs.actorEmail,
          subjectUserId: impersonationLogs.subjectUserId,
          subjectEmail: impersonationLogs.subjectEmail,
          subjectCompanyId: impersonationLogs.subjectCompanyId,
          subjectCompanyName: companies.name,
          startedAt: impersonationLogs.startedAt,
          endedAt: ended,
        })
        .from(impersonationLogs)
        .leftJoin(sessions, eq(sessions.id, impersonationLogs.sessionId))
        .leftJoin(companies, eq(companies.id, impersonationLogs.subjectCompanyId))
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(impersonationLogs).where(where),
    ]);
    return { rows, total: total?.n ?? 0, fields: plan.fields };
  },
};

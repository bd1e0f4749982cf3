import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { userMoveLogs } from '#src/db/schema/invitations';
import { userTotp } from '#src/db/schema/mfa';
import { roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

/** What the services need of a user to decide: company, role and whose role it is. */
const subject = {
  id: users.id,
  email: users.email,
  companyId: users.companyId,
  roleId: users.roleId,
  roleName: roles.name,
  roleCompanyId: roles.companyId,
  mfaType: users.mfaType,
  ssoAdmin: users.ssoAdmin,
};
export type UserSubject = {
  id: number;
  email: string;
  companyId: number;
  roleId: number;
  roleName: string;
  roleCompanyId: number | null;
  mfaType: string | null;
  ssoAdmin: boolean;
};

const fromCompany = alias(companies, 'from_company');
const toCompany = alias(companies, 'to_company');
const mover = alias(users, 'mover');

type MoveLogField = 'id' | 'user_email' | 'moved_at';
const moveLogSpec: ListSpec<MoveLogField> = {
  columns: { id: userMoveLogs.id, user_email: userMoveLogs.userEmail, moved_at: userMoveLogs.movedAt },
  sortable: ['id', 'user_email', 'moved_at'],
  searchable: ['user_email'],
  defaultSearch: ['user_email'],
  defaultSort: '-moved_at',
  idColumn: userMoveLogs.id,
};

/** Changes to users (role, company, second step, SSO flag, removal) and the move logs. */
export const userChangesRepository = {
  async subjects(db: Db, scope: Scope, ids: number[]): Promise<UserSubject[]> {
    if (!ids.length) return [];
    return db
      .select(subject)
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(inArray(users.id, ids), companyColumnInScope(users.companyId, scope)));
  },

  async subjectByEmail(db: Db, scope: Scope, email: string): Promise<UserSubject | undefined> {
    const [found] = await db
      .select(subject)
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(eq(users.email, email), companyColumnInScope(users.companyId, scope)))
      .limit(1);
    return found;
  },

  async setRole(db: Db, userId: number, roleId: number): Promise<void> {
    await db.update(users).set({ roleId, updatedAt: new Date() }).where(eq(users.id, userId));
  },

  /** Moves users and writes one move log row each, in one transaction. */
  async move(
    db: Db,
    moves: readonly { id: number; email: string; fromCompanyId: number }[],
    toCompanyId: number,
    movedBy: number,
  ): Promise<void> {
    if (!moves.length) return;
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ companyId: toCompanyId, updatedAt: new Date() })
        .where(
          inArray(
            users.id,
            moves.map((m) => m.id),
          ),
        );
      await tx.insert(userMoveLogs).values(
        moves.map((m) => ({
          userId: m.id,
          userEmail: m.email,
          fromCompanyId: m.fromCompanyId,
          toCompanyId,
          movedBy,
        })),
      );
    });
  },

  /** Move logs where either end lies in reach (product §2 users.move-logs). */
  async moveLogs(db: Db, scope: Scope, query: ListQuery, filters: { companyId?: number }) {
    const plan = listPlan(moveLogSpec, query);
    const where = allOf(
      or(
        companyColumnInScope(userMoveLogs.fromCompanyId, scope),
        companyColumnInScope(userMoveLogs.toCompanyId, scope),
      ),
      plan.search,
      filters.companyId === undefined
        ? undefined
        : or(
            eq(userMoveLogs.fromCompanyId, filters.companyId),
            eq(userMoveLogs.toCompanyId, filters.companyId),
          ),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({
          id: userMoveLogs.id,
          user_id: userMoveLogs.userId,
          user_email: userMoveLogs.userEmail,
          from_company_id: userMoveLogs.fromCompanyId,
          from_company_name: fromCompany.name,
          to_company_id: userMoveLogs.toCompanyId,
          to_company_name: toCompany.name,
          moved_by: mover.email,
          moved_at: userMoveLogs.movedAt,
        })
        .from(userMoveLogs)
        .leftJoin(fromCompany, eq(fromCompany.id, userMoveLogs.fromCompanyId))
        .leftJoin(toCompany, eq(toCompany.id, userMoveLogs.toCompanyId))
        .leftJoin(mover, eq(mover.id, userMoveLogs.movedBy))
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(userMoveLogs).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async hasTotp(db: Db, userId: number): Promise<boolean> {
    const [found] = await db
      .select({ id: userTotp.userId })
      .from(userTotp)
      .where(eq(userTotp.userId, userId));
    return found !== undefined;
  },

  async setSsoAdmin(db: Db, userId: number): Promise<void> {
    await db.update(users).set({ ssoAdmin: true, updatedAt: new Date() }).where(eq(users.id, userId));
  },

  async remove(db: Db, userId: number): Promise<void> {
    await db.delete(users).where(eq(users.id, userId));
  },

  /** Super admins left besides this user: the last one is never removed. */
  async otherSuperAdmins(db: Db, userId: number): Promise<number> {
    const [found] = await db
      .select({ n: count() })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(
        and(eq(roles.name, 'super_admin'), sql`${roles.companyId} is null`, sql`${users.id} <> ${userId}`),
      );
    return found?.n ?? 0;
  },
};

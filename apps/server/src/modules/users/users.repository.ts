import { and, count, eq } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

export type UserField =
  | 'id'
  | 'email'
  | 'name'
  | 'username'
  | 'company_id'
  | 'role_id'
  | 'last_login_at'
  | 'created_at';

export const userListSpec: ListSpec<UserField> = {
  columns: {
    id: users.id,
    email: users.email,
    // product §7 Search asks for `name`; a user's name is their username.
    name: users.username,
    username: users.username,
    company_id: users.companyId,
    role_id: users.roleId,
    last_login_at: users.lastLoginAt,
    created_at: users.createdAt,
  },
  sortable: ['id', 'email', 'username', 'name', 'last_login_at', 'created_at'],
  searchable: ['email', 'name', 'username'],
  defaultSearch: ['email', 'username'],
  defaultSort: 'email',
  idColumn: users.id,
};

const row = {
  id: users.id,
  email: users.email,
  username: users.username,
  name: users.username,
  company_id: users.companyId,
  company_name: companies.name,
  role_id: users.roleId,
  role_name: roles.name,
  role_title: roles.title,
  mfa_type: users.mfaType,
  sso_admin: users.ssoAdmin,
  last_login_at: users.lastLoginAt,
  created_at: users.createdAt,
};

/** Reads of users for lists and search; writes live with the accounts feature. */
export const usersRepository = {
  async list(db: Db, scope: Scope, query: ListQuery, filters: { companyId?: number } = {}) {
    const plan = listPlan(userListSpec, query);
    const where = allOf(
      companyColumnInScope(users.companyId, scope),
      plan.search,
      filters.companyId === undefined ? undefined : eq(users.companyId, filters.companyId),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(row)
        .from(users)
        .innerJoin(companies, eq(companies.id, users.companyId))
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: total?.n ?? 0, fields: plan.fields };
  },

  async find(db: Db, scope: Scope, id: number) {
    const [found] = await db
      .select(row)
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(eq(users.id, id), companyColumnInScope(users.companyId, scope)))
      .limit(1);
    return found;
  },
};

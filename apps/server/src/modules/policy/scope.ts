import { and, eq, like, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { companies } from '../../db/schema/companies';
import type { AuthContext } from '../../plugins/auth';

/**
 * Which companies a caller reaches (spec §6): the whole subtree under their company for
 * roles that see companies (super admin from the root, admins, advanced guests), only
 * their own company for the others (end clients, guests).
 */
export type Scope = {
  companyId: number;
  path: string;
  subtree: boolean;
  /** The subtree of the root company: every company, so no filter is needed. */
  everything?: boolean;
};

export function scopeOf(auth: AuthContext): Scope {
  const { company, subtree } = auth.principal;
  // The root company is the only one without a parent (companies are created under one).
  return {
    companyId: company.id,
    path: company.path,
    subtree,
    everything: subtree && company.parentId === null,
  };
}

/** Rows of `companies` inside the scope. */
export function companiesInScope(scope: Scope): SQL {
  return scope.subtree ? like(companies.path, `${scope.path}%`) : eq(companies.id, scope.companyId);
}

/** Rows whose `company_id` column lies inside the scope. */
export function companyColumnInScope(column: AnyPgColumn, scope: Scope): SQL {
  if (!scope.subtree) return eq(column, scope.companyId);
  // Spares large lists a join that matches every row (bench/list.ts: half the count's time).
  if (scope.everything) return sql`true`;
  return sql`${column} in (select ${companies.id} from ${companies} where ${companies.path} like ${`${scope.path}%`})`;
}

/** The company if the caller reaches it, else undefined: callers answer 404 (ARCHITECTURE §4). */
export async function companyInScope(db: Db, scope: Scope, companyId: number) {
  const [row] = await db
    .select()
    .from(companies)
    .where(and(eq(companies.id, companyId), companiesInScope(scope)))
    .limit(1);
  return row;
}

import { and, eq, like, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '#src/db/database';
import { companies } from '#src/db/schema/companies';
import type { Scope } from './scope';

/**
 * The policy layer's SQL: every query of a company's rows goes through these, so that no
 * repository reads a row by id outside the caller's companies (ARCHITECTURE §4).
 */

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

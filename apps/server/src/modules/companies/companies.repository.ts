import { and, count, eq, isNull, like, max, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { devices } from '#src/db/schema/devices';
import { users } from '#src/db/schema/users';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companiesInScope } from '../policy/scope.repository';

const parent = alias(companies, 'parent');

export type CompanyField = 'id' | 'name' | 'parent_id' | 'level' | 'created_at';

export const companyListSpec: ListSpec<CompanyField> = {
  columns: {
    id: companies.id,
    name: companies.name,
    parent_id: companies.parentId,
    level: companies.level,
    created_at: companies.createdAt,
  },
  sortable: ['id', 'name', 'level', 'created_at'],
  searchable: ['name'],
  defaultSearch: ['name'],
  defaultSort: 'name',
  idColumn: companies.id,
};

const row = {
  id: companies.id,
  name: companies.name,
  parent_id: companies.parentId,
  parent_name: parent.name,
  level: companies.level,
  created_at: companies.createdAt,
  users_count: sql<number>`(select count(*)::int from ${users} where ${users.companyId} = ${companies.id})`,
  devices_count: sql<number>`(select count(*)::int from ${devices} where ${devices.companyId} = ${companies.id})`,
  // The inner table is aliased, so "companies" below names the outer row.
  children_count: sql<number>`(select count(*)::int from ${companies} as child where child.parent_id = ${companies.id})`,
  show_payment: companies.showPayment,
  mfa_mandatory: companies.mfaMandatory,
  payment_type: sql<'paid' | 'free'>`${companies.paymentType}`,
};

/** The most nodes the tree page receives: a bounded answer for very large fleets. */
export const TREE_NODES_MAX = 5000;

/** A company of the tree page, before it is nested under its parent. */
export type TreeRow = {
  id: number;
  name: string;
  level: number;
  parent_id: number | null;
  users_count: number;
};

export type CompanyFilters = { level?: number[]; parentId?: number };

/** Only this file reads and writes companies. */
export const companiesRepository = {
  async list(db: Db, scope: Scope, query: ListQuery, filters: CompanyFilters = {}) {
    const plan = listPlan(companyListSpec, query);
    const where = allOf(
      companiesInScope(scope),
      plan.search,
      filters.level?.length ? sql`${companies.level} in ${filters.level}` : undefined,
      filters.parentId === undefined ? undefined : eq(companies.parentId, filters.parentId),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(row)
        .from(companies)
        .leftJoin(parent, eq(parent.id, companies.parentId))
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(companies).where(where),
    ]);
    return { rows, total: total?.n ?? 0, fields: plan.fields };
  },

  async find(db: Db, scope: Scope, id: number) {
    const [found] = await db
      .select(row)
      .from(companies)
      .leftJoin(parent, eq(parent.id, companies.parentId))
      .where(and(eq(companies.id, id), companiesInScope(scope)))
      .limit(1);
    return found;
  },

  /**
   * The caller's subtree for the tree page (product §2 company.tree), shallow levels first so
   * that a cut at TREE_NODES_MAX drops the deepest companies, never a parent of a kept one.
   */
  async tree(db: Db, scope: Scope): Promise<{ rows: TreeRow[]; truncated: boolean }> {
    const rows = await db
      .select({
        id: companies.id,
        name: companies.name,
        level: companies.level,
        parent_id: companies.parentId,
        users_count: count(users.id),
      })
      .from(companies)
      .leftJoin(users, eq(users.companyId, companies.id))
      .where(companiesInScope(scope))
      .groupBy(companies.id)
      .orderBy(companies.level, companies.name, companies.id)
      .limit(TREE_NODES_MAX + 1);
    return { rows: rows.slice(0, TREE_NODES_MAX), truncated: rows.length > TREE_NODES_MAX };
  },

  /** The root company: the only one without a parent. */
  async root(db: Db) {
    const [row] = await db
      .select()
      .from(companies)
      .where(isNull(companies.parentId))
      .orderBy(companies.id)
      .limit(1);
    return row;
  },

  /** The company named exactly `name` under `parentId`. */
  async child(db: Db, parentId: number, name: string) {
    const [row] = await db
      .select()
      .from(companies)
      .where(and(eq(companies.name, name), eq(companies.parentId, parentId)))
      .limit(1);
    return row;
  },

  /** Whether a sibling under `parentId` has this name, whatever its case. */
  async nameTaken(db: Db, parentId: number, name: string, except?: number): Promise<boolean> {
    const [row] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(
        and(
          eq(companies.parentId, parentId),
          sql`lower(${companies.name}) = lower(${name})`,
          except === undefined ? undefined : ne(companies.id, except),
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  async update(
    db: Db,
    id: number,
    changes: { name?: string; showPayment?: boolean; mfaMandatory?: boolean; paymentType?: 'paid' | 'free' },
  ) {
    await db
      .update(companies)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(companies.id, id));
  },

  /** Puts `source` and its whole subtree under `target`: new parent, paths and levels. */
  async moveSubtree(
    db: Db,
    source: { id: number; path: string; level: number },
    target: { id: number; path: string; level: number },
  ) {
    const newPath = `${target.path}${source.id}/`;
    const delta = target.level + 1 - source.level;
    await db
      .update(companies)
      .set({ parentId: target.id, updatedAt: new Date() })
      .where(eq(companies.id, source.id));
    await db
      .update(companies)
      .set({
        path: sql`${newPath} || substr(${companies.path}, ${source.path.length + 1})`,
        level: sql`${companies.level} + ${delta}`,
      })
      .where(like(companies.path, `${source.path}%`));
  },

  /** Levels below a company: 0 when it has no subsidiaries. */
  async subtreeHeight(db: Db, company: { path: string; level: number }): Promise<number> {
    const [row] = await db
      .select({ deepest: max(companies.level) })
      .from(companies)
      .where(like(companies.path, `${company.path}%`));
    return (row?.deepest ?? company.level) - company.level;
  },

  /** What a company still holds: subsidiaries, users and devices. */
  async contents(db: Db, id: number) {
    const [[children], [members], [fleet]] = await Promise.all([
      db.select({ n: count() }).from(companies).where(eq(companies.parentId, id)),
      db.select({ n: count() }).from(users).where(eq(users.companyId, id)),
      db.select({ n: count() }).from(devices).where(eq(devices.companyId, id)),
    ]);
    return { subsidiaries: children?.n ?? 0, users: members?.n ?? 0, devices: fleet?.n ?? 0 };
  },

  async remove(db: Db, scope: Scope, id: number) {
    await db.delete(companies).where(and(eq(companies.id, id), companiesInScope(scope)));
  },

  /** Creates a company under a parent: level one deeper, path extended (depth unlimited). */
  async insert(db: Db, values: { name: string; parentId: number }, where?: SQL) {
    return db.transaction(async (tx) => {
      const [up] = await tx
        .select()
        .from(companies)
        .where(allOf(eq(companies.id, values.parentId), where))
        .limit(1);
      if (!up) return undefined;
      const [created] = await tx
        .insert(companies)
        .values({
          name: values.name,
          parentId: up.id,
          level: up.level + 1,
          path: up.path,
          // A subsidiary is supplied the way its parent is, until the super admin says otherwise.
          paymentType: up.paymentType,
        })
        .returning();
      const [withPath] = await tx
        .update(companies)
        .set({ path: `${up.path}${created!.id}/` })
        .where(eq(companies.id, created!.id))
        .returning();
      return withPath!;
    });
  },
};

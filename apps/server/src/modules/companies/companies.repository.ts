import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { companies } from '../../db/schema/companies';
import { devices } from '../../db/schema/devices';
import { users } from '../../db/schema/users';
import { allOf, type ListQuery, type ListSpec, listPlan } from '../../http/list-query';
import { companiesInScope, type Scope } from '../policy/scope';

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
};

/** The most nodes the tree page receives: a bounded answer for very large fleets. */
export const TREE_NODES_MAX = 5000;

export type TreeNode = {
  id: number;
  name: string;
  level: number;
  parent_id: number | null;
  users_count: number;
  children: TreeNode[];
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
   * The caller's subtree as nested nodes (spec §2 company.tree), shallow levels first so
   * that a cut at TREE_NODES_MAX drops the deepest companies, never a parent of a kept one.
   */
  async tree(db: Db, scope: Scope): Promise<{ roots: TreeNode[]; truncated: boolean }> {
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
    const truncated = rows.length > TREE_NODES_MAX;
    const nodes = new Map<number, TreeNode>();
    const roots: TreeNode[] = [];
    for (const r of rows.slice(0, TREE_NODES_MAX)) {
      const node: TreeNode = { ...r, children: [] };
      nodes.set(node.id, node);
      const up = node.parent_id === null ? undefined : nodes.get(node.parent_id);
      if (up) up.children.push(node);
      else roots.push(node);
    }
    return { roots, truncated };
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
        .values({ name: values.name, parentId: up.id, level: up.level + 1, path: up.path })
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

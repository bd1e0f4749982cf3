/**
 * Where a company may move (product §3 moveCompany). The server decides in the end; the form
 * offers only what it would accept, and nothing that breaks the level rule.
 */

import { COMPANY_MAX_LEVEL, COMPANY_PARENT_LEVELS } from '@fleetgate/shared/limits';
import type { CompanyTreeNode } from '../api/companies';

/** product §3 newCompany: a parent is a company of level 1 or 2. */
export const PARENT_LEVELS = COMPANY_PARENT_LEVELS;
/** So no company sits deeper than level 3 (the root is level 1, docs/decisions.md). */
export const MAX_COMPANY_LEVEL = COMPANY_MAX_LEVEL;

export type TreeCompany = Pick<CompanyTreeNode, 'id' | 'name' | 'level' | 'parent_id'> & {
  children: readonly TreeCompany[];
};

export type FlatCompany = Omit<TreeCompany, 'children'> & {
  /** Levels below it: 0 for a company without subsidiaries. */
  height: number;
  /** Its own id and every subsidiary's, however deep. */
  subtree: ReadonlySet<number>;
};

/** The tree of GET /companies/tree as a list, each company with its height and subtree. */
export function flattenTree(roots: readonly TreeCompany[]): FlatCompany[] {
  const out: FlatCompany[] = [];
  const visit = (node: TreeCompany): FlatCompany => {
    const below = node.children.map(visit);
    const subtree = new Set<number>([node.id]);
    for (const child of below) for (const id of child.subtree) subtree.add(id);
    const flat: FlatCompany = {
      id: node.id,
      name: node.name,
      level: node.level,
      parent_id: node.parent_id,
      height: below.length ? Math.max(...below.map((c) => c.height)) + 1 : 0,
      subtree,
    };
    out.push(flat);
    return flat;
  };
  for (const root of roots) visit(root);
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/**
 * Companies that can move at all (server rules): not the top company, not the caller's
 * own. The tree is the caller's reach, so its roots are the caller's own company.
 */
export function movableCompanies(companies: readonly FlatCompany[], own: ReadonlySet<number>): FlatCompany[] {
  return companies.filter((c) => c.parent_id !== null && !own.has(c.id));
}

/**
 * The valid new parents of `sourceId`: never the company itself or one of its subsidiaries,
 * not its present parent (nothing would change), and only where the whole moved subtree
 * stays within the level rule (the new parent's level + 1 + the subtree's height ≤ 3).
 */
export function moveTargets(companies: readonly FlatCompany[], sourceId: number | null): FlatCompany[] {
  const source = companies.find((c) => c.id === sourceId);
  if (!source) return [];
  return companies.filter(
    (target) =>
      !source.subtree.has(target.id) &&
      target.id !== source.parent_id &&
      target.level + 1 + source.height <= MAX_COMPANY_LEVEL,
  );
}

import type { CompanyPlace, CompanyTreeNode } from '@fleetgate/shared/schemas/companies';
import type { TreeRow } from './companies.repository';

/** What a create or a rename answers: the company's place in the tree. */
export function presentCompanyPlace(company: {
  id: number;
  name: string;
  parentId: number | null;
  level: number;
}): CompanyPlace {
  return { id: company.id, name: company.name, parent_id: company.parentId, level: company.level };
}

/**
 * Nests the rows under their parents. Rows come shallow levels first, so a parent is met
 * before its children; a row whose parent is not among them (the caller's own company)
 * becomes a root.
 */
export function presentTree(rows: readonly TreeRow[]): CompanyTreeNode[] {
  const nodes = new Map<number, CompanyTreeNode>();
  const roots: CompanyTreeNode[] = [];
  for (const row of rows) {
    const node: CompanyTreeNode = { ...row, children: [] };
    nodes.set(node.id, node);
    const up = node.parent_id === null ? undefined : nodes.get(node.parent_id);
    if (up) up.children.push(node);
    else roots.push(node);
  }
  return roots;
}

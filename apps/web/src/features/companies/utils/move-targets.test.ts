import { describe, expect, it } from 'vitest';
import {
  flattenTree,
  MAX_COMPANY_LEVEL,
  movableCompanies,
  moveTargets,
  type TreeCompany,
} from './move-targets';

const node = (
  id: number,
  level: number,
  parent: number | null,
  children: TreeCompany[] = [],
): TreeCompany => ({
  id,
  name: `C${id}`,
  level,
  parent_id: parent,
  children,
});

/**
 * Root 1 ─┬─ 2 ── 3          (2 has a subsidiary; 3 is level 3)
 *         ├─ 4               (level 2, empty)
 *         └─ 5 ─┬─ 6         (level 3)
 *               └─ 7
 */
const TREE = [
  node(1, 1, null, [
    node(2, 2, 1, [node(3, 3, 2)]),
    node(4, 2, 1),
    node(5, 2, 1, [node(6, 3, 5), node(7, 3, 5)]),
  ]),
];
const flat = flattenTree(TREE);
const targetsOf = (id: number) =>
  moveTargets(flat, id)
    .map((c) => c.id)
    .sort((a, b) => a - b);

describe('move-company targets (product §3 moveCompany, level rule)', () => {
  it('companies are at most level 3: a parent is level 1 or 2', () => expect(MAX_COMPANY_LEVEL).toBe(3));

  it('flattens the tree with each company’s height and subtree', () => {
    const two = flat.find((c) => c.id === 2)!;
    expect(two.height).toBe(1);
    expect([...two.subtree].sort()).toEqual([2, 3]);
    expect(flat.find((c) => c.id === 1)!.height).toBe(2);
    expect(flat).toHaveLength(7);
  });

  it('never offers the company itself or one of its subsidiaries', () => {
    expect(targetsOf(2)).not.toContain(2);
    expect(targetsOf(2)).not.toContain(3);
    expect(targetsOf(5)).not.toEqual(expect.arrayContaining([5]));
    for (const id of [6, 7]) expect(targetsOf(5)).not.toContain(id);
  });

  it('does not offer the present parent', () => {
    expect(targetsOf(4)).not.toContain(1);
    expect(targetsOf(3)).not.toContain(2);
  });

  it('offers only parents that keep the moved subtree within level 3', () => {
    // A company without subsidiaries may go under any other level 1 or 2 company.
    expect(targetsOf(3)).toEqual([1, 4, 5]);
    expect(targetsOf(4)).toEqual([2, 5]);
    // With a subsidiary it may go only under level 1, which is already its parent here.
    expect(targetsOf(2)).toEqual([]);
    // Never under a level 3 company.
    expect(targetsOf(7)).not.toContain(6);
  });

  it('offers nothing before a company to move is chosen', () => expect(moveTargets(flat, null)).toEqual([]));

  it('does not offer the top company or the caller’s own as a company to move', () => {
    expect(
      movableCompanies(flat, new Set([5]))
        .map((c) => c.id)
        .sort((a, b) => a - b),
    ).toEqual([2, 3, 4, 6, 7]);
  });
});

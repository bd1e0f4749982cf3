import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import type { Role } from '@fleetgate/shared/schemas/roles';
import { describe, expect, it } from 'vitest';
import { roleOptions } from './roles';

const asRole = (r: (typeof DEFAULT_ROLES)[number]): Role => ({
  id: r.id,
  name: r.name,
  title: r.title,
  description: r.description,
  canInviteRoles: [...r.canInviteRoles],
  isDefault: true,
  company_id: null,
  company_name: null,
  permissions_count: r.permissions.length,
});

describe('role options of the invite form (product §3 newUser, §6, §9)', () => {
  it('offers the default roles the caller may invite plus the company’s custom roles', () => {
    const custom: Role = {
      ...asRole(DEFAULT_ROLES[1]!),
      id: 101,
      name: 'ops',
      title: 'x'.repeat(50),
      company_id: 7,
      isDefault: false,
    };
    const other: Role = { ...custom, id: 102, company_id: 8 };
    const roles = [...DEFAULT_ROLES.map(asRole), custom, other];
    const admin = DEFAULT_ROLES.find((r) => r.name === 'admin')!;
    const options = roleOptions(roles, 'admin', 7);
    const expected = DEFAULT_ROLES.filter((r) => admin.canInviteRoles.includes(r.name)).map((r) =>
      String(r.id),
    );
    expect(options.map((o) => o.value)).toEqual([...expected, '101']);
    expect(options.at(-1)!.label).toHaveLength(45);
    // A role unknown to product §6 is treated as admin.
    expect(roleOptions(roles, 'custom_thing', 7).map((o) => o.value)).toEqual(options.map((o) => o.value));
    expect(roleOptions(roles, 'end_user', 7).map((o) => o.value)).toEqual(['101']);
  });
});

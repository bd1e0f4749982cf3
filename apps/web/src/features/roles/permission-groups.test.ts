import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { describe, expect, it } from 'vitest';
import { groupedPermissions, isGrantable, PERMISSION_GROUPS } from './permission-groups';

describe('permission sections of the role editor', () => {
  it('place every permission of the catalogue exactly once', () => {
    const placed = Object.values(PERMISSION_GROUPS).flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual([...PERMISSIONS].sort());
    expect(groupedPermissions().find((s) => s.group === 'other')).toBeUndefined();
  });

  it('keep a role’s own list in section order and put unknown strings under other', () => {
    const sections = groupedPermissions(['view_tags', 'view_devices', 'future_permission']);
    expect(sections).toEqual([
      { group: 'devices', permissions: ['view_devices'] },
      { group: 'content', permissions: ['view_tags'] },
      { group: 'other', permissions: ['future_permission'] },
    ]);
  });

  it('offer only what the user holds (the server’s assertGrantable), super_admin included', () => {
    const admin = DEFAULT_ROLES.find((r) => r.name === 'admin')!.permissions;
    expect(isGrantable(admin, 'manage_tags')).toBe(true);
    expect(isGrantable(admin, 'super_admin')).toBe(false);
    expect(PERMISSIONS.filter((p) => isGrantable(admin, p))).toEqual([...admin]);
  });
});

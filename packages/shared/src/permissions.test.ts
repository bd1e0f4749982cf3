import { describe, expect, it } from 'vitest';
import { hasPermission, PERMISSIONS, SPEC_PERMISSIONS } from './permissions';
import { DEFAULT_ROLES, invitableRoles } from './roles';

describe('permissions and default roles (product §6)', () => {
  it('lists the 34 permission strings of the spec', () => {
    expect(SPEC_PERMISSIONS).toHaveLength(34);
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });

  it('has the five default roles with the ids, names and titles of the spec', () => {
    expect(DEFAULT_ROLES.map((r) => [r.id, r.name, r.title])).toEqual([
      [1, 'super_admin', 'System Administrator'],
      [2, 'admin', 'Administrator'],
      [3, 'end_user', 'End Client'],
      [6, 'readonly_admin', 'Advanced Guest'],
      [4, 'read_only', 'Guest'],
    ]);
  });

  it('gives the super admin every permission, and nobody else the super_admin one', () => {
    const byName = Object.fromEntries(DEFAULT_ROLES.map((r) => [r.name, r]));
    expect([...byName.super_admin!.permissions].sort()).toEqual([...PERMISSIONS].sort());
    for (const role of DEFAULT_ROLES.filter((r) => r.name !== 'super_admin')) {
      expect(role.permissions).not.toContain('super_admin');
    }
  });

  it('gives the guests no action permission at all', () => {
    for (const name of ['readonly_admin', 'read_only']) {
      const role = DEFAULT_ROLES.find((r) => r.name === name)!;
      expect(role.permissions.filter((p) => p.startsWith('manage_') || p.startsWith('update_'))).toEqual([]);
    }
  });

  it('treats a role unknown to the list as admin when listing invitable roles', () => {
    expect(invitableRoles('custom_role_x')).toEqual(invitableRoles('admin'));
    expect(invitableRoles('super_admin')).toEqual([
      'admin',
      'end_user',
      'readonly_admin',
      'read_only',
      'support',
    ]);
    expect(invitableRoles('read_only')).toEqual([]);
  });

  it('passes a list check if any match, or all when asked', () => {
    expect(hasPermission(['view_devices'], ['view_devices', 'view_users'])).toBe(true);
    expect(hasPermission(['view_devices'], ['view_devices', 'view_users'], 'all')).toBe(false);
    expect(hasPermission([], 'view_devices')).toBe(false);
  });
});

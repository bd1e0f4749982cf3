import { type WindowsStore, windowsStore } from '#src/lib/dialogs/windows-store';

/**
 * Openers of the roles dialogs of product §2 (listed in ./manifest.ts): 'new role', which also
 * edits a custom role, and 'role permissions'. Any screen may use them (a users table's role link).
 */

/** Opens 'new role', or the same dialog for an existing custom role. */
export function openRoleEditor(roleId?: number, store: WindowsStore = windowsStore): string {
  return store.openNamed('newRole', roleId === undefined ? {} : { roleId }, {
    id: roleId === undefined ? 'newRole' : `newRole:${roleId}`,
  });
}

/** Opens 'role permissions' for a role (product §6: view_permissions makes a role clickable). */
export function openRolePermissions(roleId: number, store: WindowsStore = windowsStore): string {
  return store.openNamed('rolePermissions', { roleId }, { id: `rolePermissions:${roleId}` });
}

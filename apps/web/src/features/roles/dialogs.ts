import i18next from 'i18next';
import { registerDialog } from '../../lib/dialogs/registry';
import { type WindowsStore, windowsStore } from '../../lib/dialogs/windows-store';
import { RoleEditor } from './components/RoleEditor';
import { RolePermissionsDialog } from './components/RolePermissionsDialog';

/**
 * The roles dialogs of product §2: 'new role' (also edits a custom role) and 'role
 * permissions'. They register when this module loads; open them through the helpers
 * below so any screen (a users table's role link) can use them.
 */
registerDialog('newRole', RoleEditor, {
  title: (props) =>
    i18next.t(props.roleId === undefined ? 'roles:editor.newTitle' : 'roles:editor.editTitle'),
  size: 'lg',
});
registerDialog('rolePermissions', RolePermissionsDialog, {
  title: () => i18next.t('roles:permissionsDialog.title'),
  size: 'md',
});

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

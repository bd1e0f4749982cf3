import i18next from 'i18next';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';

/** Roles: their table and the dialogs 'new role' (which also edits a custom role) and 'role permissions' (product §2). */
export const rolesFeature = defineFeature({
  pages: { 'users.roles': () => import('./RolesPage').then((m) => m.RolesPage) },
  dialogs: {
    newRole: dialog(() => import('./components/RoleEditor').then((m) => m.RoleEditor), {
      title: (props) =>
        i18next.t(props.roleId === undefined ? 'roles:editor.newTitle' : 'roles:editor.editTitle'),
      size: 'lg',
    }),
    rolePermissions: dialog(
      () => import('./components/RolePermissionsDialog').then((m) => m.RolePermissionsDialog),
      { title: () => i18next.t('roles:permissionsDialog.title') },
    ),
  },
});

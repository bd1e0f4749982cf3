import i18next from 'i18next';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';
import type { MoveUsersProps } from './dialogs/MoveUsersDialog';

const forms = () => import('./forms/user-forms');

/** Users: their table, invitations, move logs, the dialogs 'edit user role' and 'move users', the user forms. */
export const usersFeature = defineFeature({
  pages: {
    'users.table': () => import('./UsersPage').then((m) => m.UsersPage),
    'users.invitations': () => import('./InvitationsPage').then((m) => m.InvitationsPage),
    'users.move-logs': () => import('./MoveLogsPage').then((m) => m.MoveLogsPage),
  },
  dialogs: {
    editUserRole: dialog(() => import('./dialogs/EditUserRoleDialog').then((m) => m.EditUserRoleDialog), {
      title: () => i18next.t('users:editRole.title'),
      size: 'sm',
    }),
    moveUsers: dialog(() => import('./dialogs/MoveUsersDialog').then((m) => m.MoveUsersDialog), {
      title: (props: MoveUsersProps) => i18next.t('users:move.title', { count: props.users.length }),
    }),
  },
  forms: {
    newUser: () => import('./dialogs/InviteUserDialog').then((m) => m.newUserForm),
    inviteNewCompany: () => forms().then((m) => m.inviteNewCompanyForm),
    removeUserMfa: () => forms().then((m) => m.removeUserMfaForm),
    deleteUser: () => forms().then((m) => m.deleteUserForm),
    makeSSOAdmin: () => forms().then((m) => m.makeSsoAdminForm),
  },
});

import i18next from 'i18next';
import { registerDialog } from '../../lib/dialogs/registry';
import { windowsStore } from '../../lib/dialogs/windows-store';
import { formWindowId } from '../../lib/forms/submit';
import { EditUserRoleDialog } from './dialogs/EditUserRoleDialog';
import { InviteUserDialog, newUserForm } from './dialogs/InviteUserDialog';
import { MoveUsersDialog, type MoveUsersProps } from './dialogs/MoveUsersDialog';

let registered = false;

/** Registers the users feature's named dialogs of product §2: 'edit user role' and 'move users'. */
export function registerUserDialogs(): void {
  if (registered) return;
  registered = true;
  registerDialog('editUserRole', EditUserRoleDialog, {
    title: () => i18next.t('users:editRole.title'),
    size: 'sm',
  });
  registerDialog('moveUsers', MoveUsersDialog, {
    title: (props: MoveUsersProps) => i18next.t('users:move.title', { count: props.users.length }),
  });
}

/** Opens the newUser form (product §3) in a window; from a company's page the company is preset. */
export function openInviteUser(company?: { id: number; name: string }): string {
  return windowsStore.open(InviteUserDialog, company ? { company } : {}, {
    id: formWindowId(newUserForm.name, undefined),
    title: i18next.t('users:invite.title'),
    size: 'md',
  });
}

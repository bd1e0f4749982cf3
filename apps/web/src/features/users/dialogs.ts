import i18next from 'i18next';
import { windowsStore } from '#src/lib/dialogs/windows-store';
import { formWindowId } from '#src/lib/forms/submit';
import { InviteUserDialog, newUserForm } from './dialogs/InviteUserDialog';

/** Opens the newUser form (product §3) in a window; from a company's page the company is preset. */
export function openInviteUser(company?: { id: number; name: string }): string {
  return windowsStore.open(InviteUserDialog, company ? { company } : {}, {
    id: formWindowId(newUserForm.name, undefined),
    title: i18next.t('users:invite.title'),
    size: 'md',
  });
}

import { Avatar, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Deferred } from '#src/components/overlay/Deferred';
import { useSession } from '#src/lib/session/session-context';
import type { AccountDialog } from './components/AccountMenu';

// The menu and its windows come when first used, not with every screen.
const PermissionsModal = lazy(() =>
  import('./components/PermissionsModal').then((m) => ({ default: m.PermissionsModal })),
);
const TimezoneModal = lazy(() =>
  import('./components/TimezoneModal').then((m) => ({ default: m.TimezoneModal })),
);
const RevokeImpersonationDialog = lazy(() =>
  import('./components/RevokeImpersonationDialog').then((m) => ({ default: m.RevokeImpersonationDialog })),
);

/** The 'Move credits' modal of product §2 Header widgets: movePools, from the caller's own company. */
async function openMoveCredits(companyId: number) {
  // The forms engine and the form load with the first click, not with the header.
  const [{ movePoolsForm }, { openForm }] = await Promise.all([
    import('../resources/forms/resource-forms'),
    import('#src/components/forms/open-form'),
  ]);
  await openForm(await movePoolsForm({ source: companyId, title: 'move.widgetTitle' }));
}

/**
 * The account widget of product §2 Header widgets 3. Its dialogs live outside the menu so
 * that they stay open when the menu closes.
 */
export function AccountWidget() {
  const { t: ts } = useTranslation('shell');
  const { user } = useSession();
  const [opened, setOpened] = useState(false);
  const [dialog, setDialog] = useState<AccountDialog | null>(null);
  const open = (next: AccountDialog) => {
    setOpened(false);
    setDialog(next);
  };

  return (
    <>
      <Deferred
        load={() => import('./components/AccountMenu').then((m) => m.AccountMenu)}
        opened={opened}
        onChange={setOpened}
        popup="menu"
        props={{ onDialog: open, onMoveCredits: () => void openMoveCredits(user.company_id) }}
        target={
          // Named by what it shows (the initials) and what it is, so that speech input can
          // say either (WCAG 2.5.3 label in name).
          <UnstyledButton data-testid="account-widget">
            <Avatar src={user.avatar_url} alt="" size={26} radius="xl" name={user.email} color="initials" />
            <VisuallyHidden>{ts('account.menu')}</VisuallyHidden>
          </UnstyledButton>
        }
      />
      <Suspense fallback={null}>
        {dialog === 'permissions' && <PermissionsModal opened onClose={() => setDialog(null)} />}
        {dialog === 'timezone' && <TimezoneModal opened onClose={() => setDialog(null)} />}
        {dialog === 'revoke' && <RevokeImpersonationDialog opened onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
}

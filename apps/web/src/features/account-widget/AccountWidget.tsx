import { APP_VERSION } from '@fleetgate/shared/constants';
import { pathOf } from '@fleetgate/shared/routes';
import { Avatar, Badge, Menu, UnstyledButton, VisuallyHidden } from '@mantine/core';
import {
  IconArrowsExchange,
  IconClock,
  IconGift,
  IconLogout,
  IconNews,
  IconSettings,
  IconUserCancel,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '#src/lib/session/session-context';
import { useCancelImpersonation } from '../impersonation/hooks/use-cancel-impersonation';
import { AccountSummary } from './components/AccountSummary';
import { DarkModeMenu } from './components/DarkModeMenu';
import { ImpersonationStatus } from './components/ImpersonationStatus';
import { LanguageMenu } from './components/LanguageMenu';
import { ResourceSummary } from './components/ResourceSummary';
import { impersonationAccessUntil } from './utils';

// The menu's windows come when one is opened, not with every screen.
const PermissionsModal = lazy(() =>
  import('./components/PermissionsModal').then((m) => ({ default: m.PermissionsModal })),
);
const TimezoneModal = lazy(() =>
  import('./components/TimezoneModal').then((m) => ({ default: m.TimezoneModal })),
);
const RevokeImpersonationDialog = lazy(() =>
  import('./components/RevokeImpersonationDialog').then((m) => ({ default: m.RevokeImpersonationDialog })),
);

type Dialog = 'permissions' | 'timezone' | 'revoke' | null;

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
  const { t } = useTranslation('account-widget');
  const { t: ts } = useTranslation('shell');
  const { user, can } = useSession();
  const [opened, setOpened] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const cancelImpersonation = useCancelImpersonation();
  const accessUntil = impersonationAccessUntil(user);
  const open = (next: Dialog) => {
    setOpened(false);
    setDialog(next);
  };

  return (
    <>
      <Menu opened={opened} onChange={setOpened} position="bottom-end" width={290} withinPortal>
        <Menu.Target>
          {/* Named by what it shows (the initials) and what it is, so that speech input can
              say either (WCAG 2.5.3 label in name). */}
          <UnstyledButton data-testid="account-widget">
            <Avatar src={user.avatar_url} alt="" size={26} radius="xl" name={user.email} color="initials" />
            <VisuallyHidden>{ts('account.menu')}</VisuallyHidden>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown data-testid="account-menu">
          <AccountSummary onShowPermissions={() => open('permissions')} onNavigate={() => setOpened(false)} />
          {accessUntil && <ImpersonationStatus until={accessUntil} onRevoke={() => open('revoke')} />}
          <ResourceSummary />
          <Menu.Divider />
          <LanguageMenu />
          <DarkModeMenu />
          <Menu.Item leftSection={<IconClock size={16} />} onClick={() => open('timezone')}>
            {t('menu.timezone')}
          </Menu.Item>
          <Menu.Divider />
          {/* /account/* is the separate account app, hence a full page load. */}
          <Menu.Item component="a" href="/account/settings" leftSection={<IconSettings size={16} />}>
            {t('menu.settings')}
          </Menu.Item>
          {can('manage_credits') && (
            <Menu.Item
              leftSection={<IconArrowsExchange size={16} />}
              onClick={() => void openMoveCredits(user.company_id)}
              data-testid="move-credits"
            >
              {t('menu.moveCredits')}
            </Menu.Item>
          )}
          {can('activate_credit_transfer_codes') && (
            <Menu.Item
              component={Link}
              to={pathOf('service.add-credits')}
              leftSection={<IconGift size={16} />}
            >
              {t('menu.activateCode')}
            </Menu.Item>
          )}
          <Menu.Item
            component={Link}
            to={pathOf('changelog')}
            leftSection={<IconNews size={16} />}
            rightSection={
              <Badge size="xs" variant="light" data-testid="app-version">
                {APP_VERSION}
              </Badge>
            }
          >
            {t('menu.changelog')}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item component={Link} to={pathOf('logout')} leftSection={<IconLogout size={16} />}>
            {ts('nav.signOut')}
          </Menu.Item>
          {user.isImpersonating && (
            // product §4: ends the impersonation session and gives the actor a fresh session of
            // their own (the token is refreshed), then the page reloads.
            <Menu.Item
              color="orange"
              leftSection={<IconUserCancel size={16} />}
              onClick={() => void cancelImpersonation.run()}
              data-testid="cancel-impersonation"
            >
              {t('menu.logoutCancelImpersonation')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <Suspense fallback={null}>
        {dialog === 'permissions' && <PermissionsModal opened onClose={() => setDialog(null)} />}
        {dialog === 'timezone' && <TimezoneModal opened onClose={() => setDialog(null)} />}
        {dialog === 'revoke' && <RevokeImpersonationDialog opened onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
}

import { APP_VERSION } from '@fleetgate/shared/constants';
import { pathOf } from '@fleetgate/shared/routes';
import { Badge, Menu } from '@mantine/core';
import {
  IconArrowsExchange,
  IconClock,
  IconGift,
  IconLogout,
  IconNews,
  IconSettings,
  IconUserCancel,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { OverlayProps } from '#src/components/overlay/Deferred';
import { useSession } from '#src/lib/session/session-context';
import { useCancelImpersonation } from '../../impersonation/hooks/use-cancel-impersonation';
import { impersonationAccessUntil } from '../utils';
import { AccountSummary } from './AccountSummary';
import { DarkModeMenu } from './DarkModeMenu';
import { ImpersonationStatus } from './ImpersonationStatus';
import { LanguageMenu } from './LanguageMenu';
import { ResourceSummary } from './ResourceSummary';

export type AccountDialog = 'permissions' | 'timezone' | 'revoke';

type Props = OverlayProps & {
  /** Opens one of the menu's windows; they live outside the menu, to stay open when it closes. */
  onDialog(dialog: AccountDialog): void;
  onMoveCredits(): void;
};

/** The account widget's menu (product §2 Header widgets 3), loaded with its first use. */
export function AccountMenu({ opened, onChange, target, onDialog, onMoveCredits }: Props) {
  const { t } = useTranslation('account-widget');
  const { t: ts } = useTranslation('shell');
  const { user, can } = useSession();
  const cancelImpersonation = useCancelImpersonation();
  const accessUntil = impersonationAccessUntil(user);

  return (
    <Menu opened={opened} onChange={onChange} position="bottom-end" width={290} withinPortal>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown data-testid="account-menu">
        <AccountSummary
          onShowPermissions={() => onDialog('permissions')}
          onNavigate={() => onChange(false)}
        />
        {accessUntil && <ImpersonationStatus until={accessUntil} onRevoke={() => onDialog('revoke')} />}
        <ResourceSummary />
        <Menu.Divider />
        <LanguageMenu />
        <DarkModeMenu />
        <Menu.Item leftSection={<IconClock size={16} />} onClick={() => onDialog('timezone')}>
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
            onClick={onMoveCredits}
            data-testid="move-credits"
          >
            {t('menu.moveCredits')}
          </Menu.Item>
        )}
        {can('activate_credit_transfer_codes') && (
          <Menu.Item component={Link} to={pathOf('service.add-credits')} leftSection={<IconGift size={16} />}>
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
  );
}

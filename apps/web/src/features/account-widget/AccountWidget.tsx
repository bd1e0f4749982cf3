import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../app/session/session-context';

/** The account widget of spec §2 Header widgets. */
export function AccountWidget() {
  const { t } = useTranslation('shell');
  const { user } = useSession();
  return (
    <Menu position="bottom-end" width={280} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('account.menu')} data-testid="account-widget">
          <Avatar src={user.avatar_url} size={26} radius="xl" name={user.email} color="initials" />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" data-testid="account-email">
            {user.email}
          </Text>
          <Text size="xs">{user.role_title}</Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to="/logout" leftSection={<IconLogout size={16} />}>
          {t('nav.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

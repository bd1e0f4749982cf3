import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconShieldOff, IconUserKey, IconUserX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { UsersTable } from './components/UsersTable';
import { deleteUserForm, makeSsoAdminForm, removeUserMfaForm } from './forms/user-forms';

/** users.table (product §2) with the admin-only forms of product §3 for the super admin. */
export function UsersPage({ chain, params }: PageProps) {
  const { t } = useTranslation('users');
  const { can } = useSession();
  const adminMenu = can('super_admin') ? (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} />}>
          {t('admin.menu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconShieldOff size={16} />} onClick={() => void openForm(removeUserMfaForm)}>
          {t('admin.removeMfa')}
        </Menu.Item>
        <Menu.Item leftSection={<IconUserKey size={16} />} onClick={() => void openForm(makeSsoAdminForm)}>
          {t('admin.makeSso')}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconUserX size={16} />}
          onClick={() => void openForm(deleteUserForm)}
        >
          {t('admin.deleteUser')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  ) : undefined;
  return (
    <PageFrame chain={chain} params={params} actions={adminMenu}>
      <UsersTable />
    </PageFrame>
  );
}

import { pathOf } from '@fleetgate/shared/routes';
import type { UserRow } from '@fleetgate/shared/schemas/users';
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowsRightLeft, IconUserCog, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { roleTitle } from '#src/i18n/role-titles';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { useUsers } from '../api/users';
import { openInviteUser } from '../dialogs';

const PAGE_SIZE = 25;

type Props = {
  /** Only the users of this company (the company page's users tab). */
  company?: { id: number; name: string };
};

/**
 * users.table (product §2): e-mail, name, company, role, two-step verification, last
 * login; search, sort and paging on the server; invite, edit role and move users.
 */
export function UsersTable({ company }: Props) {
  const { t } = useTranslation('users');
  const { user, can } = useSession();
  const windows = useWindows();
  const list = useListState({ defaultSort: 'email', pageSize: PAGE_SIZE });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [chosen, setChosen] = useState<Map<number, string>>(new Map());
  const users = useUsers({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    company_id: company?.id,
  });
  const manage = can('manage_users');
  const isSelf = (id: number) => id === user.id;

  const select = (next: Set<number>) => {
    const emails = new Map(chosen);
    for (const row of users.data?.rows ?? []) if (next.has(row.id)) emails.set(row.id, row.email);
    for (const id of [...emails.keys()]) if (!next.has(id)) emails.delete(id);
    setChosen(emails);
    setSelected(next);
  };

  const moveUsers = (rows: { id: number; email: string }[]) =>
    windows.openNamed('moveUsers', { users: rows, onMoved: () => select(new Set()) }, { id: 'moveUsers' });

  const columns: Column<UserRow>[] = [
    {
      key: 'email',
      header: t('column.email'),
      sortKey: 'email',
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm" fw={500} data-testid="user-email">
            {row.email}
          </Text>
          {row.username !== row.email && (
            <Text size="xs" c="dimmed" data-testid="user-name">
              {row.username}
            </Text>
          )}
        </Stack>
      ),
    },
    ...(company
      ? []
      : [
          {
            key: 'company',
            header: t('column.company'),
            render: (row: UserRow) =>
              can('view_companies') ? (
                <Anchor
                  component={Link}
                  to={pathOf('company.info', { company_id: row.company_id })}
                  size="sm"
                >
                  {row.company_name}
                </Anchor>
              ) : (
                <Text size="sm">{row.company_name}</Text>
              ),
          },
        ]),
    {
      key: 'role',
      header: t('column.role'),
      // product §6: with view_permissions the role opens its permissions ('role permissions').
      render: (row) =>
        can('view_permissions') ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            data-testid="user-role"
            onClick={() =>
              void import('#src/features/roles/dialogs').then((m) => m.openRolePermissions(row.role_id))
            }
          >
            {roleTitle(row.role_title)}
          </Anchor>
        ) : (
          <Text size="sm" data-testid="user-role">
            {roleTitle(row.role_title)}
          </Text>
        ),
    },
    {
      key: 'mfa',
      header: t('column.mfa'),
      render: (row) => (
        <Group gap={4}>
          {row.mfa_type ? (
            <Badge color="green" variant="light" size="sm">
              {t(`mfa.${row.mfa_type}`, { defaultValue: row.mfa_type })}
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              {t('mfa.none')}
            </Text>
          )}
          {row.sso_admin && (
            <Badge variant="outline" size="sm">
              {t('badge.ssoAdmin')}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'last_login',
      header: t('column.lastLogin'),
      sortKey: 'last_login_at',
      render: (row) => <Text size="sm">{formatTime(row.last_login_at)}</Text>,
    },
    ...(manage
      ? [
          {
            key: 'actions',
            header: t('column.actions'),
            width: 100,
            render: (row: UserRow) => (
              <Group gap={4} wrap="nowrap">
                <RowAction
                  label={t('action.editRole')}
                  disabled={isSelf(row.id)}
                  onClick={() =>
                    windows.openNamed('editUserRole', { user: row }, { id: `editUserRole:${row.id}` })
                  }
                >
                  <IconUserCog size={16} />
                </RowAction>
                <RowAction
                  label={t('action.move')}
                  disabled={isSelf(row.id)}
                  onClick={() => moveUsers([{ id: row.id, email: row.email }])}
                >
                  <IconArrowsRightLeft size={16} />
                </RowAction>
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <ListSearch
          list={list}
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          w={320}
          testId="users-search"
        />
        {manage && (
          <Group gap="xs">
            {selected.size > 0 && (
              <Button
                variant="default"
                leftSection={<IconArrowsRightLeft size={16} />}
                onClick={() => moveUsers([...chosen].map(([id, email]) => ({ id, email })))}
              >
                {t('action.moveSelected', { count: selected.size })}
              </Button>
            )}
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => openInviteUser(company)}>
              {t('action.invite')}
            </Button>
          </Group>
        )}
      </Group>
      <PagedTable
        columns={columns}
        {...pageQueryProps(users, 'users')}
        list={list}
        label={t('table.users')}
        empty={list.q ? t('table.noMatch') : t('table.noUsers')}
        testId="users-table"
        minWidth={760}
        {...(manage
          ? {
              selection: {
                selected,
                onChange: select,
                disabled: isSelf,
                pageLabel: t('table.selectPage'),
                rowLabel: (id: number) => t('table.selectRow', { id }),
              },
            }
          : {})}
      />
    </Stack>
  );
}

import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import type { Role } from '@fleetgate/shared/schemas/roles';
import { Anchor, Badge, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '#src/components/page/PageFrame';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { roleDescription, roleTitle, shownRoleTitle } from '#src/i18n/role-titles';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useWindowsStore } from '#src/lib/dialogs/WindowsProvider';
import { useAction } from '#src/lib/http/use-action';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { companyKeys, fetchCompanyOptions } from '../companies/api/companies';
import { roleActions, roleKeys, useRoles } from './api/roles';
import { openRoleEditor, openRolePermissions } from './dialogs';

const PAGE_SIZE = 25;

/** users.roles (product §2): the default roles, read-only, and the custom roles of the caller's companies. */
export function RolesPage({ chain, params }: PageProps) {
  const { t } = useTranslation('roles');
  const { can } = useSession();
  const store = useWindowsStore();
  const windows = useWindows();
  const removal = useAction({
    call: (role: Role) => roleActions.remove(role.id),
    failure: { verb: 'remove', item: 'role' },
    invalidate: [roleKeys.all],
    success: t('delete.done'),
  });
  const [page, setPage] = useState(1);
  const [companyId, setCompanyId] = useState<string | null>(null);
  const defaults = useRoles({ type: 'default', limit: 100, offset: 0 });
  const custom = useRoles({
    type: 'custom',
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    ...(companyId ? { company_id: Number(companyId) } : {}),
  });
  const companies = useQuery({
    queryKey: companyKeys.options('all'),
    queryFn: () => fetchCompanyOptions(),
    enabled: can('view_companies'),
  });
  const manage = can('manage_roles');

  async function remove(role: Role) {
    const yes = await windows.confirm({
      title: t('delete.title'),
      message: t('delete.message', { title: roleTitle(role.title) }),
      confirmLabel: t('delete.confirm'),
      danger: true,
      id: `role-delete:${role.id}`,
    });
    if (!yes) return;
    await removal.run(role);
  }

  const permissionsCell = (role: Role) => (
    <Anchor
      component="button"
      type="button"
      size="sm"
      onClick={() => openRolePermissions(role.id, store)}
      data-testid="role-permissions-open"
      style={{ whiteSpace: 'nowrap' }}
    >
      {t('column.permissionsCount', { count: role.permissions_count })}
    </Anchor>
  );

  const titleCell = (role: Role) => (
    <Stack gap={0}>
      <Text size="sm" fw={500} title={roleTitle(role.title)} data-testid="role-title">
        {shownRoleTitle(role.title)}
      </Text>
      <Text size="xs" c="dimmed">
        {role.name}
      </Text>
    </Stack>
  );

  const invitable = (role: Role) =>
    role.canInviteRoles.length
      ? role.canInviteRoles
          .map((name) => DEFAULT_ROLES.find((r) => r.name === name)?.title ?? name)
          .join(', ')
      : '-';

  const defaultColumns: Column<Role>[] = [
    { key: 'title', header: t('column.title'), render: titleCell },
    {
      key: 'description',
      header: t('column.description'),
      render: (r) => (
        <Text size="sm" lineClamp={2} maw={420}>
          {roleDescription(r)}
        </Text>
      ),
    },
    { key: 'invites', header: t('column.invites'), render: (r) => <Text size="sm">{invitable(r)}</Text> },
    { key: 'permissions', header: t('column.permissions'), render: permissionsCell },
  ];

  const customColumns: Column<Role>[] = [
    { key: 'title', header: t('column.title'), render: titleCell },
    { key: 'company', header: t('column.company'), render: (r) => r.company_name ?? '-' },
    {
      key: 'description',
      header: t('column.description'),
      render: (r) => (
        <Text size="sm" lineClamp={2} maw={360}>
          {r.description || '-'}
        </Text>
      ),
    },
    { key: 'permissions', header: t('column.permissions'), render: permissionsCell },
    ...(manage
      ? [
          {
            key: 'actions',
            header: t('column.actions'),
            width: 100,
            render: (r: Role) => (
              <Group gap={4} wrap="nowrap">
                <RowAction
                  label={t('action.edit')}
                  onClick={() => openRoleEditor(r.id, store)}
                  testId="role-edit"
                >
                  <IconPencil size={16} />
                </RowAction>
                <RowAction
                  label={t('action.delete')}
                  color="red"
                  onClick={() => void remove(r)}
                  testId="role-delete"
                >
                  <IconTrash size={16} />
                </RowAction>
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        manage && (
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => openRoleEditor(undefined, store)}
            data-testid="role-create"
          >
            {t('action.create')}
          </Button>
        )
      }
    >
      <Stack gap="xl">
        <Stack gap="xs">
          <Group gap={6}>
            <Title order={3}>{t('section.default')}</Title>
            <Badge variant="light" color="gray" leftSection={<IconLock size={12} />}>
              {t('section.readOnly')}
            </Badge>
          </Group>
          <PagedTable
            columns={defaultColumns}
            {...pageQueryProps(defaults, 'roles', 'fetching')}
            rowProps={(r) => ({ 'data-testid': 'default-role-row', 'data-role': r.name })}
            page={1}
            pageSize={100}
            onPage={() => {}}
            label={t('section.default')}
            empty={t('table.empty')}
            testId="default-roles"
          />
        </Stack>
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={3}>{t('section.custom')}</Title>
            {can('view_companies') && (
              <Select
                aria-label={t('filter.company')}
                placeholder={t('filter.allCompanies')}
                data={companies.data ?? []}
                value={companyId}
                onChange={(value) => {
                  setCompanyId(value);
                  setPage(1);
                }}
                clearable
                searchable
                w={260}
              />
            )}
          </Group>
          <PagedTable
            columns={customColumns}
            {...pageQueryProps(custom, 'roles', 'fetching')}
            rowProps={(r) => ({ 'data-testid': 'custom-role-row', 'data-role': r.name })}
            page={page}
            pageSize={PAGE_SIZE}
            onPage={setPage}
            label={t('section.custom')}
            empty={t('table.customEmpty')}
            testId="custom-roles"
          />
        </Stack>
      </Stack>
    </PageFrame>
  );
}

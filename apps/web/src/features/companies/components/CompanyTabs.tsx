import { pathOf } from '@fleetgate/shared/routes';
import type { Json } from '@fleetgate/shared/schemas/api';
import type { DeviceRow } from '@fleetgate/shared/schemas/devices';
import type { UserRow } from '@fleetgate/shared/schemas/users';
import { Badge, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CellName } from '#src/components/table/CellName';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { useListState } from '#src/components/table/use-list-state';
import { roleTitle } from '#src/i18n/role-titles';
import { useModelName } from '#src/lib/brand/context';
import { api } from '#src/lib/http/client';
import { formatTime } from '#src/lib/time';
import { companyKeys, type Paged } from '../api/companies';

const PAGE_SIZE = 25;

/** The columns of a company's users and devices tabs (GET /users and /devices rows). */
type CompanyUser = Pick<
  Json<UserRow>,
  'id' | 'email' | 'username' | 'role_title' | 'mfa_type' | 'last_login_at'
>;
type CompanyDevice = Pick<
  Json<DeviceRow>,
  'id' | 'name' | 'serial' | 'model' | 'original_model' | 'status' | 'last_seen_at'
>;

/** product §4: 0 Offline, 1 Online, 2 Pending, otherwise Not Activated. */
const STATUS = {
  0: { key: 'deviceStatus.offline', color: 'red' },
  1: { key: 'deviceStatus.online', color: 'green' },
  2: { key: 'deviceStatus.pending', color: 'yellow' },
} as const;
const NOT_ACTIVATED = { key: 'deviceStatus.notActivated', color: 'gray' } as const;

function usePagedList<T>(path: string, companyId: number, params: Record<string, unknown>) {
  return useQuery({
    queryKey: [...companyKeys.all, path, companyId, params],
    queryFn: async (): Promise<Paged<T>> => {
      const response = await api.get<T[]>(path, {
        query: { ...(params as Record<string, string | number>), company_id: companyId },
      });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * One company's rows of a list endpoint (`GET path?company_id=`): a search box and a
 * server-paged table whose search, sort and page live in the URL.
 */
function CompanyListTab<T extends { id: number }>(props: {
  path: string;
  companyId: number;
  defaultSort: string;
  /** More query parameters (the fields to fetch). */
  params?: Record<string, unknown>;
  columns: readonly Column<T>[];
  search: string;
  label: string;
  empty: string;
  /** What a failure names ('users'). */
  noun: string;
  testId: string;
  rowTestId: string;
}) {
  const list = useListState({ defaultSort: props.defaultSort, pageSize: PAGE_SIZE });
  const query = usePagedList<T>(props.path, props.companyId, {
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    ...props.params,
  });
  return (
    <Stack>
      <ListSearch list={list} label={props.search} maw={360} />
      <PagedTable
        columns={props.columns}
        {...pageQueryProps(query, props.noun, 'fetching')}
        rowProps={() => ({ 'data-testid': props.rowTestId })}
        list={list}
        label={props.label}
        empty={props.empty}
        testId={props.testId}
        minWidth={600}
      />
    </Stack>
  );
}

/** company.userstable (product §2): the users of one company (GET /users?company_id=). */
export function CompanyUsersTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation('companies');
  const columns: Column<CompanyUser>[] = [
    { key: 'email', header: t('users.email'), sortKey: 'email', render: (u) => u.email },
    { key: 'role', header: t('users.role'), render: (u) => roleTitle(u.role_title) },
    {
      key: 'mfa',
      header: t('users.mfa'),
      render: (u) => (
        <Badge size="sm" variant="light" color={u.mfa_type ? 'green' : 'gray'}>
          {u.mfa_type ?? t('users.mfaNone')}
        </Badge>
      ),
    },
    {
      key: 'last_login',
      header: t('users.lastLogin'),
      sortKey: 'last_login_at',
      render: (u) => formatTime(u.last_login_at),
    },
  ];
  return (
    <CompanyListTab
      path="/users"
      companyId={companyId}
      defaultSort="email"
      columns={columns}
      search={t('users.search')}
      label={t('users.label')}
      empty={t('users.empty')}
      noun="users"
      testId="company-users"
      rowTestId="company-user-row"
    />
  );
}

const DEVICE_FIELDS = {
  fields: ['id', 'name', 'serial', 'model', 'original_model', 'status', 'last_seen_at'],
};

/** company.devices (product §2): the devices of one company (GET /devices?company_id=). */
export function CompanyDevicesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation('companies');
  const modelName = useModelName();
  const columns: Column<CompanyDevice>[] = [
    {
      key: 'name',
      header: t('devices.name'),
      sortKey: 'name',
      render: (d) => <CellName name={d.name} to={pathOf('device.info', { id: d.id })} />,
    },
    { key: 'serial', header: t('devices.serial'), sortKey: 'serial', render: (d) => d.serial },
    { key: 'model', header: t('devices.model'), sortKey: 'model', render: (d) => modelName(d) ?? '-' },
    {
      key: 'status',
      header: t('devices.status'),
      sortKey: 'status',
      render: (d) => {
        const status = STATUS[d.status as keyof typeof STATUS] ?? NOT_ACTIVATED;
        return (
          <Badge size="sm" variant="dot" color={status.color}>
            {t(status.key)}
          </Badge>
        );
      },
    },
    {
      key: 'last_seen',
      header: t('devices.lastSeen'),
      sortKey: 'last_seen_at',
      render: (d) => formatTime(d.last_seen_at),
    },
  ];
  return (
    <CompanyListTab
      path="/devices"
      companyId={companyId}
      defaultSort="name"
      params={DEVICE_FIELDS}
      columns={columns}
      search={t('devices.search')}
      label={t('devices.label')}
      empty={t('devices.empty')}
      noun="devices"
      testId="company-devices"
      rowTestId="company-device-row"
    />
  );
}

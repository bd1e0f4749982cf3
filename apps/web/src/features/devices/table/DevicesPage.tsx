import { DEVICE_KEYSET_SORTS } from '@fleetgate/shared/devices/list-keys';
import { Alert, Group, NativeSelect, Pagination, Stack, Text, useMantineTheme } from '@mantine/core';
import type { RowSelectionState } from '@tanstack/react-table';
import { lazy, memo, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import { pageControlProps } from '#src/components/table/page-controls';
import { useModelName } from '#src/lib/brand/context';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { userStorage, useUserStorage } from '#src/lib/storage/user-storage';
import { useDeviceList } from '../api/devices';
import type { DeviceFilters, DeviceListQuery } from '../api/types';
import { useCompanyStatusChannels } from '../hooks/use-live-status';
import { TABLE_PAGE_SIZES } from '../utils/constants';
import { DEVICE_COLUMNS, deviceColumns } from './columns';
import { DeviceFiltersBar } from './DeviceFiltersBar';
import { DevicesTable } from './DevicesTable';
import { DevicesToolbar } from './DevicesToolbar';
import { readFilters, writeFilters } from './url-state';
import { useTableSettings } from './use-table-settings';

// The selection's bar and its actions menu come with the first row checked, not with the landing.
const BulkBar = lazy(() => import('./BulkBar').then((m) => ({ default: m.BulkBar })));

export const DEVICES_TABLE_KEY = 'table.devices';
const PAGE_SIZE_KEY = 'table.devices.page_size';

/**
 * The page size of the table, drawn again only when it changes. The browser's own list: four
 * choices need no search, and it keeps the combobox's code out of the landing.
 */
const PageSizeSelect = memo(function PageSizeSelect({
  value,
  onChange,
}: {
  value: number;
  onChange(size: number): void;
}) {
  const { t } = useTranslation('devices');
  return (
    <NativeSelect
      aria-label={t('table.pageSize')}
      data={TABLE_PAGE_SIZES.map((n) => ({ value: String(n), label: t('table.perPage', { count: n }) }))}
      value={String(value)}
      onChange={(event) => onChange(Number(event.currentTarget.value))}
      w={130}
    />
  );
});

/**
 * The devices table (route management.devices, the default landing page):
 * server-side paging (keyset where the sort allows), sort, filters and search in the
 * address, column settings per user, live status, selection and bulk actions.
 */
export function DevicesPage({ chain, params }: PageProps) {
  const { t } = useTranslation('devices');
  const { user, can } = useSession();
  const [search, setSearch] = useSearchParams();
  // The filters, their bar and the toolbar keep their identity while only the rows change:
  // a page's rows arriving draws the rows, not the filter fields and menus again.
  const address = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address is what the filters are read from.
  const filters = useMemo(() => readFilters(search), [address]);
  const sort = search.get('sort') ?? 'name';
  const [stored] = useTableSettings(DEVICES_TABLE_KEY, DEVICE_COLUMNS);
  const canManage = can('manage_devices');
  // Selection serves the bulk actions (device commands, or services): users who may not act
  // (guests, product §6) get no checkboxes.
  const canBulk = canManage || can('update_device_credit_status');
  const settings = canBulk ? stored : { ...stored, hidden: [...stored.hidden, 'select'] };
  const [storedSize] = useUserStorage<number>(PAGE_SIZE_KEY, TABLE_PAGE_SIZES[0]);
  const pageSize = (TABLE_PAGE_SIZES as readonly number[]).includes(storedSize)
    ? storedSize
    : TABLE_PAGE_SIZES[0];

  // Page, cursors and selection belong to one view: a new filter, sort or page size starts again.
  const viewKey = JSON.stringify([filters, sort, pageSize]);
  const [paging, setPaging] = useState({ view: viewKey, page: 0 });
  const page = paging.view === viewKey ? paging.page : 0;
  const cursors = useRef({ view: viewKey, byPage: new Map<number, string>() });
  if (cursors.current.view !== viewKey) cursors.current = { view: viewKey, byPage: new Map() };
  const [selected, setSelected] = useState({ view: viewKey, rows: {} as RowSelectionState, all: false });
  const selection = selected.view === viewKey ? selected : { view: viewKey, rows: {}, all: false };

  const keyset = (DEVICE_KEYSET_SORTS as readonly string[]).includes(sort.replace(/^-/, ''));
  const cursor = keyset && page > 0 ? cursors.current.byPage.get(page) : undefined;
  const query: DeviceListQuery = { ...filters, sort, limit: pageSize, offset: page * pageSize, cursor };
  const list = useDeviceList(query);
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  if (list.data?.nextCursor && !list.isPlaceholderData) {
    cursors.current.byPage.set(page + 1, list.data.nextCursor);
  }

  // Names of every device seen in this view, for bulk results of rows on other pages.
  const names = useRef(new Map<number, string>());
  for (const row of rows) names.current.set(row.id, row.name);

  useCompanyStatusChannels([user.company_id, ...rows.map((row) => row.company_id)]);

  const companies = can('view_companies');
  const modelName = useModelName();
  const theme = useMantineTheme();
  const columns = useMemo(
    () => deviceColumns(t, { companyLinks: companies, modelName, theme }),
    [t, companies, modelName, theme],
  );
  const selectedIds = Object.keys(selection.rows)
    .filter((id) => selection.rows[id])
    .map(Number);

  const update = useCallback(
    (next: Partial<DeviceFilters>, nextSort = sort) =>
      setSearch(writeFilters(search, { ...filters, ...next }, nextSort), { replace: true }),
    [search, filters, sort, setSearch],
  );
  const changePageSize = useCallback((size: number) => userStorage.set(PAGE_SIZE_KEY, size), []);

  // The same element while the filters stay: the page's head is not drawn again for new rows.
  const actions = useMemo(
    () => <DevicesToolbar filters={filters} sort={sort} canManage={canManage} />,
    [filters, sort, canManage],
  );

  return (
    <PageFrame chain={chain} params={params} actions={actions}>
      <Stack gap="sm">
        <DeviceFiltersBar filters={filters} onChange={update} companies={companies} tags={can('view_tags')} />
        {list.isError && (
          <Alert color="red" role="alert">
            {failureMessage(list.error, 'get', 'devices')}
          </Alert>
        )}
        {canBulk && (selectedIds.length > 0 || selection.all) && (
          <Suspense fallback={null}>
            <BulkBar
              filters={filters}
              selectedIds={selectedIds}
              allMatching={selection.all}
              total={total}
              names={names.current}
              onSelectAll={(all) => setSelected({ ...selection, all })}
              onClear={() => setSelected({ view: viewKey, rows: {}, all: false })}
            />
          </Suspense>
        )}
        <DevicesTable
          rows={rows}
          columns={columns}
          settings={settings}
          sort={sort}
          onSort={(next) => update({}, next)}
          selection={selection.rows}
          onSelection={(next) => setSelected({ view: viewKey, rows: next, all: false })}
          loading={list.isFetching && list.isPlaceholderData}
        />
        <Group justify="space-between">
          <Text size="sm" c="dimmed" data-testid="devices-total">
            {list.data?.totalCapped
              ? t('table.totalCapped', { count: total, formatted: total.toLocaleString() })
              : t('table.total', { count: total })}
          </Text>
          <Group gap="sm">
            <PageSizeSelect value={pageSize} onChange={changePageSize} />
            {total > pageSize && (
              <Pagination
                total={Math.ceil(total / pageSize)}
                value={page + 1}
                onChange={(value) => setPaging({ view: viewKey, page: value - 1 })}
                getControlProps={pageControlProps(t)}
                data-testid="devices-pagination"
              />
            )}
          </Group>
        </Group>
      </Stack>
    </PageFrame>
  );
}

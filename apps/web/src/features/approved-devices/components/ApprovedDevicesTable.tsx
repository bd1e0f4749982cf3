import { pathOf } from '@fleetgate/shared/routes';
import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { formatTime } from '#src/lib/time';
import {
  type ApprovedDeviceJson,
  approvedDeviceActions,
  approvedKeys,
  useApprovedDevices,
} from '../api/approved-devices';

export const APPROVED_PAGE_SIZE = 25;

/** Newest approval first until the operator sorts by another column. */
const DEFAULT_ORDER = '-created_at';

const nowrap = { whiteSpace: 'nowrap' } as const;

/**
 * The approved serial and MAC pairs (product §2 auth.devices), searched by serial, MAC,
 * company or note and sorted by any column the server sorts; each says whether its device
 * has registered yet, and can be removed.
 */
export function ApprovedDevicesTable() {
  const { t } = useTranslation('approved-devices');
  const windows = useWindows();
  const list = useListState({ defaultSort: DEFAULT_ORDER, pageSize: APPROVED_PAGE_SIZE });
  const query = useApprovedDevices({ q: list.q, sort: list.sort, limit: list.limit, offset: list.offset });
  const removal = useAction({
    call: (approval: ApprovedDeviceJson) => approvedDeviceActions.remove(approval.id),
    failure: { verb: 'remove', item: 'approved device' },
    invalidate: [approvedKeys.all],
    success: t('remove.done'),
  });

  async function remove(approval: ApprovedDeviceJson) {
    const yes = await windows.confirm({
      title: t('remove.title'),
      // A registered device keeps its company; only a waiting approval frees the serial.
      message: t(approval.device_id === null ? 'remove.message' : 'remove.messageRegistered', {
        serial: approval.serial,
      }),
      confirmLabel: t('remove.confirm'),
      danger: true,
      id: `approved-device-remove:${approval.id}`,
    });
    if (yes) await removal.run(approval);
  }

  const columns: Column<ApprovedDeviceJson>[] = [
    {
      key: 'serial',
      header: t('column.serial'),
      sortKey: 'serial',
      render: (row) => (
        <Text size="sm" ff="monospace" data-testid="approved-serial">
          {row.serial}
        </Text>
      ),
    },
    {
      key: 'mac',
      header: t('column.mac'),
      sortKey: 'mac',
      render: (row) => (
        <Text size="sm" ff="monospace" style={nowrap}>
          {row.mac}
        </Text>
      ),
    },
    {
      key: 'company',
      header: t('column.company'),
      sortKey: 'company_name',
      render: (row) =>
        row.company_id === null ? (
          <Text size="sm" c="dimmed">
            {t('company.none')}
          </Text>
        ) : (
          <Anchor
            component={Link}
            to={pathOf('company.info', { company_id: row.company_id })}
            size="sm"
            data-testid="approved-company"
          >
            {row.company_name ?? `#${row.company_id}`}
          </Anchor>
        ),
    },
    {
      key: 'note',
      header: t('column.note'),
      render: (row) => (
        <Text size="sm" lineClamp={2} maw={240}>
          {row.note || '-'}
        </Text>
      ),
    },
    {
      key: 'approved',
      header: t('column.approved'),
      sortKey: 'created_at',
      render: (row) => (
        <Text size="sm" style={nowrap}>
          {formatTime(row.created_at)}
        </Text>
      ),
    },
    {
      key: 'device',
      header: t('column.device'),
      sortKey: 'registered_at',
      render: (row) =>
        row.device_id === null ? (
          <Badge color="gray" variant="light" data-testid="approved-state" data-state="waiting">
            {t('device.waiting')}
          </Badge>
        ) : (
          <Stack gap={2} align="flex-start">
            <Anchor
              component={Link}
              to={pathOf('device.info', { id: row.device_id })}
              aria-label={t('device.open', { serial: row.serial })}
            >
              <Badge color="green" variant="light" data-testid="approved-state" data-state="registered">
                {t('device.registered')}
              </Badge>
            </Anchor>
            <Text size="xs" c="dimmed" style={nowrap}>
              {formatTime(row.registered_at)}
            </Text>
          </Stack>
        ),
    },
    {
      key: 'actions',
      header: t('column.actions'),
      width: 80,
      render: (row) => (
        <RowAction
          label={t('action.remove')}
          color="red"
          onClick={() => void remove(row)}
          disabled={removal.pending && removal.variables?.id === row.id}
          testId="approved-remove"
        >
          <IconTrash size={16} />
        </RowAction>
      ),
    },
  ];

  return (
    <Stack>
      <ListSearch
        list={list}
        label={t('search.label')}
        placeholder={t('search.placeholder')}
        maw={360}
        testId="approved-search"
      />
      <PagedTable
        columns={columns}
        {...pageQueryProps(query, 'approved devices', 'fetching')}
        list={list}
        rowProps={(row) => ({ 'data-testid': 'approved-row', 'data-serial': row.serial })}
        label={t('table.label')}
        empty={list.q ? t('table.noMatch') : t('table.empty')}
        testId="approved-table"
        minWidth={900}
      />
    </Stack>
  );
}

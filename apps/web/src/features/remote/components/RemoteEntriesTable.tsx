import { pathOf } from '@fleetgate/shared/routes';
import { Badge, Group, Text } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconTerminal2, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { CellName } from '#src/components/table/CellName';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import {
  openConsole,
  type RemoteEntryJson,
  remoteActions,
  remoteKeys,
  useRemoteEntries,
} from '../api/remote';
import { openPortForward } from './PortForwards';

const PAGE_SIZE = 25;

/** Protocols the console opens today; the others are listed and open with their screens as they land. */
export const OPENABLE = new Set(['ssh']);

/**
 * Remote entries (product §2 remote.access; a device's access tab with `deviceId`): name,
 * device, protocol, where (host and port) and whether it is enabled; an SSH entry opens the
 * console. Managing them needs manage_devices.
 */
export function RemoteEntriesTable({ deviceId, prefix = '' }: { deviceId?: number; prefix?: string }) {
  const { t } = useTranslation('remote');
  const { can } = useSession();
  const windows = useWindows();
  const list = useListState({ defaultSort: 'name', pageSize: PAGE_SIZE, prefix });
  const query = useRemoteEntries({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    ...(deviceId === undefined ? {} : { device_id: deviceId }),
  });
  const manage = can('manage_devices');
  const removal = useAction({
    call: (entry: RemoteEntryJson) => remoteActions.removeEntry(entry.id),
    failure: { verb: 'remove', item: 'remote entry' },
    invalidate: [remoteKeys.all],
    success: t('remove.done'),
    ownWords: true,
  });

  async function remove(entry: RemoteEntryJson) {
    const yes = await windows.confirm({
      title: t('remove.title'),
      message: t('remove.message', { name: entry.name }),
      confirmLabel: t('remove.confirm'),
      danger: true,
      id: `remote-remove:${entry.id}`,
    });
    if (yes) await removal.run(entry);
  }

  const columns: Column<RemoteEntryJson>[] = [
    {
      key: 'name',
      header: t('column.name'),
      sortKey: 'name',
      render: (e) => (
        <CellName name={e.name} to={pathOf('remote.info', { id: e.id })} lines={1} testId="entry-link" />
      ),
    },
    ...(deviceId === undefined
      ? [
          {
            key: 'device',
            header: t('column.device'),
            sortKey: 'device_name',
            render: (e: RemoteEntryJson) => (
              <CellName name={e.device_name} to={pathOf('device.access', { id: e.device_id })} lines={1} />
            ),
          },
        ]
      : []),
    {
      key: 'protocol',
      header: t('column.protocol'),
      sortKey: 'protocol',
      render: (e) => (
        <Badge variant="light" tt="none" data-testid="entry-protocol">
          {t(`protocol.${e.protocol}`)}
        </Badge>
      ),
    },
    {
      key: 'where',
      header: t('column.where'),
      sortKey: 'host',
      render: (e) => (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {e.host}:{e.port}
        </Text>
      ),
    },
    {
      key: 'enabled',
      header: t('column.enabled'),
      sortKey: 'enabled',
      render: (e) => (
        <Badge variant="light" color={e.enabled ? 'green' : 'gray'} tt="none">
          {e.enabled ? t('enabled.on') : t('enabled.off')}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('column.actions'),
      width: 150,
      render: (e) => (
        <Group gap={2} wrap="nowrap">
          {manage && OPENABLE.has(e.protocol) && (
            <RowAction
              label={t('open.console')}
              onClick={() => openConsole({ entry_id: e.id })}
              disabled={!e.enabled}
              testId="entry-open"
            >
              <IconTerminal2 size={16} />
            </RowAction>
          )}
          {manage && (
            <>
              <RowAction
                label={t('forward.title')}
                onClick={() => void openPortForward({ entry_id: e.id })}
                disabled={!e.enabled}
                testId="entry-forward"
              >
                <IconPlugConnected size={16} />
              </RowAction>
              <RowAction
                label={t('edit.title')}
                onClick={async () => {
                  const { editRemoteForm } = await import('../forms/remote-forms');
                  await openForm(editRemoteForm(e));
                }}
                testId="entry-edit"
              >
                <IconPencil size={16} />
              </RowAction>
              <RowAction
                label={t('remove.title')}
                color="red"
                onClick={() => void remove(e)}
                testId="entry-remove"
              >
                <IconTrash size={16} />
              </RowAction>
            </>
          )}
        </Group>
      ),
    },
  ];

  return (
    <>
      <ListSearch
        list={list}
        label={t('entries.search')}
        placeholder={t('entries.searchPlaceholder')}
        w={260}
      />
      <PagedTable
        columns={columns}
        {...pageQueryProps(query, 'remote entries', 'fetching')}
        rowProps={(e) => ({ 'data-testid': 'entry-row', 'data-protocol': e.protocol })}
        list={list}
        label={t('entries.label')}
        empty={list.q ? t('entries.noMatch') : t('entries.empty')}
        testId="remote-entries"
        minWidth={deviceId === undefined ? 820 : 640}
      />
    </>
  );
}

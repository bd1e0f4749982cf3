import { pathOf } from '@fleetgate/shared/routes';
import { Badge, Group, Text } from '@mantine/core';
import {
  IconDeviceDesktop,
  IconFolder,
  IconPencil,
  IconPlugConnected,
  IconTerminal2,
  IconTrash,
  IconWorld,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { CellName } from '#src/components/table/CellName';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { notifyFailure, notifyInfo } from '#src/lib/http/toasts';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import {
  openConnect,
  openWebPage,
  type RemoteEntryJson,
  remoteActions,
  remoteKeys,
  SCREEN_OF,
  useRemoteEntries,
} from '../api/remote';
import { openPortForward } from './PortForwards';

const PAGE_SIZE = 25;

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
          {manage && <OpenEntry entry={e} />}
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

const SCREEN_ICONS = {
  ssh: IconTerminal2,
  telnet: IconTerminal2,
  sftp: IconFolder,
  desktop: IconDeviceDesktop,
};

/**
 * How an entry opens: its screen (console, files, desktop); an SSH entry also opens the files,
 * since SFTP runs over SSH. RDP is not drawn in the browser, and says so with the way that works.
 */
function OpenEntry({ entry }: { entry: RemoteEntryJson }) {
  const { t } = useTranslation('remote');
  const screen = SCREEN_OF[entry.protocol];
  if (entry.protocol === 'http' || entry.protocol === 'https')
    return (
      <RowAction
        label={t('open.web')}
        onClick={() =>
          void openWebPage({ entry_id: entry.id }).then((failed) => failed && notifyFailure(failed))
        }
        disabled={!entry.enabled}
        testId="entry-open"
      >
        <IconWorld size={16} />
      </RowAction>
    );
  if (entry.protocol === 'rdp')
    return (
      <RowAction label={t('open.rdp')} onClick={() => notifyInfo(t('rdp.why'))} testId="entry-open">
        <IconDeviceDesktop size={16} />
      </RowAction>
    );
  if (!screen) return null;
  const Icon = SCREEN_ICONS[screen];
  return (
    <>
      <RowAction
        label={t(`open.${screen}`)}
        onClick={() => openConnect(screen, { entry_id: entry.id })}
        disabled={!entry.enabled}
        testId="entry-open"
      >
        <Icon size={16} />
      </RowAction>
      {entry.protocol === 'ssh' && (
        <RowAction
          label={t('open.sftp')}
          onClick={() => openConnect('sftp', { entry_id: entry.id })}
          disabled={!entry.enabled}
          testId="entry-files"
        >
          <IconFolder size={16} />
        </RowAction>
      )}
    </>
  );
}

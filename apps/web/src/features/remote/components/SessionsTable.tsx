import { pathOf } from '@fleetgate/shared/routes';
import { Badge, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CellName } from '#src/components/table/CellName';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { type RemoteSessionJson, remoteActions, remoteKeys, useRemoteSessions } from '../api/remote';
import { formatBytes, formatDuration } from '../utils/format';

const PAGE_SIZE = 25;
const nowrap = { whiteSpace: 'nowrap' } as const;
type Shown = 'all' | 'true' | 'false';

/**
 * The access history (product §2 service.connect-history; a device's access tab with
 * `deviceId`): every remote session, who opened it (and who was impersonating), the device
 * and entry, when and for how long, the bytes each way and how it ended. A live session can
 * be ended by a holder of manage_devices.
 */
export function SessionsTable({
  deviceId,
  entryId,
  prefix = '',
}: {
  deviceId?: number;
  entryId?: number;
  prefix?: string;
}) {
  const { t } = useTranslation('remote');
  const { can } = useSession();
  const windows = useWindows();
  const list = useListState({ defaultSort: '-started_at', pageSize: PAGE_SIZE, prefix });
  const [shown, setShown] = useState<Shown>('all');
  const query = useRemoteSessions({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    ...(deviceId === undefined ? {} : { device_id: deviceId }),
    ...(entryId === undefined ? {} : { entry_id: entryId }),
    ...(shown === 'all' ? {} : { active: shown }),
  });
  const ending = useAction({
    call: (session: RemoteSessionJson) => remoteActions.endSession(session.id),
    failure: { verb: 'end', item: 'session' },
    invalidate: [remoteKeys.all],
    success: t('end.done'),
    ownWords: true,
  });

  async function end(session: RemoteSessionJson) {
    const yes = await windows.confirm({
      title: t('end.title'),
      message: t('end.message', {
        user: session.user_email ?? '—',
        device: session.device_name ?? session.device_id,
      }),
      confirmLabel: t('end.confirm'),
      danger: true,
      id: `session-end:${session.id}`,
    });
    if (yes) await ending.run(session);
  }

  const columns: Column<RemoteSessionJson>[] = [
    {
      key: 'started',
      header: t('column.started'),
      sortKey: 'started_at',
      render: (s) => (
        <Text size="sm" style={nowrap}>
          {formatTime(s.started_at)}
        </Text>
      ),
    },
    {
      key: 'user',
      header: t('column.user'),
      sortKey: 'user_email',
      render: (s) => (
        <Stack gap={0}>
          <CellName name={s.user_email ?? '—'} lines={1} maw="16rem" />
          {s.actor_email && (
            <Text size="xs" c="dimmed">
              {t('session.by', { actor: s.actor_email })}
            </Text>
          )}
          {s.share_link_id && (
            <Text size="xs" c="dimmed" data-testid="session-shared">
              {t('session.shared')}
            </Text>
          )}
        </Stack>
      ),
    },
    ...(deviceId === undefined
      ? [
          {
            key: 'device',
            header: t('column.device'),
            sortKey: 'device_name',
            render: (s: RemoteSessionJson) => (
              <CellName
                name={s.device_name ?? `#${s.device_id}`}
                to={pathOf('device.access', { id: s.device_id })}
                lines={1}
              />
            ),
          },
        ]
      : []),
    {
      key: 'what',
      header: t('column.what'),
      sortKey: 'protocol',
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm" style={nowrap}>
            {t(`protocol.${s.protocol}`, { defaultValue: s.protocol })}
            {s.entry_name ? ` · ${s.entry_name}` : ''}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" style={nowrap}>
            {s.login ? `${s.login}@` : ''}
            {s.host}:{s.port}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'duration',
      header: t('column.duration'),
      sortKey: 'ended_at',
      render: (s) =>
        s.ended_at ? (
          <Text size="sm" style={nowrap}>
            {formatDuration(Date.parse(s.ended_at) - Date.parse(s.started_at))}
          </Text>
        ) : (
          <Badge color="green" variant="light" tt="none" data-testid="session-live">
            {t('session.live')}
          </Badge>
        ),
    },
    {
      key: 'bytes',
      header: t('column.bytes'),
      render: (s) => (
        <Text size="sm" style={nowrap} data-testid="session-bytes">
          ↑ {formatBytes(s.bytes_to_device)} · ↓ {formatBytes(s.bytes_from_device)}
        </Text>
      ),
    },
    {
      key: 'ended',
      header: t('column.ended'),
      render: (s) => (
        <Text size="sm" lineClamp={2} maw={240} title={s.end_reason ?? undefined}>
          {s.end_reason ?? '—'}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t('column.actions'),
      width: 90,
      render: (s: RemoteSessionJson) => (
        <Group gap={2} wrap="nowrap">
          {s.recorded && s.ended_at && (
            <RowAction
              label={t('replay.title')}
              onClick={() => windows.openNamed('remoteReplay', { sessionId: s.id }, { id: `replay:${s.id}` })}
              testId="session-replay"
            >
              <IconPlayerPlay size={16} />
            </RowAction>
          )}
          {can('manage_devices') && !s.ended_at && (
            <RowAction label={t('end.title')} color="red" onClick={() => void end(s)} testId="session-end">
              <IconPlayerStop size={16} />
            </RowAction>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <ListSearch
          list={list}
          label={t('sessions.search')}
          placeholder={t('sessions.searchPlaceholder')}
          w={260}
        />
        <SegmentedControl
          aria-label={t('sessions.show')}
          value={shown}
          onChange={(value) => {
            setShown(value as Shown);
            list.setPage(1);
          }}
          data={[
            { value: 'all', label: t('sessions.all') },
            { value: 'true', label: t('sessions.live') },
            { value: 'false', label: t('sessions.ended') },
          ]}
        />
      </Group>
      <PagedTable
        columns={columns}
        {...pageQueryProps(query, 'sessions', 'fetching')}
        rowProps={(s) => ({ 'data-testid': 'session-row', 'data-live': s.ended_at ? 'no' : 'yes' })}
        list={list}
        label={t('sessions.label')}
        empty={list.q || shown !== 'all' ? t('sessions.noMatch') : t('sessions.empty')}
        testId="remote-sessions"
        minWidth={deviceId === undefined ? 1100 : 960}
      />
    </Stack>
  );
}

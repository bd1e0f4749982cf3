import { deviceChannels } from '@fleetgate/shared/devices/events';
import { Badge, Box, Button, Code, Group, Paper, Stack, Title } from '@mantine/core';
import { IconDownload, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { downloadFile } from '#src/lib/http/download';
import { failureMessage } from '#src/lib/http/results';
import { notifyFailure } from '#src/lib/http/toasts';
import { useAction } from '#src/lib/http/use-action';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { useChannel } from '#src/lib/socket/useChannel';
import { formatTime } from '#src/lib/time';
import { FILE_ACTIONS } from '../action-source';
import { deviceActions, deviceKeys, useDeviceCommands, useDeviceEvents } from '../api/devices';
import type { DeviceCommand, DeviceDetail, DeviceEvent } from '../api/types';
import { text } from '../utils/format';
import { DeviceFrame } from './DeviceFrame';

const PAGE_SIZE = 10;
const STATUS_COLORS: Record<string, string> = {
  pending: 'yellow',
  sent: 'blue',
  acked: 'cyan',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
  expired: 'orange',
};
const SEVERITY_COLORS: Record<string, string> = { info: 'blue', warning: 'orange', error: 'red' };

/** Tab device.activity: the command history and the device's events, paged and live. */
export function ActivityTab({ chain, params }: PageProps) {
  return (
    <DeviceFrame chain={chain} params={params}>
      {(device) => <Activity device={device} />}
    </DeviceFrame>
  );
}

function Activity({ device }: { device: DeviceDetail }) {
  const queryClient = useQueryClient();
  const channel = deviceChannels.device(device.id);
  // New steps and events arrive on the device's channel; the open pages read again.
  useChannel(channel, 'DeviceActionUpdated', () =>
    queryClient.invalidateQueries({ queryKey: [...deviceKeys.detail(device.id), 'commands'] }),
  );
  useChannel(channel, 'DeviceEventRecorded', () =>
    queryClient.invalidateQueries({ queryKey: [...deviceKeys.detail(device.id), 'events'] }),
  );
  return (
    <Stack gap="lg">
      <Commands deviceId={device.id} />
      <Events deviceId={device.id} />
    </Stack>
  );
}

function Commands({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('devices');
  const { can } = useSession();
  const canManage = can('manage_devices');
  const [page, setPage] = useState(1);
  const list = useDeviceCommands(deviceId, page, PAGE_SIZE);
  const fail = (error: unknown) => notifyFailure(failureMessage(error, 'send', 'command'));
  // The command's new status arrives on the device's channel, which reads the list again.
  const cancel = useAction({
    call: (command: DeviceCommand) => deviceActions.cancel(command.id),
    failure: { verb: 'send', item: 'command' },
  });
  const columns: Column<DeviceCommand>[] = [
    {
      key: 'time',
      header: t('activity.time'),
      render: (command) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(command.created_at)}</span>,
    },
    {
      key: 'action',
      header: t('activity.action'),
      render: (command) => t(`action.${command.action}`, { defaultValue: command.action }),
    },
    {
      key: 'status',
      header: t('activity.status'),
      render: (command) => (
        <Badge color={STATUS_COLORS[command.status] ?? 'gray'} variant="light">
          {t(`commandStatus.${command.status}`)}
        </Badge>
      ),
    },
    {
      key: 'result',
      header: t('activity.result'),
      render: (command) => {
        const result = command.error ?? command.output;
        return result ? (
          <Box maw={420}>
            <Code block c={command.error ? 'red' : undefined} style={{ maxHeight: 120, overflow: 'auto' }}>
              {result}
            </Code>
          </Box>
        ) : (
          '-'
        );
      },
    },
    {
      key: 'actions',
      header: '',
      render: (command) => (
        <Group gap={4} wrap="nowrap">
          {canManage && command.status === 'pending' && (
            <Button
              size="compact-xs"
              variant="light"
              color="red"
              leftSection={<IconX size={12} />}
              onClick={() => void cancel.run(command)}
            >
              {t('activity.cancel')}
            </Button>
          )}
          {command.status === 'done' && FILE_ACTIONS.has(command.action) && command.file_name && (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconDownload size={12} />}
              onClick={() =>
                downloadFile(`/devices/commands/${command.id}/file`, {
                  fallbackName: command.file_name ?? command.action,
                }).catch(fail)
              }
            >
              {t('activity.download')}
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('activity.commands')}</Title>
        <PagedTable
          columns={columns}
          {...pageQueryProps(list, 'command history')}
          page={page}
          pageSize={PAGE_SIZE}
          onPage={setPage}
          label={t('activity.commands')}
          empty={t('activity.noCommands')}
          testId="command-history"
          minWidth={700}
          rowProps={(command) => ({
            'data-testid': 'command-row',
            'data-status': command.status,
            'data-action': command.action,
          })}
        />
      </Stack>
    </Paper>
  );
}

function Events({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('devices');
  const [page, setPage] = useState(1);
  const list = useDeviceEvents(deviceId, page, PAGE_SIZE);
  const columns: Column<DeviceEvent>[] = [
    {
      key: 'time',
      header: t('activity.time'),
      render: (event) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(event.at)}</span>,
    },
    {
      key: 'severity',
      header: t('activity.severity'),
      render: (event) => (
        <Badge color={SEVERITY_COLORS[event.severity] ?? 'gray'} variant="light">
          {t(`severity.${event.severity}`, { defaultValue: event.severity })}
        </Badge>
      ),
    },
    { key: 'type', header: t('activity.type'), render: (event) => text(event.type) },
    // Device-reported text: shown as text, never as markup (docs/device-protocol.md §4.4).
    { key: 'message', header: t('activity.message'), render: (event) => text(event.message) },
  ];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('activity.events')}</Title>
        <PagedTable
          columns={columns}
          {...pageQueryProps(list, 'device events')}
          page={page}
          pageSize={PAGE_SIZE}
          onPage={setPage}
          label={t('activity.events')}
          empty={t('activity.noEvents')}
          testId="device-events"
          minWidth={600}
          rowProps={(event) => ({ 'data-testid': 'event-row', 'data-type': event.type })}
        />
      </Stack>
    </Paper>
  );
}

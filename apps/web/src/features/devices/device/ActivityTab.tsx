import { deviceChannels } from '@fleetgate/shared/devices/events';
import { Badge, Button, Code, Group, Pagination, Paper, Stack, Table, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/router/RouteScreen';
import { useSession } from '../../../app/session/session-context';
import { EmptyRow } from '../../../components/table/EmptyRow';
import { downloadFile } from '../../../lib/http/download';
import { failureMessage } from '../../../lib/http/results';
import { useChannel } from '../../../lib/socket/useChannel';
import { formatTime } from '../../../lib/time';
import { deviceActions, deviceKeys, useDeviceCommands, useDeviceEvents } from '../api/devices';
import type { DeviceCommand, DeviceDetail } from '../api/types';
import { text } from '../utils/format';
import { DeviceFrame } from './DeviceFrame';

const PAGE_SIZE = 10;
const FILE_ACTIONS = new Set(['export_backup', 'export_event_log', 'export_troubleshoot']);
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
  const [page, setPage] = useState(1);
  const list = useDeviceCommands(deviceId, page, PAGE_SIZE);
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const fail = (error: unknown) =>
    notifications.show({ color: 'red', message: failureMessage(error, 'send', 'command') });

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('activity.commands')}</Title>
        <Table.ScrollContainer minWidth={700}>
          <Table verticalSpacing="xs" data-testid="command-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.time')}</Table.Th>
                <Table.Th>{t('activity.action')}</Table.Th>
                <Table.Th>{t('activity.status')}</Table.Th>
                <Table.Th>{t('activity.result')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && !list.isPending && (
                <EmptyRow colSpan={5}>{t('activity.noCommands')}</EmptyRow>
              )}
              {rows.map((command) => (
                <CommandRow
                  key={command.id}
                  command={command}
                  canManage={can('manage_devices')}
                  onCancel={() => deviceActions.cancel(command.id).catch(fail)}
                  onDownload={() =>
                    downloadFile(`/devices/commands/${command.id}/file`, {
                      fallbackName: command.file_name ?? command.action,
                    }).catch(fail)
                  }
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {total > PAGE_SIZE && (
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
        )}
      </Stack>
    </Paper>
  );
}

function CommandRow({
  command,
  canManage,
  onCancel,
  onDownload,
}: {
  command: DeviceCommand;
  canManage: boolean;
  onCancel(): void;
  onDownload(): void;
}) {
  const { t } = useTranslation('devices');
  const result = command.error ?? command.output;
  return (
    <Table.Tr data-testid="command-row" data-status={command.status} data-action={command.action}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(command.created_at)}</Table.Td>
      <Table.Td>{t(`action.${command.action}`, { defaultValue: command.action })}</Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLORS[command.status] ?? 'gray'} variant="light">
          {t(`commandStatus.${command.status}`)}
        </Badge>
      </Table.Td>
      <Table.Td maw={420}>
        {result ? (
          <Code block c={command.error ? 'red' : undefined} style={{ maxHeight: 120, overflow: 'auto' }}>
            {result}
          </Code>
        ) : (
          '-'
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          {canManage && command.status === 'pending' && (
            <Button
              size="compact-xs"
              variant="light"
              color="red"
              leftSection={<IconX size={12} />}
              onClick={onCancel}
            >
              {t('activity.cancel')}
            </Button>
          )}
          {command.status === 'done' && FILE_ACTIONS.has(command.action) && command.file_name && (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconDownload size={12} />}
              onClick={onDownload}
            >
              {t('activity.download')}
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function Events({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('devices');
  const [page, setPage] = useState(1);
  const list = useDeviceEvents(deviceId, page, PAGE_SIZE);
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('activity.events')}</Title>
        <Table.ScrollContainer minWidth={600}>
          <Table verticalSpacing="xs" data-testid="device-events">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.time')}</Table.Th>
                <Table.Th>{t('activity.severity')}</Table.Th>
                <Table.Th>{t('activity.type')}</Table.Th>
                <Table.Th>{t('activity.message')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && !list.isPending && (
                <EmptyRow colSpan={4}>{t('activity.noEvents')}</EmptyRow>
              )}
              {rows.map((event) => (
                <Table.Tr key={event.id} data-testid="event-row" data-type={event.type}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(event.at)}</Table.Td>
                  <Table.Td>
                    <Badge color={SEVERITY_COLORS[event.severity] ?? 'gray'} variant="light">
                      {t(`severity.${event.severity}`, { defaultValue: event.severity })}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{text(event.type)}</Table.Td>
                  {/* Device-reported text: shown as text, never as markup (docs/device-protocol.md §4.4). */}
                  <Table.Td>{text(event.message)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {total > PAGE_SIZE && (
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
        )}
      </Stack>
    </Paper>
  );
}

import { deviceChannels } from '@fleetgate/shared/devices/events';
import { Alert, Box, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '#src/components/page/PageFrame';
import { ApiError } from '#src/lib/http/errors';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { useChannel } from '#src/lib/socket/useChannel';
import { deviceKeys, useDevice } from '../api/devices';
import type { DeviceDetail } from '../api/types';
import { StatusBadge } from '../components/StatusBadge';
import { applyStatusChange } from '../hooks/use-live-status';
import { text } from '../utils/format';
import { DEVICE_ACTION_PERMISSIONS, DeviceActionsMenu } from './DeviceActionsMenu';
import { DeviceHeader } from './DeviceHeader';

const STATE_REFRESH_MS = 10_000;

type Props = Pick<PageProps, 'chain' | 'params'> & { children(device: DeviceDetail): ReactNode };

/**
 * The frame of every device tab (route device.info and its tabs): the device's
 * name and live status as the title, its actions, the header, then the tab.
 */
export function DeviceFrame({ chain, params, children }: Props) {
  const { t } = useTranslation('devices');
  const { can } = useSession();
  const queryClient = useQueryClient();
  const id = Number(params.id);
  const device = useDevice(id);
  // Live status in the header (private-device.{id}, docs/device-protocol.md §7).
  useChannel(Number.isInteger(id) ? deviceChannels.device(id) : null, 'DeviceStatusChanged', (change) =>
    applyStatusChange(queryClient, change),
  );

  // The header's last state follows the telemetry, read again at most every 10 s.
  const lastRead = useRef(0);
  useChannel(Number.isInteger(id) ? deviceChannels.device(id) : null, 'DeviceTelemetry', () => {
    if (Date.now() - lastRead.current < STATE_REFRESH_MS) return;
    lastRead.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: deviceKeys.detail(id), exact: true });
  });

  if (!Number.isInteger(id) || id < 1) {
    return (
      <PageFrame chain={chain} params={params}>
        <Alert color="red" role="alert" data-testid="device-error">
          {t('device.notFound')}
        </Alert>
      </PageFrame>
    );
  }
  if (device.isPending) {
    return (
      <PageFrame chain={chain} params={params}>
        <Center py="xl">
          <Loader />
        </Center>
      </PageFrame>
    );
  }
  if (device.isError || !device.data) {
    const missing = device.error instanceof ApiError && device.error.status === 404;
    return (
      <PageFrame chain={chain} params={params}>
        <Alert color="red" role="alert" data-testid="device-error">
          {missing ? t('device.notFound') : failureMessage(device.error, 'get', 'device')}
        </Alert>
      </PageFrame>
    );
  }
  const data = device.data;
  return (
    <PageFrame
      chain={chain}
      params={params}
      names={{ 'device.info': text(data.name) }}
      title={
        <Group gap="sm" component="span" wrap="nowrap">
          <Text
            component="span"
            inherit
            miw={0}
            lineClamp={3}
            title={text(data.name)}
            data-testid="device-name"
          >
            {text(data.name)}
          </Text>
          {/* The status is never squeezed: it reads 'Online', not 'ONLI…', whatever the name's length. */}
          <Box component="span" display="inline-flex" style={{ flex: 'none' }}>
            <StatusBadge status={data.status} />
          </Box>
        </Group>
      }
      actions={can(DEVICE_ACTION_PERMISSIONS) ? <DeviceActionsMenu device={data} /> : undefined}
    >
      <Stack gap="md">
        <DeviceHeader device={data} companyLink={can('view_companies')} />
        {children(data)}
      </Stack>
    </PageFrame>
  );
}

import { Button, Group, Stack, Title } from '@mantine/core';
import { IconFolder, IconTerminal2, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Panel } from '#src/components/page/Panel';
import { DeviceFrame } from '#src/features/devices/device/DeviceFrame';
import { notifyFailure } from '#src/lib/http/toasts';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { openConnect, openWebPage } from './api/remote';
import { PortForwards } from './components/PortForwards';
import { RemoteEntriesTable } from './components/RemoteEntriesTable';
import { SessionsTable } from './components/SessionsTable';
import { AddRemoteButton } from './RemoteAccessPage';

/**
 * Tab device.access (product §2, view_device_remote_access): the device's own console (its
 * SSH through the tunnel), its remote entries with 'Add remote', and its access history.
 */
export function DeviceAccessTab({ chain, params }: PageProps) {
  const { t } = useTranslation('remote');
  const { can } = useSession();
  return (
    <DeviceFrame chain={chain} params={params}>
      {(device) => (
        <Stack gap="lg">
          {can('manage_devices') && (
            <Panel
              title={t('console.heading')}
              text={t('console.text')}
              action={
                <Group gap="xs">
                  <Button
                    leftSection={<IconTerminal2 size={16} />}
                    onClick={() => openConnect('ssh', { device_id: device.id })}
                    data-testid="device-console"
                  >
                    {t('open.console')}
                  </Button>
                  <Button
                    variant="default"
                    leftSection={<IconFolder size={16} />}
                    onClick={() => openConnect('sftp', { device_id: device.id })}
                    data-testid="device-files"
                  >
                    {t('open.sftp')}
                  </Button>
                  <Button
                    variant="default"
                    leftSection={<IconWorld size={16} />}
                    onClick={() =>
                      void openWebPage({ device_id: device.id }).then(
                        (failed) => failed && notifyFailure(failed),
                      )
                    }
                    data-testid="device-web"
                  >
                    {t('open.web')}
                  </Button>
                </Group>
              }
            />
          )}
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={3} size="h4">
                {t('entries.label')}
              </Title>
              <AddRemoteButton device={{ id: device.id, name: device.name }} />
            </Group>
            <RemoteEntriesTable deviceId={device.id} prefix="entries-" />
          </Stack>
          <PortForwards deviceId={device.id} />
          <Stack gap="xs">
            <Title order={3} size="h4">
              {t('sessions.label')}
            </Title>
            <SessionsTable deviceId={device.id} prefix="sessions-" />
          </Stack>
        </Stack>
      )}
    </DeviceFrame>
  );
}

import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useWindow } from './window-context';

/**
 * 'Action status' (spec §4 Form submission): the server accepted a mutation that goes on
 * in the background and reports its progress on a realtime channel.
 */
export function ActionStatusDialog({ channel, message }: { channel: string; message?: string }) {
  const { t } = useTranslation('dialogs');
  const window = useWindow();
  return (
    <Stack>
      {message && <Text>{message}</Text>}
      <Alert icon={<IconBroadcast size={18} />} color="blue" variant="light">
        {t('actionStatus.progress')}
      </Alert>
      <Text size="sm" c="dimmed">
        {t('actionStatus.channel')} <Code data-testid="action-status-channel">{channel}</Code>
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => window?.close()}>
          {t('actionStatus.close')}
        </Button>
      </Group>
    </Stack>
  );
}

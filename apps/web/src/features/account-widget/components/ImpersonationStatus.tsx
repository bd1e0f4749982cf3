import { Button, Group, Stack, Text } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '#src/lib/time';

/** Impersonation status of product §2 Header widgets 3: until when support may act as this user. */
export function ImpersonationStatus({ until, onRevoke }: { until: string; onRevoke(): void }) {
  const { t } = useTranslation('account-widget');
  return (
    <Stack gap={4} px="sm" py="xs" data-testid="impersonation-status">
      <Group gap={6} wrap="nowrap">
        <IconUserShield size={16} />
        <Text size="xs" fw={600}>
          {t('impersonation.title')}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('impersonation.until', { time: formatTime(until) })}
      </Text>
      <Button size="compact-xs" variant="light" color="red" onClick={onRevoke}>
        {t('impersonation.revoke')}
      </Button>
    </Stack>
  );
}

import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The maintenance screen of product §4: shown when the session cannot be initialised. */
export function MaintenancePage({
  title,
  body,
  message,
  retry = true,
}: {
  title?: string;
  /** The explanation under the title; null for none. */
  body?: string | null;
  message: string;
  retry?: boolean;
}) {
  const { t } = useTranslation('shell');
  return (
    <Center mih="100vh" p="xl" data-testid="maintenance-page">
      <Stack align="center" maw={480} ta="center">
        <Title order={1}>{title ?? t('maintenance.title')}</Title>
        {body !== null && <Text c="dimmed">{body ?? t('maintenance.body')}</Text>}
        <Text fw={500}>{message}</Text>
        {retry && <Button onClick={() => window.location.reload()}>{t('maintenance.retry')}</Button>}
      </Stack>
    </Center>
  );
}

import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The offline page of product §4, §5: shown without any network request, so it works while
 * the browser is offline (rendered by the console itself, not fetched).
 */
export function OfflinePage() {
  const { t } = useTranslation('shell');
  return (
    <Center mih="100vh" p="xl" data-testid="offline-page">
      <Stack align="center" maw={480} ta="center">
        <Title order={1}>{t('offline.title')}</Title>
        <Text c="dimmed">{t('offline.body')}</Text>
        <Button
          onClick={() => {
            if (!navigator.onLine) return;
            if (window.history.length > 1) window.history.back();
            else window.location.assign('/');
          }}
        >
          {t('offline.retry')}
        </Button>
      </Stack>
    </Center>
  );
}

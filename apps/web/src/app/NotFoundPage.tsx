import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** /404: reachable without signing in (product §2). */
export function NotFoundPage() {
  const { t } = useTranslation('shell');
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" ta="center">
        <Title order={1}>404</Title>
        <Text c="dimmed">{t('notFound.body')}</Text>
        <Button component="a" href="/">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}

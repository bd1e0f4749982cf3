import type { RouteDef } from '@fleetgate/shared/routes';
import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A standalone route (no chrome) whose screen does not exist yet, such as the mobile
 * dashboard: a page that says so and leads back to the console, never a blank one.
 */
export function StandaloneUnavailable({ route }: { route: RouteDef }) {
  const { t } = useTranslation('shell');
  const { t: tr } = useTranslation('routes');
  return (
    <Center mih="100vh" p="md" data-testid="screen-unavailable">
      <Paper withBorder p="xl" maw={480} w="100%">
        <Stack align="center" ta="center">
          <Title order={2}>{tr(route.name)}</Title>
          <Text c="dimmed">{t('unavailable.page')}</Text>
          <Button component="a" href="/">
            {t('notFound.home')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}

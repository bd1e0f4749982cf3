import type { ConnectScreen } from '@fleetgate/shared/routes';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { withNamespace } from '#src/i18n/i18n';

// The console brings its texts (the 'connect' namespace) with it.
const SshScreen = lazy(() =>
  withNamespace('connect', () => import('./ssh/SshConsole')).then((m) => ({ default: m.SshScreen })),
);

const TITLES: Record<ConnectScreen, string> = {
  desktop: 'connect.desktop',
  ssh: 'connect.console',
  telnet: 'connect.console',
  sftp: 'connect.sftp',
};

/**
 * The remote-connect area of product §1, §2: desktop, console (SSH and telnet) and SFTP
 * screens outside the main app. The SSH console is built (ssh/SshConsole.tsx); the others
 * say which session they wait for until their protocols land.
 */
export function ConnectApp({ screen, user }: { screen: ConnectScreen; user: CurrentUser | null }) {
  const { t } = useTranslation('shell');
  if (screen === 'ssh') {
    return (
      <Suspense
        fallback={
          <Center mih="100vh">
            <Loader />
          </Center>
        }
      >
        <SshScreen user={user} />
      </Suspense>
    );
  }
  const params = new URLSearchParams(window.location.search);
  const target = params.get('device') ?? params.get('key');
  return (
    <Stack p="md" mih="100vh" data-testid={`connect-${screen}`}>
      <Group justify="space-between">
        <Title order={3}>{t(TITLES[screen])}</Title>
        {user && <Text size="sm">{user.email}</Text>}
      </Group>
      <Paper withBorder p="xl" flex={1} bg="dark.8" c="gray.3" ff="monospace">
        {target ? t('connect.session', { target }) : t('connect.noSession')}
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => window.close()}>
          {t('connect.close')}
        </Button>
      </Group>
    </Stack>
  );
}

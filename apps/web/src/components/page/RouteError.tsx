import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { OFFLINE_PATH } from '#src/lib/routing/offline-path';
import { MaintenancePage } from './MaintenancePage';

const RELOADED_KEY = 'fg.chunkReloadedFor';

/** A screen's code chunk could not be fetched: the browser says so in one of these words. */
function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
    message,
  );
}

/**
 * What a route shows when its screen fails to render. Offline, it is the offline page
 * (product §5 route guard); a screen chunk missing after a new release reloads the page once
 * so the new build is fetched; anything else is a plain message, never a stack. Every
 * route has one: inside the chrome (`inPage`) the message takes the page's place and the
 * navigation and header stay; elsewhere it fills the screen.
 */
export function RouteError({ error, inPage = false }: { error: unknown; inPage?: boolean }) {
  const { t } = useTranslation('shell');
  const offline = !navigator.onLine;
  const reload =
    !offline && isChunkLoadError(error) && sessionStorage.getItem(RELOADED_KEY) !== location.pathname;
  useEffect(() => {
    if (!reload) return;
    sessionStorage.setItem(RELOADED_KEY, location.pathname);
    window.location.reload();
  }, [reload]);
  if (offline) return <Navigate to={OFFLINE_PATH} replace />;
  if (reload) return null;
  if (inPage) {
    return (
      <Paper withBorder p="xl" role="alert" data-testid="route-error">
        <Stack align="center" ta="center" gap="sm">
          <Title order={2}>{t('routeError.title')}</Title>
          <Text>{t('routeError.message')}</Text>
          <Button variant="default" onClick={() => window.location.reload()}>
            {t('maintenance.retry')}
          </Button>
        </Stack>
      </Paper>
    );
  }
  return <MaintenancePage title={t('routeError.title')} body={null} message={t('routeError.message')} />;
}

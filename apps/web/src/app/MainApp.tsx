import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { AppShell, Button, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Link, Navigate, Outlet, RouterProvider } from 'react-router';
import { LogoutPage } from '../features/account/LogoutPage';

function Shell({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between">
          <Text fw={700}>Fleetgate</Text>
          <Group>
            <Text size="sm" data-testid="account-email">
              {user.email}
            </Text>
            <Button component={Link} to="/logout" variant="subtle" size="xs">
              {t('nav.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

function DevicesPage() {
  const { t } = useTranslation();
  return <Title order={2}>{t('routes.management.devices')}</Title>;
}

export function MainApp({ user }: { user: CurrentUser }) {
  const router = createBrowserRouter([
    { path: '/logout', element: <LogoutPage /> },
    {
      element: <Shell user={user} />,
      children: [
        { path: '/management/devices', element: <DevicesPage /> },
        { path: '*', element: <Navigate to="/management/devices" replace /> },
      ],
    },
  ]);
  return <RouterProvider router={router} />;
}

import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import {
  AppShell,
  Box,
  Button,
  Center,
  Container,
  Group,
  Loader,
  NavLink,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconKey,
  IconLogout,
  IconShieldLock,
  IconUser,
  IconUserShield,
} from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, NavLink as RouterLink, useLocation } from 'react-router';
import { MaintenancePage } from '#src/components/page/MaintenancePage';
import { initSession, loginUrl } from '#src/lib/session/session-init';
import { signOut } from '../account/sign-out';
import { NoticeScreen } from '../mfa/NoticeScreen';
import { AccountSessionContext } from './components/account-session';

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; user: CurrentUser }
  | { kind: 'notice'; code: Parameters<typeof NoticeScreen>[0]['code']; message: string; email?: string }
  | { kind: 'maintenance'; message: string };

const SECTIONS = [
  { path: 'profile', icon: IconUser },
  { path: 'security', icon: IconShieldLock },
  { path: 'tokens', icon: IconKey },
  { path: 'impersonation', icon: IconUserShield },
] as const;

/**
 * Account settings (`/account/settings/...`): the account app's signed-in part.
 * It reads GET /user like the console does (refresh on 401, notice screens, sign-in).
 */
export function SettingsLayout() {
  const { t } = useTranslation('account-settings');
  const [state, setState] = useState<State>({ kind: 'loading' });
  const location = useLocation();

  const load = useCallback(async () => {
    const result = await initSession();
    if (result.kind === 'login') {
      window.location.replace(loginUrl());
      return;
    }
    setState(result);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const session = useMemo(
    () => (state.kind === 'ready' ? { user: state.user, reload: load } : null),
    [state, load],
  );

  if (state.kind === 'loading') {
    return (
      <Center mih="100vh">
        <Loader />
      </Center>
    );
  }
  if (state.kind === 'notice')
    return <NoticeScreen code={state.code} message={state.message} email={state.email} />;
  if (state.kind === 'maintenance') return <MaintenancePage message={state.message} />;
  const { user } = state;

  return (
    <AccountSessionContext.Provider value={session}>
      <AppShell header={{ height: 56 }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Button component="a" href="/" variant="subtle" leftSection={<IconArrowLeft size={16} />}>
                {t('layout.back')}
              </Button>
              <Title order={4} visibleFrom="xs">
                {t('layout.title')}
              </Title>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="settings-email">
                {user.email}
              </Text>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconLogout size={14} />}
                onClick={() => void signOut()}
              >
                {t('layout.signOut')}
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Main>
          {user.isImpersonating && (
            <Box
              bg="orange.6"
              c="white"
              px="md"
              py={4}
              mb="md"
              role="status"
              data-testid="settings-impersonating"
            >
              <Text size="sm" fw={600} ta="center">
                {t('layout.impersonating', { email: user.email, actor: user.token.actor_user?.email ?? '' })}
              </Text>
            </Box>
          )}
          <Container size="lg">
            <Group align="flex-start" gap="xl" wrap="wrap">
              <Stack gap={2} w={{ base: '100%', sm: 220 }} component="nav" aria-label={t('layout.title')}>
                {SECTIONS.map(({ path, icon: Icon }) => (
                  <NavLink
                    key={path}
                    component={RouterLink}
                    to={`/account/settings/${path}`}
                    label={t(`nav.${path}`)}
                    leftSection={<Icon size={16} />}
                    active={location.pathname.startsWith(`/account/settings/${path}`)}
                  />
                ))}
              </Stack>
              <Box style={{ flex: 1, minWidth: 280 }}>
                <Outlet />
              </Box>
            </Group>
          </Container>
        </AppShell.Main>
      </AppShell>
    </AccountSessionContext.Provider>
  );
}

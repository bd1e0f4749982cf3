import type { AccountSession } from '@fleetgate/shared/schemas/account';
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconDeviceDesktop, IconLogout, IconShieldCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mfaActions, mfaKeys, useMfaStatus } from '#src/features/mfa/api/mfa';
import { MfaSetup } from '#src/features/mfa/components/MfaSetup';
import { RecoveryCodes } from '#src/features/mfa/components/RecoveryCodes';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { failureMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import { formatTime } from '#src/lib/time';
import { accountActions, accountKeys, useSessions } from '../api/account';
import { useAccountSession } from '../components/account-session';
import { SettingsSection } from '../components/SettingsSection';

function TwoStep() {
  const { t } = useTranslation('account-settings');
  const { t: tm } = useTranslation('mfa');
  const { user, reload } = useAccountSession();
  const windows = useWindows();
  const queryClient = useQueryClient();
  const status = useMfaStatus();
  const [codes, setCodes] = useState<string[] | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: mfaKeys.all });
    await queryClient.invalidateQueries({ queryKey: accountKeys.tokens() });
    await reload();
  };
  const removeMfa = useAction({
    call: () => mfaActions.remove(),
    failure: { verb: 'remove', item: 'two-step verification' },
    invalidate: [mfaKeys.all, accountKeys.tokens()],
    success: tm('remove.done'),
    onSuccess: reload,
  });
  const regenerateCodes = useAction({
    call: () => mfaActions.regenerateRecoveryCodes(),
    failure: { verb: 'create', item: 'recovery codes' },
    invalidate: [mfaKeys.all],
    onSuccess: (response) => setCodes(response.data.recovery_codes),
  });

  async function remove() {
    const yes = await windows.confirm({
      title: tm('remove.title'),
      message: tm('remove.message'),
      confirmLabel: tm('remove.confirm'),
      danger: true,
      id: 'mfa-remove',
    });
    if (!yes) return;
    await removeMfa.run();
  }

  const data = status.data;
  return (
    <SettingsSection title={tm('title')} description={tm('description')} testId="mfa-section">
      {status.isPending && <Loader size="sm" />}
      {status.isError && (
        <Alert color="red">{failureMessage(status.error, 'get', 'two-step verification')}</Alert>
      )}
      {data && !data.method && (
        <Stack>
          {data.mandatory && <Alert color="orange">{tm('mandatory')}</Alert>}
          <Text size="sm">{tm('off')}</Text>
          <MfaSetup status={data} email={user.email} returnTo="/account/settings/security" onDone={refresh} />
        </Stack>
      )}
      {data?.method && (
        <Stack>
          <Group gap="xs">
            <IconShieldCheck size={20} color="var(--mantine-color-green-7)" />
            <Text fw={600} data-testid="mfa-method">
              {tm('on', { method: tm(`method.${data.method}`, { name: data.vendor.name }) })}
            </Text>
          </Group>
          {data.method === 'totp' && (
            <Text size="sm" c="dimmed">
              {tm('recovery.left', { count: data.recovery_codes_left })}
            </Text>
          )}
          {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
          <Group>
            {data.method === 'totp' && !codes && (
              <Button variant="default" onClick={() => void regenerateCodes.run()}>
                {tm('recovery.regenerate')}
              </Button>
            )}
            <Button color="red" variant="light" onClick={remove}>
              {tm('remove.button')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {t('security.tokensNeedMfa')}
          </Text>
        </Stack>
      )}
    </SettingsSection>
  );
}

/** A short name for a browser from its user agent. */
function browserName(agent: string | null): string {
  if (!agent) return '—';
  const browser = /(Edg|OPR|Chrome|Chromium|Firefox|Safari)\/[\d.]+/
    .exec(agent)?.[0]
    ?.replace('Edg/', 'Edge/');
  const os = /(Windows NT [\d.]+|Mac OS X [\d_]+|Android [\d.]+|iPhone OS [\d_]+|Linux)/.exec(agent)?.[0];
  return browser ? `${browser}${os ? ` · ${os.replace(/_/g, '.')}` : ''}` : agent.slice(0, 60);
}

function Sessions() {
  const { t } = useTranslation('account-settings');
  const windows = useWindows();
  const sessions = useSessions();
  const revoke = useAction({
    call: (session: AccountSession) => accountActions.revokeSession(session.id),
    failure: { verb: 'revoke', item: 'session' },
    invalidate: [accountKeys.sessions()],
    success: t('sessions.revoked'),
  });
  const revokeOthersAction = useAction({
    call: () => accountActions.revokeOtherSessions(),
    failure: { verb: 'revoke', item: 'sessions' },
    invalidate: [accountKeys.sessions()],
    success: t('sessions.revoked'),
  });

  async function revokeOthers() {
    const yes = await windows.confirm({
      title: t('sessions.othersTitle'),
      message: t('sessions.othersMessage'),
      confirmLabel: t('sessions.othersConfirm'),
      danger: true,
      id: 'sessions-revoke-others',
    });
    if (!yes) return;
    await revokeOthersAction.run();
  }

  const rows = sessions.data ?? [];
  return (
    <SettingsSection
      title={t('sessions.title')}
      description={t('sessions.description')}
      testId="sessions-section"
    >
      {sessions.isError && <Alert color="red">{failureMessage(sessions.error, 'get', 'sessions')}</Alert>}
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" data-testid="sessions-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('sessions.browser')}</Table.Th>
              <Table.Th>{t('sessions.ip')}</Table.Th>
              <Table.Th>{t('sessions.started')}</Table.Th>
              <Table.Th>{t('sessions.lastSeen')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((session) => (
              <Table.Tr key={session.id} data-testid="session-row">
                <Table.Td>
                  <Group gap={6} wrap="nowrap" align="flex-start">
                    <IconDeviceDesktop size={16} style={{ marginTop: 2, flex: 'none' }} />
                    <Stack gap={4}>
                      <Tooltip
                        label={session.user_agent ?? ''}
                        disabled={!session.user_agent}
                        multiline
                        maw={360}
                      >
                        <Text size="sm">{browserName(session.user_agent)}</Text>
                      </Tooltip>
                      {(session.current || session.impersonated_by !== null) && (
                        <Group gap={4}>
                          {session.current && (
                            <Badge size="xs" color="green">
                              {t('sessions.current')}
                            </Badge>
                          )}
                          {session.impersonated_by !== null && (
                            <Badge size="xs" color="orange" tt="none">
                              {t('sessions.support', { email: session.impersonated_by })}
                            </Badge>
                          )}
                        </Group>
                      )}
                    </Stack>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{session.ip ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(session.created_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(session.last_seen_at)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  {!session.current && (
                    <Button
                      size="compact-xs"
                      variant="light"
                      color="red"
                      onClick={() => void revoke.run(session)}
                    >
                      {t('sessions.revoke')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length > 1 && (
        <Group>
          <Button variant="default" leftSection={<IconLogout size={16} />} onClick={revokeOthers}>
            {t('sessions.revokeOthers')}
          </Button>
        </Group>
      )}
    </SettingsSection>
  );
}

/** /account/settings/security: two-step verification and active sessions. */
export function SecurityPage() {
  return (
    <Stack>
      <TwoStep />
      <Sessions />
    </Stack>
  );
}

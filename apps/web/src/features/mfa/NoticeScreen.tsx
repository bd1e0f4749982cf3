import { AUTH_BASE } from '@fleetgate/shared/constants';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLogout, IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { api } from '#src/lib/http/client';
import { ApiError } from '#src/lib/http/errors';
import { notifyFailure } from '#src/lib/http/toasts';
import { useAction } from '#src/lib/http/use-action';
import type { NoticeCode } from '#src/lib/session/session-init';
import { signOut } from '../account/sign-out';
import { useMfaStatus } from './api/mfa';
import { MfaSetup } from './components/MfaSetup';

function EmailNotVerified({ message }: { message: string }) {
  const { t } = useTranslation('mfa');
  // product §8 Session, Resend: 'Email confirmation sent successfully' / 'Failed to send email
  // confirmation ({status text})', the status even when the server says more.
  const resend = useAction({
    call: () => api.post(`${AUTH_BASE}/user/activation/resend`, {}, { noRefresh: true }),
    failure: { verb: 'send', item: 'email confirmation' },
    success: 'Email confirmation sent successfully',
    ownWords: true,
    onFailure: (_message, error) => {
      const status = error instanceof ApiError ? error.statusText || String(error.status) : 'Network error';
      notifyFailure(`Failed to send email confirmation (${status})`);
    },
  });
  return (
    <Stack>
      <Text>{message}</Text>
      <Text size="sm" c="dimmed">
        {t('notice.EMAIL_NOT_VERIFIED.help')}
      </Text>
      <Group>
        <Button
          leftSection={<IconMailForward size={16} />}
          loading={resend.pending}
          onClick={() => void resend.run()}
        >
          {t('notice.resend')}
        </Button>
        <Button variant="default" onClick={() => window.location.reload()}>
          {t('notice.confirmedReload')}
        </Button>
      </Group>
    </Stack>
  );
}

function MfaMandatory({ message, email }: { message: string; email: string }) {
  const { t } = useTranslation('mfa');
  const status = useMfaStatus();
  if (status.isPending) return <Loader size="sm" />;
  if (status.isError || !status.data) return <Alert color="red">{status.error?.message ?? message}</Alert>;
  return (
    <Stack>
      <Text>{message}</Text>
      <Text size="sm" c="dimmed">
        {t('notice.MFA_MANDATORY.help')}
      </Text>
      <MfaSetup
        status={status.data}
        email={email}
        returnTo={window.location.href}
        onDone={() => window.location.reload()}
      />
    </Stack>
  );
}

/**
 * The notice screens of product §6 and §8 Session, shown instead of the console: an address
 * to confirm (with 'resend'), a company that requires two-step verification (set it up
 * here), or a vendor ID nobody invited. Each offers a way out (sign out).
 */
export function NoticeScreen({
  code,
  message,
  email,
}: {
  code: NoticeCode;
  message: string;
  email?: string;
}) {
  const { t } = useTranslation('mfa');
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)" data-testid="notice-screen" data-code={code}>
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={560}>
        <Stack>
          <Title order={2}>{t(`notice.${code}.title`)}</Title>
          {code === 'EMAIL_NOT_VERIFIED' && <EmailNotVerified message={message} />}
          {code === 'MFA_MANDATORY' && <MfaMandatory message={message} email={email ?? ''} />}
          {code === 'NOT_INVITED_EXTERNAL_USER' && (
            <Stack>
              <Text>{message}</Text>
              <Text size="sm" c="dimmed">
                {t('notice.NOT_INVITED_EXTERNAL_USER.help')}
              </Text>
            </Stack>
          )}
          <Group justify="flex-end">
            {code === 'NOT_INVITED_EXTERNAL_USER' ? (
              <Button variant="default" component="a" href="/account/login">
                {t('notice.backToSignIn')}
              </Button>
            ) : (
              <Button
                variant="subtle"
                color="gray"
                leftSection={<IconLogout size={16} />}
                onClick={() => void signOut()}
              >
                {t('notice.signOut')}
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}

import { AUTH_BASE } from '@fleetgate/shared/constants';
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '#src/lib/http/client';
import { failureMessage } from '#src/lib/http/results';
import { CenteredCard } from '../components/CenteredCard';

type State = { kind: 'working' } | { kind: 'done'; email: string } | { kind: 'failed'; message: string };

/** /account/verify-email?token=…: the link of the confirmation e-mail (product §6 EMAIL_NOT_VERIFIED). */
export function VerifyEmailPage() {
  const { t } = useTranslation('account-settings');
  const [state, setState] = useState<State>({ kind: 'working' });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    api
      .post<{ email: string }>(`${AUTH_BASE}/user/activation/verify`, { token }, { noRefresh: true })
      .then((response) => setState({ kind: 'done', email: response.data.email }))
      .catch((error: unknown) =>
        setState({ kind: 'failed', message: failureMessage(error, 'confirm', 'email') }),
      );
  }, []);

  return (
    <CenteredCard title={t('verify.title')} testId="verify-email">
      {state.kind === 'working' && <Loader size="sm" />}
      {state.kind === 'done' && (
        <>
          <Alert color="green">{t('verify.done', { email: state.email })}</Alert>
          <Group>
            <Button component="a" href="/">
              {t('verify.open')}
            </Button>
          </Group>
        </>
      )}
      {state.kind === 'failed' && (
        <>
          <Alert color="red">{state.message}</Alert>
          <Text size="sm" c="dimmed">
            {t('verify.again')}
          </Text>
          <Group>
            <Button component="a" href="/" variant="default">
              {t('verify.open')}
            </Button>
          </Group>
        </>
      )}
    </CenteredCard>
  );
}

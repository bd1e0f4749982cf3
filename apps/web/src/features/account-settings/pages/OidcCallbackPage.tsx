import { safeContinueUrl } from '@fleetgate/shared/url';
import { Alert, Button, Group, Loader } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoticeScreen } from '#src/features/mfa/NoticeScreen';
import { VENDOR_RETURN_KEY } from '#src/features/mfa/vendor-redirect';
import { api } from '#src/lib/http/client';
import { ApiError, CancelledError } from '#src/lib/http/errors';
import { failureMessage } from '#src/lib/http/results';
import { NOTICE_CODES, type NoticeCode } from '#src/lib/session/session-init';
import { CenteredCard } from '../components/CenteredCard';

type State =
  | { kind: 'working' }
  | { kind: 'failed'; message: string }
  | { kind: 'notice'; code: NoticeCode; message: string; email?: string };

/**
 * /account/oidc/callback: the vendor identity service sends the browser back here; the
 * query goes to the server, which finishes the sign-in, the link, or the second step.
 */
export function OidcCallbackPage() {
  const { t } = useTranslation('account-settings');
  const [state, setState] = useState<State>({ kind: 'working' });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    api
      .post<{ location: string; purpose: string }>(
        '/auth/oidc/callback',
        { search: window.location.search },
        { noRefresh: true },
      )
      .then((response) => {
        const back = sessionStorage.getItem(VENDOR_RETURN_KEY);
        sessionStorage.removeItem(VENDOR_RETURN_KEY);
        const next = safeContinueUrl(back, window.location.origin);
        window.location.replace(next && !next.startsWith('/account/login') ? next : response.data.location);
      })
      .catch((error: unknown) => {
        if (error instanceof CancelledError)
          return setState({ kind: 'failed', message: t('oidc.cancelled') });
        const code = error instanceof ApiError ? NOTICE_CODES.find((c) => c === error.code) : undefined;
        if (code && error instanceof ApiError) {
          const email = (error.body as { meta?: { email?: unknown } } | undefined)?.meta?.email;
          return setState({
            kind: 'notice',
            code,
            message: error.message,
            ...(typeof email === 'string' ? { email } : {}),
          });
        }
        setState({ kind: 'failed', message: failureMessage(error, 'finish', 'vendor ID sign-in') });
      });
  }, [t]);

  if (state.kind === 'notice')
    return <NoticeScreen code={state.code} message={state.message} email={state.email} />;
  return (
    <CenteredCard title={t('oidc.title')} testId="oidc-callback">
      {state.kind === 'working' && <Loader size="sm" />}
      {state.kind === 'failed' && (
        <>
          <Alert color="red">{state.message}</Alert>
          <Group>
            <Button component="a" href="/account/login">
              {t('oidc.back')}
            </Button>
          </Group>
        </>
      )}
    </CenteredCard>
  );
}

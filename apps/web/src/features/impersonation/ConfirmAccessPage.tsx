import type { ImpersonationRequest } from '@fleetgate/shared/schemas/impersonation';
import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '#src/components/forms/fields/DateTimeField';
import { PageFrame } from '#src/components/page/PageFrame';
import { api } from '#src/lib/http/client';
import { failureMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { impersonationActions } from './api/impersonation';

/**
 * impersonation.access (/users/confirm-impersonation-access/{token}): the user answers an
 * admin's e-mailed request, choosing until when the access lasts (at most 30 days).
 */
export function ConfirmAccessPage({ chain, params }: PageProps) {
  const { t } = useTranslation('impersonation');
  const { user } = useSession();
  const token = params.token ?? '';
  const [request, setRequest] = useState<ImpersonationRequest | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [until, setUntil] = useState<string | null>(() =>
    dayjs().add(1, 'day').startOf('minute').toISOString(),
  );
  const [error, setError] = useState<string | null>(null);
  const answerRequest = useAction({
    call: (answer: { confirm: true; until: string } | { confirm: false }): Promise<{ message?: string }> =>
      answer.confirm
        ? impersonationActions.confirm(token, answer.until)
        : impersonationActions.decline(token),
    failure: (answer) => ({ verb: answer.confirm ? 'grant' : 'decline', item: 'impersonation access' }),
    success: t('grant.done'),
    // The request as it stands now: confirmed until when, or declined.
    onSuccess: async () =>
      setRequest((await api.post<ImpersonationRequest>('/impersonation/requests/lookup', { token })).data),
    onFailure: setError,
  });
  const busy = answerRequest.pending;

  useEffect(() => {
    let live = true;
    api
      .post<ImpersonationRequest>('/impersonation/requests/lookup', { token })
      .then((response) => live && setRequest(response.data))
      .catch((caught: unknown) => live && setLoadError(failureMessage(caught, 'get', 'request')));
    return () => {
      live = false;
    };
  }, [token]);

  async function answer(event: FormEvent | null, confirm: boolean) {
    event?.preventDefault();
    if (busy) return;
    if (confirm && !until) return setError(t('grant.required'));
    await answerRequest.run(confirm && until ? { confirm: true, until } : { confirm: false });
  }

  return (
    <PageFrame chain={chain} params={params}>
      <Paper withBorder p="lg" radius="md" maw={560} data-testid="confirm-access">
        {!request && !loadError && <Loader size="sm" />}
        {loadError && <Alert color="red">{loadError}</Alert>}
        {request && (
          <Stack>
            <Text>
              {t('confirm.intro', {
                who: request.requested_by_company
                  ? `${request.requested_by} (${request.requested_by_company})`
                  : request.requested_by,
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('confirm.explain')}
            </Text>
            {request.status === 'pending' && (
              <form onSubmit={(event) => void answer(event, true)} noValidate>
                <Stack>
                  <Text size="sm">{t('confirm.expires', { time: formatTime(request.expires_at) })}</Text>
                  <DateTimeField
                    name="until"
                    kind="datetime"
                    label={t('grant.until')}
                    description={t('grant.hint', { days: request.max_days })}
                    value={until}
                    onChange={(value) => {
                      setUntil(value);
                      setError(null);
                    }}
                    error={error}
                    disabled={user.isImpersonating}
                  />
                  <Group>
                    <Button type="submit" loading={busy} disabled={user.isImpersonating}>
                      {t('confirm.grant')}
                    </Button>
                    <Button
                      variant="default"
                      disabled={busy || user.isImpersonating}
                      onClick={() => void answer(null, false)}
                    >
                      {t('confirm.decline')}
                    </Button>
                  </Group>
                </Stack>
              </form>
            )}
            {request.status !== 'pending' && (
              <Alert color={request.status === 'confirmed' ? 'green' : 'gray'} data-testid="request-status">
                {request.status === 'confirmed' && request.granted_until
                  ? t('confirm.confirmed', { time: formatTime(request.granted_until) })
                  : t(`confirm.${request.status}`)}
              </Alert>
            )}
          </Stack>
        )}
      </Paper>
    </PageFrame>
  );
}

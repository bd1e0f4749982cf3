import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../http/client';
import { ApiError } from '../http/errors';
import { submitCode, type Verification, type VerificationOutcome } from '../http/verification';
import { useWindow } from './window-context';

/**
 * 'Confirm your password' (HTTP 423): the request is sent again once it is confirmed. One of
 * the HTTP client's own windows, loaded the first time one is needed (client-dialogs.tsx).
 */
export function PasswordPrompt({ message, onConfirmed }: { message: string; onConfirmed(): void }) {
  const { t } = useTranslation('dialogs');
  const window = useWindow();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (waiting) return;
    // product §5: prompt input is required.
    if (!password) return setError(t('prompt.required'));
    setWaiting(true);
    try {
      await api.post('/password-confirmation', { password }, { keepOnRouteChange: true });
      onConfirmed();
      window?.close();
    } catch (caught) {
      // CONFIRMATION_FAILED (and anything else) stays under the field; the prompt stays open.
      setError(caught instanceof ApiError || caught instanceof Error ? caught.message : t('prompt.failed'));
      setWaiting(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate data-testid="password-prompt">
      <Stack>
        <Text>{message}</Text>
        <PasswordInput
          label={t('prompt.password')}
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          required
          data-autofocus
          autoComplete="current-password"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => window?.close()}>
            {t('confirm.cancel')}
          </Button>
          <Button type="submit" loading={waiting}>
            {t('confirm.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The second step's code (MFA_REQUIRED): the request goes again with the code. */
export function VerificationDialog({
  verification,
  outcome,
}: {
  verification: Verification;
  outcome: VerificationOutcome;
}) {
  const { t } = useTranslation('dialogs');
  const window = useWindow();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const kind = verification.kind;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (waiting) return;
    if (!code.trim()) return setError(t('prompt.required'));
    setWaiting(true);
    const retry = await submitCode(verification, code.trim(), outcome);
    setWaiting(false);
    if (retry === undefined) window?.close();
    else setError(retry);
  }

  return (
    <form onSubmit={submit} noValidate data-testid="verification-dialog">
      <Stack>
        <Text>{verification.challenge.message || t(`verify.${kind}.intro`)}</Text>
        <TextInput
          label={t('verify.code')}
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          required
          autoComplete="one-time-code"
          inputMode={kind === 'vendor' ? 'text' : 'numeric'}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button type="submit" loading={waiting}>
            {t('confirm.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '#src/lib/http/use-action';
import { mfaActions } from '../api/mfa';

/** Turns on e-mail codes: a code goes to the user's address and proves it arrives. */
export function EmailEnrolment({
  email,
  onDone,
  onCancel,
}: {
  email: string;
  onDone(): void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('mfa');
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const start = useAction({
    call: () => mfaActions.startEmail(),
    failure: { verb: 'send', item: 'code' },
    onSuccess: (response) => setSessionId(response.data.session_id),
    onFailure: setError,
  });
  const confirmCode = useAction({
    call: (answer: { sessionId: string; code: string }) =>
      mfaActions.confirmEmail(answer.sessionId, answer.code),
    failure: { verb: 'confirm', item: 'code' },
    // The set-up moves on: the button stays busy until it has.
    onSuccess: () => {
      setConfirmed(true);
      onDone();
    },
    onFailure: setError,
  });
  const busy = start.pending || confirmCode.pending || confirmed;

  async function send() {
    setError(null);
    await start.run();
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (busy || !sessionId) return;
    if (!/^\d{6}$/.test(code.trim())) return setError(t('totp.codeFormat'));
    await confirmCode.run({ sessionId, code: code.trim() });
  }

  if (!sessionId) {
    return (
      <Stack data-testid="email-enrolment">
        <Text size="sm">{t('email.explain', { email })}</Text>
        {error && (
          <Text c="red" size="sm">
            {error}
          </Text>
        )}
        <Group>
          <Button onClick={send} loading={busy}>
            {t('email.send')}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('action.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }
  return (
    <form onSubmit={confirm} noValidate data-testid="email-enrolment">
      <Stack>
        <Text size="sm">{t('email.sent', { email })}</Text>
        <TextInput
          label={t('totp.code')}
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          w={200}
        />
        <Group>
          <Button type="submit" loading={busy}>
            {t('totp.confirm')}
          </Button>
          <Button variant="subtle" onClick={send} disabled={busy}>
            {t('email.resend')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

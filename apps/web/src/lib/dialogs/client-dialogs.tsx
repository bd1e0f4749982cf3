import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../http/client';
import { ApiError, CancelledError } from '../http/errors';
import { clientHandlers, type MfaChallenge } from '../http/handlers';
import { useWindow } from './window-context';
import type { WindowsStore } from './windows-store';

/** Codes that keep the verification dialog open with the error (product §4, §8). */
const RETRY_CODES = new Set(['MFA_REQUIRED', 'CONFIRMATION_FAILED']);

export type MfaKind = 'email' | 'totp' | 'vendor';

/** The dialog kind for a response's mfa_method / mfa_type (product §3 Response meta). */
export function mfaKind(method: string): MfaKind {
  const m = method.toLowerCase();
  if (m === 'totp' || m === 'app' || m === 'authenticator') return 'totp';
  if (m === 'vendor' || m === 'oidc' || m === 'sso' || m === 'vendor_id') return 'vendor';
  return 'email';
}

function PasswordPrompt({ message, onConfirmed }: { message: string; onConfirmed(): void }) {
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

type Verification = { challenge: MfaChallenge; submitting: boolean };
/** The verification in progress: a resent request that asks again updates it instead of stacking dialogs. */
let current: Verification | null = null;

function VerificationDialog({
  kind,
  verification,
  onDone,
  onFailed,
}: {
  kind: MfaKind;
  verification: Verification;
  onDone(result: unknown): void;
  onFailed(error: unknown): void;
}) {
  const { t } = useTranslation('dialogs');
  const window = useWindow();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (waiting) return;
    if (!code.trim()) return setError(t('prompt.required'));
    setWaiting(true);
    verification.submitting = true;
    try {
      const result = await verification.challenge.submit(code.trim());
      onDone(result);
      window?.close();
    } catch (caught) {
      if (caught instanceof ApiError && caught.code && RETRY_CODES.has(caught.code)) {
        setError(caught.message);
      } else {
        onFailed(caught);
        window?.close();
      }
    } finally {
      verification.submitting = false;
      setWaiting(false);
    }
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

/**
 * Plugs the password prompt (HTTP 423) and the second-step dialog (MFA_REQUIRED) into
 * the HTTP client (product §4, §8). Returns the undo.
 */
export function registerClientDialogs(store: WindowsStore): () => void {
  clientHandlers.confirmPassword = (message) =>
    new Promise<boolean>((resolve) => {
      let confirmed = false;
      store.open(
        PasswordPrompt,
        {
          message: message || i18next.t('dialogs:prompt.defaultMessage'),
          onConfirmed: () => {
            confirmed = true;
            resolve(true);
          },
        },
        {
          id: 'password-confirmation',
          title: i18next.t('dialogs:prompt.title'),
          size: 'sm',
          onClose: () => {
            if (!confirmed) resolve(false);
          },
        },
      );
    });

  clientHandlers.verify = (challenge) => {
    if (!challenge.method && !challenge.message) {
      // product §8: MFA failing with no method and no message.
      const message = i18next.t('dialogs:verify.connectFailed');
      notifications.show({ color: 'red', message });
      return Promise.reject(new Error(message));
    }
    if (current?.submitting) {
      // The code was wrong and the server asks again: the open dialog takes the new
      // session data and shows the message.
      current.challenge = challenge;
      return Promise.reject(new ApiError(0, '', [{ code: 'MFA_REQUIRED', message: challenge.message }]));
    }
    const kind = mfaKind(challenge.method);
    const verification: Verification = { challenge, submitting: false };
    current = verification;
    return new Promise<unknown>((resolve, reject) => {
      let settled = false;
      store.open(
        VerificationDialog,
        {
          kind,
          verification,
          onDone: (result: unknown) => {
            settled = true;
            resolve(result);
          },
          onFailed: (error: unknown) => {
            settled = true;
            reject(error);
          },
        },
        {
          id: 'verification',
          title: i18next.t(`dialogs:verify.${kind}.title`),
          size: 'sm',
          onClose: () => {
            if (current === verification) current = null;
            if (!settled) reject(new CancelledError('Verification cancelled'));
          },
        },
      );
    });
  };

  return () => {
    clientHandlers.confirmPassword = null;
    clientHandlers.verify = null;
  };
}

import type { TotpEnrolment as Enrolment } from '@fleetgate/shared/schemas/mfa';
import { Button, Code, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '#src/lib/http/use-action';
import { mfaActions } from '../api/mfa';
import { RecoveryCodes } from './RecoveryCodes';

/**
 * Sets up a code app (product §1, RFC 6238): scan the QR code (or type the secret), confirm
 * with the first code, then keep the recovery codes that are shown once.
 */
export function TotpEnrolment({
  enrolment,
  onDone,
  onCancel,
}: {
  /** The secret from POST /user/mfa/totp. */
  enrolment: Enrolment;
  onDone(): void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('mfa');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const confirmCode = useAction({
    call: (first: string) => mfaActions.confirmTotp(first),
    failure: { verb: 'confirm', item: 'code' },
    onSuccess: (response) => setCodes(response.data.recovery_codes),
    onFailure: setError,
  });
  const busy = confirmCode.pending;

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!/^\d{6}$/.test(code.trim())) return setError(t('totp.codeFormat'));
    await confirmCode.run(code.trim());
  }

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  return (
    <form onSubmit={confirm} noValidate data-testid="totp-enrolment">
      <Stack>
        <Text size="sm">{t('totp.scan')}</Text>
        <Image src={enrolment.qr_code} alt={t('totp.qrAlt')} w={180} h={180} data-testid="totp-qr" />
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t('totp.manual')}
          </Text>
          <Code data-testid="totp-secret" fz="sm">
            {enrolment.secret}
          </Code>
        </Stack>
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
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('action.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

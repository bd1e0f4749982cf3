import type { TotpEnrolment as Enrolment, MfaMethod, MfaStatus } from '@fleetgate/shared/schemas/mfa';
import { Alert, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconDeviceMobile, IconMail, IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '#src/lib/http/use-action';
import { mfaActions } from '../api/mfa';
import { goToVendor } from '../vendor-redirect';
import { EmailEnrolment } from './EmailEnrolment';
import { TotpEnrolment } from './TotpEnrolment';

const ICONS = { totp: IconDeviceMobile, email: IconMail, vendor: IconShieldCheck } as const;

/**
 * Choosing and setting up a second step (product §1): a code app, e-mail codes, or the vendor
 * identity service when it is configured. Used by account settings and the MFA_MANDATORY
 * notice screen.
 */
export function MfaSetup({
  status,
  email,
  onDone,
  returnTo,
}: {
  status: MfaStatus;
  email: string;
  onDone(): void;
  /** Where the vendor sign-in comes back to. */
  returnTo: string;
}) {
  const { t } = useTranslation('mfa');
  const [method, setMethod] = useState<MfaMethod | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The vendor's page takes over: its button stays busy until the browser has left.
  const [leaving, setLeaving] = useState(false);
  /** A fresh secret per click: never one per render, so what is shown is what is stored. */
  const startTotp = useAction({
    call: () => mfaActions.startTotp(),
    failure: { verb: 'start', item: 'set-up' },
    onSuccess: (response) => {
      setEnrolment(response.data);
      setMethod('totp');
    },
    onFailure: setError,
  });
  const linkVendor = useAction({
    call: async () => {
      const { authorization_url } = (await mfaActions.startVendor()).data;
      await goToVendor(authorization_url, returnTo);
    },
    failure: { verb: 'start', item: 'vendor ID sign-in' },
    onSuccess: () => setLeaving(true),
    onFailure: setError,
  });
  const busy: MfaMethod | null = startTotp.pending ? 'totp' : linkVendor.pending || leaving ? 'vendor' : null;

  const choose = (m: MfaMethod) => {
    if (m === 'email') return setMethod(m);
    setError(null);
    if (m === 'vendor') void linkVendor.run();
    else void startTotp.run();
  };

  if (method === 'totp' && enrolment) {
    return <TotpEnrolment enrolment={enrolment} onDone={onDone} onCancel={() => setMethod(null)} />;
  }
  if (method === 'email')
    return <EmailEnrolment email={email} onDone={onDone} onCancel={() => setMethod(null)} />;

  const methods: MfaMethod[] = status.vendor.enabled ? ['totp', 'email', 'vendor'] : ['totp', 'email'];
  return (
    <Stack data-testid="mfa-setup">
      {error && <Alert color="red">{error}</Alert>}
      {methods.map((m) => {
        const Icon = ICONS[m];
        return (
          <Card key={m} withBorder padding="sm">
            <Group justify="space-between" wrap="nowrap">
              <Group wrap="nowrap" gap="sm">
                <Icon size={22} />
                <div>
                  <Text fw={600} size="sm">
                    {t(`method.${m}`, { name: status.vendor.name })}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`method.${m}.hint`, { name: status.vendor.name })}
                  </Text>
                </div>
              </Group>
              <Button
                size="xs"
                variant="light"
                loading={busy === m}
                onClick={() => choose(m)}
                style={{ flexShrink: 0 }}
                data-testid={`setup-${m}`}
              >
                {t('action.setUp')}
              </Button>
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}

import type { BrandSettings } from '@fleetgate/shared/brand';
import { TOS_VERSION } from '@fleetgate/shared/constants';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { Alert, Button, Group, Modal, ScrollArea, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signOut } from '#src/features/account/sign-out';
import { mapSubmitError, zodFieldErrors } from '#src/lib/forms/errors';
import { useAction } from '#src/lib/http/use-action';
import { local } from '#src/lib/storage/local-storage';
import { accountActions } from '../api/account';

type FieldErrors = Record<string, string>;

/** The local flag of a silently accepted agreement (product §4 non-default brands; §9 key 20230118). */
export const TOS_FLAG_KEY = `tos_accepted_${TOS_VERSION}`;

/** Below the window layer (200+), so a password prompt opened from a gate shows above it. */
const GATE_Z = 150;

function DataAgreement({ onAccepted }: { onAccepted(): void }) {
  const { t } = useTranslation('account-settings');
  const [error, setError] = useState<string | null>(null);
  const accept = useAction({
    call: () => accountActions.acceptTerms(),
    failure: { verb: 'accept', item: 'data agreement' },
    onSuccess: onAccepted,
    // The gate has no toasts to spare: the reason shows in it.
    onFailure: (_message, caught) => setError(caught instanceof Error ? caught.message : t('terms.failed')),
  });
  return (
    <Stack data-testid="data-agreement">
      <Title order={3}>{t('terms.title')}</Title>
      <ScrollArea.Autosize mah={320} type="auto">
        <Stack gap="xs">
          {(['p1', 'p2', 'p3', 'p4'] as const).map((p) => (
            <Text key={p} size="sm">
              {t(`terms.${p}`)}
            </Text>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      {error && <Alert color="red">{error}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => void signOut()}>
          {t('terms.decline')}
        </Button>
        <Button onClick={() => void accept.run()} loading={accept.pending}>
          {t('terms.accept')}
        </Button>
      </Group>
    </Stack>
  );
}

function EnterEmail({ user, onSaved }: { user: CurrentUser; onSaved(emailChanged: boolean): void }) {
  const { t } = useTranslation('account-settings');
  const [email, setEmail] = useState(user.email);
  const [username, setUsername] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useAction({
    call: (contact: { email: string; username: string }) =>
      accountActions.updateContact(contact.email, contact.username),
    failure: { verb: 'save', item: 'email address' },
    onSuccess: (_response, contact) => {
      // The gate closes (or the page reloads): the button keeps spinning until then.
      setSaved(true);
      onSaved(contact.email !== user.email);
    },
    onFailure: (_message, error) => {
      const mapped = mapSubmitError(error, { fieldKeys: ['email', 'username'] });
      if (!mapped) return;
      setErrors(mapped.fields);
      setFormError(mapped.form.join(' ') || null);
    },
  });
  const busy = update.pending || saved;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFormError(null);
    // The schema (and zod) load with the first save: the gate is part of every first load.
    const { contactBodySchema } = await import('@fleetgate/shared/schemas/account');
    const parsed = contactBodySchema.safeParse({ email, username });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error.issues));
    await update.run(parsed.data);
  }

  return (
    <form onSubmit={save} noValidate data-testid="enter-email">
      <Stack>
        <Text size="sm">{t('contact.explain')}</Text>
        {formError && <Alert color="red">{formError}</Alert>}
        <TextInput
          label={t('contact.email')}
          type="email"
          value={email}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setErrors((e) => ({ ...e, email: '' }));
          }}
          error={errors.email || null}
          description={t('contact.emailHint')}
          required
        />
        <TextInput
          label={t('contact.username')}
          value={username}
          onChange={(event) => {
            setUsername(event.currentTarget.value);
            setErrors((e) => ({ ...e, username: '' }));
          }}
          error={errors.username || null}
          maxLength={64}
          required
          data-autofocus
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {t('contact.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The modals of product §4 that a signed-in user meets before working: the data agreement
 * (default brand; other brands accept silently and keep a local flag), then 'Please enter
 * your email address' when the username is the e-mail address. Neither has header controls.
 * The support person acting as a user never answers them for the user.
 */
export function AccountGates({ user, brand }: { user: CurrentUser; brand: BrandSettings }) {
  const { t } = useTranslation('account-settings');
  const [accepted, setAccepted] = useState(user.tos_accepted || user.isImpersonating);
  const [contactDone, setContactDone] = useState(false);
  const acceptSilently = useAction({
    call: () => accountActions.acceptTerms(),
    failure: { verb: 'accept', item: 'data agreement' },
    onSuccess: () => local.set(TOS_FLAG_KEY, true),
    // Silent by product §4: a failure is asked again at the next start (no local flag).
    onFailure: () => {},
  });
  const acceptTerms = acceptSilently.run;

  useEffect(() => {
    if (accepted || brand.default) return;
    // product §4: for another brand, acceptance is sent silently and a local flag stored.
    if (local.get(TOS_FLAG_KEY, false)) return setAccepted(true);
    void acceptTerms().finally(() => setAccepted(true));
  }, [accepted, brand.default, acceptTerms]);

  const needsAgreement = !accepted && brand.default;
  const needsEmail =
    !needsAgreement &&
    !contactDone &&
    !user.isImpersonating &&
    user.username.toLowerCase() === user.email.toLowerCase();

  return (
    <>
      <Modal
        opened={needsAgreement}
        onClose={() => {}}
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        size="lg"
        zIndex={GATE_Z}
        centered
      >
        <DataAgreement onAccepted={() => setAccepted(true)} />
      </Modal>
      <Modal
        opened={needsEmail}
        onClose={() => {}}
        title={t('contact.title')}
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        zIndex={GATE_Z}
        centered
      >
        <EnterEmail
          user={user}
          onSaved={(emailChanged) => {
            setContactDone(true);
            // A new address must be confirmed: the reload shows the notice screen.
            if (emailChanged) window.location.reload();
          }}
        />
      </Modal>
    </>
  );
}

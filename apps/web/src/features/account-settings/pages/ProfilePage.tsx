import { passwordChangeBodySchema, profileBodySchema } from '@fleetgate/shared/schemas/account';
import { Alert, Avatar, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mapSubmitError, zodFieldErrors } from '#src/lib/forms/errors';
import { useAction } from '#src/lib/http/use-action';
import { accountActions, accountKeys, useProfile } from '../api/account';
import { useAccountSession } from '../components/account-session';
import { SettingsSection } from '../components/SettingsSection';

type FieldErrors = Record<string, string>;

function ProfileForm() {
  const { t } = useTranslation('account-settings');
  const { reload } = useAccountSession();
  const profile = useProfile();
  const [values, setValues] = useState({ username: '', avatar_url: '', country_iso_code: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const update = useAction({
    call: (body: typeof values) => accountActions.updateProfile(body),
    failure: { verb: 'update', item: 'profile' },
    invalidate: [accountKeys.profile()],
    success: t('profile.saved'),
    onSuccess: () => reload(),
    onFailure: (_message, error) => {
      const mapped = mapSubmitError(error, { fieldKeys: Object.keys(values) });
      if (!mapped) return;
      setErrors(mapped.fields);
      setFormError(mapped.form.join(' ') || null);
    },
  });

  useEffect(() => {
    if (!profile.data) return;
    setValues({
      username: profile.data.username,
      avatar_url: profile.data.avatar_url ?? '',
      country_iso_code: profile.data.country_iso_code ?? '',
    });
  }, [profile.data]);

  const set = (key: keyof typeof values) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (update.pending) return;
    setFormError(null);
    const parsed = profileBodySchema.safeParse(values);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error.issues));
    await update.run(values);
  }

  return (
    <SettingsSection
      title={t('profile.title')}
      description={t('profile.description')}
      testId="profile-section"
    >
      <form onSubmit={save} noValidate aria-label={t('profile.title')}>
        <Stack>
          {formError && <Alert color="red">{formError}</Alert>}
          <Group align="flex-end">
            <Avatar
              src={values.avatar_url || null}
              size={56}
              radius="xl"
              name={profile.data?.email}
              color="initials"
            />
            <TextInput
              label={t('profile.email')}
              value={profile.data?.email ?? ''}
              readOnly
              disabled
              w={320}
            />
          </Group>
          <TextInput
            label={t('profile.username')}
            value={values.username}
            onChange={set('username')}
            error={errors.username || null}
            maxLength={64}
            required
          />
          <TextInput
            label={t('profile.avatar')}
            description={t('profile.avatarHint')}
            placeholder="https://"
            value={values.avatar_url}
            onChange={set('avatar_url')}
            error={errors.avatar_url || null}
          />
          <TextInput
            label={t('profile.country')}
            description={t('profile.countryHint')}
            value={values.country_iso_code}
            onChange={set('country_iso_code')}
            error={errors.country_iso_code || null}
            maxLength={2}
            w={240}
          />
          <Group>
            <Button type="submit" loading={update.pending}>
              {t('action.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

function PasswordForm() {
  const { t } = useTranslation('account-settings');
  const [values, setValues] = useState({ current_password: '', password: '', repeat: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const change = useAction({
    call: (body: { current_password: string; password: string }) =>
      accountActions.changePassword(body.current_password, body.password),
    failure: { verb: 'change', item: 'password' },
    success: t('password.changed'),
    onSuccess: () => setValues({ current_password: '', password: '', repeat: '' }),
    onFailure: (_message, error) => {
      const mapped = mapSubmitError(error, { fieldKeys: ['current_password', 'password'] });
      if (!mapped) return;
      setErrors(mapped.fields);
      setFormError(mapped.form.join(' ') || null);
    },
  });

  const set = (key: keyof typeof values) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (change.pending) return;
    setFormError(null);
    const { repeat, ...body } = values;
    const parsed = passwordChangeBodySchema.safeParse(body);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error.issues));
    if (repeat !== body.password) return setErrors({ repeat: t('password.mismatch') });
    await change.run(body);
  }

  return (
    <SettingsSection
      title={t('password.title')}
      description={t('password.description')}
      testId="password-section"
    >
      <form onSubmit={save} noValidate aria-label={t('password.title')}>
        <Stack maw={360}>
          {formError && <Alert color="red">{formError}</Alert>}
          <PasswordInput
            label={t('password.current')}
            autoComplete="current-password"
            value={values.current_password}
            onChange={set('current_password')}
            error={errors.current_password || null}
          />
          <PasswordInput
            label={t('password.new')}
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={errors.password || null}
          />
          <PasswordInput
            label={t('password.repeat')}
            autoComplete="new-password"
            value={values.repeat}
            onChange={set('repeat')}
            error={errors.repeat || null}
          />
          <Group>
            <Button type="submit" loading={change.pending}>
              {t('password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

/** /account/settings/profile: profile and password. */
export function ProfilePage() {
  return (
    <Stack>
      <ProfileForm />
      <PasswordForm />
    </Stack>
  );
}

import { passwordChangeBodySchema, profileBodySchema } from '@fleetgate/shared/schemas/account';
import { Alert, Avatar, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountActions, accountKeys, useProfile } from '../api/account';
import { useAccountSession } from '../components/account-session';
import { type FieldErrors, splitErrors, zodErrors } from '../components/field-errors';
import { SettingsSection } from '../components/SettingsSection';

function ProfileForm() {
  const { t } = useTranslation('account-settings');
  const { reload } = useAccountSession();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const [values, setValues] = useState({ username: '', avatar_url: '', country_iso_code: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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
    if (busy) return;
    setFormError(null);
    const parsed = profileBodySchema.safeParse(values);
    if (!parsed.success) return setErrors(zodErrors(parsed.error.issues));
    setBusy(true);
    try {
      const response = await accountActions.updateProfile(values);
      notifications.show({ color: 'green', message: response.message ?? t('profile.saved') });
      await queryClient.invalidateQueries({ queryKey: accountKeys.profile() });
      await reload();
    } catch (error) {
      const split = splitErrors(error, Object.keys(values), 'update', 'profile');
      setErrors(split.fields);
      setFormError(split.form);
    } finally {
      setBusy(false);
    }
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
            <Button type="submit" loading={busy}>
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
  const [busy, setBusy] = useState(false);

  const set = (key: keyof typeof values) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFormError(null);
    const { repeat, ...body } = values;
    const parsed = passwordChangeBodySchema.safeParse(body);
    if (!parsed.success) return setErrors(zodErrors(parsed.error.issues));
    if (repeat !== body.password) return setErrors({ repeat: t('password.mismatch') });
    setBusy(true);
    try {
      const response = await accountActions.changePassword(body.current_password, body.password);
      notifications.show({ color: 'green', message: response.message ?? t('password.changed') });
      setValues({ current_password: '', password: '', repeat: '' });
    } catch (error) {
      const split = splitErrors(error, ['current_password', 'password'], 'change', 'password');
      setErrors(split.fields);
      setFormError(split.form);
    } finally {
      setBusy(false);
    }
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
            <Button type="submit" loading={busy}>
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

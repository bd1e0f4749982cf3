import { AUTH_BASE } from '@fleetgate/shared/constants';
import { loginBodySchema } from '@fleetgate/shared/schemas/auth';
import { safeContinueUrl } from '@fleetgate/shared/url';
import {
  Alert,
  Box,
  Button,
  Center,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/http/client';
import { ApiError } from '../../lib/http/errors';

type FieldErrors = Partial<Record<'email' | 'password', string>>;

/** The sign-in page (`/account/login`): e-mail, password, 'Sign in' (issue 2). */
export function LoginPage() {
  const { t } = useTranslation('account');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);
    const parsed = loginBodySchema.safeParse({ email, password });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof FieldErrors;
        errors[key] ??= issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    setSubmitting(true);
    try {
      await api.post(`${AUTH_BASE}/login`, parsed.data, { noRefresh: true });
      const next = safeContinueUrl(
        new URLSearchParams(window.location.search).get('continue_url'),
        window.location.origin,
      );
      window.location.assign(next && !next.startsWith('/account') ? next : '/');
    } catch (error) {
      setFormError(error instanceof ApiError ? error.message : t('login.failed'));
      setSubmitting(false);
    }
  }

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Box w="100%" maw={400}>
        <Stack gap={4} mb="lg" ta="center">
          <Title order={2}>{t('login.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('login.subtitle')}
          </Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <form onSubmit={submit} noValidate aria-label={t('login.title')}>
            <Stack>
              {formError && (
                <Alert color="red" role="alert" data-testid="login-error">
                  {formError}
                </Alert>
              )}
              <TextInput
                label={t('login.email')}
                name="email"
                type="email"
                autoComplete="username"
                autoFocus
                value={email}
                error={fieldErrors.email}
                onChange={(e) => {
                  setEmail(e.currentTarget.value);
                  setFieldErrors((f) => ({ ...f, email: undefined }));
                }}
              />
              <PasswordInput
                label={t('login.password')}
                name="password"
                autoComplete="current-password"
                value={password}
                error={fieldErrors.password}
                onChange={(e) => {
                  setPassword(e.currentTarget.value);
                  setFieldErrors((f) => ({ ...f, password: undefined }));
                }}
              />
              <Button type="submit" loading={submitting} fullWidth>
                {t('login.submit')}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Box>
    </Center>
  );
}

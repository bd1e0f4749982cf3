import { AUTH_BASE } from '@fleetgate/shared/constants';
import type { LoginBody } from '@fleetgate/shared/schemas/auth';
import type { AuthorizationUrl, OidcInfo } from '@fleetgate/shared/schemas/mfa';
import { safeContinueUrl } from '@fleetgate/shared/url';
import {
  Alert,
  Box,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '#src/components/brand/BrandMark';
import { useBrand } from '#src/lib/brand/context';
import { api } from '#src/lib/http/client';
import { ApiError, CancelledError } from '#src/lib/http/errors';
import { useAction } from '#src/lib/http/use-action';
import { goToVendor, withVendorRedirect } from '../mfa/vendor-redirect';
import type { SignOutReason } from './sign-out';

/** Where to go after signing in: the continue_url of this host, else the console (product §5). */
function nextPage(): string {
  const next = safeContinueUrl(
    new URLSearchParams(window.location.search).get('continue_url'),
    window.location.origin,
  );
  return next && !next.startsWith('/account/login') ? next : '/';
}

/**
 * The token of the link e-mailed to an account's owner when too many sign-ins failed; the
 * sign-in sends it along so that the owner gets past the lock.
 */
function unlockToken(): string | undefined {
  return new URLSearchParams(window.location.search).get('unlock') || undefined;
}

/** Why the console sent the user here by itself (features/account/sign-out.ts), if it did. */
function signedOutReasonOf(): SignOutReason | undefined {
  const reason = new URLSearchParams(window.location.search).get('reason');
  return reason === 'idle' || reason === 'ended' ? reason : undefined;
}

/** Whether the vendor identity service is offered, and its name (GET {auth}/oidc). */
function useVendorSignIn() {
  return useQuery({
    queryKey: ['auth', 'oidc'],
    queryFn: async () => (await api.get<OidcInfo>(`${AUTH_BASE}/oidc`, { noRefresh: true })).data,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

type FieldErrors = Partial<Record<'email' | 'password', string>>;

/** The sign-in page (`/account/login`): e-mail, password, 'Sign in'. */
export function LoginPage() {
  const { t } = useTranslation('account');
  const brand = useBrand();
  const { t: tm } = useTranslation('mfa');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  // Signed in, the browser leaves for the console: the button spins until it has.
  const [leaving, setLeaving] = useState(false);
  const vendor = useVendorSignIn();
  const [signedOutReason] = useState(signedOutReasonOf);
  const signIn = useAction({
    // product §4 second step: MFA_REQUIRED opens the code dialog; vendor ID leaves for its page.
    call: (body: LoginBody) =>
      withVendorRedirect(() => api.post(`${AUTH_BASE}/login`, body, { noRefresh: true }), nextPage()),
    failure: { verb: 'sign in', item: 'user' },
    onSuccess: () => {
      setLeaving(true);
      window.location.assign(nextPage());
    },
    onFailure: (_message, error) => {
      // Closing the code dialog is not a failure worth a message: the form is simply back.
      if (!(error instanceof CancelledError)) {
        setFormError(error instanceof ApiError ? error.message : t('login.failed'));
      }
    },
  });
  const startVendor = useAction({
    call: async () => {
      const { authorization_url } = (
        await api.post<AuthorizationUrl>(`${AUTH_BASE}/oidc/start`, {}, { noRefresh: true })
      ).data;
      await goToVendor(authorization_url, nextPage());
    },
    failure: { verb: 'start', item: 'vendor ID sign-in' },
    onFailure: (_message, error) =>
      setFormError(error instanceof ApiError ? error.message : t('login.failed')),
  });
  const submitting = signIn.pending || leaving;

  async function vendorSignIn() {
    setFormError(null);
    await startVendor.run();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);
    // The schema brings zod: it comes with the first 'Sign in', not with the page.
    const { loginBodySchema } = await import('@fleetgate/shared/schemas/auth');
    const parsed = loginBodySchema.safeParse({ email, password, unlock_token: unlockToken() });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof FieldErrors;
        errors[key] ??= issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    await signIn.run(parsed.data);
  }

  return (
    <Center mih="100vh" p="md" bg="var(--app-color-backdrop)">
      <Box w="100%" maw={400}>
        <Stack gap={4} mb="lg" align="center" ta="center">
          <BrandMark size={48} />
          <Title order={2}>{t('login.title', { app: brand.app_name })}</Title>
          <Text c="dimmed" size="sm">
            {brand.default ? t('login.subtitle') : brand.full_app_name}
          </Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <form onSubmit={submit} noValidate aria-label={t('login.title', { app: brand.app_name })}>
            <Stack>
              {formError && (
                <Alert color="red" role="alert" data-testid="login-error">
                  {formError}
                </Alert>
              )}
              {!formError && signedOutReason && (
                <Alert color="blue" role="status" data-testid="login-reason">
                  {t(`login.reason.${signedOutReason}`)}
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
              {vendor.data?.enabled && (
                <>
                  <Divider label={tm('login.or')} labelPosition="center" />
                  <Button
                    variant="default"
                    fullWidth
                    leftSection={<IconShieldCheck size={16} />}
                    onClick={() => void vendorSignIn()}
                  >
                    {tm('login.vendor', { name: vendor.data.name })}
                  </Button>
                </>
              )}
            </Stack>
          </form>
        </Paper>
      </Box>
    </Center>
  );
}

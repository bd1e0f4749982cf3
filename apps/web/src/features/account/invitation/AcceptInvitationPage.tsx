import { AUTH_BASE } from '@fleetgate/shared/constants';
import { newPasswordSchema } from '@fleetgate/shared/schemas/auth';
import { companyNameSchema } from '@fleetgate/shared/schemas/companies';
import { type InvitationPreview, usernameSchema } from '@fleetgate/shared/schemas/invitations';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { roleTitle } from '#src/i18n/role-titles';
import { api } from '#src/lib/http/client';
import { ApiError } from '#src/lib/http/errors';

type Field = 'username' | 'company_name' | 'password' | 'confirm';
type Errors = Partial<Record<Field, string>>;

/**
 * The accept page of an invitation (`/account/invitation/:token`): who invited whom to
 * what, then a password (product §5 password rules from the shared schema), a name, and for
 * a distributor the new company's name; on success the invitee is signed in.
 */
export function AcceptInvitationPage() {
  const { t } = useTranslation('invitations');
  const { token = '' } = useParams();
  const preview = useQuery({
    queryKey: ['invitation-preview', token],
    queryFn: async () =>
      (
        await api.get<InvitationPreview>(`/invitations/by-token/${encodeURIComponent(token)}`, {
          noRefresh: true,
        })
      ).data,
    retry: false,
  });
  const [username, setUsername] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (preview.isPending)
    return (
      <Frame>
        <Center py="xl">
          <Loader />
        </Center>
      </Frame>
    );
  if (preview.isError || !preview.data)
    return (
      <Frame>
        <Alert color="red" role="alert" title={t('accept.goneTitle')} data-testid="invitation-gone">
          {preview.error instanceof ApiError && preview.error.status === 404
            ? preview.error.message
            : t('accept.loadFailed')}
        </Alert>
        <Anchor href="/account/login" mt="md" display="block" ta="center">
          {t('accept.toSignIn')}
        </Anchor>
      </Frame>
    );

  const invitation = preview.data;
  const distributor = invitation.kind === 'distributor';

  function check(): Errors {
    const found: Errors = {};
    const name = username.trim();
    if (name) {
      const parsed = usernameSchema.safeParse(name);
      if (!parsed.success) found.username = parsed.error.issues[0]?.message;
    }
    if (distributor) {
      const parsed = companyNameSchema.safeParse(companyName);
      if (!parsed.success) found.company_name = parsed.error.issues[0]?.message;
    }
    const parsed = newPasswordSchema.safeParse(password);
    if (!parsed.success) found.password = parsed.error.issues[0]?.message;
    else if (password !== confirm) found.confirm = t('accept.mismatch');
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) return;
    setSubmitting(true);
    try {
      await api.post(
        `/invitations/by-token/${encodeURIComponent(token)}/accept`,
        {
          password,
          ...(username.trim() ? { username: username.trim() } : {}),
          ...(distributor ? { company_name: companyName.trim() } : {}),
        },
        { noRefresh: true },
      );
    } catch (error) {
      setSubmitting(false);
      if (error instanceof ApiError) {
        const byField: Errors = {};
        const rest: string[] = [];
        for (const entry of error.errors) {
          const source = entry.source as Field | undefined;
          if (source && ['username', 'company_name', 'password'].includes(source))
            byField[source] ??= entry.message;
          else rest.push(entry.message);
        }
        setErrors(byField);
        setFormError(rest.join(' ') || null);
      } else setFormError(t('accept.failed'));
      return;
    }
    // The account exists now: sign in through the ordinary sign-in, with every check it makes.
    try {
      await api.post(`${AUTH_BASE}/login`, { email: invitation.email, password }, { noRefresh: true });
      window.location.assign('/');
    } catch {
      // The sign-in page is a document of its own (sign-in.html).
      window.location.replace('/account/login');
    }
  }

  const clear = (field: Field) => setErrors((e) => ({ ...e, [field]: undefined }));

  return (
    <Frame>
      <Stack gap={4} mb="md" ta="center">
        <Title order={2}>{distributor ? t('accept.distributorTitle') : t('accept.title')}</Title>
      </Stack>
      <Paper withBorder shadow="sm" p="xl" radius="md">
        <form onSubmit={submit} noValidate aria-label={t('accept.title')}>
          <Stack>
            <Text size="sm" data-testid="invitation-offer">
              {t(distributor ? 'accept.distributorOffer' : 'accept.offer', {
                inviter: invitation.invited_by ?? t('accept.someone'),
                email: invitation.email,
                company: invitation.company_name,
                role: roleTitle(invitation.role_title),
              })}
            </Text>
            {formError && (
              <Alert color="red" role="alert" data-testid="accept-error">
                {formError}
              </Alert>
            )}
            <TextInput label={t('accept.email')} value={invitation.email} readOnly autoComplete="username" />
            {distributor && (
              <TextInput
                label={t('accept.companyName')}
                name="company_name"
                required
                value={companyName}
                error={errors.company_name}
                onChange={(e) => {
                  setCompanyName(e.currentTarget.value);
                  clear('company_name');
                }}
              />
            )}
            <TextInput
              label={t('accept.name')}
              name="username"
              description={t('accept.nameHint')}
              value={username}
              error={errors.username}
              onChange={(e) => {
                setUsername(e.currentTarget.value);
                clear('username');
              }}
            />
            <PasswordInput
              label={t('accept.password')}
              name="password"
              required
              autoComplete="new-password"
              value={password}
              error={errors.password}
              onChange={(e) => {
                setPassword(e.currentTarget.value);
                clear('password');
              }}
            />
            <PasswordInput
              label={t('accept.confirm')}
              name="confirm"
              required
              autoComplete="new-password"
              value={confirm}
              error={errors.confirm}
              onChange={(e) => {
                setConfirm(e.currentTarget.value);
                clear('confirm');
              }}
            />
            <Button type="submit" loading={submitting} fullWidth>
              {t('accept.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="var(--app-color-backdrop)">
      <Box w="100%" maw={440}>
        {children}
      </Box>
    </Center>
  );
}

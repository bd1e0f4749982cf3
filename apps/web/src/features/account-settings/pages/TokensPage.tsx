import {
  type ApiToken,
  type CreatedToken,
  createTokenBodySchema,
  TOKEN_LIFETIMES_DAYS,
} from '@fleetgate/shared/schemas/tokens';
import { TOKEN_SCOPE_NAMES, TOKEN_SCOPES, type TokenScope } from '@fleetgate/shared/scopes';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCopy, IconKey } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { mapSubmitError, zodFieldErrors } from '#src/lib/forms/errors';
import { failureMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import { formatTime } from '#src/lib/time';
import { accountActions, accountKeys, useTokens } from '../api/account';
import { useAccountSession } from '../components/account-session';
import { SettingsSection } from '../components/SettingsSection';

type FieldErrors = Record<string, string>;

function CreateToken({ onCreated }: { onCreated(token: CreatedToken): void }) {
  const { t } = useTranslation('account-settings');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>([]);
  const [lifetime, setLifetime] = useState<string>('90');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const createToken = useAction({
    call: accountActions.createToken,
    failure: { verb: 'create', item: 'access token' },
    invalidate: [accountKeys.tokens()],
    onSuccess: (response) => {
      onCreated(response.data);
      setName('');
      setScopes([]);
      setErrors({});
    },
    onFailure: (_message, error) => {
      const mapped = mapSubmitError(error, { fieldKeys: ['name', 'scopes', 'expires_in_days'] });
      if (!mapped) return;
      setErrors(mapped.fields);
      setFormError(mapped.form.join(' ') || null);
    },
  });

  async function create(event: FormEvent) {
    event.preventDefault();
    if (createToken.pending) return;
    setFormError(null);
    const body = { name, scopes, expires_in_days: lifetime === 'never' ? null : Number(lifetime) };
    const parsed = createTokenBodySchema.safeParse(body);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error.issues));
    await createToken.run(body);
  }

  return (
    <form onSubmit={create} noValidate aria-label={t('tokens.create')} data-testid="token-form">
      <Stack>
        {formError && <Alert color="red">{formError}</Alert>}
        <TextInput
          label={t('tokens.name')}
          placeholder={t('tokens.namePlaceholder')}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setErrors((e) => ({ ...e, name: '' }));
          }}
          error={errors.name || null}
          maxLength={100}
          required
        />
        <Checkbox.Group
          label={t('tokens.scopes')}
          value={scopes}
          onChange={(value) => {
            setScopes(value as TokenScope[]);
            setErrors((e) => ({ ...e, scopes: '' }));
          }}
          error={errors.scopes || null}
          required
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
            {TOKEN_SCOPE_NAMES.map((scope) => (
              <Checkbox
                key={scope}
                value={scope}
                label={<Code>{scope}</Code>}
                description={t(`scope.${scope.replace(':', '.')}`, {
                  defaultValue: TOKEN_SCOPES[scope].description,
                })}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Select
          label={t('tokens.expires')}
          value={lifetime}
          onChange={(value) => setLifetime(value ?? '90')}
          data={[
            ...TOKEN_LIFETIMES_DAYS.map((days) => ({
              value: String(days),
              label: t('tokens.days', { count: days }),
            })),
            { value: 'never', label: t('tokens.never') },
          ]}
          allowDeselect={false}
          w={220}
        />
        <Group>
          <Button type="submit" loading={createToken.pending} leftSection={<IconKey size={16} />}>
            {t('tokens.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The secret of a new token: shown here once, never again. */
function NewToken({ token, onDismiss }: { token: CreatedToken; onDismiss(): void }) {
  const { t } = useTranslation('account-settings');
  return (
    <Alert color="green" title={t('tokens.createdTitle', { name: token.name })} data-testid="new-token">
      <Stack gap="xs">
        <Text size="sm">{t('tokens.onlyOnce')}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code fz="sm" style={{ wordBreak: 'break-all' }} data-testid="new-token-value">
            {token.token}
          </Code>
          <CopyButton value={token.token}>
            {({ copied, copy }) => (
              <Button size="compact-sm" variant="default" leftSection={<IconCopy size={14} />} onClick={copy}>
                {copied ? t('tokens.copied') : t('tokens.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="xs" c="dimmed">
          {t('tokens.usage')}
        </Text>
        <Group>
          <Button size="xs" variant="light" onClick={onDismiss}>
            {t('tokens.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function TokenList({ tokens }: { tokens: ApiToken[] }) {
  const { t } = useTranslation('account-settings');
  const windows = useWindows();
  const revokeToken = useAction({
    call: (token: ApiToken) => accountActions.revokeToken(token.id),
    failure: { verb: 'revoke', item: 'access token' },
    invalidate: [accountKeys.tokens()],
    success: t('tokens.revoked'),
  });

  async function revoke(token: ApiToken) {
    const yes = await windows.confirm({
      title: t('tokens.revokeTitle'),
      message: t('tokens.revokeMessage', { name: token.name }),
      confirmLabel: t('tokens.revoke'),
      danger: true,
      id: `token-revoke:${token.id}`,
    });
    if (!yes) return;
    await revokeToken.run(token);
  }

  if (tokens.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('tokens.empty')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" data-testid="tokens-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('tokens.name')}</Table.Th>
            <Table.Th>{t('tokens.prefix')}</Table.Th>
            <Table.Th>{t('tokens.scopes')}</Table.Th>
            <Table.Th>{t('tokens.lastUsed')}</Table.Th>
            <Table.Th>{t('tokens.expiresAt')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.id} data-testid="token-row">
              <Table.Td>
                <Text size="sm">{token.name}</Text>
              </Table.Td>
              <Table.Td>
                <Code>{token.prefix}…</Code>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {token.scopes.map((scope) => (
                    <Badge key={scope} size="xs" variant="light">
                      {scope}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {token.last_used_at ? formatTime(token.last_used_at) : t('tokens.neverUsed')}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{token.expires_at ? formatTime(token.expires_at) : t('tokens.never')}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <Button size="compact-xs" variant="light" color="red" onClick={() => void revoke(token)}>
                  {t('tokens.revoke')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /account/settings/tokens: personal access tokens for scripts. */
export function TokensPage() {
  const { t } = useTranslation('account-settings');
  const { user } = useAccountSession();
  const tokens = useTokens();
  const [created, setCreated] = useState<CreatedToken | null>(null);

  return (
    <SettingsSection title={t('tokens.title')} description={t('tokens.description')} testId="tokens-section">
      {created && <NewToken token={created} onDismiss={() => setCreated(null)} />}
      {tokens.isError && <Alert color="red">{failureMessage(tokens.error, 'get', 'access tokens')}</Alert>}
      <TokenList tokens={tokens.data ?? []} />
      {user.mfa_type ? (
        <CreateToken onCreated={setCreated} />
      ) : (
        <Alert color="yellow" data-testid="tokens-need-mfa">
          {t('tokens.needMfa')} <Link to="/account/settings/security">{t('tokens.needMfaLink')}</Link>
        </Alert>
      )}
    </SettingsSection>
  );
}

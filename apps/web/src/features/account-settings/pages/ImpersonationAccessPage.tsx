import { IMPERSONATION_MAX_DAYS } from '@fleetgate/shared/schemas/impersonation';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '#src/components/forms/fields/DateTimeField';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { formatTime } from '#src/lib/time';
import { accountActions, accountKeys, useImpersonationAccess } from '../api/account';
import { useAccountSession } from '../components/account-session';
import { SettingsSection } from '../components/SettingsSection';

const QUICK_DAYS = [1, 7, IMPERSONATION_MAX_DAYS] as const;

/**
 * /account/settings/impersonation: the user lets support sign in as them until a time
 * (product §3 impersonation_access_limit, §4), and takes it back ('Revoke impersonation access?').
 */
export function ImpersonationAccessPage() {
  const { t } = useTranslation('impersonation');
  const { user, reload } = useAccountSession();
  const windows = useWindows();
  const access = useImpersonationAccess();
  const [until, setUntil] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const grantAccess = useAction({
    call: (limit: string) => accountActions.grantImpersonation(limit),
    failure: { verb: 'grant', item: 'impersonation access' },
    invalidate: [accountKeys.impersonation()],
    success: t('grant.done'),
    onSuccess: () => {
      setUntil(null);
      return reload();
    },
    onFailure: setError,
  });
  const revokeAccess = useAction({
    call: () => accountActions.revokeImpersonation(),
    failure: { verb: 'revoke', item: 'impersonation access' },
    // product §4: after the revoke the page reloads.
    onSuccess: () => window.location.reload(),
  });

  async function grant(event: FormEvent) {
    event.preventDefault();
    if (grantAccess.pending) return;
    if (!until) return setError(t('grant.required'));
    if (dayjs(until).isAfter(dayjs().add(IMPERSONATION_MAX_DAYS, 'day'))) {
      return setError(t('grant.tooFar', { days: IMPERSONATION_MAX_DAYS }));
    }
    await grantAccess.run(until);
  }

  async function revoke() {
    const yes = await windows.confirm({
      // product §4: 'Revoke impersonation access?'
      title: t('revoke.title'),
      message: t('revoke.message'),
      confirmLabel: t('revoke.confirm'),
      danger: true,
      id: 'impersonation-revoke',
    });
    if (!yes) return;
    await revokeAccess.run();
  }

  const current = access.data?.until ?? null;
  return (
    <SettingsSection
      title={t('access.title')}
      description={t('access.description')}
      testId="impersonation-access"
    >
      {user.isImpersonating && <Alert color="orange">{t('access.whileImpersonating')}</Alert>}
      {current ? (
        <Alert color="blue" icon={<IconUserShield size={18} />} data-testid="impersonation-granted">
          <Stack gap="xs">
            <Text size="sm">{t('access.until', { time: formatTime(current) })}</Text>
            <Group>
              <Button size="xs" color="red" variant="light" onClick={revoke}>
                {t('revoke.button')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : (
        <Text size="sm" c="dimmed" data-testid="impersonation-none">
          {t('access.none')}
        </Text>
      )}
      <form onSubmit={grant} noValidate aria-label={t('grant.title')}>
        <Stack maw={420}>
          <Text fw={600} size="sm">
            {current ? t('grant.change') : t('grant.title')}
          </Text>
          <Group gap="xs">
            {QUICK_DAYS.map((days) => (
              <Button
                key={days}
                size="compact-sm"
                variant="default"
                onClick={() => {
                  setUntil(dayjs().add(days, 'day').subtract(1, 'minute').startOf('minute').toISOString());
                  setError(null);
                }}
              >
                {t('grant.days', { count: days })}
              </Button>
            ))}
          </Group>
          <DateTimeField
            name="until"
            kind="datetime"
            label={t('grant.until')}
            description={t('grant.hint', { days: IMPERSONATION_MAX_DAYS })}
            value={until}
            onChange={(value) => {
              setUntil(value);
              setError(null);
            }}
            error={error}
            disabled={user.isImpersonating}
          />
          <Group>
            <Button type="submit" loading={grantAccess.pending} disabled={user.isImpersonating}>
              {t('grant.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

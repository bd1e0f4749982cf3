import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session/session-context';
import { useWindows } from '../../../lib/dialogs/use-windows';
import { ApiError } from '../../../lib/http/errors';
import { failureMessage, successToast } from '../../../lib/http/results';
import { impersonationActions } from '../api/impersonation';
import { startImpersonation } from '../start';

type Props = {
  userId: number;
  email: string;
  /** 'icon' for table rows, 'button' elsewhere. */
  variant?: 'icon' | 'button';
};

/**
 * 'Impersonate' for a user row (product §6; permission impersonate_users): confirms, then
 * starts acting as the user. A user who has not granted access is offered an e-mailed
 * request instead. Renders nothing without the permission or while impersonating.
 */
export function ImpersonateButton({ userId, email, variant = 'icon' }: Props) {
  const { t } = useTranslation('impersonation');
  const { user, can } = useSession();
  const windows = useWindows();
  const [busy, setBusy] = useState(false);
  if (!can('impersonate_users') || user.isImpersonating || user.id === userId) return null;

  async function askForAccess() {
    const yes = await windows.confirm({
      title: t('request.title'),
      message: t('request.message', { email }),
      confirmLabel: t('request.confirm'),
      id: `impersonation-request:${userId}`,
    });
    if (!yes) return;
    try {
      const response = await impersonationActions.request(userId);
      notifications.show({ color: 'green', message: successToast(response.message, t('request.sent')) });
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, 'send', 'request') });
    }
  }

  async function impersonate() {
    const yes = await windows.confirm({
      title: t('start.title'),
      message: t('start.message', { email }),
      confirmLabel: t('start.confirm'),
      id: `impersonate:${userId}`,
    });
    if (!yes) return;
    setBusy(true);
    try {
      await startImpersonation(userId);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status === 403 && /not granted/.test(error.message)) {
        await askForAccess();
        return;
      }
      notifications.show({ color: 'red', message: failureMessage(error, 'start', 'impersonation') });
    }
  }

  if (variant === 'button') {
    return (
      <Button
        size="xs"
        variant="light"
        leftSection={<IconUserCheck size={14} />}
        loading={busy}
        onClick={impersonate}
      >
        {t('start.button')}
      </Button>
    );
  }
  return (
    <Tooltip label={t('start.button')}>
      <ActionIcon
        variant="subtle"
        aria-label={t('start.aria', { email })}
        loading={busy}
        onClick={impersonate}
      >
        <IconUserCheck size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

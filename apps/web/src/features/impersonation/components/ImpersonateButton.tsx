import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { IconUserCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { ApiError } from '#src/lib/http/errors';
import { notifyFailure } from '#src/lib/http/toasts';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
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
  // The page is left for the user's console: the button spins until it is gone.
  const [leaving, setLeaving] = useState(false);
  const request = useAction({
    call: () => impersonationActions.request(userId),
    failure: { verb: 'send', item: 'request' },
    success: t('request.sent'),
  });
  const start = useAction({
    call: () => startImpersonation(userId),
    failure: { verb: 'start', item: 'impersonation' },
    onSuccess: () => setLeaving(true),
    onFailure: (message, error) => {
      // A user who has not granted access is offered the e-mailed request instead.
      if (error instanceof ApiError && error.status === 403 && /not granted/.test(error.message)) {
        void askForAccess();
      } else notifyFailure(message);
    },
  });
  const busy = start.pending || leaving;
  if (!can('impersonate_users') || user.isImpersonating || user.id === userId) return null;

  async function askForAccess() {
    const yes = await windows.confirm({
      title: t('request.title'),
      message: t('request.message', { email }),
      confirmLabel: t('request.confirm'),
      id: `impersonation-request:${userId}`,
    });
    if (!yes) return;
    await request.run();
  }

  async function impersonate() {
    const yes = await windows.confirm({
      title: t('start.title'),
      message: t('start.message', { email }),
      confirmLabel: t('start.confirm'),
      id: `impersonate:${userId}`,
    });
    if (!yes) return;
    await start.run();
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

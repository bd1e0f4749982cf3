import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '#src/lib/http/client';
import { notifyFailure } from '#src/lib/http/toasts';
import { useAction } from '#src/lib/http/use-action';

export const REVOKE_IMPERSONATION_PATH = '/user/revoke-impersonation-access';

type Props = { opened: boolean; onClose(): void; reload?: () => void };

/**
 * Impersonation revoke of product §4: confirm 'Revoke impersonation access?', POST, then
 * reload the page; a failure shows the response message as a toast (product §8).
 */
export function RevokeImpersonationDialog({
  opened,
  onClose,
  reload = () => window.location.reload(),
}: Props) {
  const { t } = useTranslation('account-widget');
  // The page reloads: the button spins until it is gone.
  const [leaving, setLeaving] = useState(false);
  const revoke = useAction({
    call: () => api.post(REVOKE_IMPERSONATION_PATH, {}),
    failure: { verb: 'revoke', item: 'impersonation access' },
    onSuccess: () => {
      setLeaving(true);
      reload();
    },
    onFailure: (message) => {
      notifyFailure(message);
      onClose();
    },
  });
  const busy = revoke.pending || leaving;
  return (
    <Modal opened={opened} onClose={onClose} title={t('impersonation.confirm')} size="sm">
      <Text size="sm">{t('impersonation.confirmBody')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {t('impersonation.cancel')}
        </Button>
        <Button color="red" onClick={() => void revoke.run()} loading={busy}>
          {t('impersonation.confirmButton')}
        </Button>
      </Group>
    </Modal>
  );
}

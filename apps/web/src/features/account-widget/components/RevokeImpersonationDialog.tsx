import { Button, Group, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/http/client';
import { failureMessage } from '../../../lib/http/results';

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
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    setBusy(true);
    try {
      await api.post(REVOKE_IMPERSONATION_PATH, {});
      reload();
    } catch (error) {
      notifications.show({
        color: 'red',
        message: failureMessage(error, 'revoke', 'impersonation access'),
      });
      setBusy(false);
      onClose();
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('impersonation.confirm')} size="sm">
      <Text size="sm">{t('impersonation.confirmBody')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {t('impersonation.cancel')}
        </Button>
        <Button color="red" onClick={revoke} loading={busy}>
          {t('impersonation.confirmButton')}
        </Button>
      </Group>
    </Modal>
  );
}

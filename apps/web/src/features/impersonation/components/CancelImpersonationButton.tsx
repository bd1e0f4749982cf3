import { ActionIcon, Button } from '@mantine/core';
import { IconUserCancel } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCancelImpersonation } from '../hooks/use-cancel-impersonation';

/**
 * 'Cancel impersonation' for the impersonation banner (product §4: refreshes the token and
 * reloads); `iconOnly` on a phone, where the banner's text needs the width.
 */
export function CancelImpersonationButton({ iconOnly = false }: { iconOnly?: boolean }) {
  const { t } = useTranslation('impersonation');
  const cancel = useCancelImpersonation();
  const shared = {
    color: 'orange',
    variant: 'white',
    loading: cancel.pending,
    onClick: () => void cancel.run(),
    'data-testid': 'banner-cancel-impersonation',
  } as const;
  return iconOnly ? (
    <ActionIcon {...shared} size="md" aria-label={t('cancel.button')} title={t('cancel.button')} flex="none">
      <IconUserCancel size={16} />
    </ActionIcon>
  ) : (
    <Button {...shared} size="compact-xs" leftSection={<IconUserCancel size={14} />} flex="none">
      {t('cancel.button')}
    </Button>
  );
}

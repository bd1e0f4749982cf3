import { Button } from '@mantine/core';
import { IconUserCancel } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCancelImpersonation } from '../hooks/use-cancel-impersonation';

/** 'Cancel impersonation' for the impersonation banner (product §4: refreshes the token and reloads). */
export function CancelImpersonationButton() {
  const { t } = useTranslation('impersonation');
  const cancel = useCancelImpersonation();
  return (
    <Button
      size="compact-xs"
      variant="white"
      color="orange"
      leftSection={<IconUserCancel size={14} />}
      loading={cancel.pending}
      onClick={() => void cancel.run()}
      data-testid="banner-cancel-impersonation"
    >
      {t('cancel.button')}
    </Button>
  );
}

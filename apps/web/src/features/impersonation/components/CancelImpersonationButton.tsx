import { Button } from '@mantine/core';
import { IconUserCancel } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelImpersonation } from '../start';

/** 'Cancel impersonation' for the impersonation banner (product §4: refreshes the token and reloads). */
export function CancelImpersonationButton() {
  const { t } = useTranslation('impersonation');
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="compact-xs"
      variant="white"
      color="orange"
      leftSection={<IconUserCancel size={14} />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        cancelImpersonation().catch(() => setBusy(false));
      }}
      data-testid="banner-cancel-impersonation"
    >
      {t('cancel.button')}
    </Button>
  );
}

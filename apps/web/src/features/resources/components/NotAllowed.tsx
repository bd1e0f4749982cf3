import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What a company tab shows in place of a part of its resources the caller's role may not view. */
export function NotAllowed() {
  const { t } = useTranslation('resources');
  return (
    <Alert color="gray" data-testid="resources-not-allowed">
      {t('company.notAllowed')}
    </Alert>
  );
}

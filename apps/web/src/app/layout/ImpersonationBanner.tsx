import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../session/session-context';

/** 'Currently impersonating user {email}, {company name or Company} #{company id}' (spec §6). */
export function ImpersonationBanner() {
  const { t } = useTranslation('shell');
  const { user } = useSession();
  if (!user.isImpersonating) return null;
  return (
    <Box bg="orange.6" c="white" px="md" py={4} role="status" data-testid="impersonation-banner">
      <Text size="sm" fw={600} ta="center">
        {t('impersonation.banner', {
          email: user.email,
          company: user.company_name || t('impersonation.company'),
          id: user.company_id,
        })}
      </Text>
    </Box>
  );
}
